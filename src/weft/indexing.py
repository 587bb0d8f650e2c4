"""Index maps: blocks, steps, transposes and diagonals as data.

Every array is seen as 2-D (``()`` as ``(1, 1)``, ``(n,)`` as ``(1, n)``, which is how NumPy
broadcasting lines shapes up). A view is an affine map from the view's element ``(i, j)`` to
its source's element ``(r, c)``::

    r = r0 + ri * i + rj * j        c = c0 + ci * i + cj * j

Slices (any step), integers that drop a dimension, transposes and diagonals are all such maps,
and so are their compositions. Lowering pushes a map down an expression to its leaves, where it
folds into the leaf's offset and strides: a block or a transpose of an expression is read in
the same kernel as the expression, never copied first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

Shape = tuple[int, ...]


def as_2d(shape: Shape) -> tuple[int, int]:
    if len(shape) == 0:
        return (1, 1)
    if len(shape) == 1:
        return (1, shape[0])
    return (shape[0], shape[1])


@dataclass(frozen=True)
class AffineMap:
    r0: int = 0
    ri: int = 1
    rj: int = 0
    c0: int = 0
    ci: int = 0
    cj: int = 1

    def then(self, inner: AffineMap) -> AffineMap:
        """The map that applies ``self`` and then ``inner`` (``inner`` maps self's target)."""
        return AffineMap(
            inner.r0 + inner.ri * self.r0 + inner.rj * self.c0,
            inner.ri * self.ri + inner.rj * self.ci,
            inner.ri * self.rj + inner.rj * self.cj,
            inner.c0 + inner.ci * self.r0 + inner.cj * self.c0,
            inner.ci * self.ri + inner.cj * self.ci,
            inner.ci * self.rj + inner.cj * self.cj,
        )

    def row(self) -> tuple[int, int, int]:
        return (self.r0, self.ri, self.rj)

    def col(self) -> tuple[int, int, int]:
        return (self.c0, self.ci, self.cj)

    def fold(self, offset: int, strides: tuple[int, int]) -> tuple[int, int, int]:
        """(offset, i coefficient, j coefficient) of the address through strides (s0, s1)."""
        s0, s1 = strides
        return (offset + s0 * self.r0 + s1 * self.c0, s0 * self.ri + s1 * self.ci,
                s0 * self.rj + s1 * self.cj)


IDENTITY = AffineMap()


def broadcast_map(child: Shape, parent: Shape) -> AffineMap:
    """Parent element -> child element for a child broadcast to ``parent``'s shape."""
    cr, cc = as_2d(child)
    pr, pc = as_2d(parent)
    zero_rows = cr == 1 and pr != 1
    zero_cols = cc == 1 and pc != 1
    if not (zero_rows or zero_cols):
        return IDENTITY
    return AffineMap(0, 0 if zero_rows else 1, 0, 0, 0, 0 if zero_cols else 1)


def padded_strides(strides: tuple[int, ...]) -> tuple[int, int]:
    return tuple((0, 0, *strides)[-2:])  # type: ignore[return-value]


def rows_start_aligned(offset: int, row_stride: int, col_stride: int, rows: int,
                       width: int) -> bool:
    """Whether a view read along its rows ``width`` elements per vector load starts every row
    on a vector boundary (its storage starting on one, as every storage does)."""
    return col_stride == 1 and offset % width == 0 and (rows == 1 or row_stride % width == 0)


def unpad_strides(i_coef: int, j_coef: int, ndim: int) -> tuple[int, ...]:
    return ((), (j_coef,), (i_coef, j_coef))[ndim]


def transpose_map() -> AffineMap:
    return AffineMap(0, 0, 1, 0, 1, 0)


def diagonal_map(shape: Shape, k: int = 0) -> tuple[Shape, AffineMap]:
    """The 1-D diagonal ``k`` of a 2-D shape (``k > 0`` above the main one, as NumPy)."""
    rows, cols = shape
    r0, c0 = max(0, -k), max(0, k)
    length = max(0, min(rows - r0, cols - c0))
    return (length,), AffineMap(r0, 0, 1, c0, 0, 1)


def is_whole(key: Any, ndim: int) -> bool:
    """Whether ``key`` selects every element: ``...``, ``()`` or all-``:`` slices."""
    if key is Ellipsis:
        return True
    if not isinstance(key, tuple):
        key = (key,)
    if key == ():
        return True
    full = slice(None)
    parts = [k for k in key if k is not Ellipsis]
    return len(parts) <= ndim and all(isinstance(k, slice) and k == full for k in parts)


def normalize(key: Any, ndim: int, new_axes: bool = False) -> tuple[Any, ...]:
    """``key`` as parts for exactly ``ndim`` axes (and, with ``new_axes``, the ``None``s
    that insert one), ``...`` expanded; ``IndexError`` for too many."""
    if not isinstance(key, tuple):
        key = (key,)
    if sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if not new_axes and any(k is None for k in key):
        raise IndexError("np.newaxis (None) cannot be combined with integer-array indexes "
                         "in weft: index first, then add the axis")
    used = sum(k is not None and k is not Ellipsis for k in key)
    at = next((n for n, k in enumerate(key) if k is Ellipsis), None)
    if at is not None:
        key = key[:at] + (slice(None),) * (ndim - used) + key[at + 1:]
        used = ndim if used <= ndim else used
    if used > ndim:
        raise IndexError(
            f"too many indices for array: array is {ndim}-dimensional, but {used} were "
            "indexed"
        )
    return key + (slice(None),) * (ndim - used)


def checked_axis(name: str, axis: Any, ndim: int, zero_d_has_one: bool = False) -> int:
    """``axis`` (an integer, negative from the end) as a position among ``ndim`` axes, or the
    error NumPy gives. ``zero_d_has_one``: a 0-d operand takes axis 0 or -1 (as a scan or an
    arg-reduction of a 0-d array does in NumPy)."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{name}: axis must be None or an integer, not {type(axis).__name__}")
    bound = max(ndim, 1) if zero_d_has_one else ndim
    if not -bound <= axis < bound:
        raise np.exceptions.AxisError(
            f"{name}: axis {axis} is out of bounds for an array of {ndim} dims")
    return int(axis) % bound


def is_integer(k: Any) -> bool:
    return hasattr(k, "__index__") and not isinstance(k, bool) and not hasattr(k, "shape")


def integer_position(k: Any, size: int, axis: int) -> int:
    i = k.__index__()
    if not -size <= i < size:
        raise IndexError(f"index {i} is out of bounds for axis {axis} with size {size}")
    return i % size


def basic_map(shape: Shape, key: Any) -> tuple[Shape, AffineMap]:
    """The shape of ``x[key]`` and the map from its elements to ``x``'s (ints, slices, and
    ``None`` for a new axis of one element, as NumPy's ``newaxis``)."""
    if type(key) is slice and len(shape) == 1:  # a loop body's x[1:]: no key to parse
        start, stop, step = key.indices(shape[0])
        count = len(range(start, stop, step))
        return (count,), AffineMap(0, 0, 0, start if count else 0, 0, step)
    parts = normalize(key, len(shape), new_axes=True)
    shape2 = as_2d(shape)
    # (start, step) per padded axis and which axes survive
    starts = [0, 0]
    steps = [0, 0]
    kept: list[tuple[int | None, int]] = []  # (padded axis, or None for a new one; length)
    first = 2 - len(shape)
    axis = -1
    for k in parts:
        if k is None:
            kept.append((None, 1))
            continue
        axis += 1
        padded = first + axis
        size = shape2[padded]
        if isinstance(k, slice):
            start, stop, step = k.indices(size)
            count = len(range(start, stop, step))
            starts[padded] = start if count else 0
            steps[padded] = step
            kept.append((padded, count))
        elif is_integer(k):
            starts[padded] = integer_position(k, size, axis)
        else:
            raise IndexError(
                "only integers, slices, ... and integer arrays are valid indices, not "
                f"{type(k).__name__}"
            )
    out_shape = tuple(length for _, length in kept)
    if len(out_shape) > 2:
        raise IndexError(f"indexing would give shape {out_shape}: weft arrays have at most 2 "
                         "dimensions")
    # The view's padded axes: the last kept axis is j, the one before it i.
    coef = {0: [0, 0], 1: [0, 0]}  # source padded axis -> [coefficient of i, of j]
    for slot, (padded, _) in zip((1,) if len(kept) == 1 else (0, 1), kept):
        if padded is not None:  # a new axis reads nothing new of the source
            coef[padded][slot] = steps[padded]
    return out_shape, AffineMap(starts[0], coef[0][0], coef[0][1], starts[1], coef[1][0],
                                coef[1][1])


def reshaped_shape(shape: tuple[int, ...], size: int) -> tuple[int, ...]:
    """``shape`` for ``size`` elements with its one ``-1`` filled in, as NumPy's reshape;
    ValueError where the sizes disagree or it has more than 2 dimensions.

    >>> reshaped_shape((-1, 2), 6)
    (3, 2)
    """
    if shape.count(-1) > 1:
        raise ValueError("reshape: only one dimension can be -1")
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1])) if len(shape) > 1 else 1
        if known == 0 or size % known:
            raise ValueError(f"reshape: cannot reshape an array of size {size} into {shape}")
        shape = tuple(size // known if s == -1 else s for s in shape)
    if int(np.prod(shape)) != size:
        raise ValueError(f"reshape: cannot reshape an array of size {size} into shape {shape}")
    if len(shape) > 2:
        raise ValueError(f"weft arrays have at most 2 dimensions, not shape {shape}")
    return shape


def transposed_source(x: Any) -> Any:
    """The array ``x`` is the transpose of (a view of it: ``x = source.T``), or None. Work
    along ``x``'s rows is work down ``source``'s columns: reductions and products take the
    source along the other axis instead, so that their walks read memory in order.

    >>> import weft as wf
    >>> a = wf.asarray([[1.0, 2.0]])
    >>> from weft.indexing import transposed_source
    >>> transposed_source(a.T) is a, transposed_source(a)
    (True, None)
    """
    if x._base is None:
        return None
    source, to_source = x._base
    return source if to_source == transpose_map() and source.shape == x.shape[::-1] else None
