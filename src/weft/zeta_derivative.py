"""zeta's derivatives for the op table's adjoint rules (``ops.py``): in s through the internal
op ``zeta_ds`` (the Euler-Maclaurin sum differentiated term by term, ``skeletons/zeta.py``),
and Riemann's in x, which below -1/2 differentiates the reflection formula.

>>> import weft as wf
>>> round(float(wf.grad(lambda s: wf.zeta(s, 2.0))(wf.asarray(3.0))), 12)
-0.198126242886
"""

from __future__ import annotations

from typing import Any

import numpy as np


def zeta_ds(w: Any, s: Any, q: Any) -> Any:
    """d/ds zeta(s, q), NaN where zeta(s, q) is (s < 1: SciPy's domain)."""
    from .array import apply_op

    return w.where(s < 1, np.nan, apply_op("zeta_ds", s, q))


def riemann_zeta_dx(w: Any, x: Any) -> Any:
    """d/dx of Riemann's zeta: the series' derivative from -1/2 up, below it the derivative
    of the reflection zeta(x) = A(x) sin(pi x / 2) zeta(1 - x), A = (2 pi)^x Gamma(1 - x) / pi,
    written without the cotangent (finite at the trivial zeros): A [(sin (log 2 pi -
    psi(1 - x)) + pi/2 cos) zeta(1 - x) - sin zeta'(1 - x)], A in logs."""
    from .array import apply_op

    direct = apply_op("zeta_ds", w.where(x < -0.5, 2.0, x), 1.0)
    t = w.where(x < -0.5, x, -1.0)  # (other elements take the direct form)
    u = 1.0 - t
    half = 0.5 * np.pi * t
    scale = w.exp(t * 1.8378770664093453 + w.lgamma(u) - 1.1447298858494002)
    zeta_u = w.zeta(u, 1.0)
    inner = ((w.sin(half) * (1.8378770664093453 - w.digamma(u)) + 0.5 * np.pi * w.cos(half))
             * zeta_u - w.sin(half) * apply_op("zeta_ds", u, 1.0))
    return w.where(x < -0.5, scale * inner, direct)


def zeta_ds_reference(s: np.ndarray, q: np.ndarray) -> np.ndarray:
    """d/ds zeta(s, q) from mpmath (the reference device's; mpmath comes with the tests), on
    the device function's domain: s >= -1/2, q > 0."""
    import mpmath

    def one(a: float, b: float) -> float:
        if np.isnan(a) or np.isnan(b) or b <= 0 or a < -0.5:
            return np.nan
        if a == 1:
            return -np.inf
        with mpmath.workprec(800):  # (at 120 bits, s = 47 and q = 541 are 2e-9 off)
            return float(mpmath.zeta(a, b, 1))

    dtype = np.result_type(s, q)
    return np.vectorize(one, otypes=[np.float64])(s, q).astype(dtype, copy=False)
