"""Integer-array indexing: gathers (``x[rows, cols]``, ``x[idx]``, ``x[idx, 1:3]``) and, as
assignment targets, scatters. Indexes are checked inside the kernel: an out-of-range index
raises ``IndexError`` naming it. Negative indexes count from the end, as in NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import expr as ex
from .array import Array
from .creation import asarray
from .indexing import AffineMap, as_2d, integer_position, is_integer, normalize
from .writes import Target


def _is_index_array(k: Any) -> bool:
    return isinstance(k, (Array, np.ndarray, list, tuple))


def split_key(key: Any, ndim: int) -> list[Any] | None:
    """``key``'s parts when it holds integer arrays, else None (basic indexing)."""
    parts = key if isinstance(key, tuple) else (key,)
    if not any(_is_index_array(k) for k in parts):
        return None
    parts = normalize(key, ndim)
    out = []
    for k in parts:
        if _is_index_array(k):
            arr = k if isinstance(k, Array) else asarray(k)
            if arr.dtype.kind == "b":
                raise TypeError("a boolean mask indexes a whole array (x[mask], a mask of "
                                "x's shape or of its rows), not one part of an index; "
                                "wf.nonzero(mask) gives the positions")
            if arr.dtype.kind not in "ui":
                raise IndexError(f"arrays used as indices must be of integer type, not "
                                 f"{arr.dtype}")
            out.append(arr)
        else:
            out.append(k)
    return out


def _gather_spec(x: Array, key: Any) -> tuple[ex.Gather, tuple[ex.Node, ...], tuple[int, ...]]:
    parts = split_key(key, x.ndim)
    assert parts is not None
    if x.ndim == 0:
        raise IndexError("a 0-d array cannot be indexed by arrays")
    shape2 = as_2d(x.shape)
    if x.ndim == 1:
        idx = parts[0]
        return ex.Gather((0, 0, 0), "array"), (idx._node,), idx.shape
    rows_k, cols_k = parts
    arrays = [k for k in parts if isinstance(k, Array)]
    if all(isinstance(k, Array) or is_integer(k) for k in parts):
        nodes = []
        for axis, k in enumerate(parts):
            if isinstance(k, Array):
                nodes.append(k._node)
            else:
                integer_position(k, shape2[axis], axis)
                nodes.append(ex.scalar(int(k), arrays[0].dtype))
        shape = ex.broadcast_shapes("indexing", *(n.shape for n in nodes))
        return ex.Gather("array", "array"), tuple(nodes), shape
    # one integer array and one slice: the array picks along its axis, the slice the other
    if len(arrays) != 1 or arrays[0].ndim != 1:
        raise IndexError("an integer array combined with a slice must be one 1-d array")
    idx = arrays[0]
    axis = 0 if isinstance(rows_k, Array) else 1
    other = cols_k if axis == 0 else rows_k
    start, stop, step = other.indices(shape2[1 - axis])
    count = len(range(start, stop, step))
    if axis == 0:
        # result (len(idx), count): row = idx[i], col = start + step * j
        column = ex.view(idx._node, (len(idx), 1), AffineMap(0, 0, 0, 0, 1, 0))
        return (ex.Gather("array", (start if count else 0, 0, step)), (column,),
                (len(idx), count))
    return ex.Gather((start if count else 0, step, 0), "array"), (idx._node,), (count, len(idx))


def _source(x: Array) -> ex.Node:
    x.eval()
    return x._node


def gather_1d(x: Array, index: Array) -> Array:
    """``x[index]`` of a 1-D ``x`` and a 1-D ``index`` array: ``gather_key``'s common case
    without parsing a key (an ad-hoc ``take`` in a loop took 60 us of Python on PoCL's host).

    >>> import weft as wf
    >>> gather_1d(wf.asarray([10, 20, 30]), wf.asarray([2, 0])).tolist()
    [30, 10]
    """
    if index.dtype.kind not in "ui":
        if index.dtype.kind == "b":
            return gather_key(x, index)  # (its error: a mask indexes a whole array)
        raise IndexError(f"arrays used as indices must be of integer type, not {index.dtype}")
    return _gather_1d(x, index, trusted=False)


def gather_key(x: Array, key: Any) -> Array:
    """``x[key]`` for a key with integer arrays: a lazy gather from ``x``'s buffer.

    >>> import weft as wf
    >>> wf.asarray([10, 20, 30])[wf.asarray([2, 0])].tolist()
    [30, 10]
    """
    spec, indexes, shape = _gather_spec(x, key)
    if len(shape) > 2:
        raise IndexError(f"the result of this indexing would have shape {shape}; weft arrays "
                         "have at most 2 dimensions")
    indexes = tuple(ex.cast(n, _int64()) for n in indexes)
    return Array(ex.gather(_source(x), indexes, spec, shape), x.device)


def take_in_bounds(x: Array, index: Array) -> Array:
    """``x[index]`` of a 1-D ``x`` where the caller's construction keeps every index in
    bounds (clamped, or picked by a ``where``): plain loads, without the per-element check
    and error record of a user's index (a kernel's own arithmetic, not an input).

    >>> import weft as wf
    >>> take_in_bounds(wf.asarray([10.0, 20.0]), wf.asarray([1, 1, 0])).tolist()
    [20.0, 20.0, 10.0]
    """
    return _gather_1d(x, index, trusted=True)


def _gather_1d(x: Array, index: Array, trusted: bool) -> Array:
    node = ex.gather(_source(x), (ex.cast(index._node, _int64()),),
                     ex.Gather((0, 0, 0), "array", trusted=trusted), index.shape)
    return Array(node, x.device)


def scatter_target(x: Array, key: Any) -> Target:
    """The target of ``x[key] = v`` with integer arrays (duplicate indexes: one write wins)."""
    spec, indexes, shape = _gather_spec(x, key)
    indexes = tuple(ex.cast(n, _int64()) for n in indexes)
    x.eval()
    return Target(x, shape, None, scatter=(spec, indexes))


def _int64():
    from .dtypes import int64

    return int64


# Differentiated scatters ------------------------------------------------------------------


def positions(shape: tuple[int, ...], device: Any) -> Array:
    """Each element's row-major position in ``shape``, as int64."""
    from .creation import arange

    count = int(np.prod(shape, dtype=np.int64))
    return arange(count, dtype="int64", device=device).reshape(shape)


def one_winner(target: Target, value: ex.Node, device: Any) -> tuple[ex.Node, ex.Node]:
    """A scatter whose written values are being differentiated, made deterministic: where
    indexes repeat, one write wins and which one the kernel does not say, so the positions
    of the values are scattered first (``landed``: per written element, the position whose
    value landed there) and every write of an element then writes the winner's value. The
    gradient goes to the winner alone (as JAX's scatter). Returns ``(landed, value to
    write)``."""
    from .creation import full
    from .writes import write_targets

    spec, indexes = target.scatter
    shape = target.shape
    winners = full(target.base.shape, -1, dtype="int64", device=device)
    write_targets([Target(winners, shape, None, scatter=target.scatter)],
                  [positions(shape, device)._node])
    landed = ex.gather(winners._node, indexes, spec, shape)
    source = _source(Array(value, device))
    if len(shape) == 1:
        written = ex.gather(source, (landed,), ex.Gather((0, 0, 0), "array"), shape)
    else:
        at = Array(landed, device)
        rows, cols = at // shape[1], at % shape[1]
        written = ex.gather(source, (rows._node, cols._node), ex.Gather("array", "array"),
                            shape)
    return landed, written


def scattered_adjoint(g: Array, scattered: tuple, shape: tuple[int, ...]) -> Array:
    """The adjoint of the values a scatter wrote, from the adjoint ``g`` of the array
    written into: each value takes ``g`` where it landed, if it won there (``one_winner``)."""
    import weft

    spec, indexes, landed = scattered
    at = Array(ex.gather(_source(g), indexes, spec, shape), g.device)
    if landed is None:  # one element: nothing to repeat
        return at
    return weft.where(Array(landed, g.device) == positions(shape, g.device), at, 0)
