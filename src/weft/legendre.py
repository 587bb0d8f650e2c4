"""The associated Legendre function's adjoint rule for the op table (``lpmv``,
``skeletons/legendre.py``): the gradient in x; order and degree are integers.

>>> import weft as wf
>>> round(float(wf.grad(lambda x: wf.lpmv(0, 2, x))(wf.asarray(0.5))), 12)
1.5
"""

from __future__ import annotations

from typing import Any


def lpmv_adjoint(w: Any, g: Any, y: Any, m: Any, v: Any, x: Any) -> tuple[None, None, Any]:
    """The gradient of ``lpmv(m, v, x)`` in x (order and degree are integers):
    (n x P_n^k - (n + k) P_(n-1)^k) / (x^2 - 1) for k = |m| and n the degree's
    non-negative form, times (-1)^k (n - k)! / (n + k)! for a negative order."""
    from .array import apply_op

    n = w.where(v < 0, -v - 1, v)
    k = w.abs(m)
    upper = apply_op("lpmv", k, n, x)
    lower = w.where(n - 1 < k, 0.0, apply_op("lpmv", k, n - 1, x))
    slope = (n * x * upper - (n + k) * lower) / (x * x - 1)
    sign = w.where(w.fmod(k, 2) == 1, -1.0, 1.0)
    scale = w.where(m < 0, sign * w.exp(w.lgamma(n - k + 1) - w.lgamma(n + k + 1)), 1.0)
    return None, None, g * scale * slope
