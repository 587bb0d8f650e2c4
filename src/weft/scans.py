"""Scans: ``cumsum``, ``cumprod``, ``cummax``, ``cummin`` and ``logcumsumexp`` along an axis,
as NumPy's ``cumsum``/``cumprod`` and ``maximum``/``minimum``/``logaddexp.accumulate``.

A scan is one lazy node (``expr.SCAN``) along an axis of a 2-D operand (a vector is one
row). Its kernels (scan_kernels.py, skeletons/scan.py) compute the operand where they read
it, so a producer fuses into them (one with checks or gathers is computed first), and what
reads the scan fuses after it like anything that reads a buffer. They read each element
twice and write it once, in at most three launches, so a scan records in traced functions
and replays like any other expression. Rows are cut into splits that the device walks in
parallel, each from its carry (the total of the splits before it), so sums round
differently from NumPy's sequential loop (on CPUs, only at the splits' borders; float32 sums
run in float64 where the device has it). A scan's gradient is its own rule
(``scan_shares``: reversed scans).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import dtypes as dt
from . import expr as ex
from .array import Array
from .creation import asarray, col_index, full, row_index
from .indexing import checked_axis

_COMBINE = {"cumsum": "add", "cumprod": "multiply", "cummax": "maximum",
            "cummin": "minimum", "logcumsumexp": "logaddexp"}


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
    return _scan_along(x, name, 1 if x.ndim == 1 else axis)


def _result_type(name: str, x: Array, dtype: Any) -> dt.DType:
    if dtype is not None:
        return dt.to_dtype(dtype)
    if name == "logcumsumexp":
        return x.dtype if x.dtype.is_float else dt.float64
    if name in ("cumsum", "cumprod") and x.dtype.kind in "bui":
        return dt.int64  # NumPy's sums of integers and bools
    return x.dtype


def _written(result: Array, out: Array | None, name: str) -> Array:
    """``result``, or written into ``out`` (NumPy's ``out=``) and that."""
    if out is None:
        return result
    from .functions import _into

    return _into(out, result, name)


def _scan_along(x: Array, name: str, axis: int) -> Array:
    """The scan ``name`` along ``axis`` of the padded 2-D ``x`` (1: each row; a vector is
    one row), bools running in int32 (a work-group's memory holds no C bool). Its gradient
    is the scan node's own rule (``scan_shares``)."""
    operand = x.astype(dt.int32) if x.dtype.kind == "b" else x
    out = Array(ex.scan(operand._node, _COMBINE[name], axis, operand.dtype), x.device)
    return out.astype(dt.bool_) if x.dtype.kind == "b" else out


def cumsum(x: Any, axis: int | None = None, dtype: Any = None, out: Array | None = None
           ) -> Array:
    """Cumulative sums along ``axis`` (the flattened array for None), as ``numpy.cumsum``;
    integers and bools sum in int64.

    >>> import weft as wf
    >>> wf.cumsum(wf.asarray([[1, 2, 3], [4, 5, 6]]), axis=1).tolist()
    [[1, 3, 6], [4, 9, 15]]
    """
    return _written(_scan("cumsum", x, axis, dtype), out, "cumsum")


def cumprod(x: Any, axis: int | None = None, dtype: Any = None, out: Array | None = None
           ) -> Array:
    """Cumulative products along ``axis``, as ``numpy.cumprod``.

    >>> import weft as wf
    >>> wf.cumprod(wf.asarray([1.0, 2.0, 3.0, 4.0])).tolist()
    [1.0, 2.0, 6.0, 24.0]
    """
    return _written(_scan("cumprod", x, axis, dtype), out, "cumprod")


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


def _nan_filled(x: Any, fill: float) -> Array:
    x = x if isinstance(x, Array) else asarray(x)
    if not x.dtype.is_float:
        return x
    from .functions import isnan, where

    return where(isnan(x), fill, x)


def nancumsum(x: Any, axis: int | None = None, dtype: Any = None, out: Array | None = None
              ) -> Array:
    """``cumsum`` with NaNs counted as zero, as ``numpy.nancumsum``.

    >>> import weft as wf
    >>> wf.nancumsum(wf.asarray([1.0, float("nan"), 2.0])).tolist()
    [1.0, 1.0, 3.0]
    """
    return cumsum(_nan_filled(x, 0.0), axis=axis, dtype=dtype, out=out)


def nancumprod(x: Any, axis: int | None = None, dtype: Any = None, out: Array | None = None
              ) -> Array:
    """``cumprod`` with NaNs counted as one, as ``numpy.nancumprod``.

    >>> import weft as wf
    >>> wf.nancumprod(wf.asarray([2.0, float("nan"), 3.0])).tolist()
    [2.0, 2.0, 6.0]
    """
    return cumprod(_nan_filled(x, 1.0), axis=axis, dtype=dtype, out=out)


def _cumulative(name: str, x: Any, axis: int | None, dtype: Any,
                include_initial: bool) -> Array:
    from .creation import full
    from .matrix import concatenate

    x = x if isinstance(x, Array) else asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"cumulative_{name[3:]}: give axis for a {x.ndim}-d array (the "
                             "array API's rule; cumsum flattens)")
        axis = 0
    if x.ndim == 0:  # NumPy's: a 0-d array scans as one element
        x = x.reshape((1,))
    out = _scan(name, x, axis, dtype)
    if not include_initial:
        return out
    axis = checked_axis(name, axis, x.ndim)
    shape = tuple(1 if k == axis else n for k, n in enumerate(out.shape))
    start = full(shape, 0 if name == "cumsum" else 1, dtype=out.dtype, device=out.device)
    return concatenate([start, out], axis=axis)


def cumulative_sum(x: Any, /, *, axis: int | None = None, dtype: Any = None,
                   include_initial: bool = False, out: Array | None = None) -> Array:
    """The array API's (and NumPy 2.1's) ``cumulative_sum``: ``cumsum`` along ``axis``
    (required beyond 1-D), starting with 0 when ``include_initial``.

    >>> import weft as wf
    >>> wf.cumulative_sum(wf.asarray([1, 2, 3]), include_initial=True).tolist()
    [0, 1, 3, 6]
    """
    return _written(_cumulative("cumsum", x, axis, dtype, include_initial),
                    out, "cumulative_sum")


def cumulative_prod(x: Any, /, *, axis: int | None = None, dtype: Any = None,
                    include_initial: bool = False, out: Array | None = None) -> Array:
    """The array API's (and NumPy 2.1's) ``cumulative_prod``: ``cumprod`` along ``axis``,
    starting with 1 when ``include_initial``.

    >>> import weft as wf
    >>> wf.cumulative_prod(wf.asarray([1.0, 2.0, 3.0])).tolist()
    [1.0, 2.0, 6.0]
    """
    return _written(_cumulative("cumprod", x, axis, dtype, include_initial),
                    out, "cumulative_prod")


def _reversed(name: str, x: Array) -> Array:
    """The scan ``name`` of each row of ``x`` from its end (each element combines those
    after it)."""
    return _scan_along(x[:, ::-1], name, 1)[:, ::-1]


def scan_shares(node: ex.Node, g: Array) -> Array:
    """The reverse rule of a ``SCAN`` node: its operand's adjoint from the node's adjoint
    ``g``, itself a few scans (reversed where each element feeds the ones after it), worked
    out along rows."""
    op, axis = node.attrs
    name = next(k for k, v in _COMBINE.items() if v == op)
    x, out = Array(node.args[0], g.device), Array(node, g.device)

    def as_rows(a: Array) -> Array:
        return a.reshape((1, a.shape[0])) if a.ndim == 1 else (a.T if axis == 0 else a)

    adjoint = _rows_adjoint(as_rows(g), as_rows(out), as_rows(x), name)
    return adjoint.reshape(x.shape) if x.ndim == 1 else (adjoint.T if axis == 0 else adjoint)


def _rows_adjoint(g: Array, out: Array, rows: Array, name: str) -> Array:
    from .functions import exp, isnan, log, maximum, minimum, where
    from .matrix import concatenate

    if name == "cumsum":
        return _reversed("cumsum", g)
    if name == "logcumsumexp":  # sum_{j >= i} g_j exp(x_i - y_j), signs apart, in logs
        up = _reversed("logcumsumexp", log(maximum(g, 0)) - out)
        down = _reversed("logcumsumexp", log(maximum(-g, 0)) - out)
        return exp(rows + up) - exp(rows + down)
    if name == "cumprod":
        # sum_{j >= i} g_j y_j / x_i where x_i is not 0; at a row's first 0, the products
        # with that factor left out; after it, 0 (what the second form gives there too).
        zero = rows == 0
        first_zero = zero & (_scan_along(zero.astype(dt.int64), "cumsum", 1) == 1)
        left_out = _scan_along(where(first_zero, 1, rows), "cumprod", 1)
        return where(zero, _reversed("cumsum", g * left_out),
                     _reversed("cumsum", g * out) / where(zero, 1, rows))
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
    return where(starts, run, 0)


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
