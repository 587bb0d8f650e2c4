"""K_v(x) and I_v(x) of real order v (SciPy's ``kv``, ``kve``, ``iv``, ``ive``) beside the op
table: the NumPy references of the ops and of their derivatives in v (internal ops ``kv_dv``,
``kve_dv``, ``iv_dv``, ``ive_dv``; ``skeletons/bessel_kv.py``, ``bessel_iv.py``), and the
adjoint rules: d/dx K_v = -(K_{v-1} + K_{v+1}) / 2, d/dv K_v the integral of exp(-x cosh t)
t sinh(v t); d/dx I_v = (I_{v-1} + I_{v+1}) / 2, d/dv I_v by Richardson-extrapolated
differences (as J's, ``bessel_jy.py``).

>>> import weft as wf
>>> round(float(wf.kv(2.5, wf.asarray(1.5))), 12)
0.989451892989
>>> round(float(wf.grad(lambda v: wf.kv(v, 1.5))(wf.asarray(2.5))), 10)
1.1362523346
>>> round(float(wf.iv(2.5, wf.asarray(1.5))), 12)
0.171662022188
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .bessel_jy import order_differences


def _scipy_kv(v: np.ndarray, x: np.ndarray, scaled: bool) -> np.ndarray:
    from scipy import special

    dtype = np.result_type(v, x)
    v, x = np.asarray(v, dtype=np.float64), np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = special.kve(v, x) if scaled else special.kv(v, x)
    if scaled:
        # SciPy's kve says NaN from x = 1e15 on, and at +inf: there Hankel's expansion
        # (three terms: the fourth is below 1e-27 for orders up to 1e3) and its limit 0.
        lost = np.isnan(out) & np.isfinite(v) & (x > 0)
        with np.errstate(all="ignore"):
            mu, z = 4 * v * v, 8 * x
            hankel = np.sqrt(np.pi / (2 * x)) * (
                1 + (mu - 1) / z * (1 + (mu - 9) / (2 * z) * (1 + (mu - 25) / (3 * z))))
        out = np.where(lost, np.where(np.isinf(x), 0.0, hankel), out)
    return np.asarray(out).astype(dtype, copy=False)


def kv_reference(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    """SciPy's ``kv``."""
    return _scipy_kv(v, x, False)


def kve_reference(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    """SciPy's ``kve``, with Hankel's expansion where it says NaN for huge x."""
    return _scipy_kv(v, x, True)


def _order_derivative(v: np.ndarray, x: np.ndarray, scaled: bool) -> np.ndarray:
    # Central differences in v, Richardson-extrapolated (error h^4 / 30 f^(5): about 1e-12
    # relative at h = 1e-3), 0 at v = 0 where K is even.
    dtype = np.result_type(v, x)
    v, x = np.asarray(v, dtype=np.float64), np.asarray(x, dtype=np.float64)
    h = 1e-3 * np.maximum(1.0, np.abs(v))

    def slope(step: np.ndarray) -> np.ndarray:
        return (_scipy_kv(v + step, x, scaled) - _scipy_kv(v - step, x, scaled)) / (2 * step)

    out = (4 * slope(h / 2) - slope(h)) / 3
    return np.where(v == 0, 0.0, out).astype(dtype, copy=False)


def kv_dv_reference(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    """d/dv K_v(x), by differences of SciPy's ``kv``."""
    return _order_derivative(v, x, False)


def kve_dv_reference(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    """d/dv e^x K_v(x), by differences of SciPy's ``kve``."""
    return _order_derivative(v, x, True)


def kv_adjoint(w: Any, g: Any, y: Any, v: Any, x: Any) -> tuple[Any, Any]:
    """The gradient of ``kv(v, x)`` in v and in x."""
    from .array import apply_op

    return g * apply_op("kv_dv", v, x), -0.5 * g * (w.kv(v - 1, x) + w.kv(v + 1, x))


def kve_adjoint(w: Any, g: Any, y: Any, v: Any, x: Any) -> tuple[Any, Any]:
    """The gradient of ``kve(v, x)`` = e^x K_v(x) in v and in x."""
    from .array import apply_op

    return (g * apply_op("kve_dv", v, x),
            g * (y - 0.5 * (w.kve(v - 1, x) + w.kve(v + 1, x))))



def _scipy_iv(v: np.ndarray, x: np.ndarray, scaled: bool) -> np.ndarray:
    from scipy import special

    dtype = np.result_type(v, x)
    v, x = np.asarray(v, dtype=np.float64), np.asarray(x, dtype=np.float64)
    v, x = np.broadcast_arrays(v, x)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = special.ive(v, x) if scaled else special.iv(v, x)
        # Where SciPy answers NaN or +inf for want of a limit: x = +-inf (I -> +-inf, e^-x I
        # -> 0), an infinite order (0 for finite x, as SciPy's iv), a negative
        # non-integer order at x = 0 (the sign of 1 / Gamma(v + 1)), and SciPy's ive from
        # about x = 1e20 on (the asymptotic expansion, three terms).
        integer = v == np.floor(v)
        odd = integer & (np.fmod(v, 2) != 0)
        finite_v = np.isfinite(v)
        limit = np.where(scaled, 0.0, np.where((x < 0) & odd, -np.inf, np.inf))
        out = np.where(np.isinf(x) & finite_v & ((x > 0) | integer), limit, out)
        out = np.where(~finite_v & ~np.isnan(v) & np.isfinite(x), 0.0, out)
        pole = (x == 0) & (v < 0) & ~integer & finite_v
        sign = np.where(special.rgamma(v + 1) < 0, -np.inf, np.inf)
        out = np.where(pole, sign, out)
        mu, z = 4 * v * v, 8 * np.abs(x)
        far = np.sqrt(1 / (2 * np.pi * np.abs(x))) * (
            1 - (mu - 1) / z * (1 - (mu - 9) / (2 * z) * (1 - (mu - 25) / (3 * z))))
        lost = scaled & np.isnan(out) & finite_v & np.isfinite(x) & ((x > 0) | integer)
        out = np.where(lost, np.where((x < 0) & odd, -far, far), out)
    return np.asarray(out).astype(dtype, copy=False)


def _iv_reference(scaled: bool) -> Any:
    def reference(v: np.ndarray, x: np.ndarray) -> np.ndarray:
        return _scipy_iv(v, x, scaled)

    reference.__name__ = "ive" if scaled else "iv"
    reference.__doc__ = f"SciPy's ``{reference.__name__}``, with the limits where it says NaN."
    return reference


def iv_adjoint(w: Any, g: Any, y: Any, v: Any, x: Any) -> tuple[Any, Any]:
    """The gradient of ``iv(v, x)`` in v and in x."""
    from .array import apply_op

    return g * apply_op("iv_dv", v, x), 0.5 * g * (w.iv(v - 1, x) + w.iv(v + 1, x))


def ive_adjoint(w: Any, g: Any, y: Any, v: Any, x: Any) -> tuple[Any, Any]:
    """The gradient of ``ive(v, x)`` = e^-|x| I_v(x) in v and in x."""
    from .array import apply_op

    return (g * apply_op("ive_dv", v, x),
            g * (0.5 * (w.ive(v - 1, x) + w.ive(v + 1, x)) - w.sign(x) * y))


# Entries of ops.SPECIAL_FUNCTIONS (name, arity, reference, reverse rule) and the internal
# derivatives in the order (name -> reference).
BESSEL_ORDER_FUNCTIONS: list[tuple[str, int, Any, Any]] = [
    ("kv", 2, kv_reference, kv_adjoint), ("kve", 2, kve_reference, kve_adjoint),
    ("iv", 2, _iv_reference(False), iv_adjoint), ("ive", 2, _iv_reference(True), ive_adjoint)]
ORDER_DERIVATIVES = {"kv_dv": kv_dv_reference, "kve_dv": kve_dv_reference,
                     "iv_dv": order_differences(lambda v, x: _scipy_iv(v, x, False), "iv_dv"),
                     "ive_dv": order_differences(lambda v, x: _scipy_iv(v, x, True), "ive_dv")}
