"""NumPy's ``pad``, lazy: each padded axis a gather of the source's positions, which NumPy's
own ``pad`` of ``arange(n)`` names on the host for the modes that copy elements (``edge``,
``reflect``, ``symmetric``, ``wrap``), so the positions are NumPy's exactly; a constant then
replaces the positions outside (``constant``, ``empty``). The modes that compute what they
pad with (``maximum``, ``minimum``, ``mean``, ``median``, ``linear_ramp``) join blocks made
from the edges' statistics or ramps to the array. Axes are padded in turn, as NumPy's: the
second axis's statistics see the first axis's padding.

>>> import weft as wf
>>> wf.pad(wf.asarray([1, 2, 3]), (2, 1), mode="reflect").tolist()
[3, 2, 1, 2, 3, 2]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array, apply_op
from .creation import arange, asarray, broadcast_to, full
from .functions import where
from .matrix import concatenate
from .rearrange import take
from .reductions import reduce
from .sorting import median

__all__ = ["pad"]

_KEYWORDS = {"constant": {"constant_values"}, "edge": set(), "wrap": set(),
             "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}, "empty": set(),
             "maximum": {"stat_length"}, "minimum": {"stat_length"}, "mean": {"stat_length"},
             "median": {"stat_length"}, "linear_ramp": {"end_values"}}
_COPYING = ("edge", "wrap", "reflect", "symmetric")


def _pairs(name: str, value: Any, ndim: int) -> np.ndarray:
    """``value`` (a number, a pair, or a pair per axis) as an (ndim, 2) array."""
    try:
        return np.broadcast_to(np.asarray(value), (ndim, 2))
    except ValueError:
        raise ValueError(f"pad: {name} {value!r} does not fit an array of {ndim} "
                         "dimension(s): give a number, a pair, or a pair per axis") from None


def pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Array:
    """``array`` padded by ``pad_width`` (an int, a (before, after) pair, or a pair per
    axis) as NumPy's ``pad`` in the modes ``constant`` (``constant_values``: a number or
    pairs), ``edge``, ``reflect`` and ``symmetric`` (``reflect_type`` ``"even"``, NumPy's
    default, or ``"odd"``), ``wrap``, ``maximum``, ``minimum``, ``mean`` and ``median`` (of the
    ``stat_length`` elements at each end, all where None; rounded to the nearest even for
    integers, as NumPy), ``linear_ramp`` (``end_values``) and ``empty`` (zeros here); the
    result keeps ``array``'s dtype.

    >>> import weft as wf
    >>> wf.pad(wf.asarray([[1.0, 2.0]]), 1, constant_values=9).tolist()
    [[9.0, 9.0, 9.0, 9.0], [9.0, 1.0, 2.0, 9.0], [9.0, 9.0, 9.0, 9.0]]
    """
    x = array if isinstance(array, Array) else asarray(array)
    if mode not in _KEYWORDS:
        raise NotImplementedError(f"pad: mode {mode!r} (weft has {', '.join(_KEYWORDS)})")
    unknown = set(kwargs) - _KEYWORDS[mode]
    if unknown:
        raise ValueError(f"pad: unsupported keyword arguments for mode {mode!r}: "
                         f"{sorted(unknown)}")
    odd = kwargs.get("reflect_type", "even")
    if odd not in ("even", "odd"):
        raise ValueError(f"pad: reflect_type must be 'even' or 'odd', not {odd!r}")
    odd = odd == "odd"
    if odd and x.dtype is dt.bool_:
        raise TypeError("pad: reflect_type='odd' subtracts from twice the edge: it needs "
                        "numbers, not bool")
    widths = _pairs("pad_width", pad_width, x.ndim)
    if widths.dtype.kind not in "iu":
        raise TypeError("pad: pad_width must be of integral type")
    if (widths < 0).any():
        raise ValueError("pad: index can't contain negative values")
    constants = _pairs("constant_values", kwargs.get("constant_values", 0), x.ndim)
    out = x
    for axis, (before, after) in enumerate(widths.tolist()):
        if not before and not after:
            continue
        n = out.shape[axis]
        length = before + n + after
        if mode in _COPYING:
            places = np.pad(np.arange(n), (before, after), mode=mode)
            gathered = take(out, places, axis=axis)
            out = _odd(out, gathered, axis, (before, after), mode) if odd and n > 1 else gathered
            continue
        if mode != "constant" and mode != "empty":
            if n == 0:
                raise ValueError(f"pad: can't extend empty axis {axis} using modes other "
                                 "than 'constant' or 'empty'")
            out = _computed(out, axis, before, after, mode, kwargs)
            continue
        if n == 0:
            out = full(_resized(out.shape, axis, length), _cast(constants[axis][0], x.dtype),
                       dtype=x.dtype, device=out.device)
            continue
        # The constants joined to the array: a CPU walk copies each part in a span of its
        # own (a gather through host-made positions read 8 bytes more per element).
        parts = [full(_resized(out.shape, axis, width), _cast(constants[axis][k], x.dtype),
                      dtype=x.dtype, device=out.device) for k, width in ((0, before),
                                                                       (1, after))]
        out = concatenate([p for p in (parts[0], out, parts[1]) if p.shape[axis]], axis=axis)
    return out


def _resized(shape: tuple[int, ...], axis: int, length: int) -> tuple[int, ...]:
    return tuple(length if k == axis else s for k, s in enumerate(shape))


def _cast(value: np.generic, dtype: Any) -> np.generic:
    """A constant as NumPy's pad stores it into an array of ``dtype``: cast unsafely
    (integers wrap), a NaN into integers a ValueError."""
    holder = np.empty(1, dtype=dt.to_dtype(dtype).numpy)
    holder[0] = value
    return holder[0]


def _odd(x: Array, even: Array, axis: int, widths: tuple[int, int], mode: str) -> Array:
    """NumPy's ``reflect_type="odd"`` from the even padding ``even`` of ``x``: NumPy pads
    each element as twice the edge minus its even reflection, the edge being the last one
    it padded (chunk by chunk where the padding is longer than ``x``), so unrolled each is
    ``s * x[j] + a * x[0] + b * x[n-1]`` with ``x[j]`` its even reflection, ``s`` 1, -1 or 0
    and ``a``, ``b`` integers. The result being linear in ``x``, NumPy's own odd padding of
    three vectors on the host names ``s``, ``a`` and ``b``."""
    n = x.shape[axis]
    first, last, inner = np.zeros(n), np.zeros(n), np.ones(n)
    first[0] = last[-1] = 1
    inner[0] = inner[-1] = 0
    shape = [1] * x.ndim
    shape[axis] = even.shape[axis]
    dtype = x.dtype

    def coefficients(v: np.ndarray) -> Array:
        found = np.pad(v, widths, mode=mode, reflect_type="odd")
        if not dtype.is_float:  # through int64: -1 wraps into an unsigned type
            found = found.astype(np.int64)
        found = found.astype(dtype.numpy)
        return asarray(found.reshape(shape), device=x.device)

    s, a, b = coefficients(inner), coefficients(first), coefficients(last)
    ends = [x[0:1] if axis == 0 else x[:, 0:1], x[n - 1:n] if axis == 0 else x[:, n - 1:n]]
    # Each term only where its coefficient is not 0: 0 * inf would be NaN.
    out = (where(s != 0, s * even, 0) + where(a != 0, a * ends[0], 0)
           + where(b != 0, b * ends[1], 0))
    return out.astype(dtype)


def _computed(x: Array, axis: int, before: int, after: int, mode: str,
              kwargs: dict[str, Any]) -> Array:
    """``x`` with blocks computed from its ends joined along ``axis``: their statistics,
    or ramps from them to the end values."""
    n = x.shape[axis]
    blocks = []
    for side, width in ((0, before), (1, after)):
        if not width:
            continue
        shape = tuple(width if k == axis else s for k, s in enumerate(x.shape))
        if mode == "linear_ramp":
            end = _pairs("end_values", kwargs.get("end_values", 0), x.ndim)[axis][side].item()
            block = _ramp(_end(x, axis, side, 1), end, width, side, axis, x)
        else:
            count = kwargs.get("stat_length")
            count = n if count is None else _stat_length(count, x.ndim)[axis][side]
            block = broadcast_to(_statistic(mode, _end(x, axis, side, min(count, n)), axis,
                                            x), shape)
        blocks.append((side, block))
    pieces = [b for side, b in blocks if side == 0] + [x] + [b for side, b in blocks
                                                          if side == 1]
    return concatenate(pieces, axis=axis)


def _stat_length(value: Any, ndim: int) -> np.ndarray:
    lengths = _pairs("stat_length", value, ndim)
    if lengths.dtype.kind not in "iu" or (lengths < 1).any():
        raise ValueError(f"pad: stat_length must be positive integers (a count of the "
                         f"elements at an end; None for all), not {value!r}")
    return lengths


def _end(x: Array, axis: int, side: int, count: int) -> Array:
    """The ``count`` elements at the start (side 0) or end of ``x`` along ``axis``."""
    n = x.shape[axis]
    start, stop = (0, count) if side == 0 else (n - count, n)
    return x[start:stop] if axis == 0 else x[:, start:stop]


def _statistic(mode: str, block: Array, axis: int, x: Array) -> Array:
    if mode == "median":
        value = median(block, axis=axis, keepdims=True)
    else:
        value = reduce({"maximum": "max", "minimum": "min", "mean": "mean"}[mode], block,
                       axis=axis, keepdims=True)
    if not x.dtype.is_float and mode in ("mean", "median"):
        value = apply_op("rint", value)  # half to even, as NumPy's around
    return value.astype(x.dtype)


def _ramp(edge: Array, end: float, width: int, side: int, axis: int, x: Array) -> Array:
    """NumPy's linear ramp from ``end`` toward ``edge`` (which it stops short of) over
    ``width`` elements, reversed after the array (side 1); floored for integers, as NumPy's
    linspace."""
    steps = arange(width, dtype=dt.float64, device=x.device)
    if side == 1:
        steps = (width - 1) - steps
    if x.ndim == 2:
        steps = steps.reshape((width, 1) if axis == 0 else (1, width))
    real = edge.astype(dt.float64)
    value = end + steps * ((real - end) / width)
    if not x.dtype.is_float:
        value = apply_op("floor", value)
    return value.astype(x.dtype)
