"""NumPy's ``pad``, lazy: each padded axis a gather of the source's positions, which NumPy's
own ``pad`` of ``arange(n)`` names on the host for every mode it has here (``constant``,
``edge``, ``reflect``, ``symmetric``, ``wrap``), so the positions are NumPy's exactly; a
constant then replaces the positions outside.

>>> import weft as wf
>>> wf.pad(wf.asarray([1, 2, 3]), (2, 1), mode="reflect").tolist()
[3, 2, 1, 2, 3, 2]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .array import Array
from .creation import arange, asarray, full
from .functions import where
from .rearrange import take

__all__ = ["pad"]

_KEYWORDS = {"constant": {"constant_values"}, "edge": set(), "wrap": set(),
             "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}}


def pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Array:
    """``array`` padded by ``pad_width`` (an int, a (before, after) pair, or a pair per
    axis) as NumPy's ``pad`` in the modes ``constant`` (``constant_values``: a number or
    pairs), ``edge``, ``reflect`` and ``symmetric`` (``reflect_type="even"``, NumPy's
    default) and ``wrap``; the result keeps ``array``'s dtype.

    >>> import weft as wf
    >>> wf.pad(wf.asarray([[1.0, 2.0]]), 1, constant_values=9).tolist()
    [[9.0, 9.0, 9.0, 9.0], [9.0, 1.0, 2.0, 9.0], [9.0, 9.0, 9.0, 9.0]]
    """
    x = array if isinstance(array, Array) else asarray(array)
    if mode not in _KEYWORDS:
        raise NotImplementedError(f"pad: mode {mode!r} (weft has {', '.join(_KEYWORDS)})")
    unknown = set(kwargs) - _KEYWORDS[mode]
    if unknown:
        raise ValueError(f"pad: unsupported keyword arguments for mode {mode!r}: "
                         f"{sorted(unknown)}")
    if kwargs.get("reflect_type", "even") != "even":
        raise NotImplementedError("pad: reflect_type='odd' (weft has NumPy's default, 'even')")
    widths = np.broadcast_to(np.asarray(pad_width), (x.ndim, 2))
    if widths.dtype.kind not in "iu":
        raise TypeError("pad: pad_width must be of integral type")
    if (widths < 0).any():
        raise ValueError("pad: index can't contain negative values")
    constants = np.broadcast_to(np.asarray(kwargs.get("constant_values", 0)), (x.ndim, 2))
    out = x
    for axis, (before, after) in enumerate(widths.tolist()):
        if not before and not after:
            continue
        n = out.shape[axis]
        length = before + n + after
        if mode != "constant":
            places = np.pad(np.arange(n), (before, after), mode=mode, **kwargs)
            out = take(out, places, axis=axis)
            continue
        if n == 0:
            shape = tuple(length if k == axis else s for k, s in enumerate(out.shape))
            out = full(shape, constants[axis][0], dtype=x.dtype)
            continue
        gathered = take(out, np.clip(np.arange(length) - before, 0, n - 1), axis=axis)
        positions = arange(length)
        if out.ndim == 2:
            positions = positions.reshape((length, 1) if axis == 0 else (1, length))
        low, high = (constants[axis][0].item(), constants[axis][1].item())
        out = where(positions < before, low, where(positions >= before + n, high, gathered))
        out = out.astype(x.dtype)
    return out
