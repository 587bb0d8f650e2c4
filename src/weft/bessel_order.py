"""K_v(x) of real order v (SciPy's ``kv`` and ``kve``) beside the op table: the NumPy
references of the ops and of their derivatives in v (internal ops ``kv_dv`` and ``kve_dv``,
``skeletons/bessel_kv.py``), and the adjoint rules: d/dx K_v = -(K_{v-1} + K_{v+1}) / 2,
d/dv K_v the integral of exp(-x cosh t) t sinh(v t).

>>> import weft as wf
>>> round(float(wf.kv(2.5, wf.asarray(1.5))), 12)
0.989451892989
>>> round(float(wf.grad(lambda v: wf.kv(v, 1.5))(wf.asarray(2.5))), 10)
1.1362523346
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np


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

