"""NumPy's functions that rearrange elements (``roll``, ``tile``, ``repeat``, ``take``,
``take_along_axis``, ``meshgrid``, ``broadcast_arrays``, ``moveaxis``, ``unstack``) and
``tensordot``, over
weft's arrays of at most 2 dimensions: lazy views, joins and gathers of what the module
``matrix`` and indexing already build, so they fuse like any other expression.

>>> import weft as wf
>>> wf.roll(wf.asarray([1, 2, 3, 4]), 1).tolist()
[4, 1, 2, 3]
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .array import Array
from .creation import arange, asarray, broadcast_to, zeros
from .indexing import checked_axis
from .matrix import concatenate, ravel


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray(x)


def _slice(x: Array, axis: int, start: int | None, stop: int | None) -> Array:
    return x[start:stop] if axis == 0 else x[:, start:stop]


def take(x: Any, indices: Any, axis: int | None = None) -> Array:
    """The elements at ``indices`` of the flattened array, or along ``axis``, as NumPy's
    ``take`` (a gather).

    >>> import weft as wf
    >>> wf.take(wf.asarray([[1, 2], [3, 4]]), [3, 0]).tolist()
    [4, 1]
    """
    return _array(x).take(indices, axis=axis)


def take_along_axis(arr: Any, indices: Any, axis: int | None = -1) -> Array:
    """The elements of ``arr`` at ``indices`` along ``axis``, pairing each index with its
    position along the other axis, as ``numpy.take_along_axis`` (a gather): what
    ``argsort`` and ``argmax(keepdims=True)`` positions pick. ``axis=None`` reads the
    flattened array.

    >>> import weft as wf
    >>> x = wf.asarray([[10, 30, 20], [60, 40, 50]])
    >>> wf.take_along_axis(x, wf.argsort(x, axis=1), axis=1).tolist()
    [[10, 20, 30], [40, 50, 60]]
    """
    arr, indices = _array(arr), _array(indices)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"take_along_axis: indices must be integers, not {indices.dtype}")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("take_along_axis: with axis=None the indices must be 1-D, not "
                             f"of shape {indices.shape}")
        return ravel(arr)[indices]
    if indices.ndim != arr.ndim:
        raise ValueError(f"take_along_axis: indices of {indices.ndim} dims for an array of "
                         f"{arr.ndim} (they must match)")
    along = checked_axis("take_along_axis", axis, arr.ndim)
    if arr.ndim == 1:
        return arr[indices]
    other = 1 - along
    try:
        size = np.broadcast_shapes((arr.shape[other],), (indices.shape[other],))[0]
    except ValueError:
        raise ValueError(f"take_along_axis: shapes {arr.shape} and {indices.shape} do not "
                         f"broadcast along axis {other}") from None
    shape = (indices.shape[0], size) if along == 0 else (size, indices.shape[1])
    positions = arange(size) if arr.shape[other] == size else zeros(size, dtype=np.int64)
    positions = broadcast_to(positions.reshape((1, size) if along == 0 else (size, 1)), shape)
    indices = broadcast_to(indices, shape)
    return arr[indices, positions] if along == 0 else arr[positions, indices]


def roll(x: Any, shift: Any, axis: Any = None) -> Array:
    """``x`` with its elements shifted by ``shift`` along ``axis`` (the flattened array
    when None), those that fall off one end coming back at the other, as NumPy's.

    >>> import weft as wf
    >>> wf.roll(wf.asarray([[1, 2, 3], [4, 5, 6]]), -1, axis=1).tolist()
    [[2, 3, 1], [5, 6, 4]]
    """
    x = _array(x)
    if axis is None:
        return roll(ravel(x), shift, 0).reshape(x.shape)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(axes) != len(shifts):
        if len(shifts) == 1:
            shifts = shifts * len(axes)
        elif len(axes) == 1:
            axes = axes * len(shifts)
        else:
            raise ValueError("roll: shift and axis must have the same length")
    out = x
    for s, a in zip(shifts, axes):
        a = checked_axis("roll", a, x.ndim, zero_d_has_one=True)
        n = x.shape[a] if x.ndim else 1
        s = operator.index(s) % n if n else 0
        if s and x.ndim:
            out = concatenate([_slice(out, a, n - s, None), _slice(out, a, None, n - s)],
                              axis=a)
    return out if out is not x else x.copy()


def tile(x: Any, reps: Any) -> Array:
    """``x`` repeated ``reps`` times along each axis (an int: the last), as NumPy's; the
    result has at most 2 dimensions.

    >>> import weft as wf
    >>> wf.tile(wf.asarray([1, 2]), (2, 2)).tolist()
    [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    x = _array(x)
    reps = tuple(operator.index(r) for r in (reps if isinstance(reps, (tuple, list))
                                              else (reps,)))
    ndim = max(x.ndim, len(reps))
    if ndim > 2:
        raise ValueError(f"tile: the result would have {ndim} dimensions; weft arrays have "
                         "at most 2")
    if any(r < 0 for r in reps):
        raise ValueError(f"tile: negative repetitions {reps}")
    shape = (1,) * (ndim - x.ndim) + x.shape
    out = x.reshape(shape) if shape != x.shape else x
    reps = (1,) * (ndim - len(reps)) + reps
    for a in reversed(range(ndim)):
        if reps[a] != 1:
            out = concatenate([out] * reps[a], axis=a) if reps[a] else _slice(out, a, 0, 0)
    return out if out is not x else x.copy()


def repeat(x: Any, repeats: Any, axis: int | None = None) -> Array:
    """Each element repeated ``repeats`` times, along ``axis`` or of the flattened array, as
    NumPy's: one count for all (a gather of each position ``k // repeats``), or one per
    element along the axis (the result's length, their sum, is read back; each position is
    where it falls among their running sums).

    >>> import weft as wf
    >>> wf.repeat(wf.asarray([1, 2]), 2).tolist()
    [1, 1, 2, 2]
    >>> wf.repeat(wf.asarray([1, 2, 3]), [2, 0, 1]).tolist()
    [1, 1, 3]
    """
    x = _array(x)
    source = ravel(x) if axis is None else x
    a = 0 if axis is None else checked_axis("repeat", axis, x.ndim, zero_d_has_one=True)
    n = source.shape[a] if source.ndim else 1
    if isinstance(repeats, bool) or not isinstance(repeats, (int, np.integer)):
        return source.take(_positions_by_counts(repeats, n), axis=a)
    if repeats < 0:
        raise ValueError(f"repeat: negative repeats {repeats}")
    positions = arange(n * int(repeats)) // int(repeats) if repeats else arange(0)
    return source.take(positions, axis=a)


def _positions_by_counts(repeats: Any, n: int) -> Array:
    """The positions 0..n-1, each ``repeats[k]`` times (one count broadcast to all)."""
    from .scans import cumsum
    from .searching import searchsorted

    counts = _array(repeats)
    if counts.dtype.kind not in "iub":
        raise TypeError(f"repeat: repeats must be integers, not {counts.dtype}")
    if counts.ndim > 1 or counts.size not in (1, n):
        raise ValueError(f"repeat: {counts.size} counts for {n} elements along the axis")
    counts = broadcast_to(counts.reshape(()) if counts.size == 1 else counts, (n,))
    if n and int(counts.min()) < 0:
        raise ValueError("repeat: negative repeats")
    ends = cumsum(counts.astype(np.int64))
    total = int(ends[n - 1]) if n else 0
    return searchsorted(ends, arange(total, dtype=np.int64), side="right")


def meshgrid(*xs: Any, indexing: str = "xy") -> list[Array]:
    """Coordinate matrices from one or two coordinate vectors, as NumPy's: ``indexing``
    "xy" (Cartesian: the first vector along the columns) or "ij" (matrix). Views of the
    vectors, broadcast.

    >>> import weft as wf
    >>> xs, ys = wf.meshgrid(wf.asarray([1, 2, 3]), wf.asarray([10, 20]))
    >>> xs.tolist(), ys.tolist()
    ([[1, 2, 3], [1, 2, 3]], [[10, 10, 10], [20, 20, 20]])
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', not {indexing!r}")
    vectors = [ravel(_array(x)) for x in xs]
    if len(vectors) > 2:
        raise ValueError(f"meshgrid: {len(vectors)} vectors would give {len(vectors)}-d "
                         "grids; weft arrays have at most 2 dimensions")
    if len(vectors) < 2:
        return [v.copy() for v in vectors]
    first, second = vectors
    if indexing == "xy":
        shape = (second.shape[0], first.shape[0])
        return [broadcast_to(first[None, :], shape), broadcast_to(second[:, None], shape)]
    shape = (first.shape[0], second.shape[0])
    return [broadcast_to(first[:, None], shape), broadcast_to(second[None, :], shape)]


def broadcast_arrays(*xs: Any) -> list[Array]:
    """The arrays broadcast to their common shape, as NumPy's (views).

    >>> import weft as wf
    >>> [a.shape for a in wf.broadcast_arrays(wf.asarray([1, 2]), wf.asarray([[1], [2]]))]
    [(2, 2), (2, 2)]
    """
    arrays = [_array(x) for x in xs]
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    return [a if a.shape == shape else broadcast_to(a, shape) for a in arrays]


def moveaxis(x: Any, source: Any, destination: Any) -> Array:
    """``x`` with the axes ``source`` moved to ``destination``, as NumPy's.

    >>> import weft as wf
    >>> wf.moveaxis(wf.asarray([[1, 2, 3]]), 0, -1).shape
    (3, 1)
    """
    x = _array(x)
    sources = source if isinstance(source, (tuple, list)) else (source,)
    targets = destination if isinstance(destination, (tuple, list)) else (destination,)
    if len(sources) != len(targets):
        raise ValueError("moveaxis: source and destination must have the same length")
    sources = [checked_axis("moveaxis", a, x.ndim, zero_d_has_one=True) for a in sources]
    targets = [checked_axis("moveaxis", a, x.ndim, zero_d_has_one=True) for a in targets]
    if len(set(sources)) != len(sources) or len(set(targets)) != len(targets):
        raise ValueError("moveaxis: repeated axis")
    order = [a for a in range(x.ndim) if a not in sources]
    for target, a in sorted(zip(targets, sources)):
        order.insert(target, a)
    return x.T if order == [1, 0] else x.copy()


def unstack(x: Any, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis``, as the array API's ``unstack`` (views).

    >>> import weft as wf
    >>> [r.tolist() for r in wf.unstack(wf.asarray([[1, 2], [3, 4]]), axis=1)]
    [[1, 3], [2, 4]]
    """
    x = _array(x)
    if not x.ndim:
        raise ValueError("unstack: a 0-d array has no axis to unstack")
    a = checked_axis("unstack", axis, x.ndim, zero_d_has_one=True)
    return tuple(x[k] if a == 0 else x[:, k] for k in range(x.shape[a]))


def tensordot(a: Any, b: Any, axes: Any = 2) -> Array:
    """Sums of products over ``axes`` (a count: the last of ``a`` with the first of ``b``;
    or two sequences of axes), as NumPy's; operands and result of at most 2 dimensions.

    >>> import weft as wf
    >>> wf.tensordot(wf.asarray([[1.0, 2.0], [3.0, 4.0]]), wf.asarray([1.0, 1.0]), 1).tolist()
    [3.0, 7.0]
    """
    from .linalg import matmul, outer

    a, b = _array(a), _array(b)
    if isinstance(axes, (int, np.integer)):
        count = operator.index(axes)
        if count < 0 or count > min(a.ndim, b.ndim):
            raise ValueError(f"tensordot: cannot contract {count} axes of shapes {a.shape} "
                             f"and {b.shape}")
        left = list(range(a.ndim - count, a.ndim))
        right = list(range(count))
    else:
        left, right = ([checked_axis("tensordot", k, x.ndim, zero_d_has_one=True) for k in
                        (ks if isinstance(ks, (tuple, list)) else (ks,))]
                       for ks, x in zip(axes, (a, b)))
    if len(left) != len(right) or any(a.shape[i] != b.shape[j] for i, j in zip(left, right)):
        raise ValueError(f"tensordot: axes {left} of {a.shape} do not match {right} of "
                         f"{b.shape}")
    kept_a = [k for k in range(a.ndim) if k not in left]
    kept_b = [k for k in range(b.ndim) if k not in right]
    if len(kept_a) + len(kept_b) > 2:
        raise ValueError("tensordot: the result would have more than 2 dimensions")
    a = a.T if kept_a + left == [1, 0] else a
    b = b.T if right + kept_b == [1, 0] else b
    if not left:
        return outer(a, b) if a.ndim == b.ndim == 1 else a * b
    if len(left) == 2:  # both operands are matrices, contracted whole (in their type)
        product = a * b
        return product.sum(dtype=product.dtype)
    return matmul(a, b)


def flip(m: Any, axis: Any = None) -> Array:
    """``m`` with its elements along ``axis`` (an int, a tuple, or None for all axes) in
    reverse order: a view, as NumPy's ``flip``.

    >>> import weft as wf
    >>> wf.flip(wf.asarray([[1, 2], [3, 4]]), axis=1).tolist()
    [[2, 1], [4, 3]]
    """
    x = _array(m)
    axes = range(x.ndim) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    key = [slice(None)] * x.ndim
    for a in axes:
        key[checked_axis("flip", a, x.ndim)] = slice(None, None, -1)
    return x[tuple(key)]


def fliplr(m: Any) -> Array:
    """``m``'s columns in reverse order (a view), as NumPy's ``fliplr`` (2-D only).

    >>> import weft as wf
    >>> wf.fliplr(wf.asarray([[1, 2], [3, 4]])).tolist()
    [[2, 1], [4, 3]]
    """
    x = _array(m)
    if x.ndim != 2:
        raise ValueError(f"fliplr: the array must be 2-D, got shape {x.shape}")
    return flip(x, 1)


def flipud(m: Any) -> Array:
    """``m``'s rows (a 1-D array's elements) in reverse order (a view), as NumPy's
    ``flipud``.

    >>> import weft as wf
    >>> wf.flipud(wf.asarray([1, 2, 3])).tolist()
    [3, 2, 1]
    """
    x = _array(m)
    if x.ndim < 1:
        raise ValueError("flipud: the array must be at least 1-D")
    return flip(x, 0)


def squeeze(a: Any, axis: Any = None) -> Array:
    """``a`` without its axes of length one (those in ``axis``), as NumPy's ``squeeze``.

    >>> import weft as wf
    >>> wf.squeeze(wf.asarray([[1.0, 2.0]])).shape
    (2,)
    """
    return _array(a).squeeze(axis)


def expand_dims(a: Any, axis: Any) -> Array:
    """``a`` with an axis of length one inserted at ``axis``, as NumPy's ``expand_dims``
    (the result at most 2-D).

    >>> import weft as wf
    >>> wf.expand_dims(wf.asarray([1.0, 2.0]), 1).shape
    (2, 1)
    """
    x = _array(a)
    axes = axis if isinstance(axis, tuple) else (axis,)
    ndim = x.ndim + len(axes)
    if ndim > 2:
        raise ValueError(f"expand_dims: shape {x.shape} with {len(axes)} new axes would "
                         f"have {ndim} dimensions; weft arrays have at most 2")
    new = {checked_axis("expand_dims", a, ndim) for a in axes}
    if len(new) != len(axes):
        raise ValueError(f"expand_dims: repeated axis in {axis}")
    sizes = iter(x.shape)
    return x.reshape(tuple(1 if k in new else next(sizes) for k in range(ndim)))


def swapaxes(a: Any, axis1: int, axis2: int) -> Array:
    """``a`` with two axes interchanged (a transposed view), as NumPy's ``swapaxes``.

    >>> import weft as wf
    >>> wf.swapaxes(wf.asarray([[1, 2]]), 0, 1).shape
    (2, 1)
    """
    return _array(a).swapaxes(axis1, axis2)


def reshape(a: Any, shape: Any) -> Array:
    """``a`` with a new shape of the same size (one size may be -1), as NumPy's
    ``reshape``: a view where ``a`` is contiguous.

    >>> import weft as wf
    >>> wf.reshape(wf.asarray([1, 2, 3, 4]), (2, -1)).tolist()
    [[1, 2], [3, 4]]
    """
    return _array(a).reshape(shape)


def copy(a: Any) -> Array:
    """A copy of ``a`` that later writes to either leave the other as it was, as NumPy's
    ``copy`` (copy-on-write: nothing is copied until one is written).

    >>> import weft as wf
    >>> x = wf.asarray([1.0, 2.0])
    >>> y = wf.copy(x)
    >>> y[0] = 5.0
    >>> x.tolist(), y.tolist()
    ([1.0, 2.0], [5.0, 2.0])
    """
    return _array(a).copy()
