"""``argmax`` and ``argmin``, as NumPy's: the first position of the largest (smallest)
element, or of the first NaN where there is one.

One pass over the operand: an ``expr.ARG`` node, whose kernels (scan_kernels.arg_kernels)
keep each task's best value and position (a split of a row, or a band of columns walked
row by row) and combine the tasks' pairs; the producer fuses into the pass.
"""

from __future__ import annotations

from typing import Any

from . import dtypes as dt
from . import expr as ex
from .array import Array
from .creation import asarray
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
    x = x if isinstance(x, Array) else asarray(x)
    if axis is not None:
        axis = checked_axis(name, axis, x.ndim, zero_d_has_one=True)
    if x.size == 0:
        raise ValueError(f"{name}: an empty array has no {name[3:]}imum")
    if x.ndim == 0:
        return asarray(0, dtype=dt.int64, device=x.device)
    if x.ndim == 1:
        axis = None  # a vector is one row: its positions are its own
    if axis is None:
        shape = (1,) * x.ndim if keepdims else ()
    elif keepdims:
        shape = (x.shape[0], 1) if axis == 1 else (1, x.shape[1])
    else:
        shape = (x.shape[0],) if axis == 1 else (x.shape[1],)
    operand = x.astype(dt.int32) if x.dtype.kind == "b" else x  # no C bool in group memory
    op = "maximum" if name == "argmax" else "minimum"
    return Array(ex.arg(operand._node, op, axis, shape, dt.int64), x.device)


def _method(function: Any) -> Any:
    def method(self: Array, axis: int | None = None, keepdims: bool = False) -> Array:
        return function(self, axis=axis, keepdims=keepdims)

    method.__name__ = function.__name__
    method.__doc__ = f"``wf.{function.__name__}`` of this array."
    return method


Array.argmax = _method(argmax)  # type: ignore[attr-defined]
Array.argmin = _method(argmin)  # type: ignore[attr-defined]
