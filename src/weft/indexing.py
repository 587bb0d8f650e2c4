"""Basic indexing (integers, slices with any step, ``...``, ``None`` is not supported) as
arithmetic on a view's offset and strides.
"""

from __future__ import annotations

from typing import Any


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
    return len(parts) <= ndim and all(k == full for k in parts)


def _normalize(key: Any, ndim: int) -> tuple[Any, ...]:
    if not isinstance(key, tuple):
        key = (key,)
    if sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if Ellipsis in key:
        at = key.index(Ellipsis)
        fill = ndim - (len(key) - 1)
        key = key[:at] + (slice(None),) * fill + key[at + 1:]
    if len(key) > ndim:
        raise IndexError(
            f"too many indices for array: array is {ndim}-dimensional, but {len(key)} were "
            "indexed"
        )
    return key + (slice(None),) * (ndim - len(key))


def basic_view(shape: tuple[int, ...], offset: int, strides: tuple[int, ...], key: Any
               ) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """The (shape, offset, strides) of ``view[key]``; integers drop a dimension."""
    key = _normalize(key, len(shape))
    new_shape: list[int] = []
    new_strides: list[int] = []
    for axis, (k, size, stride) in enumerate(zip(key, shape, strides)):
        if isinstance(k, slice):
            start, stop, step = k.indices(size)
            count = len(range(start, stop, step))
            offset += start * stride if count else 0
            new_shape.append(count)
            new_strides.append(stride * step)
        elif hasattr(k, "__index__") and not isinstance(k, bool):
            i = k.__index__()
            if not -size <= i < size:
                raise IndexError(
                    f"index {i} is out of bounds for axis {axis} with size {size}"
                )
            offset += (i % size) * stride
        else:
            raise IndexError(
                f"only integers, slices and ... are valid indices here, not {type(k).__name__}"
            )
    return tuple(new_shape), offset, tuple(new_strides)
