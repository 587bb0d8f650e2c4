"""NumPy's element-wise functions that are compositions of the op table's ops, and NumPy's
complex-number functions on weft's real arrays.

Each is lazy and fuses with its neighbours like any op (``sinc`` is a ``where`` over a
``sin``), and its gradient is the composition's. Names, dtypes and special values follow
NumPy: ``fabs`` and ``deg2rad`` of integers are reals, ``float_power`` computes in float64,
``heaviside(0, h)`` is ``h``, ``nan_to_num`` swaps infinities for the dtype's extremes. weft
holds no complex numbers, so ``real`` is the array, ``imag`` zeros, ``angle`` 0 or π.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array, apply_op
from .creation import asarray, zeros_like


def _real(x: Array) -> dt.DType:
    return dt.real_of(x.dtype)


def float_power(x1: Any, x2: Any, dtype: Any = None) -> Array:
    """``x1 ** x2`` computed in float64 whatever the arguments' dtypes (NumPy's
    ``float_power``: negative integer powers of integers are exact reals).

    >>> import weft as wf
    >>> wf.float_power(wf.asarray([2, 4]), -1).tolist()
    [0.5, 0.25]
    """
    if dtype is not None and dt.to_dtype(dtype) != dt.float64:
        raise TypeError(f"float_power: computes in float64, not {dt.to_dtype(dtype)} (weft "
                        "has no wider real)")
    return apply_op("power", x1, x2, dtype=dt.float64)


def fabs(x: Any) -> Array:
    """``|x|`` as a real (integers give the default real, as NumPy's ``fabs``).

    >>> import weft as wf
    >>> wf.fabs(wf.asarray([-2, 3])).tolist()
    [2.0, 3.0]
    """
    x = asarray(x)
    return apply_op("abs", x, dtype=_real(x))


def deg2rad(x: Any) -> Array:
    """Degrees to radians (``radians``).

    >>> import weft as wf
    >>> wf.deg2rad(wf.asarray([180.0])).tolist() == [3.141592653589793]
    True
    """
    x = asarray(x)
    return apply_op("multiply", x, math.pi / 180, dtype=_real(x))


def rad2deg(x: Any) -> Array:
    """Radians to degrees (``degrees``).

    >>> import weft as wf
    >>> wf.rad2deg(wf.asarray([3.141592653589793])).tolist()
    [180.0]
    """
    x = asarray(x)
    return apply_op("multiply", x, 180 / math.pi, dtype=_real(x))


radians, degrees = deg2rad, rad2deg


def sinc(x: Any) -> Array:
    """The normalized sinc, sin(πx)/(πx), 1 at 0 (NumPy's ``sinc``).

    >>> import weft as wf
    >>> wf.sinc(wf.asarray([0.0, 1.0, 0.5])).to_numpy().round(6).tolist()
    [1.0, 0.0, 0.63662]
    """
    x = asarray(x)
    real = _real(x)
    scaled = apply_op("multiply", x, math.pi, dtype=real)
    quotient = apply_op("divide", apply_op("sin", scaled), scaled)
    return apply_op("where", apply_op("equal", x, 0), 1, quotient, dtype=real)


def heaviside(x1: Any, x2: Any) -> Array:
    """The Heaviside step: 0 where ``x1 < 0``, ``x2`` where it is 0, 1 where positive,
    NaN where ``x1`` is NaN.

    >>> import weft as wf
    >>> wf.heaviside(wf.asarray([-1.0, 0.0, 2.0]), 0.5).tolist()
    [0.0, 0.5, 1.0]
    """
    x1 = asarray(x1)
    real = dt.real_of(apply_op("add", x1, x2).dtype)
    step = apply_op("where", apply_op("greater", x1, 0), 1, apply_op("where", apply_op(
        "equal", x1, 0), x2, 0, dtype=real), dtype=real)
    return apply_op("where", apply_op("isnan", x1), x1, step, dtype=real)


def reciprocal(x: Any) -> Array:
    """``1 / x`` in ``x``'s dtype: for integers NumPy's integer quotient (1 for 1, -1 for
    -1, 0 for any other nonzero value).

    >>> import weft as wf
    >>> wf.reciprocal(wf.asarray([2.0, 4.0])).tolist(), wf.reciprocal(wf.asarray([1, 2])).tolist()
    ([0.5, 0.25], [1, 0])
    """
    x = asarray(x)
    if x.dtype.is_float:
        return apply_op("divide", 1, x)
    unit = apply_op("logical_or", apply_op("equal", x, 1), apply_op("equal", x, -1))
    return apply_op("where", unit, x, 0, dtype=x.dtype)


def isposinf(x: Any) -> Array:
    """Where ``x`` is +∞.

    >>> import weft as wf
    >>> wf.isposinf(wf.asarray([float("inf"), -float("inf"), 1.0])).tolist()
    [True, False, False]
    """
    return apply_op("logical_and", apply_op("isinf", x), apply_op("greater", x, 0))


def isneginf(x: Any) -> Array:
    """Where ``x`` is -∞.

    >>> import weft as wf
    >>> wf.isneginf(wf.asarray([float("inf"), -float("inf"), 1.0])).tolist()
    [False, True, False]
    """
    return apply_op("logical_and", apply_op("isinf", x), apply_op("less", x, 0))


def nan_to_num(x: Any, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Array:
    """NaN to ``nan``, +∞ to ``posinf`` and -∞ to ``neginf`` (by default the dtype's largest
    and smallest finite values), as NumPy's; integers are unchanged. ``copy=False`` (NumPy's
    in-place form) is refused: weft's results are new arrays.

    >>> import weft as wf
    >>> wf.nan_to_num(wf.asarray([float("nan"), float("inf"), 1.0])).tolist()
    [0.0, 1.7976931348623157e+308, 1.0]
    """
    if not copy:
        raise ValueError("nan_to_num: copy=False writes into x in NumPy; weft returns a new "
                         "array (assign it back with x[...] = wf.nan_to_num(x))")
    x = asarray(x)
    for name, value in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        shape = np.shape(value) if not isinstance(value, Array) else value.shape
        if np.broadcast_shapes(x.shape, shape) != x.shape:
            raise ValueError(f"nan_to_num: {name} of shape {shape} does not broadcast to "
                             f"x's shape {x.shape}")
    if not x.dtype.is_float:
        return x.copy()
    info = np.finfo(x.dtype.numpy)
    high = float(info.max) if posinf is None else posinf
    low = float(info.min) if neginf is None else neginf
    out = apply_op("where", isposinf(x), high, x, dtype=x.dtype)
    out = apply_op("where", isneginf(x), low, out, dtype=x.dtype)
    return apply_op("where", apply_op("isnan", x), nan, out, dtype=x.dtype)


def exprel(x: Any) -> Array:
    """``(exp(x) - 1) / x``, 1 at 0 (SciPy's ``exprel``), accurate near 0 through ``expm1``.

    >>> import weft as wf
    >>> wf.exprel(wf.asarray([0.0, 1.0])).to_numpy().round(6).tolist()
    [1.0, 1.718282]
    """
    x = asarray(x)
    real = _real(x)
    quotient = apply_op("divide", apply_op("expm1", x, dtype=real), x)
    quotient = apply_op("where", isposinf(x), x, quotient)  # inf / inf is NaN
    return apply_op("where", apply_op("equal", x, 0), 1, quotient, dtype=real)


def xlog1py(x: Any, y: Any) -> Array:
    """``x * log1p(y)``, 0 where ``x`` is 0 (unless ``y`` is NaN), as SciPy's ``xlog1py``.

    >>> import weft as wf
    >>> wf.xlog1py(wf.asarray([0.0, 2.0]), -1.0).tolist()
    [0.0, -inf]
    """
    x = asarray(x)
    real = dt.real_of(apply_op("add", x, y).dtype)
    product = apply_op("multiply", x, apply_op("log1p", y, dtype=real), dtype=real)
    zero = apply_op("logical_and", apply_op("equal", x, 0),
                    apply_op("logical_not", apply_op("isnan", y)))
    return apply_op("where", zero, 0, product, dtype=real)


def cosm1(x: Any) -> Array:
    """``cos(x) - 1`` without cancellation near 0: ``-2 sin²(x/2)`` (SciPy's ``cosm1``).

    >>> import weft as wf
    >>> round(wf.cosm1(wf.asarray([1e-8])).item() * 1e17, 9)
    -5.0
    """
    x = asarray(x)
    half = apply_op("sin", apply_op("multiply", x, 0.5, dtype=_real(x)))
    return 0.0 - 2.0 * half * half  # +0 at 0, as SciPy's (-2 · 0 would be -0)


def rgamma(x: Any) -> Array:
    """``1 / Γ(x)``, 0 at the poles (0 and the negative integers), as SciPy's ``rgamma``.

    >>> import weft as wf
    >>> wf.rgamma(wf.asarray([4.0, 0.0, -2.0])).to_numpy().round(6).tolist()
    [0.166667, 0.0, 0.0]
    """
    x = asarray(x)
    real = _real(x)
    pole = apply_op("logical_and", apply_op("less_equal", x, 0),
                    apply_op("equal", apply_op("floor", x, dtype=real), x))
    return apply_op("where", pole, 0, apply_op("divide", 1, apply_op("tgamma", x, dtype=real)),
                    dtype=real)


def erfcinv(y: Any) -> Array:
    """The inverse of ``erfc`` on [0, 2] (SciPy's ``erfcinv``): ``-inv_Phi(y / 2) / sqrt(2)``
    below 1, so that tiny ``y`` keeps its digits (``erfinv(1 - y)`` would lose them), and
    ``-erfcinv(2 - y)`` above (2 - y is exact there); +inf at 0, -inf at 2, NaN outside.

    >>> import weft as wf
    >>> wf.erfcinv(wf.asarray([1e-300, 1.0, 1.5, 2.0])).to_numpy().round(6).tolist()
    [26.20947, -0.0, -0.476936, -inf]
    """
    y = asarray(y)
    real = _real(y)
    low = apply_op("less", y, 1)
    tail = apply_op("where", low, y, apply_op("subtract", 2, y, dtype=real), dtype=real)
    size = apply_op("multiply", apply_op("inv_Phi", apply_op("multiply", tail, 0.5)),
                    -0.70710678118654752440, dtype=real)
    value = apply_op("where", low, size, apply_op("negative", size), dtype=real)
    # SciPy's signs: -0.0 at 1, and a positive NaN outside [0, 2] and for NaN.
    value = apply_op("where", apply_op("equal", y, 1), -0.0, value, dtype=real)
    inside = apply_op("logical_and", apply_op("greater_equal", y, 0), apply_op("less_equal", y, 2))
    return apply_op("where", inside, value, math.nan, dtype=real)


def loggamma(x: Any) -> Array:
    """SciPy's ``loggamma`` of reals: ``log Γ(x)`` for ``x >= 0`` (+∞ at 0), NaN for negative
    ``x`` (where Γ may be negative; ``lgamma`` is ``log|Γ(x)|`` everywhere).

    >>> import weft as wf
    >>> wf.loggamma(wf.asarray([1.0, -0.5])).tolist()
    [0.0, nan]
    """
    x = asarray(x)
    real = _real(x)
    return apply_op("where", apply_op("less", x, 0), np.nan, apply_op("lgamma", x, dtype=real),
                    dtype=real)


def real(val: Any) -> Array:
    """The real part: weft's arrays are real, so the array itself.

    >>> import weft as wf
    >>> wf.real(wf.asarray([1.5])).tolist()
    [1.5]
    """
    return asarray(val)


def imag(val: Any) -> Array:
    """The imaginary part: zeros of ``val``'s shape and dtype (weft's arrays are real).

    >>> import weft as wf
    >>> wf.imag(wf.asarray([1.5])).tolist()
    [0.0]
    """
    return zeros_like(asarray(val))


def conj(x: Any) -> Array:
    """The complex conjugate: of a real array, its values (``conjugate``).

    >>> import weft as wf
    >>> wf.conj(wf.asarray([-2])).tolist()
    [-2]
    """
    return asarray(x).copy()


conjugate = conj


def angle(z: Any, deg: bool = False) -> Array:
    """The argument of ``z`` as a complex number: π where ``z`` is negative (or -0.0), 0
    elsewhere, NaN for NaN (NumPy's ``angle`` of reals); in degrees with ``deg``.

    >>> import weft as wf
    >>> wf.angle(wf.asarray([-2.0, 3.0]), deg=True).tolist()
    [180.0, 0.0]
    """
    z = asarray(z)
    radians_ = apply_op("atan2", 0, z, dtype=_real(z))
    return apply_op("multiply", radians_, 180 / math.pi) if deg else radians_


def isreal(x: Any) -> Array:
    """Where ``x`` has no imaginary part: everywhere, for weft's real arrays.

    >>> import weft as wf
    >>> wf.isreal(wf.asarray([1.0, 2.0])).tolist()
    [True, True]
    """
    return apply_op("equal", imag(x), 0)


def iscomplex(x: Any) -> Array:
    """Where ``x`` has a nonzero imaginary part: nowhere, for weft's real arrays.

    >>> import weft as wf
    >>> wf.iscomplex(wf.asarray([1.0])).tolist()
    [False]
    """
    return apply_op("not_equal", imag(x), 0)


def isrealobj(x: Any) -> bool:
    """Whether ``x``'s dtype is not complex: always, for weft arrays (as NumPy's, for any
    object that is not complex).

    >>> import weft as wf
    >>> wf.isrealobj(wf.asarray([1.0]))
    True
    """
    return not iscomplexobj(x)


def iscomplexobj(x: Any) -> bool:
    """Whether ``x``'s dtype is complex: never for weft arrays; NumPy's answer otherwise.

    >>> import weft as wf
    >>> wf.iscomplexobj(wf.asarray([1.0])), wf.iscomplexobj(1j)
    (False, True)
    """
    return False if isinstance(x, Array) else bool(np.iscomplexobj(x))


def real_if_close(a: Any, tol: float = 100) -> Array:
    """``a`` without its imaginary part if that is small: weft's arrays are real, so ``a``.

    >>> import weft as wf
    >>> wf.real_if_close(wf.asarray([2.0])).tolist()
    [2.0]
    """
    return asarray(a)


def can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    """NumPy's ``can_cast``: whether ``from_`` (a dtype, or an array's dtype) converts to
    ``to`` under ``casting``.

    >>> import weft as wf
    >>> wf.can_cast(wf.asarray([1], dtype=wf.int32), wf.float64), wf.can_cast(wf.float64,
    ...                                                                        wf.int32)
    (True, False)
    """
    if isinstance(from_, Array):
        from_ = from_.dtype
    return bool(np.can_cast(np.dtype(getattr(from_, "numpy", from_)),
                            np.dtype(getattr(to, "numpy", to)), casting))


def isscalar(element: Any) -> bool:
    """NumPy's ``isscalar``: whether ``element`` is a scalar (a weft array, even 0-d, is not).

    >>> import weft as wf
    >>> wf.isscalar(3.0), wf.isscalar(wf.asarray(3.0))
    (True, False)
    """
    return bool(np.isscalar(element))


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    """Whether ``a1`` and ``a2`` have one shape and equal elements (NaNs equal with
    ``equal_nan``): a Python bool, as NumPy's (one read-back).

    >>> import weft as wf
    >>> wf.array_equal(wf.asarray([1, 2]), [1, 2]), wf.array_equal(wf.asarray([1]), [1, 2])
    (True, False)
    """
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return False
    same = apply_op("equal", a1, a2)
    if equal_nan:
        same = apply_op("logical_or", same, apply_op("logical_and", apply_op("isnan", a1),
                                                     apply_op("isnan", a2)))
    return bool(same.all())


def array_equiv(a1: Any, a2: Any) -> bool:
    """Whether ``a1`` and ``a2`` broadcast to one shape with equal elements (NumPy's
    ``array_equiv``): a Python bool.

    >>> import weft as wf
    >>> wf.array_equiv(wf.asarray([[1, 2], [1, 2]]), [1, 2])
    True
    """
    a1, a2 = asarray(a1), asarray(a2)
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(apply_op("equal", a1, a2).all())


def sici(x: Any) -> tuple[Array, Array]:
    """The sine and cosine integrals (Si(x), Ci(x)) as SciPy's ``special.sici``: ``wf.si``
    and ``wf.ci``, which fuse into one kernel when evaluated together. Ci of a negative x is
    SciPy's real part, Ci(|x|).

    >>> import weft as wf
    >>> si, ci = wf.sici(wf.asarray([1.0, 10.0]))
    >>> si.to_numpy().round(12).tolist(), ci.to_numpy().round(12).tolist()
    ([0.946083070367, 1.658347594219], [0.337403922901, -0.045456433004])
    """
    return apply_op("si", x), apply_op("ci", x)


# The power series below |x| = 1, as coefficients of x²: Shi's Σ x^(2k+1) / ((2k+1) (2k+1)!)
# and Chi's Σ x^(2k) / (2k (2k)!) beside γ + log|x|; ten terms each, the eleventh (1e-21 at
# |x| = 1) far below a double's rounding there.
_SHI_SERIES = tuple(1.0 / ((2 * k + 1) * math.factorial(2 * k + 1)) for k in range(10))
_CHI_SERIES = tuple(1.0 / (2 * k * math.factorial(2 * k)) for k in range(1, 11))


def _horner(square: Array, coefficients: tuple[float, ...]) -> Array:
    value = square * coefficients[-1] + coefficients[-2]
    for c in reversed(coefficients[:-2]):
        value = value * square + c
    return value


def shichi(x: Any) -> tuple[Array, Array]:
    """The hyperbolic sine and cosine integrals (Shi(x), Chi(x)) as SciPy's
    ``special.shichi``: their power series below |x| = 1 (where Ei and E1 cancel), and
    Shi = (Ei + E1) / 2, Chi = (Ei - E1) / 2 at |x| above (``expi``, ``exp1``, each evaluated
    once); Shi is odd, and Chi of a negative x is SciPy's real part, Chi(|x|). Their
    gradients are the compositions': sinh(x) / x and cosh(x) / x.

    >>> import weft as wf
    >>> shi, chi = wf.shichi(wf.asarray([0.5, 2.0]))
    >>> shi.to_numpy().round(12).tolist(), chi.to_numpy().round(12).tolist()
    ([0.50699674982, 2.501567433355], [-0.052776844956, 2.452666922647])
    """
    x = asarray(x)
    result = x.dtype if x.dtype.is_float else dt.float64
    x = x.astype(dt.float64)  # float64 throughout, then rounded once (as SciPy's float32)
    size = apply_op("abs", x)
    near = apply_op("less", size, 1.0)
    # Each branch at arguments it is finite at, so the other's gradient stays 0, not NaN.
    # Shi's series is in x itself, odd, so its gradient at 0 is 1 (through |x| it would be 0).
    small = apply_op("where", near, x, 0.0)
    inside = apply_op("where", near, size, 1.0)
    large = apply_op("where", near, 1.0, size)
    ei, e1 = apply_op("expi", large), apply_op("exp1", large)
    shi = apply_op("where", near, _horner(small * small, _SHI_SERIES) * small,
                   apply_op("copysign", (ei + e1) * 0.5, x))
    square = inside * inside
    chi_near = (apply_op("log", inside) + 0.5772156649015328606
                + _horner(square, _CHI_SERIES) * square)
    chi = apply_op("where", near, chi_near, (ei - e1) * 0.5)  # (NaN takes the far branch)
    return shi.astype(result), chi.astype(result)


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Array:
    """Element-wise, the choice of the first condition that holds (``default`` where none
    does), as NumPy's ``select``: one fused expression of nested ``where``.

    >>> import weft as wf
    >>> x = wf.asarray([-2.0, 0.5, 3.0])
    >>> wf.select([x < 0, x > 1], [-x, x * 10], default=x).tolist()
    [2.0, 0.5, 30.0]
    """
    conditions, choices = list(condlist), list(choicelist)
    if len(conditions) != len(choices):
        raise ValueError(f"select: {len(conditions)} conditions for {len(choices)} choices: "
                         "list and choicelist must be the same length")
    if not conditions:
        raise ValueError("select: condlist must not be empty")
    result = default
    for condition, choice in zip(reversed(conditions), reversed(choices)):
        condition = condition if isinstance(condition, Array) else asarray(condition)
        if condition.dtype != dt.bool_:
            raise TypeError(f"select: a condition must be bool, not {condition.dtype}")
        result = apply_op("where", condition, choice, result)
    return result if isinstance(result, Array) else asarray(result)


def piecewise(x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Array:
    """Element-wise, the function (or value) of the last condition that holds, as NumPy's
    ``piecewise``: ``funclist`` one longer than ``condlist`` ends with the value where none
    holds (else 0); results take ``x``'s dtype. One fused expression of nested ``where``:
    each function is evaluated over all of ``x`` (NumPy's over the elements its condition
    picks), so a function undefined elsewhere gives values there that are never chosen.

    >>> import weft as wf
    >>> x = wf.asarray([-2.0, 0.5, 3.0])
    >>> wf.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * v]).tolist()
    [2.0, 0.25, 9.0]
    """
    x = x if isinstance(x, Array) else asarray(x)
    if isinstance(condlist, (Array, np.ndarray, bool, np.bool_)):
        condlist = [condlist]
    conditions = [c if isinstance(c, Array) else asarray(c, device=x.device) for c in condlist]
    functions = list(funclist)
    if len(functions) not in (len(conditions), len(conditions) + 1):
        raise ValueError(f"piecewise: with {len(conditions)} condition(s), either "
                         f"{len(conditions)} or {len(conditions) + 1} functions are expected, "
                         f"not {len(functions)}")
    for condition in conditions:
        if condition.dtype != dt.bool_:
            raise TypeError(f"piecewise: a condition must be bool, not {condition.dtype}")

    def value(f: Any) -> Any:
        made = f(x, *args, **kw) if callable(f) else f
        return (made if isinstance(made, Array) else asarray(made, device=x.device)
                ).astype(x.dtype)

    result: Any = zeros_like(x)
    if len(functions) == len(conditions) + 1:
        otherwise = value(functions.pop())
        any_holds = conditions[0]
        for condition in conditions[1:]:
            any_holds = any_holds | condition
        result = apply_op("where", any_holds, result, otherwise)
    for condition, f in zip(conditions, functions):
        result = apply_op("where", condition, value(f), result)
    return result


__all__ = ["sici", "shichi", "float_power", "fabs", "deg2rad", "rad2deg", "radians",
           "degrees", "sinc", "heaviside",
           "reciprocal", "exprel", "rgamma", "erfcinv", "loggamma", "xlog1py",
           "cosm1", "isposinf", "isneginf", "nan_to_num", "real", "imag", "conj",
           "conjugate",
           "angle", "isreal", "iscomplex", "isrealobj", "iscomplexobj", "real_if_close",
           "can_cast", "isscalar", "array_equal", "array_equiv", "select",
           "piecewise"]
