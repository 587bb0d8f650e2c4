"""Complete elliptic integrals (SciPy's ``ellipk``, ``ellipkm1`` and ``ellipe``, in the
parameter m = k²), as compositions of the op table's ops: lazy, fused with their neighbours,
differentiable (the incomplete ones are ops: ``elliptic_adjoint.py``,
``skeletons/elliptic_incomplete.py``).

Both come from the arithmetic-geometric mean of 1 and √(1 − m): a ← (a + b)/2, b ← √(ab)
converges quadratically, so a fixed number of steps (no data-dependent loop) reaches double
precision for every m a double can hold: ``K(m) = π / (2 AGM)``, and ``E(m) = K(m) (1 − m/2 −
Σ 2^(n−1) c_n²)`` with c_n the half differences of the steps. Negative m, where that sum
cancels, goes through E(m) = √(1 − m) E(m / (m − 1)). K is within 5e-16 of SciPy's (relative),
E within 1e-15 away from m = 1 and 4e-15 as m approaches it.
"""

from __future__ import annotations

import math
from typing import Any

from . import dtypes as dt
from .array import Array, apply_op
from .creation import asarray, ones_like, zeros_like

# Steps of the mean: from b/a = 1e-154 (m = -1e308) the ratio reaches 1 within a rounding
# error after 12; float32 needs fewer, but the extra steps cost little and change nothing.
_AGM_STEPS = 14


def _parameter(m: Any) -> tuple[Array, dt.DType]:
    """``m`` in float64 (float32 is computed in float64 and rounded once, as SciPy's float32
    loops are), and the result's dtype."""
    m = asarray(m)
    return m.astype(dt.float64), (m.dtype if m.dtype.is_float else dt.float64)


def _agm(b: Array) -> tuple[Array, Array]:
    """The mean of 1 and ``b``, and Σ 2^(n−1) c_n² over the steps (n ≥ 1)."""
    a, total = ones_like(b), zeros_like(b)
    weight = 0.5
    for _ in range(_AGM_STEPS):
        half_difference = (a - b) * 0.5
        weight *= 2.0
        total = total + half_difference * half_difference * weight
        a, b = (a + b) * 0.5, apply_op("sqrt", a * b)
    return a, total


def ellipk(m: Any) -> Array:
    """The complete elliptic integral of the first kind, K(m) = ∫₀^{π/2} (1 − m sin²θ)^(−1/2)
    dθ (SciPy's ``special.ellipk``): ∞ at m = 1, NaN above, 0 at m = −∞.

    >>> import weft as wf
    >>> wf.ellipk(wf.asarray([0.0, 0.5])).to_numpy().round(12).tolist()
    [1.570796326795, 1.854074677301]
    """
    m, result = _parameter(m)
    return _first_kind(apply_op("sqrt", 1.0 - m), apply_op("equal", m, 1.0)).astype(result)


def ellipkm1(p: Any) -> Array:
    """K(1 − p) (SciPy's ``special.ellipkm1``): accurate near m = 1, where 1 − m would
    round away p.

    >>> import weft as wf
    >>> round(float(wf.ellipkm1(wf.asarray(1e-20))), 12)  # K(1 - 1e-20)
    24.41214529106
    """
    p, result = _parameter(p)
    return _first_kind(apply_op("sqrt", p), apply_op("equal", p, 0.0)).astype(result)


def _first_kind(root: Array, infinite: Array) -> Array:
    mean, _ = _agm(root)
    return apply_op("where", infinite, math.inf, (math.pi / 2) / mean)


def ellipe(m: Any) -> Array:
    """The complete elliptic integral of the second kind, E(m) = ∫₀^{π/2} (1 − m sin²θ)^(1/2)
    dθ (SciPy's ``special.ellipe``): 1 at m = 1, NaN above, ∞ at m = −∞.

    >>> import weft as wf
    >>> wf.ellipe(wf.asarray([0.0, 0.5, 1.0])).to_numpy().round(12).tolist()
    [1.570796326795, 1.350643881048, 1.0]
    """
    m, result = _parameter(m)
    negative = apply_op("less", m, 0.0)
    # m / (m - 1) lies in (0, 1] for m < 0 (1 for m = -inf, where the quotient is NaN).
    inside = apply_op("where", negative,
                      apply_op("where", apply_op("isinf", m), 1.0, m / (m - 1.0)), m)
    mean, total = _agm(apply_op("sqrt", 1.0 - inside))
    value = (math.pi / 2) / mean * (1.0 - inside * 0.5 - total)
    value = apply_op("where", apply_op("equal", inside, 1.0), 1.0, value)
    value = apply_op("where", negative, apply_op("sqrt", 1.0 - m) * value, value)
    return value.astype(result)


__all__ = ["ellipk", "ellipkm1", "ellipe"]

