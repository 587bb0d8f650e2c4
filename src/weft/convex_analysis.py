"""SciPy's convex-analysis functions, element-wise and lazy: the entropy ``entr``, the
relative entropy ``rel_entr``, the Kullback-Leibler terms ``kl_div``, and the Huber losses
``huber`` and ``pseudo_huber``; SciPy's values at the domain's edges (inf outside it, NaN
for NaN). Each is a composite of ops, so it fuses and has a gradient where it is smooth.

>>> import weft as wf
>>> wf.kl_div(wf.asarray([0.5, 0.0]), 0.25).to_numpy().round(6).tolist()
[0.096574, 0.25]
"""

from __future__ import annotations

import math
from typing import Any

from . import dtypes as dt
from .array import Array, apply_op
from .creation import asarray

__all__ = ["entr", "rel_entr", "kl_div", "huber", "pseudo_huber"]


def _operand(a: Any) -> Any:
    """A Python number stays one (weakly typed, as in NumPy's promotion); else an array."""
    return a if isinstance(a, (int, float)) and not isinstance(a, bool) else asarray(a)


def _where(condition: Any, a: Any, b: Any, real: Any) -> Array:
    return apply_op("where", condition, a, b, dtype=real)


def _real_of(x: Any, y: Any) -> Any:
    return dt.real_of(apply_op("add", x, y).dtype)


def entr(x: Any) -> Array:
    """``-x log(x)``: 0 at 0, -inf below 0 (SciPy's ``entr``); gradient ``-(log(x) + 1)``.

    >>> import weft as wf
    >>> wf.entr(wf.asarray([0.0, 0.5, -1.0])).to_numpy().round(6).tolist()
    [0.0, 0.346574, -inf]
    """
    x = asarray(x)
    real = dt.real_of(x.dtype)
    inside = apply_op("greater", x, 0)
    safe = _where(inside, x, 1.0, real)  # (no log(0) in the gradient's unused branch)
    value = apply_op("negative", apply_op("multiply", safe, apply_op("log", safe, dtype=real)))
    outside = _where(apply_op("equal", x, 0), 0.0, -math.inf, real)
    return _where(inside, value, _where(apply_op("isnan", x), x, outside, real), real)


def _x_log_x_over_y(x: Any, y: Any, at_zero: Any, extra: bool) -> Array:
    """x log(x / y) (+ y - x where ``extra``) for x, y > 0; ``at_zero`` where x = 0 and
    y >= 0; NaN where either is NaN; inf elsewhere."""
    x, y = _operand(x), _operand(y)
    real = _real_of(x, y)
    inside = apply_op("logical_and", apply_op("greater", x, 0), apply_op("greater", y, 0))
    sx, sy = _where(inside, x, 1.0, real), _where(inside, y, 1.0, real)
    # log(x / y), or log(x) - log(y) where the quotient overflows or underflows.
    ratio = apply_op("divide", sx, sy, dtype=real)
    ranged = apply_op("logical_and", apply_op("greater", ratio, 0),
                      apply_op("less", ratio, math.inf))
    log_ratio = _where(ranged, apply_op("log", _where(ranged, ratio, 1.0, real)),
                       apply_op("subtract", apply_op("log", sx), apply_op("log", sy)), real)
    value = apply_op("multiply", sx, log_ratio)
    if extra:
        value = apply_op("add", apply_op("subtract", value, sx), sy)
    zero = apply_op("logical_and", apply_op("equal", x, 0),
                    apply_op("greater_equal", y, 0))
    nan = apply_op("logical_or", apply_op("isnan", x), apply_op("isnan", y))
    outside = _where(zero, at_zero, math.inf, real)
    return _where(inside, value, _where(nan, math.nan, outside, real), real)


def rel_entr(x: Any, y: Any) -> Array:
    """``x log(x / y)`` for x, y > 0, 0 where x = 0 and y >= 0, inf elsewhere (SciPy's
    ``rel_entr``: summed, the Kullback-Leibler divergence of two distributions).

    >>> import weft as wf
    >>> wf.rel_entr(wf.asarray([0.5, 0.0, 1.0]), 0.25).to_numpy().round(6).tolist()
    [0.346574, 0.0, 1.386294]
    """
    return _x_log_x_over_y(x, y, 0.0, extra=False)


def kl_div(x: Any, y: Any) -> Array:
    """``x log(x / y) - x + y`` for x, y > 0, y where x = 0 and y >= 0, inf elsewhere
    (SciPy's ``kl_div``).

    >>> import weft as wf
    >>> wf.kl_div(wf.asarray([1.0]), 2.0).to_numpy().round(6).tolist()
    [0.306853]
    """
    return _x_log_x_over_y(x, y, y, extra=True)


def _through_double(real: Any) -> Any:
    """The type to compute a float32 result in: float64 where the device has it (one
    rounding at the end, as SciPy's float32 loops), else ``real``."""
    from .devices import current_device

    if real == dt.float32 and current_device().supports_fp64:
        return dt.float64
    return real


def _in(a: Any, work: Any) -> Any:
    """``a`` in the type ``work`` (a Python number stays one)."""
    return a if isinstance(a, (int, float)) else a.astype(work)


def huber(delta: Any, r: Any) -> Array:
    """Huber's loss: ``r²/2`` where ``|r| <= delta``, ``delta (|r| - delta/2)`` beyond, inf
    for ``delta < 0`` (SciPy's ``huber``).

    >>> import weft as wf
    >>> wf.huber(1.0, wf.asarray([0.5, 3.0])).tolist()
    [0.125, 2.5]
    """
    delta, r = _operand(delta), _operand(r)
    real = _real_of(delta, r)
    work = _through_double(real)
    delta, r = _in(delta, work), _in(r, work)
    size = apply_op("abs", r)
    near = apply_op("multiply", apply_op("multiply", r, r), 0.5)
    far = apply_op("multiply", delta, apply_op("subtract", size,
                                               apply_op("multiply", delta, 0.5)))
    value = _where(apply_op("less_equal", size, delta), near, far, work)
    return _where(apply_op("less", delta, 0), math.inf, value, work).astype(real)


def pseudo_huber(delta: Any, r: Any) -> Array:
    """The smooth Huber loss ``delta² (sqrt(1 + (r/delta)²) - 1)``, as
    ``delta² expm1(log1p((r/delta)²) / 2)`` for small ``r/delta``; 0 where delta or r is 0,
    inf for ``delta < 0`` (SciPy's ``pseudo_huber``).

    >>> import weft as wf
    >>> wf.pseudo_huber(1.0, wf.asarray([0.5])).to_numpy().round(6).tolist()
    [0.118034]
    """
    delta, r = _operand(delta), _operand(r)
    real = _real_of(delta, r)
    work = _through_double(real)
    delta, r = _in(delta, work), _in(r, work)
    zero = apply_op("logical_or", apply_op("equal", delta, 0), apply_op("equal", r, 0))
    safe = _where(zero, 1.0, delta, work)
    ratio = apply_op("divide", r, safe)
    grow = apply_op("expm1", apply_op("multiply", apply_op("log1p", apply_op(
        "multiply", ratio, ratio)), 0.5))
    value = _where(zero, 0.0, apply_op("multiply", apply_op("multiply", safe, safe), grow),
                   work)
    return _where(apply_op("less", delta, 0), math.inf, value, work).astype(real)
