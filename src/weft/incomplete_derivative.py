"""The incomplete gamma and beta functions' gradients in their shape parameters, for the op
table's adjoint rules (``ops.py``): through the internal ops ``gamma_p_da``, ``ibeta_da``
and ``ibeta_db`` (skeletons/incomplete_derivatives.py), and for the inverse functions by the
implicit function theorem: where F(a, x) = p, dx/da = -F_a / F_x at the result.

>>> import weft as wf
>>> round(float(wf.grad(lambda a: wf.gamma_p(a, 2.0))(wf.asarray(3.0))), 12)
-0.231848672044
"""

from __future__ import annotations

from typing import Any

import numpy as np


def gamma_density(w: Any, a: Any, x: Any) -> Any:
    """d/dx of the regularized lower incomplete gamma function P(a, x)."""
    return w.exp(w.xlogy(a - 1, x) - x - w.lgamma(a))


def beta_density(w: Any, a: Any, b: Any, x: Any) -> Any:
    """d/dx of the regularized incomplete beta function I_x(a, b)."""
    return w.exp(w.xlogy(a - 1, x) + w.xlogy(b - 1, 1 - x) - w.lbeta(a, b))


def gamma_p_da(a: Any, x: Any) -> Any:
    """dP(a, x)/da (dQ/da is its negative)."""
    from .array import apply_op

    return apply_op("gamma_p_da", a, x)


def gamma_inverse_adjoint(w: Any, g: Any, y: Any, a: Any, p: Any, lower: bool) -> tuple:
    """The adjoint of x = gamma_p_inv(a, p) (``lower``) or gamma_q_inv(a, p): P(a, x) = p
    gives dx/da = -P_a / P_x, and Q(a, x) = p the same (Q_a = -P_a, Q_x = -P_x)."""
    density = gamma_density(w, a, y)
    return -g * gamma_p_da(a, y) / density, (g if lower else -g) / density


def ibeta_shapes(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """dI_x(a, b)/da and dI_x(a, b)/db."""
    from .array import apply_op

    return apply_op("ibeta_da", a, b, x), apply_op("ibeta_db", a, b, x)


def beta_inverse_adjoint(w: Any, g: Any, y: Any, a: Any, b: Any, p: Any,
                         lower: bool) -> tuple:
    """The adjoint of x = ibeta_inv(a, b, p) (``lower``) or ibetac_inv(a, b, p), as for
    the gamma inverses: dx/da = -I_a / I_x and dx/db = -I_b / I_x at the result."""
    density = beta_density(w, a, b, y)
    da, db = ibeta_shapes(a, b, y)
    scale = -g / density
    return scale * da, scale * db, (g if lower else -g) / density


def _derivative(function: Any, at: float, *rest: float) -> float:
    import mpmath

    with mpmath.workprec(256):
        return float(mpmath.diff(lambda t: function(t, *rest), mpmath.mpf(at)))


def gamma_p_da_reference(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """dP(a, x)/da from mpmath (the reference device's; mpmath comes with the tests)."""
    import mpmath

    def one(s: float, t: float) -> float:
        if np.isnan(s) or np.isnan(t):
            return np.nan
        if s < 0 or t < 0 or (s == 0 and t == 0) or (np.isinf(s) and np.isinf(t)):
            return np.nan
        if t == 0 or np.isinf(t) or np.isinf(s):
            return 0.0
        if s == 0:
            return -float(mpmath.e1(t))
        # mpmath sums P's series: in Q's tail it may not converge, where Q's own form does.
        lower = lambda u, v: mpmath.gammainc(u, 0, v, regularized=True)  # noqa: E731
        upper = lambda u, v: -mpmath.gammainc(u, v, mpmath.inf, regularized=True)  # noqa: E731
        first, second = (lower, upper) if t < s + 1 else (upper, lower)
        for form in (first, second):
            try:
                return _derivative(form, s, t)
            except mpmath.libmp.NoConvergence:
                continue
        return _gamma_p_da_by_quadrature(s, t)

    dtype = np.result_type(a, x)
    return np.vectorize(one, otypes=[np.float64])(a, x).astype(dtype, copy=False)


def _gamma_p_da_by_quadrature(a: float, x: float) -> float:
    """dP/da as the integral of the gamma density times log t - psi(a) over (0, x), in
    steps of its width about the mode (for large a, where mpmath's series give up)."""
    import mpmath

    with mpmath.workprec(256):
        a_, x_ = mpmath.mpf(a), mpmath.mpf(x)
        psi, log_gamma = mpmath.digamma(a_), mpmath.loggamma(a_)
        density = lambda t: mpmath.exp((a_ - 1) * mpmath.log(t) - t - log_gamma)  # noqa: E731
        width = mpmath.sqrt(a_)
        points = [max(a_ - 1 + k * width, 0) for k in range(-40, 41, 4)]
        points = sorted({p for p in points if 0 < p < x_} | {mpmath.mpf(0), x_})
        return float(mpmath.quad(lambda t: density(t) * (mpmath.log(t) - psi), points))


def _ibeta_reference(first: bool) -> Any:
    def reference(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
        import mpmath

        def one(s: float, t: float, z: float) -> float:
            if np.isnan(s) or np.isnan(t) or np.isnan(z):
                return np.nan
            if s <= 0 or t <= 0 or z < 0 or z > 1 or (np.isinf(s) and np.isinf(t)):
                return np.nan
            if z in (0, 1) or np.isinf(s) or np.isinf(t):
                return 0.0
            # Above the mean, as 1 - I_1-x(b, a): a difference from 1 would need the tail's
            # digits below 1's.
            upper = z * (s + t + 2) > s + 1
            beta = lambda u, v: (-mpmath.betainc(v, u, 0, 1 - mpmath.mpf(z), regularized=True)  # noqa: E731
                                 if upper else mpmath.betainc(u, v, 0, z, regularized=True))
            if first:
                return _derivative(beta, s, t)
            return _derivative(lambda v, u: beta(u, v), t, s)

        dtype = np.result_type(a, b, x)
        return np.vectorize(one, otypes=[np.float64])(a, b, x).astype(dtype, copy=False)

    return reference


ibeta_da_reference = _ibeta_reference(first=True)
ibeta_db_reference = _ibeta_reference(first=False)
