"""NumPy's ways to cut arrays apart and join them at their ends: ``split``, ``array_split``
(views), ``append``, ``column_stack`` (joins) and ``atleast_1d``, ``atleast_2d``.

>>> import weft as wf
>>> [p.tolist() for p in wf.array_split(wf.asarray([1, 2, 3, 4, 5]), 2)]
[[1, 2, 3], [4, 5]]
"""

from __future__ import annotations

import operator
from typing import Any

from .array import Array
from .creation import asarray
from .indexing import checked_axis
from .matrix import concatenate, hstack

__all__ = ["split", "array_split", "append", "column_stack", "atleast_1d", "atleast_2d"]


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray(x)


def _pieces(name: str, x: Array, sections: Any, axis: int, equal: bool) -> list[Array]:
    axis = checked_axis(name, axis, x.ndim)
    length = x.shape[axis]
    if isinstance(sections, (list, tuple)) or getattr(sections, "ndim", 0):
        cuts = [operator.index(c) for c in sections]
        bounds = [0, *(min(max(c if c >= 0 else c + length, 0), length) for c in cuts),
                  length]
    else:
        count = operator.index(sections)
        if count <= 0:
            raise ValueError(f"{name}: the number of sections must be positive, got {count}")
        if equal and length % count:
            raise ValueError(f"{name}: array split does not result in an equal division "
                             f"({length} along axis {axis} into {count})")
        size, extra = divmod(length, count)
        bounds = [0]
        for k in range(count):
            bounds.append(bounds[-1] + size + (1 if k < extra else 0))
    key = [slice(None)] * x.ndim
    pieces = []
    for start, stop in zip(bounds[:-1], bounds[1:]):
        key[axis] = slice(start, max(start, stop))
        pieces.append(x[tuple(key)])
    return pieces


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """``ary`` cut along ``axis`` into equal sections (a count that divides its length) or
    at the given indices, as NumPy's ``split``: views.

    >>> import weft as wf
    >>> [p.tolist() for p in wf.split(wf.asarray([1, 2, 3, 4]), [1, 3])]
    [[1], [2, 3], [4]]
    """
    return _pieces("split", _array(ary), indices_or_sections, axis, True)


def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """As ``split``, but a count need not divide the length: the first sections are one
    longer, as NumPy's ``array_split``.

    >>> import weft as wf
    >>> [p.shape for p in wf.array_split(wf.asarray([[1.0, 2.0, 3.0]]), 2, axis=1)]
    [(1, 2), (1, 1)]
    """
    return _pieces("array_split", _array(ary), indices_or_sections, axis, False)


def append(arr: Any, values: Any, axis: int | None = None) -> Array:
    """``arr`` with ``values`` after it along ``axis`` (both flattened for None), as
    NumPy's ``append``: a new array.

    >>> import weft as wf
    >>> wf.append(wf.asarray([[1, 2]]), [[3, 4]], axis=0).tolist()
    [[1, 2], [3, 4]]
    """
    x, more = _array(arr), _array(values)
    if axis is None:
        return concatenate([x.reshape(x.size), more.reshape(more.size)])
    return concatenate([x, more], axis=axis)


def column_stack(tup: Any) -> Array:
    """1-D arrays as the columns of a matrix (matrices as they are), side by side, as
    NumPy's ``column_stack``.

    >>> import weft as wf
    >>> wf.column_stack([wf.asarray([1, 2]), wf.asarray([3, 4])]).tolist()
    [[1, 3], [2, 4]]
    """
    columns = []
    for x in tup:
        x = _array(x)
        columns.append(x.reshape(x.size, 1) if x.ndim < 2 else x)
    return hstack(columns)


def atleast_1d(*arys: Any) -> Any:
    """Each array with at least one dimension (a 0-d one becomes of shape (1,)), as NumPy's
    ``atleast_1d``: one array for one argument, else a list.

    >>> import weft as wf
    >>> wf.atleast_1d(wf.asarray(3.0)).shape
    (1,)
    """
    out = [x.reshape(1) if x.ndim == 0 else x for x in map(_array, arys)]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys: Any) -> Any:
    """Each array with at least two dimensions (a 1-D one as a row), as NumPy's
    ``atleast_2d``.

    >>> import weft as wf
    >>> wf.atleast_2d(wf.asarray([1.0, 2.0])).shape
    (1, 2)
    """
    out = [x.reshape(1, x.size) if x.ndim < 2 else x for x in map(_array, arys)]
    return out[0] if len(out) == 1 else out
