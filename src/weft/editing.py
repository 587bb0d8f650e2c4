"""NumPy's ``insert`` and ``delete``: a new array with elements put in or left out along an
axis (the flattened array without one). Where the elements go is worked out on the host from
``obj`` (as NumPy does); the result is lazy: a join of the pieces that stay in order (views of
the array and of the values, fused into one kernel), or, where the pieces are many, one
gather from positions computed on the host.

>>> import weft as wf
>>> wf.insert(wf.asarray([1, 2, 3]), 1, 9).tolist()
[1, 9, 2, 3]
>>> wf.delete(wf.asarray([[1, 2, 3], [4, 5, 6]]), 1, axis=1).tolist()
[[1, 3], [4, 6]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .array import Array
from .creation import asarray, broadcast_to
from .indexing import checked_axis
from .matrix import concatenate, ravel
from .rearrange import take

__all__ = ["insert", "delete"]

# Past this many runs of consecutive positions, one gather beats a join of as many views.
_RUNS_JOINED = 8


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


def _from_positions(sources: list[Array], positions: np.ndarray, axis: int) -> Array:
    """The elements along ``axis`` of the sources joined end to end, read at ``positions``
    (into that join): views of runs joined where the runs are few, else one gather."""
    lengths = [s.shape[axis] for s in sources]
    starts = np.cumsum([0, *lengths])
    breaks = np.flatnonzero(np.diff(positions) != 1) + 1
    runs = np.split(positions, breaks) if positions.size else []
    if len(runs) > _RUNS_JOINED:
        joined = concatenate(sources, axis=axis) if len(sources) > 1 else sources[0]
        return take(joined, asarray(positions, device=joined.device), axis=axis)
    pieces = []
    for run in runs:
        first, last = int(run[0]), int(run[-1])
        k = int(np.searchsorted(starts, first, side="right")) - 1
        while last >= starts[k + 1]:  # a run that crosses into the next source: split it
            pieces.append(_cut(sources[k], first - starts[k], lengths[k], axis))
            first = int(starts[k + 1])
            k += 1
        pieces.append(_cut(sources[k], first - starts[k], last + 1 - starts[k], axis))
    if not pieces:
        return _cut(sources[0], 0, 0, axis)
    return pieces[0].copy() if len(pieces) == 1 else concatenate(pieces, axis=axis)


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
        gone = _indices("delete", given, length, axis)
    kept = np.ones(length, dtype=bool)
    kept[gone] = False
    return _from_positions([x], np.flatnonzero(kept), axis)


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
        order = np.concatenate([np.arange(index), length + np.arange(count),
                                np.arange(index, length)])
        return _from_positions([x, block], order, axis)
    at = at.reshape(-1)
    count = at.size
    shape = (count,) if x.ndim == 1 else ((count, x.shape[1]) if axis == 0
                                          else (x.shape[0], count))
    block = broadcast_to(block, shape)
    # Where each new value lands: its position plus the values put in before it (ties in
    # the order given), as NumPy.
    order = np.argsort(at, kind="stable")
    landing = np.empty(count, dtype=np.int64)
    landing[order] = at[order] + np.arange(count)
    source = np.empty(length + count, dtype=np.int64)
    is_new = np.zeros(length + count, dtype=bool)
    is_new[landing] = True
    source[landing] = length + np.arange(count)
    source[~is_new] = np.arange(length)
    return _from_positions([x, block], source, axis)
