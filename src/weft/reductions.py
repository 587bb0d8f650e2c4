"""Reductions: ``sum prod max min mean count_nonzero any all`` and ``logsumexp``.

Each is an op-table binary op with an identity (ops.py) over a producer expression; the
reduction node fuses with that producer (``(exp(X) * 2 - X).sum()`` reads X once) and is
scheduled by schedule.py. Axes follow NumPy: ``None`` (everything), ``0``/``-2`` (down each
column of a matrix), ``1``/``-1`` (along each row); ``keepdims`` keeps size-1 axes.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from .array import Array, apply_op
from .creation import asarray, full
from .indexing import AffineMap, transposed_source
from .transposing import flipped

# name: (op-table op, NumPy name for errors)
_REDUCTIONS = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum",
               "mean": "add", "count_nonzero": "add", "any": "logical_or", "all": "logical_and",
               "nanmax": "fmax", "nanmin": "fmin"}
def _axis(name: str, axis: Any, ndim: int) -> int | None:
    """The padded-2-D axis reduced: None for everything, 1 along rows, 0 down columns."""
    if isinstance(axis, tuple):
        # builtins.any: this module defines weft's any, max... (a tuple axis once met them).
        if builtins.any(not isinstance(a, int) or isinstance(a, bool) or not -ndim <= a < ndim
                        for a in axis):
            raise np.exceptions.AxisError(
                f"{name}: axis {axis} is out of bounds for an array of {ndim} dims")
        if sorted(a % ndim for a in axis) == list(range(ndim)):
            return None
        if len(axis) == 1:
            axis = axis[0]
        else:
            raise ValueError(f"{name}: axis {axis} is not valid for an array of {ndim} dims")
    if axis is None:
        return None
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"{name}: axis must be None or an integer, not {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(
            f"{name}: axis {axis} is out of bounds for an array of {ndim} dims")
    axis %= ndim
    if ndim == 1:
        return None
    return 0 if axis == 0 else 1


def _shapes(shape: tuple[int, ...], axis: int | None) -> tuple[tuple[int, ...],
                                                                tuple[int, ...], int]:
    """(result shape, keepdims shape, number of elements reduced into each result)."""
    if axis is None:
        size = 1
        for s in shape:
            size *= s
        return (), (1,) * len(shape), size
    rows, cols = shape
    if axis == 0:
        return (cols,), (1, cols), rows
    return (rows,), (rows, 1), cols


def _result_dtype(name: str, x: Array, dtype: Any) -> dt.DType:
    if dtype is not None:
        return dt.to_dtype(dtype)
    if name in ("any", "all"):
        return dt.bool_
    if name == "count_nonzero":
        return dt.int64
    if name in ("sum", "prod"):
        return dt.int64 if x.dtype.kind in "bui" else x.dtype
    if name == "mean":
        return x.dtype if x.dtype.is_float else dt.default_real()
    return x.dtype


def _over_no_axes(name: str, x: Array, result: Any) -> Array:
    """A reduction over ``axis=()``, as NumPy's: each element reduced alone, so the shape
    stays (any and all: whether it is nonzero; the others: the element in the result type)."""
    if name in ("any", "all", "count_nonzero"):
        nonzero = x if x.dtype.kind == "b" else apply_op("not_equal", x, 0)
        return nonzero.astype(result) if name == "count_nonzero" else nonzero.copy()
    return x.astype(result).copy()


def reduce(name: str, x: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None
           ) -> Array:
    """``name`` in sum prod max min mean count_nonzero any all nanmax nanmin, lazily, with
    NumPy's axes (nanmax and nanmin: NumPy's ``fmax.reduce``, NaN only where all are NaN).

    >>> import weft as wf
    >>> wf.reduce("sum", wf.asarray([[1, 2], [3, 4]]), axis=0).tolist()
    [4, 6]
    """
    x = x if isinstance(x, Array) else asarray(x)
    if isinstance(axis, tuple) and not axis:
        return _over_no_axes(name, x, _result_dtype(name, x, dtype))
    red_axis = _axis(name, axis, x.ndim)
    source = transposed_source(x) if x.ndim == 2 else None
    if source is not None:  # along x's rows is down source's columns: take source's way
        if red_axis is None:  # (all the elements, in memory's order)
            return reduce(name, source, None, keepdims, dtype)
        out = reduce(name, source, 1 - red_axis, keepdims, dtype)
        return out.T if keepdims else out
    rebuilt = flipped(x._node) if x.ndim == 2 and x._node.kind is not ex.BUFFER else None
    if rebuilt is not None:  # element-wise over transposes: the same, over their sources
        out = reduce(name, Array(rebuilt, x.device), None if red_axis is None else 1 - red_axis,
                     keepdims, dtype)
        return out.T if keepdims else out
    shape, keep_shape, count = _shapes(x.shape, red_axis)
    result = _result_dtype(name, x, dtype)
    op = _REDUCTIONS[name]
    if name in ("max", "min", "nanmax", "nanmin") and count == 0:
        # As NumPy: even when the result is empty.
        raise ValueError(f"{name}: zero-size array to reduction operation {op} which has no "
                         "identity")
    if name in ("any", "all", "count_nonzero"):
        if x.dtype.kind == "b":
            producer = x
        else:
            producer = apply_op("not_equal", x, 0)
        if name == "count_nonzero":
            producer = producer.astype(result)
    else:
        producer = x.astype(result)
    scale = None
    if name == "mean":
        scale = 1.0 / count if count else float("nan")
    node = ex.reduce(producer._node, ex.Reduction(op, red_axis, scale),
                     keep_shape if keepdims else shape, result)
    return Array(node, x.device)


def squeeze(x: Array, keep_shape: tuple[int, ...], shape: tuple[int, ...]) -> Array:
    """A keepdims result viewed without its size-1 axes (no copy, no kernel)."""
    if keep_shape == shape:
        return x
    if len(shape) == 0:
        m = AffineMap(0, 0, 0, 0, 0, 0)
    elif keep_shape[1] == 1:
        m = AffineMap(0, 0, 1, 0, 0, 0)  # (rows, 1) -> (rows,)
    else:
        m = AffineMap(0, 0, 0, 0, 0, 1)  # (1, cols) -> (cols,)
    return Array(ex.view(x._node, shape, m), x.device)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False, b: Any = None,
              return_sign: bool = False) -> Any:
    """``log(sum(b * exp(x)))`` without overflow (the maximum is taken out first), as
    SciPy's: ``b`` weights the terms (broadcast against ``x``); a negative weighted sum is
    NaN, or with ``return_sign`` the pair ``(log|sum|, sign)``.

    >>> import weft as wf
    >>> round(wf.logsumexp(wf.asarray([0.0, 0.0])).item(), 6)
    0.693147
    >>> value, sign = wf.logsumexp(wf.asarray([0.0, 1.0]), b=[2.0, -1.0], return_sign=True)
    >>> round(value.item(), 6), sign.item()
    (-0.330893, -1.0)
    """
    x = x if isinstance(x, Array) else asarray(x)
    if not x.dtype.is_float:
        x = x.astype(dt.default_real())
    if b is not None:
        b = b if isinstance(b, Array) else asarray(b, dtype=x.dtype, device=x.device)
        # SciPy's: a term weighted 0 is left out, even from the maximum taken out first.
        x = apply_op("where", apply_op("equal", b, 0), -np.inf, x)
    red_axis = _axis("logsumexp", axis, x.ndim)
    shape, keep_shape, count = _shapes(x.shape, red_axis)
    if count == 0:  # the log of an empty sum, as SciPy
        empty = full(keep_shape if keepdims else shape, -np.inf, dtype=x.dtype,
                     device=x.device)
        return (empty, full(empty.shape, 1.0, dtype=x.dtype, device=x.device)
                ) if return_sign else empty
    top = reduce("max", x, axis, keepdims=True)
    top = apply_op("where", apply_op("isfinite", top), top, 0)
    terms = apply_op("exp", x - top)
    total = reduce("sum", terms if b is None else apply_op("multiply", b, terms), axis,
                   keepdims=True)
    out = apply_op("log", apply_op("abs", total) if return_sign else total) + top
    out = out if keepdims else squeeze(out, keep_shape, shape)
    if not return_sign:
        return out
    sign = apply_op("sign", total)
    return out, sign if keepdims else squeeze(sign, keep_shape, shape)


def softmax(x: Any, axis: Any = None) -> Array:
    """``exp(x) / sum(exp(x))`` along ``axis`` (all elements for None), without overflow,
    as SciPy's ``softmax``.

    >>> import weft as wf
    >>> [round(v, 6) for v in wf.softmax(wf.asarray([0.0, 1.0])).tolist()]
    [0.268941, 0.731059]
    """
    return apply_op("exp", log_softmax(x, axis))


def log_softmax(x: Any, axis: Any = None) -> Array:
    """``x - logsumexp(x)`` along ``axis`` (all elements for None), as SciPy's
    ``log_softmax``.

    >>> import weft as wf
    >>> [round(v, 6) for v in wf.log_softmax(wf.asarray([0.0, 1.0])).tolist()]
    [-1.313262, -0.313262]
    """
    x = x if isinstance(x, Array) else asarray(x)
    if not x.dtype.is_float:
        x = x.astype(dt.default_real())
    return x - logsumexp(x, axis, keepdims=True)


def _method(name: str):
    def method(self: Array, axis: Any = None, keepdims: bool = False, dtype: Any = None
               ) -> Array:
        return reduce(name, self, axis, keepdims, dtype)

    method.__name__ = name
    method.__doc__ = f"``wf.{name}`` of this array (see ``wf.reduce``)."
    return method


for _name in _REDUCTIONS:
    setattr(Array, _name, _method(_name))


def _function(name: str):
    def function(x: Any, axis: Any = None, keepdims: bool = False, dtype: Any = None) -> Array:
        return reduce(name, x, axis, keepdims, dtype)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"``{name}`` over ``axis`` (None, 0, 1, -1, -2), lazily, fused with its operand.\n\n"
        f"``keepdims`` keeps the reduced axes as size 1; ``dtype`` is the result and "
        f"accumulation type.\n\n    >>> import weft as wf\n"
        f"    >>> y = wf.{name}(wf.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=0)\n"
    )
    return function


FUNCTIONS = {name: _function(name) for name in _REDUCTIONS}
globals().update(FUNCTIONS)


def var(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False, dtype: Any = None
        ) -> Array:
    """The variance, as NumPy's ``var``: the squared deviations from the mean summed and
    divided by ``n - ddof``, in two passes (the mean, then the deviations: no cancellation
    of large sums); integers give the default real. ``n - ddof <= 0`` gives inf or NaN, as
    NumPy (without its warning).

    >>> import weft as wf
    >>> x = wf.asarray([[1.0, 2.0], [3.0, 5.0]])
    >>> wf.var(x).item(), wf.var(x, axis=0, ddof=1).tolist()
    (2.1875, [2.0, 4.5])
    """
    x = x if isinstance(x, Array) else asarray(x)
    real = dt.to_dtype(dtype) if dtype is not None else (
        x.dtype if x.dtype.is_float else dt.default_real())
    if isinstance(ddof, bool) or not isinstance(ddof, (int, float, np.integer, np.floating)):
        raise TypeError(f"var: ddof must be a real number, not {type(ddof).__name__}")
    xr = x.astype(real)
    if not (isinstance(axis, tuple) and not axis):
        _axis("var", axis, x.ndim)  # a bad axis is named before anything is built
    axes = (tuple(range(x.ndim)) if axis is None else
            tuple(a % x.ndim for a in (axis if isinstance(axis, tuple) else (axis,))))
    count = 1
    for a in axes:
        count *= x.shape[a]
    deviation = xr - xr.mean(axis=axis, keepdims=True)
    total = (deviation * deviation).sum(axis=axis, keepdims=keepdims)
    return total / builtins.max(count - ddof, 0)  # a real ddof too (the standard's correction)


def std(x: Any, axis: Any = None, ddof: int = 0, keepdims: bool = False, dtype: Any = None
        ) -> Array:
    """The standard deviation, as NumPy's ``std``: ``sqrt(var(...))`` (see ``var``).

    >>> import weft as wf
    >>> wf.std(wf.asarray([1.0, 3.0])).item()
    1.0
    """
    return apply_op("sqrt", var(x, axis=axis, ddof=ddof, keepdims=keepdims, dtype=dtype))


def _spread_method(function: Any) -> Any:
    def method(self: Array, axis: Any = None, ddof: int = 0, keepdims: bool = False,
               dtype: Any = None) -> Array:
        return function(self, axis=axis, ddof=ddof, keepdims=keepdims, dtype=dtype)

    method.__name__ = function.__name__
    method.__doc__ = f"``wf.{function.__name__}`` of this array."
    return method


FUNCTIONS.update(var=var, std=std)
Array.var = _spread_method(var)  # type: ignore[attr-defined]
Array.std = _spread_method(std)  # type: ignore[attr-defined]


def ptp(a: Any, axis: Any = None, keepdims: bool = False) -> Array:
    """The range (largest less smallest) along ``axis``, as NumPy's ``ptp``: one kernel
    for both reductions.

    >>> import weft as wf
    >>> wf.ptp(wf.asarray([[4.0, 9.0], [1.0, 2.0]]), axis=1).tolist()
    [5.0, 1.0]
    """
    x = a if isinstance(a, Array) else asarray(a)
    return reduce("max", x, axis, keepdims) - reduce("min", x, axis, keepdims)


FUNCTIONS.update(ptp=ptp)
