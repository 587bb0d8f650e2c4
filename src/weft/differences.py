"""Differences, gradients, integrals, convolutions and interpolation along an axis, as
NumPy's ``diff``, ``ediff1d``, ``gradient``, ``trapezoid``, ``convolve``, ``interp`` and
``unwrap``.

All are lazy compositions of views, joins and element-wise ops, so they fuse with what
reads them: ``gradient`` is one expression of shifted views per axis, ``convolve`` a row
reduction over a gather of the signal (one kernel), ``interp`` a library binary search (as
``searchsorted``) and then a fused gather and lerp. Integer input gives reals where NumPy's
does (``gradient``, ``trapezoid``, ``interp``).
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array, apply_op
from .creation import asarray, col_index, row_index
from .gather import take_in_bounds
from .indexing import checked_axis
from .rearrange import _slice


def _edge_block(value: Any, x: Array, axis: int) -> Array:
    """``value`` as a block of ``x``'s shape with length 1 along ``axis`` (NumPy's
    prepend/append), or ``value`` itself where it has ``x``'s rank already."""
    block = asarray(value)
    if block.ndim == x.ndim:
        return block
    shape = list(x.shape)
    shape[axis] = 1
    from .rearrange import broadcast_to

    return broadcast_to(block, tuple(shape))


def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Array:
    """The ``n``-th difference along ``axis``: ``a[1:] - a[:-1]``, ``n`` times (bool: where
    neighbours differ), after joining ``prepend`` and ``append`` to the ends.

    >>> import weft as wf
    >>> wf.diff(wf.asarray([1, 4, 9, 16])).tolist()
    [3, 5, 7]
    >>> wf.diff(wf.asarray([[1, 2], [4, 8]]), axis=0).tolist()
    [[3, 6]]
    """
    from .matrix import concatenate

    a = asarray(a)
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"diff: order n must be non-negative, not {n}")
    if a.ndim == 0:
        raise ValueError("diff: needs at least 1 dimension, not a 0-d array")
    axis = checked_axis("diff", axis, a.ndim)
    if prepend is not None or append is not None:
        parts = [_edge_block(prepend, a, axis)] if prepend is not None else []
        parts.append(a)
        parts += [_edge_block(append, a, axis)] if append is not None else []
        a = concatenate(parts, axis=axis)
    for _ in range(n):
        after, before = _slice(a, axis, 1, None), _slice(a, axis, None, -1)
        a = apply_op("not_equal" if a.dtype.kind == "b" else "subtract", after, before)
    return a


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Array:
    """The differences of the flattened ``ary``, with ``to_begin`` and ``to_end`` joined at
    the ends (in ``ary``'s dtype, as NumPy's).

    >>> import weft as wf
    >>> wf.ediff1d(wf.asarray([1, 2, 4]), to_begin=0).tolist()
    [0, 1, 2]
    """
    from .matrix import concatenate
    from .rearrange import ravel

    flat = ravel(asarray(ary))
    parts = [diff(flat)] if flat.shape[0] else [flat]
    for value, front in ((to_begin, True), (to_end, False)):
        if value is not None:
            extra = ravel(asarray(np.asarray(value).astype(flat.dtype.numpy), device=flat.device)
                          if not isinstance(value, Array) else value.astype(flat.dtype))
            parts.insert(0, extra) if front else parts.append(extra)
    return concatenate(parts) if len(parts) > 1 else parts[0]


def _spacings(f: Array, varargs: tuple, axes: list[int]) -> list[Any]:
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        return [varargs[0]] * len(axes)
    if len(varargs) != len(axes):
        raise TypeError(f"gradient: give one spacing, or one per axis ({len(axes)}), not "
                        f"{len(varargs)}")
    spacings = []
    for spacing, axis in zip(varargs, axes):
        if np.ndim(spacing) == 0:
            spacings.append(spacing)
            continue
        coordinates = asarray(spacing)
        if coordinates.ndim != 1:
            raise ValueError("gradient: a spacing must be a scalar or 1-D coordinates")
        if coordinates.shape[0] != f.shape[axis]:
            raise ValueError(f"gradient: coordinates of length {coordinates.shape[0]} for "
                             f"an axis of length {f.shape[axis]}")
        steps = diff(coordinates.astype(dt.real_of(coordinates.dtype)))
        uniform = bool(apply_op("equal", steps, _slice(steps, 0, 0, 1)).all())
        spacings.append(float(steps[0]) if uniform else steps)
    return spacings


def _along(values: Array, axis: int, ndim: int) -> Array:
    """1-D ``values`` shaped to broadcast along ``axis`` of an ``ndim``-d array."""
    return values if ndim == 1 or axis == 1 else values.reshape(values.shape[0], 1)


def _gradient_axis(f: Array, axis: int, spacing: Any, edge_order: int) -> Array:
    from .matrix import concatenate

    def part(start: int | None, stop: int | None) -> Array:
        return _slice(f, axis, start, stop)

    if not isinstance(spacing, Array):
        h = spacing
        inner = (part(2, None) - part(None, -2)) / (2.0 * h)
        if edge_order == 1:
            first = (part(1, 2) - part(0, 1)) / h
            last = (part(-1, None) - part(-2, -1)) / h
        else:
            first = (-1.5 * part(0, 1) + 2.0 * part(1, 2) - 0.5 * part(2, 3)) / h
            last = (0.5 * part(-3, -2) - 2.0 * part(-2, -1) + 1.5 * part(-1, None)) / h
        return concatenate([first, inner, last], axis=axis)
    n = f.ndim
    dx1, dx2 = _along(spacing[:-1], axis, n), _along(spacing[1:], axis, n)
    a = -dx2 / (dx1 * (dx1 + dx2))
    b = (dx2 - dx1) / (dx1 * dx2)
    c = dx1 / (dx2 * (dx1 + dx2))
    inner = a * part(None, -2) + b * part(1, -1) + c * part(2, None)
    h0, h1 = _along(spacing[0:1], axis, n), _along(spacing[1:2], axis, n)
    hl, hm = _along(spacing[-1:], axis, n), _along(spacing[-2:-1], axis, n)
    if edge_order == 1:
        first = (part(1, 2) - part(0, 1)) / h0
        last = (part(-1, None) - part(-2, -1)) / hl
    else:
        first = (-(2.0 * h0 + h1) / (h0 * (h0 + h1)) * part(0, 1)
                 + (h0 + h1) / (h0 * h1) * part(1, 2) - h0 / (h1 * (h0 + h1)) * part(2, 3))
        last = (hl / (hm * (hm + hl)) * part(-3, -2) - (hm + hl) / (hm * hl) * part(-2, -1)
                + (2.0 * hl + hm) / (hl * (hm + hl)) * part(-1, None))
    return concatenate([first, inner, last], axis=axis)


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """The gradient of ``f`` by second-order central differences inside and first- or
    second-order (``edge_order``) one-sided differences at the ends, as NumPy's: ``varargs``
    are the spacing (one scalar, or one scalar or coordinate array per axis). One array per
    axis (a tuple), or one array for one axis.

    >>> import weft as wf
    >>> wf.gradient(wf.asarray([1.0, 2.0, 4.0, 7.0])).tolist()
    [1.0, 1.5, 2.5, 3.0]
    >>> [g.tolist() for g in wf.gradient(wf.asarray([[1.0, 2.0], [4.0, 8.0]]))]
    [[[3.0, 6.0], [3.0, 6.0]], [[1.0, 1.0], [4.0, 4.0]]]
    """
    f = asarray(f)
    if f.ndim == 0 and axis is None:
        return ()  # NumPy's: no axes, no derivatives
    if axis is None:
        axes = list(range(f.ndim))
    else:
        given = axis if isinstance(axis, (tuple, list)) else (axis,)
        axes = [checked_axis("gradient", a, f.ndim) for a in given]
        if len(set(axes)) != len(axes):
            raise ValueError(f"gradient: repeated axis in {axis!r}")
    if edge_order not in (1, 2):
        raise ValueError(f"gradient: edge_order must be 1 or 2, not {edge_order!r}")
    real = dt.real_of(f.dtype)
    f = f.astype(real) if f.dtype != real else f
    results = []
    for ax, spacing in zip(axes, _spacings(f, varargs, axes)):
        if f.shape[ax] < edge_order + 1:
            raise ValueError(f"gradient: axis {ax} has {f.shape[ax]} elements; edge_order "
                             f"{edge_order} needs at least {edge_order + 1}")
        if isinstance(spacing, Array):
            spacing = spacing.astype(real)
        results.append(_gradient_axis(f, ax, spacing, edge_order).astype(real))
    return results[0] if len(results) == 1 else tuple(results)


def trapezoid(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> Array:
    """The trapezoidal rule's integral of ``y`` along ``axis``, at sample points ``x`` (1-D
    of that axis's length, or ``y``'s shape) or spaced ``dx`` apart.

    >>> import weft as wf
    >>> wf.trapezoid(wf.asarray([1.0, 2.0, 3.0])).item()
    4.0
    >>> wf.trapezoid(wf.asarray([1.0, 2.0, 3.0]), x=wf.asarray([0.0, 1.0, 3.0])).item()
    6.5
    """
    y = asarray(y)
    axis = checked_axis("trapezoid", axis, y.ndim)
    if x is None:
        widths: Any = dx
    else:
        x = asarray(x)
        widths = diff(x, axis=-1 if x.ndim == 1 else axis)
        if x.ndim == 1 and y.ndim == 2:
            widths = _along(widths, axis, 2)
    heights = (_slice(y, axis, 1, None) + _slice(y, axis, None, -1)) / 2.0
    return (heights * widths).sum(axis=axis)


def convolve(a: Any, v: Any, mode: str = "full") -> Array:
    """The discrete linear convolution of 1-D ``a`` and ``v`` (NumPy's ``convolve``):
    ``mode`` "full" (every overlap), "same" (``max(len)`` values, centred) or "valid"
    (complete overlaps). One kernel: a row sum over a gather of the longer signal.

    >>> import weft as wf
    >>> wf.convolve(wf.asarray([1.0, 2.0, 3.0]), wf.asarray([0.0, 1.0, 0.5])).tolist()
    [0.0, 1.0, 2.5, 4.0, 1.5]
    """
    a, v = asarray(a), asarray(v)
    a, v = (x.reshape((1,)) if x.ndim == 0 else x for x in (a, v))  # NumPy's ndmin=1
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"convolve: a and v must be 1-D, not of shapes {a.shape}, {v.shape}")
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError("convolve: a and v must not be empty")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    n, m = a.shape[0], v.shape[0]
    first, count = {"full": (0, n + m - 1), "same": ((m - 1) // 2, n),
                    "valid": (m - 1, n - m + 1)}.get(mode, (None, None))
    if first is None:
        raise ValueError(f"convolve: mode must be 'full', 'same' or 'valid', not {mode!r}")
    shape = (count, m)
    position = row_index(shape, device=a.device) + first - col_index(shape, device=a.device)
    inside = apply_op("logical_and", apply_op("greater_equal", position, 0),
                      apply_op("less", position, n))
    gathered = take_in_bounds(a, apply_op("where", inside, position, 0))
    dtype = apply_op("multiply", a[:1], v[:1]).dtype
    terms = apply_op("where", inside, apply_op("multiply", gathered, v.reshape(1, m)), 0,
                     dtype=dtype)
    return terms.sum(axis=1, dtype=dtype)


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None,
           period: Any = None) -> Array:
    """The piecewise-linear interpolant through (``xp``, ``fp``) at ``x`` (``xp``
    increasing), as NumPy's ``interp``: ``left``/``right`` (default ``fp``'s ends) outside
    ``xp``'s range; with ``period``, ``xp`` is periodic. Reals in float64, as NumPy's.

    >>> import weft as wf
    >>> wf.interp(wf.asarray([0.5, 2.5, 9.0]), wf.asarray([0.0, 1.0, 3.0]),
    ...           wf.asarray([0.0, 2.0, 6.0])).tolist()
    [1.0, 5.0, 6.0]
    """
    from .matrix import concatenate
    from .searching import searchsorted
    from .sorting import argsort

    x = asarray(x).astype(dt.float64)
    xp, fp = asarray(xp).astype(dt.float64), asarray(fp).astype(dt.float64)
    if xp.ndim != 1 or fp.ndim != 1 or xp.shape != fp.shape:
        raise ValueError(f"interp: xp and fp must be 1-D of one length, not {xp.shape}, "
                         f"{fp.shape}")
    if xp.shape[0] == 0:
        raise ValueError("interp: xp and fp must not be empty")
    if period is not None:
        if period == 0:
            raise ValueError("interp: period must be nonzero")
        period = abs(float(period))
        left = right = None
        x, xp = x % period, xp % period
        order = argsort(xp)
        xp, fp = xp.take(order), fp.take(order)
        xp = concatenate([xp[-1:] - period, xp, xp[0:1] + period])
        fp = concatenate([fp[-1:], fp, fp[0:1]])
    n = xp.shape[0]
    after = searchsorted(xp, x, side="right")
    upper = apply_op("minimum", apply_op("maximum", after, 1), n - 1) if n > 1 else after * 0
    lower = upper - 1 if n > 1 else upper
    # Clamped into [0, n - 1]: the knots' loads need no index check.
    x0, x1 = take_in_bounds(xp, lower), take_in_bounds(xp, upper)
    f0, f1 = take_in_bounds(fp, lower), take_in_bounds(fp, upper)
    # NumPy's rules: a knot gives its own value; a NaN from an infinite value at one end is
    # retried from the other end, then taken as that value where both ends are equal.
    slope = (f1 - f0) / (x1 - x0)
    forward = slope * (x - x0) + f0
    backward = slope * (x - x1) + f1
    isnan = apply_op("isnan", forward)
    retried = apply_op("where", isnan, backward, forward)
    retried = apply_op("where", apply_op("logical_and", apply_op("isnan", retried),
                                         apply_op("equal", f0, f1)), f0, retried)
    inner = apply_op("where", apply_op("equal", x, x0), f0, retried)
    inner = apply_op("where", apply_op("equal", x, x1), f1, inner)
    low = fp[0] if left is None else left
    high = fp[n - 1] if right is None else right
    out = apply_op("where", apply_op("less", x, xp[0]), low, inner)
    out = apply_op("where", apply_op("greater", x, xp[n - 1]), high, out)
    return apply_op("where", apply_op("isnan", x), x, out)


def unwrap(p: Any, discont: Any = None, axis: int = -1, *, period: float = 2 * math.pi
           ) -> Array:
    """``p`` with jumps larger than ``discont`` (default ``period / 2``) between neighbours
    along ``axis`` replaced by their complement modulo ``period``, as NumPy's ``unwrap``.

    >>> import weft as wf
    >>> wf.unwrap(wf.asarray([0.0, 3.0, 6.5]), period=4.0).tolist()
    [0.0, -1.0, -1.5]
    """
    from .matrix import concatenate
    from .scans import cumsum

    p = asarray(p)
    axis = checked_axis("unwrap", axis, p.ndim)
    real = dt.real_of(p.dtype)
    half = period / 2
    discont = half if discont is None else max(discont, half)
    steps = diff(p, axis=axis).astype(real)  # in p's dtype first, as NumPy's (uint32 wraps)
    p = p.astype(real) if p.dtype != real else p
    wrapped = apply_op("remainder", steps + half, period) - half
    wrapped = apply_op("where", apply_op("logical_and", apply_op("equal", wrapped, -half),
                                         apply_op("greater", steps, 0)), half, wrapped)
    correction = apply_op("where", apply_op("less", apply_op("abs", steps), discont), 0.0,
                          wrapped - steps)
    return concatenate([_slice(p, axis, 0, 1), _slice(p, axis, 1, None)
                        + cumsum(correction, axis=axis)], axis=axis)


__all__ = ["diff", "ediff1d", "gradient", "trapezoid", "convolve", "interp", "unwrap"]
