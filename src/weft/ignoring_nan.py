"""NumPy's reductions that ignore NaN (``nansum``, ``nanmean``, ``nanvar``, ``nanargmax``,
``nanmedian``...), lazy and fused like the reductions they are built on: each NaN becomes the
reduction's identity (or is left out of the count) in the same kernel that reads it.

As NumPy: integer and bool arrays have no NaN, so these are the plain reductions there; a
slice of NaN only gives NaN for ``nanmean``, ``nanvar``, ``nanstd``, ``nanmax``, ``nanmin``,
``nanmedian`` and ``nanquantile`` (NumPy also warns), 0 for ``nansum`` and 1 for
``nanprod``; ``nanargmax`` and ``nanargmin`` raise ``ValueError`` on reading it.

>>> import numpy as np, weft as wf
>>> x = wf.asarray([[1.0, np.nan], [3.0, 5.0]])
>>> wf.nanmean(x).item(), wf.nanmax(x, axis=1).tolist(), int(wf.nanargmin(x))
(3.0, [1.0, 5.0], 0)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import dtypes as dt
from .arg_reductions import argmax, argmin
from .array import Array, apply_op
from .creation import asarray
from .functions import where
from .indexing import checked_axis
from .matrix import check
from .quantile_positions import PICKING, lerp, positions
from .rearrange import take, take_along_axis
from .reductions import reduce, var
from .sorting import quantile, sort

__all__ = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
           "nanargmax", "nanargmin", "nanmedian", "nanquantile", "nanpercentile"]


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray(x)


def _nan(x: Array) -> Array:
    return apply_op("isnan", x)


def _count(x: Array, axis: Any, keepdims: bool, dtype: dt.DType) -> Array:
    """The elements of ``x`` that are not NaN, along ``axis``, in ``dtype``."""
    return reduce("sum", where(_nan(x), 0, 1).astype(dtype), axis, keepdims)


def _reduce_as_identity(name: str, a: Any, axis: Any, dtype: Any, keepdims: bool) -> Array:
    """``reduce(name)`` with each NaN taken as the reduction's identity."""
    x = _array(a)
    if x.dtype.is_float:
        x = where(_nan(x), 0 if name == "sum" else 1, x)
    return reduce(name, x, axis, keepdims, dtype)


def nansum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Array:
    """The sum with NaN taken as zero, as NumPy's ``nansum`` (0 for a slice of NaN).

    >>> import numpy as np, weft as wf
    >>> wf.nansum(wf.asarray([1.0, np.nan, 2.0])).item()
    3.0
    """
    return _reduce_as_identity("sum", a, axis, dtype, keepdims)


def nanprod(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Array:
    """The product with NaN taken as one, as NumPy's ``nanprod``.

    >>> import numpy as np, weft as wf
    >>> wf.nanprod(wf.asarray([2.0, np.nan, 3.0])).item()
    6.0
    """
    return _reduce_as_identity("prod", a, axis, dtype, keepdims)


def nanmean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Array:
    """The mean of the elements that are not NaN, as NumPy's ``nanmean`` (NaN for a slice
    of NaN; integers give the default real).

    >>> import numpy as np, weft as wf
    >>> wf.nanmean(wf.asarray([[1.0, np.nan], [3.0, np.nan]]), axis=0).tolist()
    [2.0, nan]
    """
    x = _array(a)
    if not x.dtype.is_float:
        return reduce("mean", x, axis, keepdims, dtype)
    real = dt.to_dtype(dtype) if dtype is not None else x.dtype
    total = reduce("sum", where(_nan(x), 0, x), axis, keepdims, real)
    return total / _count(x, axis, keepdims, real)


def nanvar(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0,
           keepdims: bool = False) -> Array:
    """The variance of the elements that are not NaN, as NumPy's ``nanvar``: in two passes
    (their mean, then the squared deviations), divided by their count less ``ddof``; NaN
    where that is not positive.

    >>> import numpy as np, weft as wf
    >>> wf.nanvar(wf.asarray([1.0, np.nan, 3.0]), ddof=1).item()
    2.0
    """
    x = _array(a)
    if not x.dtype.is_float:
        return var(x, axis=axis, ddof=ddof, keepdims=keepdims, dtype=dtype)
    if isinstance(ddof, bool) or not isinstance(ddof, (int, float)):
        raise TypeError(f"nanvar: ddof must be a real number, not {type(ddof).__name__}")
    real = dt.to_dtype(dtype) if dtype is not None else x.dtype
    xr = x.astype(real)
    deviation = where(_nan(xr), 0, xr - nanmean(xr, axis=axis, keepdims=True))
    total = reduce("sum", deviation * deviation, axis, keepdims, real)
    freedom = _count(xr, axis, keepdims, real) - ddof
    return where(freedom > 0, total / where(freedom > 0, freedom, 1), math.nan)


def nanstd(a: Any, axis: Any = None, dtype: Any = None, ddof: int = 0,
           keepdims: bool = False) -> Array:
    """The standard deviation of the elements that are not NaN: ``sqrt(nanvar(...))``.

    >>> import numpy as np, weft as wf
    >>> wf.nanstd(wf.asarray([1.0, np.nan, 3.0])).item()
    1.0
    """
    return apply_op("sqrt", nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims))


def _extreme(name: str, a: Any, axis: Any, keepdims: bool) -> Array:
    x = _array(a)
    if not x.dtype.is_float:
        return reduce(name, x, axis, keepdims)
    # One pass, as NumPy's fmax.reduce: NaN is fmax's identity, so only a slice of NaN
    # ends NaN (a NaN-masked max and an all-NaN test took two, twice NumPy's time on PoCL).
    return reduce(f"nan{name}", x, axis, keepdims)


def nanmax(a: Any, axis: Any = None, keepdims: bool = False) -> Array:
    """The largest element that is not NaN, as NumPy's ``nanmax`` (NaN for a slice of NaN).

    >>> import numpy as np, weft as wf
    >>> wf.nanmax(wf.asarray([1.0, np.nan, 3.0])).item()
    3.0
    """
    return _extreme("max", a, axis, keepdims)


def nanmin(a: Any, axis: Any = None, keepdims: bool = False) -> Array:
    """The smallest element that is not NaN, as NumPy's ``nanmin`` (NaN for a slice of NaN).

    >>> import numpy as np, weft as wf
    >>> wf.nanmin(wf.asarray([np.nan, 2.0, 3.0])).item()
    2.0
    """
    return _extreme("min", a, axis, keepdims)


def _arg_ignoring_nan(name: str, a: Any, axis: Any, keepdims: bool) -> Array:
    x = _array(a)
    arg = argmax if name == "nanargmax" else argmin
    if not x.dtype.is_float:
        return arg(x, axis=axis, keepdims=keepdims)
    nan = _nan(x)
    # NumPy's rule: NaN as -inf (+inf), so a slice of NaN and -inf points at its first NaN.
    position = arg(where(nan, -math.inf if name == "nanargmax" else math.inf, x), axis=axis,
                   keepdims=keepdims)
    some = apply_op("logical_not", reduce("all", nan, axis, keepdims))
    return check(position, some, f"{name}: All-NaN slice encountered (the slice at {{index}})")


def nanargmax(a: Any, axis: int | None = None, keepdims: bool = False) -> Array:
    """The int64 position of the largest element that is not NaN, as NumPy's ``nanargmax``;
    reading it raises ``ValueError`` for a slice of NaN.

    >>> import numpy as np, weft as wf
    >>> int(wf.nanargmax(wf.asarray([np.nan, 2.0, 1.0])))
    1
    """
    return _arg_ignoring_nan("nanargmax", a, axis, keepdims)


def nanargmin(a: Any, axis: int | None = None, keepdims: bool = False) -> Array:
    """The int64 position of the smallest element that is not NaN (as ``nanargmax``).

    >>> import numpy as np, weft as wf
    >>> int(wf.nanargmin(wf.asarray([np.nan, 2.0, 1.0])))
    2
    """
    return _arg_ignoring_nan("nanargmin", a, axis, keepdims)


def nanquantile(a: Any, q: Any, axis: int | None = None, method: str = "linear",
                keepdims: bool = False) -> Array:
    """The ``q`` quantiles of the elements that are not NaN, as NumPy's ``nanquantile``
    with any of its methods: each slice sorted (NaN last), then its ``n`` numbers read where
    the method says for that ``n`` (``"linear"``, the default: at ``q (n - 1)``,
    interpolated); NaN for a slice of NaN. ``q`` a number or a 1-D sequence in [0, 1] (its
    axis first in the result, as NumPy).

    >>> import numpy as np, weft as wf
    >>> wf.nanquantile(wf.asarray([4.0, np.nan, 1.0, 2.0]), 0.5).item()
    2.0
    """
    x = _array(a)
    if not x.dtype.is_float:
        return quantile(x, q, axis=axis, method=method, keepdims=keepdims)
    given = np.asarray(q.to_numpy() if isinstance(q, Array) else q)
    points = given.astype(np.float64)
    if points.ndim > 1 or not np.all((points >= 0) & (points <= 1)):
        raise ValueError(f"nanquantile: q must be a number or a 1-D sequence in [0, 1], "
                         f"got {q!r}")
    if given.ndim and given.dtype.kind == "f" and method not in PICKING:
        # q's own type counts where the method interpolates, as in NumPy.
        x = x.astype(dt.resolve([x.dtype, dt.from_numpy_dtype(given.dtype)], []))
    if axis is None:
        y, kept = x.reshape(x.size), (1,) * x.ndim
    else:
        axis = checked_axis("nanquantile", axis, x.ndim)
        y = x.T if axis == 1 else x  # the slices along the first axis
        kept = tuple(1 if k == axis else n for k, n in enumerate(x.shape))
    ordered = sort(y, axis=0)  # NaN last
    counted = _count(y, 0, True, dt.float64)  # (1,) or (1, m); positions in float64
    at = asarray(points, dtype=dt.float64)
    if y.ndim == 2 and points.ndim:
        at = at.reshape(points.size, 1)
    low, high, t = positions(method, counted, at)

    def value_at(index: Array) -> Array:
        if y.ndim == 1:
            return take(ordered, index)
        return take_along_axis(ordered, index, axis=0)

    below = value_at(low)
    if t is not None:
        below = lerp(below, value_at(high), t.astype(x.dtype))
    value = where(counted > 0, below, math.nan)
    if not points.ndim:
        value = value.reshape(value.shape[1:])  # the slices' axis of one
    if keepdims:
        shape = ((points.size,) if points.ndim else ()) + kept
        if len(shape) > 2:
            raise ValueError(f"nanquantile: several q with keepdims=True on a matrix give "
                             f"shape {shape}: weft arrays have at most 2 dimensions")
        value = value.reshape(shape)
    return value


def nanpercentile(a: Any, q: Any, axis: int | None = None, method: str = "linear",
                  keepdims: bool = False) -> Array:
    """``nanquantile`` at ``q / 100``, as NumPy's ``nanpercentile``.

    >>> import numpy as np, weft as wf
    >>> wf.nanpercentile(wf.asarray([1.0, np.nan, 3.0]), 50).item()
    2.0
    """
    qs = asarray(q, dtype=dt.float64) / 100
    return nanquantile(a, qs if qs.ndim else float(qs), axis=axis, method=method,
                       keepdims=keepdims)


def nanmedian(a: Any, axis: int | None = None, keepdims: bool = False) -> Array:
    """The median of the elements that are not NaN, as NumPy's ``nanmedian`` (NaN for a
    slice of NaN).

    >>> import numpy as np, weft as wf
    >>> wf.nanmedian(wf.asarray([[1.0, np.nan], [3.0, 4.0]]), axis=1).tolist()
    [1.0, 3.5]
    """
    return nanquantile(a, 0.5, axis=axis, keepdims=keepdims)
