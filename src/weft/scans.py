"""Scans: ``cumsum``, ``cumprod``, ``cummax``, ``cummin`` and ``logcumsumexp`` along an axis,
as NumPy's ``cumsum``/``cumprod`` and ``maximum``/``minimum``/``logaddexp.accumulate``.

A scan is blocked, from weft's own lazy operations on every device. The rows are first
copied into one buffer padded with the identity (``BLOCK`` elements before, at least one
after), so the producers fuse into that copy and every later kernel has one structure
whatever the length. Each element then combines the elements before it in its block of
``BLOCK`` (a fold of shifted views of the buffer, one kernel, each element read from cache
rather than memory ``BLOCK`` times); the blocks' totals, that result's last element per
block, are scanned the same way (recursively, ``BLOCK`` times shorter each level); each
element finally combines its block's carry, the total of the blocks before it: with the
blocks as rows of ``BLOCK`` elements the carries broadcast along them (a gather of each
element's carry cost as much as the fold on a CPU). A scan's gradient is its own rule
(``scan_adjoint``: reversed scans), not the adjoint of the fold term by term, whose kernels
took a minute to compile. The sums combine in blocks, not one by one: their rounding
differs from NumPy's sequential loop (it is usually smaller).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array
from .creation import asarray, col_index, full, row_index
from .indexing import checked_axis
from .tape import RECORDING, recorded

BLOCK = 16  # elements per block: a fold of this many shifted reads per element
_BLOCK_BITS = BLOCK.bit_length() - 1  # a power of two: positions split by a mask and a shift


def _scan_op(name: str) -> tuple[Callable[[Array, Array], Array], float]:
    """The combining operation of a scan and its identity."""
    import weft

    return {"cumsum": (lambda a, b: a + b, 0), "cumprod": (lambda a, b: a * b, 1),
            "cummax": (weft.maximum, -np.inf), "cummin": (weft.minimum, np.inf),
            "logcumsumexp": (weft.logaddexp, -np.inf)}[name]


def _scan(name: str, x: Any, axis: Any, dtype: Any) -> Array:
    from .matrix import ravel

    x = x if isinstance(x, Array) else asarray(x)
    if axis is None:
        x, axis = ravel(x), 0
    axis = checked_axis(name, axis, x.ndim, zero_d_has_one=True)
    x = x.astype(_result_type(name, x, dtype))
    if x.ndim == 0:
        return x.reshape((1,))
    if x.size == 0:
        return x.copy()
    rows = x.reshape((1, x.shape[0])) if x.ndim == 1 else (x.T if axis == 0 else x)
    out = _scan_rows(rows, name)
    if x.ndim == 1:
        return out.reshape(x.shape)
    return out.T if axis == 0 else out


def _result_type(name: str, x: Array, dtype: Any) -> dt.DType:
    if dtype is not None:
        return dt.to_dtype(dtype)
    if name == "logcumsumexp":
        return x.dtype if x.dtype.is_float else dt.float64
    if name in ("cumsum", "cumprod") and x.dtype.kind in "bui":
        return dt.int64  # NumPy's sums of integers and bools
    return x.dtype


def _identity(name: str, dtype: dt.DType) -> Any:
    """The identity of ``name``'s combination in ``dtype`` (integers and bools have no
    infinities)."""
    identity = _scan_op(name)[1]
    if np.isfinite(identity):
        return identity
    if dtype.kind == "b":
        return identity > 0
    if dtype.kind in "ui":
        info = np.iinfo(dtype.numpy)
        return info.min if identity < 0 else info.max
    return identity


@recorded("scan")
def _scan_rows(rows: Array, name: str) -> Array:
    """The scan ``name`` of each row. While a gradient is being taken the result is
    evaluated, so the reverse pass applies the scan's own rule (``scan_adjoint``) rather than
    differentiating the blocked fold term by term."""
    out = _rows(rows, _scan_op(name)[0], _identity(name, rows.dtype))
    return out.eval() if RECORDING[0] else out


def _rows(x: Array, combine: Callable[[Array, Array], Array], identity: Any) -> Array:
    """The inclusive scan of each row of ``x`` (rows, n).

    The rows are copied once into a buffer with ``BLOCK`` identities before them and at
    least one after them, so each shifted read is a plain view of that buffer and every
    level's kernels have one structure whatever the length (a new length compiles nothing).
    """
    from .functions import where
    from .matrix import concatenate

    rows, n = x.shape
    blocks = n // BLOCK + 1  # always some padding after: the buffer has one structure
    width = blocks * BLOCK

    def identities(count: int) -> Array:
        return full((rows, count), identity, dtype=x.dtype, device=x.device)

    padded = concatenate([identities(BLOCK), x, identities(width - n)], axis=1).eval()
    within = col_index((rows, width), device=x.device) & (BLOCK - 1)
    inner = padded[:, BLOCK:]
    for shift in range(1, BLOCK):
        before = padded[:, BLOCK - shift:BLOCK - shift + width]
        inner = combine(inner, where(within >= shift, before, identity))
    inner = inner.eval()
    if blocks == 1:
        return inner[:, :n]
    # The carries (the totals of the blocks before each block) broadcast along the blocks
    # as rows of BLOCK elements: no gather.
    totals = _rows(inner[:, BLOCK - 1::BLOCK], combine, identity)
    carries = concatenate([identities(1), totals[:, :-1]], axis=1).reshape((rows * blocks, 1))
    carried = combine(carries, inner.reshape((rows * blocks, BLOCK)))
    return carried.reshape((rows, width))[:, :n]


def cumsum(x: Any, axis: int | None = None, dtype: Any = None) -> Array:
    """Cumulative sums along ``axis`` (the flattened array for None), as ``numpy.cumsum``;
    integers and bools sum in int64.

    >>> import weft as wf
    >>> wf.cumsum(wf.asarray([[1, 2, 3], [4, 5, 6]]), axis=1).tolist()
    [[1, 3, 6], [4, 9, 15]]
    """
    return _scan("cumsum", x, axis, dtype)


def cumprod(x: Any, axis: int | None = None, dtype: Any = None) -> Array:
    """Cumulative products along ``axis``, as ``numpy.cumprod``.

    >>> import weft as wf
    >>> wf.cumprod(wf.asarray([1.0, 2.0, 3.0, 4.0])).tolist()
    [1.0, 2.0, 6.0, 24.0]
    """
    return _scan("cumprod", x, axis, dtype)


def cummax(x: Any, axis: int | None = None) -> Array:
    """The running maximum along ``axis``, as ``numpy.maximum.accumulate`` (NaN carries on).

    >>> import weft as wf
    >>> wf.cummax(wf.asarray([1.0, 3.0, 2.0, 5.0])).tolist()
    [1.0, 3.0, 3.0, 5.0]
    """
    return _scan("cummax", x, axis, None)


def cummin(x: Any, axis: int | None = None) -> Array:
    """The running minimum along ``axis``, as ``numpy.minimum.accumulate``.

    >>> import weft as wf
    >>> wf.cummin(wf.asarray([3, 1, 2])).tolist()
    [3, 1, 1]
    """
    return _scan("cummin", x, axis, None)


def logcumsumexp(x: Any, axis: int | None = None) -> Array:
    """``log(cumsum(exp(x)))`` without overflow, as ``numpy.logaddexp.accumulate``;
    integers give float64.

    >>> import weft as wf
    >>> [round(v, 6) for v in wf.logcumsumexp(wf.asarray([0.0, 0.0, 1000.0])).tolist()]
    [0.0, 0.693147, 1000.0]
    """
    return _scan("logcumsumexp", x, axis, None)


def _reversed(name: str, x: Array) -> Array:
    """The scan ``name`` of each row of ``x`` from its end (each element combines those
    after it)."""
    return _scan_rows(x[:, ::-1], name)[:, ::-1]


def scan_adjoint(g: Array, out: Array, rows: Array, name: str) -> tuple[Any, ...]:
    """The reverse rule of ``_scan_rows``: the adjoint of each row from the adjoint ``g``
    of its scan ``out``, itself a few scans (reversed where each element feeds the ones after
    it)."""
    from .functions import exp, isnan, log, maximum, minimum, where
    from .matrix import concatenate

    if name == "cumsum":
        return (_reversed("cumsum", g), None)
    if name == "logcumsumexp":  # sum_{j >= i} g_j exp(x_i - y_j), signs apart, in logs
        up = _reversed("logcumsumexp", log(maximum(g, 0)) - out)
        down = _reversed("logcumsumexp", log(maximum(-g, 0)) - out)
        return (exp(rows + up) - exp(rows + down), None)
    if name == "cumprod":
        # sum_{j >= i} g_j y_j / x_i where x_i is not 0; at a row's first 0, the products
        # with that factor left out; after it, 0 (what the second form gives there too).
        zero = rows == 0
        first_zero = zero & (_scan_rows(zero.astype(dt.int64), "cumsum") == 1)
        left_out = _scan_rows(where(first_zero, 1, rows), "cumprod")
        return (where(zero, _reversed("cumsum", g * left_out),
                      _reversed("cumsum", g * out) / where(zero, 1, rows)), None)
    # cummax, cummin: each output's adjoint goes to the element it copies, the latest one
    # equal to it (or NaN). Those elements start runs; an element's adjoint is the sum of g
    # over its run: the reversed sum at it less the reversed sum where the next run starts.
    cols = out.shape[1]
    index, row = col_index(out.shape, device=out.device), row_index(out.shape, device=out.device)
    starts = (rows == out) | isnan(rows)
    next_start = _reversed("cummin", where(starts, index, cols))
    after = minimum(index + 1, cols - 1)
    following = where(index + 1 < cols, next_start[row, after], cols)
    tail = _reversed("cumsum", g)
    tail_padded = concatenate([tail, full((out.shape[0], 1), 0, dtype=tail.dtype,
                                          device=out.device)], axis=1)
    run = tail - tail_padded[row, following]
    return (where(starts, run, 0), None)


def _method(function: Callable[..., Array], takes_dtype: bool) -> Callable[..., Array]:
    if takes_dtype:
        def method(self: Array, axis: int | None = None, dtype: Any = None) -> Array:
            return function(self, axis=axis, dtype=dtype)
    else:
        def method(self: Array, axis: int | None = None) -> Array:  # type: ignore[misc]
            return function(self, axis=axis)
    method.__name__ = function.__name__
    method.__doc__ = f"``wf.{function.__name__}`` of this array."
    return method


Array.cumsum = _method(cumsum, True)  # type: ignore[attr-defined]
Array.cumprod = _method(cumprod, True)  # type: ignore[attr-defined]
