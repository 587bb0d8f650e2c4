"""``argmax`` and ``argmin``, as NumPy's: the first position of the largest (smallest)
element, or of the first NaN where there is one.

Along rows (a vector, or ``axis=1``): one pass, an ``expr.ARG`` node whose kernels
(scan_kernels.arg_kernels) keep each split's best value and position and combine the splits'
pairs. Down columns and over a whole matrix: two fused reductions, the extreme value
(NaN-propagating ``max``/``min``), then the smallest position whose element equals it, or is
NaN; the element-wise work between them fuses into the second, and narrow rows fuse both
into their consumer (``schedule.inline_reductions``).
"""

from __future__ import annotations

from typing import Any

from . import dtypes as dt
from . import expr as ex
from .array import Array
from .creation import asarray, flat_position
from .indexing import checked_axis


def argmax(x: Any, axis: int | None = None, keepdims: bool = False) -> Array:
    """The int64 position of the largest element (along ``axis``, or in the flattened
    array), the first one where several tie; the first NaN's where there is one.

    >>> import weft as wf
    >>> x = wf.asarray([[1.0, 7.0, 7.0], [9.0, 2.0, 3.0]])
    >>> int(wf.argmax(x)), wf.argmax(x, axis=1).tolist(), x.argmax(axis=0).tolist()
    (3, [1, 0], [1, 0, 0])
    """
    return _arg("argmax", x, axis, keepdims)


def argmin(x: Any, axis: int | None = None, keepdims: bool = False) -> Array:
    """The int64 position of the smallest element (as ``argmax``).

    >>> import weft as wf
    >>> wf.argmin(wf.asarray([3.0, 1.0, 1.0])).item()
    1
    """
    return _arg("argmin", x, axis, keepdims)


def _arg(name: str, x: Any, axis: Any, keepdims: bool) -> Array:
    from .functions import where

    x = x if isinstance(x, Array) else asarray(x)
    if axis is not None:
        axis = checked_axis(name, axis, x.ndim, zero_d_has_one=True)
    if x.size == 0:
        raise ValueError(f"{name}: an empty array has no {name[3:]}imum")
    if x.ndim == 0:
        return asarray(0, dtype=dt.int64, device=x.device)
    if x.ndim == 1 or axis == 1:
        return _along_rows(name, x, axis, keepdims)
    along = axis
    best = (x.max if name == "argmax" else x.min)(axis=along, keepdims=True)
    hit = x == best
    if x.dtype.is_float:
        hit = hit | (x != x)  # a NaN makes the extreme NaN: the first NaN is the answer
    if along is None:
        position = flat_position(x.shape, x.device)
        past = x.size
    else:
        position = Array(ex.index("row" if along == 0 and x.ndim == 2 else "col", x.shape,
                                  dt.int64), x.device)
        past = x.shape[along]
    return where(hit, position, past).min(axis=along, keepdims=keepdims)


def _along_rows(name: str, x: Array, axis: int | None, keepdims: bool) -> Array:
    """The one-pass arg-reduction of each row (a vector is one row), bools as int32 (a
    work-group's memory holds no C bool)."""
    operand = x.astype(dt.int32) if x.dtype.kind == "b" else x
    op = "maximum" if name == "argmax" else "minimum"
    shape = (x.shape[0],) if x.ndim == 2 else ()
    out = Array(ex.arg(operand._node, op, shape, dt.int64), x.device)
    if keepdims:
        return out.reshape((x.shape[0], 1) if x.ndim == 2 else (1,))
    return out


def _method(function: Any) -> Any:
    def method(self: Array, axis: int | None = None, keepdims: bool = False) -> Array:
        return function(self, axis=axis, keepdims=keepdims)

    method.__name__ = function.__name__
    method.__doc__ = f"``wf.{function.__name__}`` of this array."
    return method


Array.argmax = _method(argmax)  # type: ignore[attr-defined]
Array.argmin = _method(argmin)  # type: ignore[attr-defined]
