"""NumPy's ``insert`` and ``delete``: a new array with elements put in or left out along an
axis (the flattened array without one). The runs that stay in order are worked out on the
host from ``obj`` alone (as many as the positions given, not the array's length); the
result is lazy: the runs' views joined (one fused kernel), or, where they are many, one
gather: its positions made by NumPy on a CPU device's host (insert, and delete of short
arrays), else on the device (so nothing of the array's length crosses to it): for insert by
a search among the positions given, for delete by a running count of the positions marked.

>>> import weft as wf
>>> wf.insert(wf.asarray([1, 2, 3]), 1, 9).tolist()
[1, 9, 2, 3]
>>> wf.delete(wf.asarray([[1, 2, 3], [4, 5, 6]]), 1, axis=1).tolist()
[[1, 3], [4, 6]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array, apply_op
from .compaction import flatnonzero
from .creation import arange, asarray, broadcast_to, full
from .functions import where
from .indexing import checked_axis
from .matrix import concatenate, ravel
from .rearrange import take
from .searching import searchsorted

__all__ = ["insert", "delete"]

# Past this many runs of consecutive positions, one gather beats a join of as many views.
_RUNS_JOINED = 8
# A CPU device's delete makes the gather's positions on the host up to this length (one
# launch: 10^4 elements 0.29 ms against 0.89); past it, by compacting a mask of the kept
# ones, as GPUs do.
_HOST_POSITIONS = 1 << 16


def _along(name: str, arr: Any, axis: int | None) -> tuple[Array, int]:
    x = arr if isinstance(arr, Array) else asarray(arr)
    if axis is None:
        return ravel(x), 0
    if x.ndim == 0:
        raise np.exceptions.AxisError(f"{name}: axis {axis} is out of bounds for a 0-d array")
    return x, checked_axis(name, axis, x.ndim)


def _indices(name: str, obj: Any, length: int, axis: int) -> np.ndarray:
    """``obj`` (an int, ints, a slice) as int64 positions along an axis of ``length``,
    negative ones counted from the end; out of range raises as NumPy's."""
    if isinstance(obj, slice):
        return np.arange(*obj.indices(length), dtype=np.int64)
    given = obj.to_numpy() if isinstance(obj, Array) else np.asarray(obj)
    if given.size == 0:
        return given.astype(np.int64)
    if given.dtype.kind not in "iu":
        raise IndexError(f"{name}: arrays used as indices must be of integer (or boolean) "
                         f"type, not {given.dtype}")
    end = length - 1 if name == "delete" else length  # insert may put values after the end
    bad = given[(given < -length) | (given > end)]
    if bad.size:
        raise IndexError(f"{name}: index {bad.flat[0]} is out of bounds for axis {axis} with "
                         f"size {length}")
    return np.where(given < 0, given + length, given).astype(np.int64)


def _sorted_unique(positions: np.ndarray) -> np.ndarray:
    """``positions`` sorted without repeats; as given where they already are (a slice's:
    NumPy's hashing ``unique`` took 1.2 ms for 16777 of them on the GPU machine's host)."""
    flat = positions.reshape(-1)
    if np.all(flat[1:] > flat[:-1]):
        return flat
    return np.unique(flat)


def _joined(sources: list[Array], runs: list[tuple[int, int, int]], axis: int) -> Array:
    """The runs ``(source, start, stop)`` along ``axis`` joined in order: views of the
    sources, one fused kernel."""
    pieces = [_cut(sources[k], start, stop, axis) for k, start, stop in runs if stop > start]
    if not pieces:
        return _cut(sources[0], 0, 0, axis)
    return pieces[0].copy() if len(pieces) == 1 else concatenate(pieces, axis=axis)


def _gathered(x: Array, source: np.ndarray, axis: int) -> Array:
    """``x`` read along ``axis`` at the positions ``source`` made on the host (a CPU
    device's memory is the host's)."""
    return take(x, asarray(source, device=x.device), axis=axis)


def _cut(x: Array, start: int, stop: int, axis: int) -> Array:
    return x[int(start):int(stop)] if axis == 0 else x[:, int(start):int(stop)]


def delete(arr: Any, obj: Any, axis: int | None = None) -> Array:
    """``arr`` without the elements at ``obj`` (an int, ints, a slice, or a boolean mask of
    the axis's length) along ``axis`` (of the flattened array for None), as NumPy's
    ``delete``: a new array.

    >>> import weft as wf
    >>> wf.delete(wf.asarray([1.0, 2.0, 3.0, 4.0]), [0, -1]).tolist()
    [2.0, 3.0]
    """
    x, axis = _along("delete", arr, axis)
    length = x.shape[axis]
    given = obj.to_numpy() if isinstance(obj, Array) else obj
    if not isinstance(given, slice) and np.asarray(given).dtype == np.bool_:
        mask = np.asarray(given)
        if mask.shape != (length,):
            raise ValueError(f"delete: a boolean obj must be one-dimensional and match the "
                             f"axis length of {length}, not shape {mask.shape}")
        gone = np.flatnonzero(mask)
    else:
        gone = _sorted_unique(_indices("delete", given, length, axis))
    starts = np.concatenate(([0], gone + 1))  # the kept runs: between the deleted ones
    stops = np.concatenate((gone, [length]))
    kept = stops > starts
    if np.count_nonzero(kept) <= _RUNS_JOINED:
        return _joined([x], [(0, int(a), int(b)) for a, b in zip(starts[kept], stops[kept])],
                       axis)
    if x.device.traits.is_cpu and length <= _HOST_POSITIONS:
        return _gathered(x, np.delete(np.arange(length), gone), axis)
    # The kept positions: the axis's mask with the deleted ones cleared, compacted (by the
    # device's library where it reads the mask in place: compaction.py). PoCL, 2^22 doubles
    # without every 1000th: 13.7 -> 11.2 ms (NumPy 13.8), against a running count of marks.
    keep = full((length,), True, device=x.device)
    keep[asarray(gone, device=x.device)] = False
    return take(x, flatnonzero(keep), axis=axis)


def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> Array:
    """``arr`` with ``values`` put in before the positions ``obj`` along ``axis`` (of the
    flattened array for None), as NumPy's ``insert``: for one position (an int) the
    values go in as a block (a 1-D sequence along a matrix's other axis is one row or
    column); for several, one value each, broadcast, in the order given where positions
    repeat. The values take the array's dtype (as NumPy, which casts them unsafely).

    >>> import weft as wf
    >>> wf.insert(wf.asarray([[1, 2], [3, 4]]), 1, [7, 8], axis=1).tolist()
    [[1, 7, 2], [3, 8, 4]]
    """
    x, axis = _along("insert", arr, axis)
    length = x.shape[axis]
    given = obj.to_numpy() if isinstance(obj, Array) else obj
    if not isinstance(given, slice) and np.asarray(given).dtype == np.bool_:
        raise IndexError("insert: obj must be integers or a slice, not booleans (NumPy reads "
                         "them as 0 and 1 only with a warning)")
    at = _indices("insert", given, length, axis)
    block = values if isinstance(values, Array) else asarray(values, device=x.device)
    block = block.astype(x.dtype)
    if at.size == 1:
        # One position: the values as a block (NumPy's ndmin=arr.ndim, then, for a scalar
        # position, their first axis moved to ``axis``).
        while block.ndim < x.ndim:
            block = block.reshape(1, *block.shape)
        if not isinstance(given, slice) and np.ndim(given) == 0 and axis == 1:
            block = block.T
        count = block.shape[axis] if block.ndim else 1
        shape = (count,) if x.ndim == 1 else ((count, x.shape[1]) if axis == 0
                                              else (x.shape[0], count))
        block = broadcast_to(block, shape)
        index = int(at.reshape(-1)[0])
        return _joined([x, block], [(0, 0, index), (1, 0, count), (0, index, length)], axis)
    at = at.reshape(-1)
    count = at.size
    shape = (count,) if x.ndim == 1 else ((count, x.shape[1]) if axis == 0
                                          else (x.shape[0], count))
    block = broadcast_to(block, shape)
    # The values in the order they land (ties in the order given, as NumPy): value
    # order[i] goes before element at[order[i]].
    order = np.argsort(at, kind="stable")
    before = at[order]
    if count <= _RUNS_JOINED:  # (each value is a run of its own)
        runs, start = [], 0
        for i, place in enumerate(before.tolist()):
            runs += [(0, start, place), (1, int(order[i]), int(order[i]) + 1)]
            start = place
        runs.append((0, start, length))
        if sum(stop > first for _, first, stop in runs) <= _RUNS_JOINED:
            return _joined([x, block], runs, axis)
    # Where each element of the result comes from in the array and the values joined end
    # to end: the i-th value to land at before[i] + i, the array's elements around them.
    joined = concatenate([x, block], axis=axis)
    landing = before + np.arange(count)
    if x.device.traits.is_cpu:
        source = np.empty(length + count, dtype=np.int64)
        is_value = np.zeros(length + count, dtype=bool)
        is_value[landing] = True
        source[landing] = length + order
        source[~is_value] = np.arange(length)
        return _gathered(joined, source, axis)
    # On a GPU, positions of the result's length made there, not sent: p is the i-th value
    # where p = landing[i], else element p - (values landed before p).
    landed_at = asarray(landing, device=x.device)
    p = arange(length + count, dtype=dt.int64, device=x.device)
    landed = searchsorted(landed_at, p, side="left")
    last = apply_op("minimum", landed, count - 1)
    is_value = take(landed_at, last) == p
    value = take(asarray(order, device=x.device), last)
    return take(joined, where(is_value, length + value, p - landed), axis=axis)
