"""The element-wise namespace: one function per op-table entry, plus aliases and composites.

Every function is lazy, takes Arrays, array-likes or Python scalars, broadcasts like NumPy and
accepts ``dtype=`` (the result type and the type the computation is done in).
"""

from __future__ import annotations

import inspect
import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array, apply_op
from .creation import asarray
from .operate import _short_path
from .ops import OPS

_INTEGER_EXAMPLES = {1: "wf.{name}(wf.asarray([5, 12]))", 2: "wf.{name}(wf.asarray([5, 12]), 2)"}
_EXAMPLES = {1: "wf.{name}(wf.asarray([0.5, 1.0]))", 2: "wf.{name}(wf.asarray([0.5, 1.0]), 2.0)",
             3: "wf.{name}(wf.asarray([True, False]), 1.0, 2.0)"}


def _into(out: Any, result: Array, name: str, casting: str = "unsafe") -> Array:
    """``result`` written into ``out`` (NumPy's ``out=``), which is returned; ``casting``:
    NumPy's rule for the result's dtype becoming ``out``'s."""
    if not isinstance(out, Array):
        raise TypeError(f"{name}: out must be a wf.Array, not {type(out).__name__}")
    if out.shape != result.shape:
        raise ValueError(f"{name}: out has shape {out.shape}, the result {result.shape}")
    _check_cast(name, result.dtype, out, casting, "the result")
    from .writes import write

    write(out, result)
    return out


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def _check_cast(name: str, source: Any, target: Any, casting: str, what: str) -> None:
    """``TypeError`` where NumPy's ``casting`` rule forbids ``source`` becoming ``target``'s
    dtype (NumPy's ufuncs refuse a lossy ``dtype=`` or ``out=`` unless told ``unsafe``)."""
    target = target.dtype if isinstance(target, Array) else target
    have, want = (np.dtype(getattr(d, "numpy", d)) for d in (source, target))
    if not np.can_cast(have, want, casting):
        raise TypeError(f"{name}: cannot cast {what} from {have} to {want} with casting="
                        f"{casting!r} (pass casting='unsafe' to allow it)")


def _check_casting(name: str, args: tuple, dtype: Any, casting: str) -> None:
    if casting not in _CASTINGS:
        raise ValueError(f"{name}: casting must be one of {', '.join(_CASTINGS)}, not "
                         f"{casting!r}")
    if dtype is None:
        return
    target = dt.to_dtype(dtype)
    for k, arg in enumerate(args):
        if isinstance(arg, Array):
            _check_cast(name, arg.dtype, target, casting, f"argument {k + 1}")


def _make(name: str) -> Callable[..., Array]:
    op = OPS[name]

    def function(*args: Any, dtype: Any = None, out: Array | None = None,
                 casting: str | None = None) -> Array:
        if dtype is None and out is None and casting is None and 0 < len(args) < 3:
            made = _short_path(name, args)  # apply_op's first step, a call sooner
            if made is not None:
                return made
        if casting is not None:
            _check_casting(name, args, dtype, casting)
        result = apply_op(name, *args, dtype=dtype)
        return result if out is None else _into(out, result, name, casting or "same_kind")

    function.__name__ = function.__qualname__ = name
    # NumPy's parameter names (x; x1, x2...), so help() and signature() show them.
    names = ("x",) if op.arity == 1 else tuple(f"x{k + 1}" for k in range(op.arity))
    function.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY, annotation=Any)
         for n in names]
        + [inspect.Parameter("dtype", inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=Any),
           inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation="Array | None"),
           inspect.Parameter("casting", inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation="str | None")],
        return_annotation=Array)
    examples = _EXAMPLES if "f" in op.accepts else _INTEGER_EXAMPLES
    example = examples[op.arity].format(name=name)
    function.__doc__ = (
        f"Element-wise ``{name}`` (NumPy semantics), lazy and fused.\n\n"
        f"``dtype=`` is the result type and the computation type; with ``out=`` (a weft "
        f"array of the result's shape) the result is written there and ``out`` returned; "
        f"``casting=`` is NumPy's rule for ``out=`` (``same_kind`` unless given) and, when "
        f"given, for ``dtype=`` (which otherwise converts the arguments, as weft's API "
        f"says).\n\n"
        f"    >>> import weft as wf\n    >>> y = {example}\n"
    )
    return function


# The random draws are ops too, but their public face is wf.random; internal ops have none.
_namespace: dict[str, Callable[..., Array]] = {
    name: _make(name) for name, op in OPS.items()
    if not name.startswith("random_") and not op.internal}
globals().update(_namespace)

ALIASES = {
    "absolute": "abs", "true_divide": "divide", "mod": "remainder", "pow": "power",
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2",
    "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "bitwise_not": "invert",
    "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
    # SciPy's names for the special functions
    "gammaln": "lgamma", "betaln": "lbeta", "expit": "inv_logit", "log_expit": "log_inv_logit",
    "ndtr": "Phi", "ndtri": "inv_Phi", "psi": "digamma", "gammainc": "gamma_p",
    "gammaincc": "gamma_q", "betainc": "ibeta", "gammaincinv": "gamma_p_inv",
    "gammainccinv": "gamma_q_inv", "betaincinv": "ibeta_inv", "betainccinv": "ibetac_inv",
    "jn": "jv",
}
for _alias, _target in ALIASES.items():
    globals()[_alias] = _namespace[_target]


def positive(x: Any, dtype: Any = None) -> Array:
    """``+x``: the same values (an O(1) copy), converted if ``dtype`` is given.

    >>> import weft as wf
    >>> wf.positive(wf.asarray([-1, 2])).tolist()
    [-1, 2]
    """
    x = x if isinstance(x, Array) else asarray(x)
    return x.astype(dtype) if dtype is not None else x.copy()


def cast(x: Any, dtype: Any) -> Array:
    """``x.astype(dtype)``.

    >>> import weft as wf
    >>> wf.cast(wf.asarray([1.9]), wf.int32).tolist()
    [1]
    """
    x = x if isinstance(x, Array) else asarray(x)
    return x.astype(dtype)


def clip(x: Any, a_min: Any = None, a_max: Any = None, dtype: Any = None) -> Array:
    """Limit values to ``[a_min, a_max]`` (either or both may be None: no limit on that
    side, as NumPy 2's and the array API's), NaN-propagating like NumPy.

    >>> import weft as wf
    >>> wf.clip(wf.asarray([-2, 0, 5]), 0, 3).tolist()
    [0, 0, 3]
    """
    if a_min is None and a_max is None:
        from .creation import asarray

        return asarray(x, dtype=dtype, copy=True)
    out = x
    if a_min is not None:
        out = apply_op("maximum", out, a_min, dtype=dtype)
    if a_max is not None:
        out = apply_op("minimum", out, a_max, dtype=dtype)
    return out


def round(x: Any, decimals: int = 0, out: Array | None = None, *,  # noqa: A001 - NumPy's
          dtype: Any = None) -> Array:
    """Round half to even, like NumPy's ``round(a, decimals=0, out=None)``; ``decimals`` may
    be negative. With ``out`` (a weft Array of the result's shape), the result is written
    there and ``out`` is returned.

    >>> import weft as wf
    >>> wf.round(wf.asarray([0.5, 1.5, 2.5])).tolist()
    [0.0, 2.0, 2.0]
    >>> wf.round(wf.asarray([1234.5678]), -2).tolist()
    [1200.0]
    """
    try:
        decimals = operator.index(decimals)
    except TypeError:
        raise TypeError(f"round: decimals must be an integer, not {decimals!r}") from None
    if out is not None:
        return _into(out, round(x, decimals, dtype=dtype), "round")
    if decimals == 0:
        return apply_op("round", x, dtype=dtype)
    x = x if isinstance(x, Array) else asarray(x)
    if not x.dtype.is_float and dtype is None:
        if decimals > 0:
            return x.copy()
        scale = 10 ** (-decimals)
        return apply_op("multiply", apply_op("round", apply_op("divide", x, scale)), scale,
                        dtype=x.dtype)
    scale = 10.0 ** decimals
    return apply_op("divide", apply_op("round", apply_op("multiply", x, scale, dtype=dtype)),
                    scale, dtype=dtype)


around = round


def where(condition: Any, x: Any = None, y: Any = None, dtype: Any = None) -> Any:
    """``x`` where ``condition`` is true, else ``y`` (element-wise, broadcast). A
    ``wf.BitMask`` condition covers the result's elements in row-major order; its bits are
    tested inside the kernel. With the condition alone: ``wf.nonzero(condition)``.

    >>> import weft as wf
    >>> wf.where(wf.asarray([True, False]), 1, 2).tolist()
    [1, 2]
    """
    from .bitmask import BitMask

    if x is None and y is None:
        from .compaction import nonzero

        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither (for the positions where "
                         "the condition holds)")

    if isinstance(condition, BitMask):
        shape = np.broadcast_shapes(np.shape(x), np.shape(y))
        condition = condition.selected(tuple(shape), "where")
    return apply_op("where", condition, x, y, dtype=dtype)


def _dimension(p: Any, name: str) -> int:
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 1:
        raise ValueError(f"{name}: the dimension p must be a positive integer, not {p!r}")
    return int(p)


def _sum_over_dimensions(name: str, x: Any, p: int, dtype: Any) -> Array:
    """Σ_{j=1..p} name(x + (1 - j)/2): one fused expression."""
    total = apply_op(name, x, dtype=dtype)
    for j in range(2, p + 1):
        total = total + apply_op(name, apply_op("add", x, (1 - j) / 2, dtype=dtype),
                                 dtype=dtype)
    return total


def lgamma(x: Any, p: int | None = None, dtype: Any = None) -> Array:
    """log|Γ(x)|; with ``p``, the multivariate log-gamma
    log Γ_p(x) = p(p-1)/4 log π + Σ_{j=1..p} log Γ(x + (1 - j)/2) (SciPy's ``multigammaln``).

    >>> import weft as wf
    >>> wf.lgamma(wf.asarray([5.0])).to_numpy().round(6).tolist()
    [3.178054]
    >>> y = wf.lgamma(wf.asarray([3.0]), 2)
    """
    if p is None:
        return apply_op("lgamma", x, dtype=dtype)
    p = _dimension(p, "lgamma")
    return _sum_over_dimensions("lgamma", x, p, dtype) + p * (p - 1) / 4 * math.log(math.pi)


def digamma(x: Any, p: int | None = None, dtype: Any = None) -> Array:
    """ψ(x) = d/dx log Γ(x); with ``p``, the multivariate digamma Σ_{j=1..p} ψ(x + (1 - j)/2)
    (the derivative of ``lgamma(x, p)``).

    >>> import weft as wf
    >>> wf.digamma(wf.asarray([1.0])).to_numpy().round(6).tolist()
    [-0.577216]
    """
    if p is None:
        return apply_op("digamma", x, dtype=dtype)
    return _sum_over_dimensions("digamma", x, _dimension(p, "digamma"), dtype)


def zeta(x: Any, q: Any = None, dtype: Any = None) -> Array:
    """Hurwitz's ζ(x, q) = Σ_{k≥0} (q + k)^-x, or Riemann's ζ(x) when ``q`` is None
    (SciPy's ``zeta``: x > 1 with q; Riemann's for every real x, through its reflection
    below -1/2). Its gradient is taken in q only.

    >>> import weft as wf
    >>> wf.zeta(wf.asarray([2.0, -2.0])).to_numpy().round(12).tolist()
    [1.644934066848, 0.0]
    >>> wf.zeta(wf.asarray([3.0]), 0.5).to_numpy().round(12).tolist()  # 7 ζ(3)
    [8.414398322117]
    """
    if q is None:
        return apply_op("riemann_zeta", x, dtype=dtype)
    return apply_op("zeta", x, q, dtype=dtype)


gammaln = lgamma
psi = digamma


def result_type(*args: Any) -> dt.DType:
    """The dtype weft's promotion gives (int with float32 is float32; Python scalars are
    weak). Takes Arrays, NumPy arrays and scalars, Python scalars, and dtypes as weft
    dtypes, NumPy dtypes, NumPy type classes (``np.int32``) or names.

    >>> import numpy as np, weft as wf
    >>> wf.result_type(wf.int32, wf.float32)
    wf.float32
    >>> wf.result_type(np.int32, np.dtype("int64"), 2.0)
    wf.float64
    """
    strong, weak = [], []
    for a in args:
        if isinstance(a, Array):
            strong.append(a.dtype)
        elif isinstance(a, np.generic):
            strong.append(dt.of_numpy_scalar(a))
        elif isinstance(a, (bool, int, float)):
            weak.append(dt.scalar_kind(a))
        elif isinstance(a, np.ndarray):
            strong.append(dt.from_numpy_dtype(a.dtype))
        else:
            strong.append(dt.to_dtype(a))
    return dt.resolve(strong, weak)


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Array:
    """NumPy's ``isclose``: ``|a - b| <= atol + rtol * |b|`` element-wise, lazily; equal
    infinities are close, NaN is close to NaN only with ``equal_nan``.

    >>> import weft as wf
    >>> wf.isclose(wf.asarray([1.0, 2.0]), wf.asarray([1.0 + 1e-9, 2.1])).tolist()
    [True, False]
    """
    def op(name: str, *xs: Any) -> Array:
        return apply_op(name, *xs)

    # In reals, as NumPy's: |a - b| of integers would overflow at the ends of their range.
    # (Python scalars stay weak scalars: converting them would also pick a device.)
    plain = (Array, bool, int, float, np.generic, np.ndarray)
    real = dt.real_of(result_type(*(x if isinstance(x, plain) else np.asarray(x)
                                    for x in (a, b))))
    a, b = (x.astype(real) if isinstance(x, Array) and x.dtype != real else x for x in (a, b))

    finite = op("logical_and", op("isfinite", a), op("isfinite", b))
    near = op("less_equal", op("abs", op("subtract", a, b)),
              op("add", atol, op("multiply", rtol, op("abs", b))))
    close = op("where", finite, near, op("equal", a, b))
    if equal_nan:
        close = op("logical_or", close, op("logical_and", op("isnan", a), op("isnan", b)))
    return close


def allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> Array:
    """Whether every element of ``a`` is close to ``b`` (``isclose``): a lazy 0-d bool
    array (``bool()`` of it is NumPy's answer).

    >>> import weft as wf
    >>> bool(wf.allclose(wf.asarray([1.0, 2.0]), 2.0))
    False
    """
    from .reductions import FUNCTIONS

    return FUNCTIONS["all"](isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


__all__ = [*_namespace, *ALIASES, "positive", "cast", "clip", "round", "around", "where",
           "result_type", "isclose", "allclose"]
