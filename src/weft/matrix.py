"""Matrix structure, diagonals, joins, fused checks and assignment (API.md §4, §5).

Everything here is lazy: ``tril``/``triu``/``diag`` attach a structure (structure.py),
``diagonal`` is an index map, ``concatenate`` a node whose parts are read where they lie, and
``check`` a predicate evaluated in whichever kernel consumes its value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from .array import Array, apply_op, view_of
from .creation import asarray, col_index, row_index
from .indexing import AffineMap, diagonal_map
from .writes import Target, target_of, value_node, write_targets


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray(x)


def _matrix(name: str, x: Any) -> Array:
    x = _array(x)
    if x.ndim != 2:
        raise ValueError(f"{name} needs a 2-d array, not shape {x.shape}")
    return x


def _triangle(name: str, x: Any, k: int, structure: str) -> Array:
    x = _matrix(name, x)
    k = dt.as_int(k, f"{name}: k")
    if k == 0:
        return Array(ex.restrict(x._node, structure), x.device)
    rows, cols = x.shape
    # Offsets past the matrix keep everything or nothing, as in NumPy; clamped, k fits the
    # offsets' integer type however large it was.
    k = max(-rows, min(int(k), cols))
    offset = col_index(x.shape) - row_index(x.shape)
    keep = offset <= k if structure == "lower" else offset >= k
    return apply_op("where", keep, x, 0, dtype=x.dtype)


def tril(x: Any, k: int = 0) -> Array:
    """The lower triangle (``column - row <= k``), zero above; ``k=0`` has lower structure.

    >>> import weft as wf
    >>> wf.tril(wf.ones((2, 2))).tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    return _triangle("tril", x, k, "lower")


def triu(x: Any, k: int = 0) -> Array:
    """The upper triangle (``column - row >= k``), zero below; ``k=0`` has upper structure.

    >>> import weft as wf
    >>> wf.triu(wf.ones((2, 2))).tolist()
    [[1.0, 1.0], [0.0, 1.0]]
    """
    return _triangle("triu", x, k, "upper")


def diagonal(x: Any, k: int = 0) -> Array:
    """Diagonal ``k`` of a matrix (of an expression too) as a 1-d view; writing into it
    (``wf.diagonal(x)[...] = v``) writes ``x``'s diagonal.

    >>> import weft as wf
    >>> wf.diagonal(wf.asarray([[1, 2], [3, 4]])).tolist()
    [1, 4]
    """
    x = _matrix("diagonal", x)
    shape, m = diagonal_map(x.shape, dt.as_int(k, "diagonal: k"))
    return view_of(x, shape, m)


def set_diagonal(x: Array, v: Any, k: int = 0) -> Array:
    """Write ``v`` (broadcast) into diagonal ``k`` of ``x``, in place; returns ``x``.

    >>> import weft as wf
    >>> x = wf.zeros((2, 2)); wf.set_diagonal(x, 5.0).tolist()
    [[5.0, 0.0], [0.0, 5.0]]
    """
    if not isinstance(x, Array):
        raise TypeError("set_diagonal writes into a weft Array")
    diagonal(x, k)[...] = v
    return x


def diag(v: Any, k: int = 0) -> Array:
    """A matrix with ``v`` on its diagonal (diagonal structure); of a matrix, its diagonal
    (as NumPy).

    >>> import weft as wf
    >>> wf.diag(wf.asarray([1, 2])).tolist()
    [[1, 0], [0, 2]]
    """
    v = _array(v)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError(f"diag needs a 1-d or 2-d array, not shape {v.shape}")
    n = v.shape[0] + abs(k)
    if k != 0:
        from .creation import zeros

        out = zeros((n, n), dtype=v.dtype, device=v.device)
        set_diagonal(out, v, k)
        return out
    # element (r, c) reads v[r]; the diagonal structure zeroes every other element
    spread = ex.view(v._node, (n, n), AffineMap(0, 0, 0, 0, 1, 0))
    return Array(ex.restrict(spread, "diagonal"), v.device)


# Joins ------------------------------------------------------------------------------------


def ravel(x: Any) -> Array:
    """The elements in row-major order as a 1-D array (``reshape(-1)``: no copy of a
    row-major buffer; a lazy or strided array is computed into one first). Writes to the
    result do not reach ``x`` (weft arrays are values; use a view of ``x`` to write).

    >>> import weft as wf
    >>> wf.ravel(wf.asarray([[1, 2], [3, 4]])).tolist()
    [1, 2, 3, 4]
    """
    x = x if isinstance(x, Array) else asarray(x)
    return x.reshape(x.size)


def flatten(x: Any) -> Array:
    """``ravel``: NumPy's ``flatten`` copies, and a weft result is a value either way.

    >>> import weft as wf
    >>> wf.asarray([[1.0], [2.0]]).flatten().tolist()
    [1.0, 2.0]
    """
    return ravel(x)


Array.ravel = ravel  # type: ignore[attr-defined]
Array.flatten = flatten  # type: ignore[attr-defined]


def concatenate(xs: Any, axis: int | None = 0) -> Array:
    """Join arrays along an existing axis, lazily (read where they lie, in one kernel).

    >>> import weft as wf
    >>> wf.concatenate([wf.asarray([1, 2]), wf.asarray([3])]).tolist()
    [1, 2, 3]
    """
    arrays = [_array(x) for x in xs]
    if not arrays:
        raise ValueError("concatenate needs at least one array")
    if axis is None:
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    ndim = arrays[0].ndim
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    if any(a.ndim != ndim for a in arrays):
        listed = ", ".join(str(a.shape) for a in arrays)
        raise ValueError(f"concatenate: all arrays need the same number of dimensions, got "
                         f"shapes {listed}")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(
            f"concatenate: axis {axis} is out of bounds for {ndim}-d arrays")
    axis %= ndim
    for a in arrays[1:]:
        for d in range(ndim):
            if d != axis and a.shape[d] != arrays[0].shape[d]:
                raise ValueError(
                    f"concatenate: shapes {arrays[0].shape} and {a.shape} differ in dimension "
                    f"{d}, not only along axis {axis}")
    devices = {id(a.device) for a in arrays}
    if len(devices) > 1:
        raise ValueError("concatenate: the arrays live on different devices")
    dtype = dt.resolve([a.dtype for a in arrays], [])
    shape = list(arrays[0].shape)
    shape[axis] = sum(a.shape[axis] for a in arrays)
    padded_axis = axis + (2 - ndim)
    parts = tuple(ex.cast(a._node, dtype) for a in arrays)
    if len(parts) == 1:
        return Array(parts[0], arrays[0].device)
    return Array(ex.concat(parts, padded_axis, tuple(shape), dtype), arrays[0].device)


def stack(xs: Any, axis: int = 0) -> Array:
    """Join 0-d or 1-d arrays along a new axis.

    >>> import weft as wf
    >>> wf.stack([wf.asarray([1, 2]), wf.asarray([3, 4])]).tolist()
    [[1, 2], [3, 4]]
    """
    arrays = [_array(x) for x in xs]
    if not arrays:
        raise ValueError("stack needs at least one array")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"stack: all input arrays must have the same shape, got {sorted(shapes)}")
    ndim = arrays[0].ndim
    if ndim >= 2:
        raise ValueError("stack of 2-d arrays would give 3 dimensions; weft has at most 2")
    if not -(ndim + 1) <= axis <= ndim:
        raise np.exceptions.AxisError(
            f"stack: axis {axis} is out of bounds for {ndim + 1}-d results")
    axis %= ndim + 1
    if ndim == 0:
        return concatenate([_as_row(a, (1,)) for a in arrays], 0)
    n = arrays[0].shape[0]
    if axis == 0:
        return concatenate([_as_row(a, (1, n)) for a in arrays], 0)
    return concatenate([_as_row(a, (n, 1)) for a in arrays], 1)


def _as_row(a: Array, shape: tuple[int, ...]) -> Array:
    """``a``'s elements in a shape with one more size-1 axis (an index map, no copy)."""
    if len(shape) == 1:
        m = AffineMap(0, 0, 0, 0, 0, 0)
    elif shape[0] == 1:
        m = AffineMap(0, 0, 0, 0, 0, 1)
    else:
        m = AffineMap(0, 0, 0, 0, 1, 0)
    return Array(ex.view(a._node, shape, m), a.device)


def vstack(xs: Any) -> Array:
    """Rows on top of each other (1-d arrays become rows).

    >>> import weft as wf
    >>> wf.vstack([wf.asarray([1, 2]), wf.asarray([3, 4])]).shape
    (2, 2)
    """
    arrays = [_array(x) for x in xs]
    return concatenate([_as_row(a, (1, a.shape[0])) if a.ndim == 1 else
                        _as_row(a, (1, 1)) if a.ndim == 0 else a for a in arrays], 0)


def hstack(xs: Any) -> Array:
    """Side by side: columns of matrices, or 1-d arrays end to end.

    >>> import weft as wf
    >>> wf.hstack([wf.asarray([1]), wf.asarray([2, 3])]).tolist()
    [1, 2, 3]
    """
    arrays = [_array(x) for x in xs]
    if arrays and all(a.ndim <= 1 for a in arrays):
        return concatenate([_as_row(a, (1,)) if a.ndim == 0 else a for a in arrays], 0)
    return concatenate(arrays, 1)


# Checks and assignment -------------------------------------------------------------------


def check(x: Any, predicate: Callable[[Array], Any] | Any, message: str) -> Array:
    """``x`` with a check attached: where ``predicate`` (a function of ``x`` or a bool array)
    is false, evaluating anything that uses the result raises ``ValueError`` with
    ``message``, the element's index and its value. ``message`` may place them with
    ``{index}`` and ``{value}``; any other brace in it is kept as written.

    >>> import weft as wf
    >>> sigma = wf.check(wf.asarray([1.0, 2.0]), lambda s: s > 0, "sigma must be positive")
    >>> sigma.tolist()
    [1.0, 2.0]
    """
    x = _array(x)
    ok = predicate(x) if callable(predicate) else predicate
    ok = ok if isinstance(ok, Array) else asarray(ok, device=x.device)
    if ok.dtype.kind != "b":
        raise TypeError(f"check: the predicate must give bool values, not {ok.dtype}")
    shape = ex.broadcast_shapes("check", x.shape, ok.shape)
    if shape != x.shape:
        raise ValueError(f"check: predicate of shape {ok.shape} does not fit {x.shape}")
    return Array(ex.check(x._node, ok._node, message), x.device)


def assign(dst: Any, expr: Any, *, mask: Any = None, _exclusive: bool | None = None) -> None:
    """Write ``expr`` into ``dst`` (an Array, a slice or a diagonal view of one), or a tuple of
    expressions into a tuple of destinations, all in one kernel where the shapes agree.
    ``mask`` (bool, broadcast, or a ``wf.BitMask`` of as many elements, tested inside the
    kernel) keeps the old value where false. If a check fails or an
    argument is bad, every destination keeps its old value.

    >>> import weft as wf
    >>> a = wf.zeros(3); b = wf.zeros(3)
    >>> wf.assign((a, b), (a + 1, b - 1)); a.tolist(), b.tolist()
    ([1.0, 1.0, 1.0], [-1.0, -1.0, -1.0])
    """
    many = isinstance(dst, tuple)
    dsts = list(dst) if many else [dst]
    exprs = list(expr) if many else [expr]
    if many and (not isinstance(expr, tuple) or len(exprs) != len(dsts)):
        raise ValueError(f"assign: {len(dsts)} destinations need a tuple of as many "
                         "expressions")
    targets: list[Target] = []
    values: list[ex.Node] = []
    for d, e in zip(dsts, exprs):
        if not isinstance(d, Array):
            raise TypeError(f"assign: destinations must be weft Arrays, not {type(d).__name__}")
        t = target_of(d)
        node = value_node(e, d.device, d.dtype, t.shape)
        if mask is not None:
            from .bitmask import BitMask

            m = mask.selected(t.shape, "assign") if isinstance(mask, BitMask) else _array(mask)
            if m.dtype.kind != "b":
                raise TypeError(f"assign: mask must be a bool array, not {m.dtype}")
            if ex.broadcast_shapes("assign mask", m.shape, t.shape) != t.shape:
                raise ValueError(f"assign: mask of shape {m.shape} does not fit {t.shape}")
            node = apply_op("where", m, Array(node, d.device), d)._node
            node = ex.cast(node, d.dtype)
        targets.append(t)
        values.append(node)
    # _exclusive: the caller checked, before building ``expr``, that nothing else reads the
    # destination's buffer (wf.kernels), so it may be written in place.
    write_targets(targets, values, _exclusive)
