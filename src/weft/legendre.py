"""The associated Legendre function's adjoint rule for the op table (``lpmv``,
``skeletons/legendre.py``): the gradient in x (order and degree are not differentiable).

>>> import weft as wf
>>> round(float(wf.grad(lambda x: wf.lpmv(0, 2, x))(wf.asarray(0.5))), 12)
1.5
"""

from __future__ import annotations

from typing import Any


def lpmv_adjoint(w: Any, g: Any, y: Any, m: Any, v: Any, x: Any) -> tuple[None, None, Any]:
    """The gradient of ``lpmv(m, v, x)`` in x, from DLMF 14.10.5,
    (1 - x^2) dP_n^m/dx = (n + m) P_(n-1)^m - n x P_n^m, with n the degree's form above -1/2
    (P_(-v-1) = P_v). An integer degree takes it at k = |m| (P_(n-1)^k is 0 below the
    order) times (-1)^k (n - k)! / (n + k)! for a negative order, as the function's own
    values do; other degrees take it at m itself."""
    from .array import apply_op

    n = w.where(v < -0.5, -v - 1, v)
    k = w.abs(m)
    integer = v == w.floor(v)
    order = w.where(integer, k, m)
    upper = w.where(integer, apply_op("lpmv", k, n, x), y)
    lower = w.where(integer & (n - 1 < k), 0.0, apply_op("lpmv", order, n - 1, x))
    slope = (n * x * upper - (n + order) * lower) / (x * x - 1)
    sign = w.where(w.fmod(k, 2) == 1, -1.0, 1.0)
    factorials = sign * w.exp(w.lgamma(n - k + 1) - w.lgamma(n + k + 1))
    scale = w.where(integer & (m < 0), factorials, 1.0)
    return None, None, g * scale * slope
