"""SciPy's spherical Bessel functions, element-wise and lazy: ``spherical_jn``,
``spherical_yn``, ``spherical_in`` and ``spherical_kn`` of integer order n, with SciPy's
``derivative=``. j_n and y_n are the internal ops ``sph_jn`` and ``sph_yn``: SciPy's
recurrences upward from sin x / x and cos x / x (``skeletons/spherical_bessel.py``), and
downward (Miller's algorithm) where j_n is the minimal solution (x <= n). i_n and k_n are
sqrt(pi / 2z) times I_(n + 1/2) and K_(n + 1/2) (``iv``, ``kv``). Each fuses, has a gradient
in z, and keeps SciPy's values at the edges (NaN for n < 0, parities for z < 0, the limits at
0 and infinity). A real n is truncated toward zero, as SciPy's integer conversion does; results are
float64 (SciPy's loops are double only) on devices with doubles.

>>> import weft as wf
>>> wf.spherical_jn(1, wf.asarray([0.0, 1.0])).to_numpy().round(6).tolist()
[0.0, 0.301169]
"""

from __future__ import annotations

import math
from typing import Any

from . import dtypes as dt
from .array import Array, apply_op
from .creation import asarray
from .devices import current_device

__all__ = ["spherical_jn", "spherical_yn", "spherical_in", "spherical_kn"]


def _operand(a: Any) -> Any:
    """A Python number stays one (weakly typed, as in NumPy's promotion); else an array."""
    return a if isinstance(a, (int, float)) and not isinstance(a, bool) else asarray(a)


def _where(condition: Any, a: Any, b: Any) -> Array:
    return apply_op("where", condition, a, b)


def _cylinder(kind: str, n: Any, z: Any) -> Array:
    """sqrt(pi / 2z) C_(n + 1/2)(z) for z > 0 (C = K or I by ``kind``), NaN for n < 0."""
    x = apply_op("abs", z)
    value = (apply_op("sqrt", (0.5 * math.pi) / x)
             * apply_op({"k": "kv", "i": "iv"}[kind], n + 0.5, x))
    return _where(n < 0, math.nan, value)


def _odd(n: Any) -> Array:
    return apply_op("fmod", n, 2.0) != 0


def _small(n: Any, x: Any) -> Array:
    """i_n(x) for 0 <= x < 1e-8: x^n / (2n + 1)!! (1 + x^2 / (2 (2n + 3))), where
    I_(n + 1/2) alone would underflow first (i_1(1e-300) is 3e-301); 0 beyond n = 85, where
    (2n + 1)!! leaves Gamma's range and the value underflows."""
    double_factorial = apply_op("tgamma", 2 * n + 2) / (apply_op("power", 2.0, n)
                                                      * apply_op("tgamma", n + 1))
    return (apply_op("power", x, n) / double_factorial) * (1 + x * x / (4 * n + 6))


def _function(kind: str, n: Any, z: Any) -> Array:
    if kind in "jy":
        return apply_op(f"sph_{kind}n", n, z)
    value = _cylinder(kind, n, z)
    if kind == "i":  # i_n(-z) = (-1)^n i_n(z); i_0(0) = 1, i_n(0) = 0
        x = apply_op("abs", z)
        value = _where(x < 1e-8, _small(n, x), value)
        value = _where(apply_op("isinf", z), math.inf, value)  # (grows as e^z / 2z)
        value = _where(z < 0, _where(_odd(n), -value, value), value)
        return _where(n < 0, math.nan, _where(z == 0, _where(n == 0, 1.0, 0.0), value))
    # k_n: +inf at 0, NaN below (K of a negative argument is complex).
    value = _where(z < 0, math.nan, value)
    return _where(z == 0, _where(n < 0, math.nan, math.inf), value)


def _derivative(kind: str, n: Any, z: Any) -> Array:
    """C_n' = C_(n-1) - (n + 1) / z C_n (for k: -k_(n-1) - ...), and -C_1 for n = 0 (for
    i: +i_1)."""
    here = _function(kind, n, z)
    below = _function(kind, apply_op("maximum", n - 1, 0.0), z)
    above = _function(kind, n + 1, z)
    below = -below if kind == "k" else below
    value = _where(n == 0, above if kind == "i" else -above, below - (n + 1) / z * here)
    if kind in "ji":  # c_1'(0) = 1/3, c_n'(0) = 0 otherwise
        value = _where(z == 0, _where(n == 1, 1 / 3, 0.0), value)
    return _where(n < 0, math.nan, value)


def _spherical(kind: str, n: Any, z: Any, derivative: bool) -> Array:
    if isinstance(n, (int, float)) and not isinstance(n, bool):
        order: Any = float(math.trunc(n)) if math.isfinite(n) else float(n)  # stays weak
    else:
        order = apply_op("trunc", asarray(n))
    z = _operand(z)
    # SciPy's loops are double only: float64 results wherever the device has doubles.
    device = next((a.device for a in (z, order) if isinstance(a, Array)), current_device())
    real = dt.float64 if device.supports_fp64 else dt.float32
    order = order.astype(real) if isinstance(order, Array) else order
    z = z.astype(real) if isinstance(z, Array) else z
    return (_derivative if derivative else _function)(kind, order, z).astype(real)


def spherical_jn(n: Any, z: Any, derivative: bool = False) -> Array:
    """The spherical Bessel function of the first kind, j_n(z), or its derivative in z
    (SciPy's ``spherical_jn``).

    >>> import weft as wf
    >>> wf.spherical_jn(0, wf.asarray([0.0, 3.0])).to_numpy().round(6).tolist()
    [1.0, 0.04704]
    """
    return _spherical("j", n, z, derivative)


def spherical_yn(n: Any, z: Any, derivative: bool = False) -> Array:
    """The spherical Bessel function of the second kind, y_n(z), or its derivative in z
    (SciPy's ``spherical_yn``).

    >>> import weft as wf
    >>> wf.spherical_yn(0, wf.asarray([1.0, 3.0])).to_numpy().round(6).tolist()
    [-0.540302, 0.329997]
    """
    return _spherical("y", n, z, derivative)


def spherical_in(n: Any, z: Any, derivative: bool = False) -> Array:
    """The modified spherical Bessel function of the first kind, i_n(z) = sqrt(pi / 2z)
    I_(n + 1/2)(z), or its derivative in z (SciPy's ``spherical_in``).

    >>> import weft as wf
    >>> wf.spherical_in(0, wf.asarray([0.0, 1.0])).to_numpy().round(6).tolist()
    [1.0, 1.175201]
    """
    return _spherical("i", n, z, derivative)


def spherical_kn(n: Any, z: Any, derivative: bool = False) -> Array:
    """The modified spherical Bessel function of the second kind, k_n(z) = sqrt(pi / 2z)
    K_(n + 1/2)(z), or its derivative in z (SciPy's ``spherical_kn``; NaN for z < 0, where
    SciPy gives the real part of a complex value).

    >>> import weft as wf
    >>> wf.spherical_kn(0, wf.asarray([1.0])).to_numpy().round(6).tolist()
    [0.577864]
    """
    return _spherical("k", n, z, derivative)
