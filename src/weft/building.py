"""Arrays built by a rule, as NumPy's ``vander`` (the powers of a vector, by a running
product as NumPy's, so integer powers are exact and float ones NumPy's to the bit) and
``fromfunction`` (a function of the element indices, lazy: the indices are never stored).

>>> import weft as wf
>>> wf.vander(wf.asarray([1, 2, 3]), 3).tolist()
[[1, 1, 1], [4, 2, 1], [9, 3, 1]]
>>> wf.fromfunction(lambda i, j: i * 10 + j, (2, 3), dtype=int).tolist()
[[0, 1, 2], [10, 11, 12]]
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array
from .creation import _shape, arange, asarray, broadcast_to, col_index, ones, row_index
from .devices import Device, current_device, get_device
from .matrix import concatenate
from .scans import cumprod

__all__ = ["vander", "fromfunction"]


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Array:  # noqa: N803
    """The Vandermonde matrix of the 1-D ``x``: column j is ``x ** (N - 1 - j)`` (``x ** j``
    with ``increasing``), ``N`` columns (``len(x)`` when None), as NumPy's ``vander`` (in
    NumPy's type: x's promoted with int, so float32 gives float64).

    >>> import weft as wf
    >>> wf.vander(wf.asarray([2.0, 3.0]), 3, increasing=True).tolist()
    [[1.0, 2.0, 4.0], [1.0, 3.0, 9.0]]
    """
    v = x if isinstance(x, Array) else asarray(x)
    if v.ndim != 1:
        raise ValueError(f"vander: x must be a one-dimensional array or sequence, not shape "
                         f"{v.shape}")
    n = v.shape[0]
    columns = n if N is None else operator.index(N)
    if columns < 0:
        raise ValueError(f"vander: N must be non-negative, got {columns}")
    result = dt.to_dtype(np.promote_types(v.dtype.numpy, np.int64))
    column = v.astype(result).reshape(n, 1)
    first = ones((n, min(columns, 1)), dtype=result, device=v.device)
    if columns <= 1:
        return first
    repeated = broadcast_to(column, (n, columns - 1))
    powers = cumprod(concatenate([first, repeated], axis=1), axis=1)
    return powers if increasing else powers[:, ::-1]


def fromfunction(function: Callable[..., Any], shape: Any, *, dtype: Any = float,
                 device: Any = None, **kwargs: Any) -> Any:
    """``function`` called with one array of indices per dimension of ``shape`` (in
    ``dtype``, float64 unless given) and ``kwargs``, as NumPy's ``fromfunction``: its result
    as it is (lazy where it is built of weft operations).

    >>> import weft as wf
    >>> wf.fromfunction(lambda i, j: i == j, (2, 2)).tolist()
    [[True, False], [False, True]]
    """
    dims = _shape(shape, "fromfunction: a size in shape")
    if len(dims) > 2:
        raise ValueError(f"fromfunction: weft arrays have at most two dimensions, not shape "
                         f"{dims}")
    where: Device = current_device() if device is None else get_device(device)
    kind = dt.to_dtype(dtype)
    if len(dims) == 1:
        indices = [arange(dims[0], dtype=kind, device=where)]
    elif len(dims) == 2:
        indices = [row_index(dims, device=where).astype(kind),
                   col_index(dims, device=where).astype(kind)]
    else:
        indices = []
    return function(*indices, **kwargs)
