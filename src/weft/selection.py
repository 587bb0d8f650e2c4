"""Partial and lexicographic orders, as NumPy's ``partition``, ``argpartition`` and
``lexsort``.

``argpartition`` and ``partition`` are the device library's (NumPy's introselect on the host
device, CuPy's on CUDA); while a gradient is recorded, ``partition`` reads the array at
``argpartition``'s positions instead (a gather, whose adjoint goes back). ``lexsort`` is a
stable sort by each key in turn, the primary key last, through ``argsort``.

>>> import weft as wf
>>> x = wf.asarray([5.0, 1.0, 4.0, 2.0, 3.0])
>>> float(wf.partition(x, 2)[2])
3.0
>>> wf.lexsort([wf.asarray([1, 2, 1]), wf.asarray([0, 0, 0])]).tolist()
[0, 2, 1]
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array
from .creation import asarray
from .linalg_library import library
from .sorting import _operand, argsort, take_along
from .tape import RECORDING

__all__ = ["partition", "argpartition", "lexsort"]


def _kth(name: str, kth: Any, length: int) -> list[int]:
    """``kth`` as non-negative positions along an axis of ``length``, checked as NumPy's."""
    given = kth.to_numpy() if isinstance(kth, Array) else kth
    values = np.asarray(given)
    if values.dtype.kind == "b":
        raise TypeError(f"{name}: booleans are not allowed as partition index")
    if values.dtype.kind not in "iu":
        raise TypeError(f"{name}: kth must be an integer or integers, not {values.dtype}")
    out = []
    for k in values.reshape(-1).tolist():
        if not -length <= k < length:
            raise ValueError(f"{name}: kth(={k}) out of bounds ({length})")
        out.append(operator.index(k) % length)
    return out


def argpartition(a: Any, kth: Any, axis: int | None = -1) -> Array:
    """The int64 positions that partition ``a`` along ``axis`` (the flattened array for
    None): the element at each ``kth`` position is the one a sort puts there, none before it
    is larger and none after it smaller, as NumPy's ``argpartition`` (the other positions'
    order is the library's).

    >>> import weft as wf
    >>> i = wf.argpartition(wf.asarray([5.0, 1.0, 4.0, 2.0]), 1)
    >>> int(i[1])
    3
    """
    x, along = _operand(a, axis, "argpartition")
    return _library_partition("argpartition", x, kth, along, values=False)


def _library_partition(name: str, x: Array, kth: Any, along: int, values: bool) -> Array:
    """The device library's partition of ``x`` along ``along``: the values, or the int64
    positions (``values=False``)."""
    if x.ndim == 0:
        raise np.exceptions.AxisError(f"{name}: a 0-d array has no axis to partition")
    positions = _kth(name, kth, x.shape[along])
    lib = library(x.device)
    with lib.on_stream():
        if values:
            return lib.give(lib.np.partition(lib.take(x), positions, axis=along), x.dtype)
        return lib.give(lib.np.argpartition(lib.take(x), positions, axis=along), dt.int64)


def partition(a: Any, kth: Any, axis: int | None = -1) -> Array:
    """A copy of ``a`` partitioned along ``axis`` (the flattened array for None): the
    element at each ``kth`` position is the one a sort puts there, the ones before it no
    larger and the ones after no smaller, as NumPy's ``partition``. NaN sorts last.

    >>> import weft as wf
    >>> sorted(wf.partition(wf.asarray([3, 1, 2]), 0).tolist()[1:])
    [2, 3]
    """
    x, along = _operand(a, axis, "partition")
    if RECORDING[0]:  # differentiated: read at the positions, so the adjoint goes back
        positions = _library_partition("partition", x, kth, along, values=False)
        return take_along(x, positions, along)
    # The values alone: 4M doubles on PoCL 24 ms, against 81-94 for argpartition and a
    # gather.
    return _library_partition("partition", x, kth, along, values=True)


def lexsort(keys: Any, axis: int = -1) -> Array:
    """The int64 positions that sort by the last key, ties broken by the one before it and
    so on, as NumPy's ``lexsort``: ``keys`` a sequence of 1-D arrays of one length (or a
    matrix whose rows are the keys); stable, NaN last.

    >>> import weft as wf
    >>> surnames = wf.asarray([2, 1, 2, 1])
    >>> first_names = wf.asarray([0, 1, 1, 0])
    >>> wf.lexsort([first_names, surnames]).tolist()
    [3, 1, 0, 2]
    """
    if isinstance(keys, Array) and keys.ndim == 2:
        rows = [keys[k] for k in range(keys.shape[0])]
    elif isinstance(keys, Array) and keys.ndim == 1:
        rows = [keys]
    else:
        rows = [k if isinstance(k, Array) else asarray(k) for k in keys]
    if not rows:
        raise TypeError("lexsort: need a sequence of keys with len > 0")
    if any(r.ndim != 1 for r in rows):
        raise ValueError("lexsort: each key must be 1-D (weft arrays have at most two "
                         "dimensions; a matrix of keys holds one key a row)")
    length = rows[0].shape[0]
    if any(r.shape[0] != length for r in rows):
        raise ValueError(f"lexsort: all keys need to be the same shape, got "
                         f"{[r.shape for r in rows]}")
    if axis not in (0, -1):
        raise np.exceptions.AxisError(f"lexsort: axis {axis} is out of bounds for keys of 1 "
                                      "dimension")
    # Least significant key first; each stable sort keeps the order the keys before it made.
    order = argsort(rows[0])
    for key in rows[1:]:
        order = order[argsort(key[order])]
    return order
