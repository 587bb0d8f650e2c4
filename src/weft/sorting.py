"""Sorting and order statistics, as NumPy's.

``sort`` and ``argsort`` run the device's library sort (``linalg_library``: CuPy's on CUDA,
NumPy's on the host for OpenCL and the reference device, reading a CPU device's buffer where
it lies), stable, NaN last. ``median``, ``quantile`` and ``percentile`` read the sorted values
lazily at positions computed on the host from ``q`` and NumPy's method, so the interpolation
fuses with what follows. A sort's gradient sends each adjoint back to the element that moved
there (``adjoint_linalg``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array
from .creation import asarray
from .indexing import checked_axis
from .linalg_library import library
from .tape import recorded

# NumPy's continuous methods as Hyndman and Fan's (alpha, beta): the virtual index of q
# among n sorted values is n q + alpha + q (1 - alpha - beta) - 1.
_PLOTTING_POSITIONS = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5),
                       "weibull": (0.0, 0.0), "median_unbiased": (1 / 3, 1 / 3),
                       "normal_unbiased": (3 / 8, 3 / 8)}
METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", *_PLOTTING_POSITIONS)


def _operand(x: Any, axis: Any, name: str) -> tuple[Array, int]:
    x = x if isinstance(x, Array) else asarray(x)
    if axis is None:
        from .matrix import ravel

        return ravel(x), 0
    return x, checked_axis(name, axis, x.ndim)


@recorded("sort")
def _library_sort(x: Array, axis: int, kind: str | None = None) -> Array:
    lib = library(x.device)
    with lib.on_stream():
        values = lib.take(x)
        # Equal values cannot be told apart but for the sign of a zero, so NumPy's default
        # sort serves (4M doubles: 75 ms against the stable sort's 558), and its order of
        # -0.0 and 0.0 is NumPy's own; CuPy's sorts are stable.
        chosen = {"kind": kind} if lib.np is np and kind is not None else {}
        return lib.give(lib.np.sort(values, axis=axis, **chosen), x.dtype)


def sort(x: Any, axis: int | None = -1, kind: str | None = None) -> Array:
    """A sorted copy along ``axis`` (the flattened array for None), NaN last, as
    ``numpy.sort`` (on the host device by NumPy's sort of ``kind``: the same values, -0.0
    and 0.0 in NumPy's order; on CUDA by CuPy's).

    >>> import weft as wf
    >>> wf.sort(wf.asarray([[3.0, 1.0, 2.0], [0.0, -1.0, 5.0]])).tolist()
    [[1.0, 2.0, 3.0], [-1.0, 0.0, 5.0]]
    """
    if kind not in (None, "quicksort", "mergesort", "heapsort", "stable"):
        raise ValueError(f"sort: kind must be one of 'quicksort', 'mergesort', 'heapsort' "
                         f"or 'stable', got {kind!r}")
    x, along = _operand(x, axis, "sort")
    return _library_sort(x, along, kind)


def argsort(x: Any, axis: int | None = -1, kind: str | None = None) -> Array:
    """The int64 positions that sort ``x`` along ``axis`` (stable: ties keep their order;
    NaN last), as ``numpy.argsort``.

    >>> import weft as wf
    >>> wf.argsort(wf.asarray([3.0, 1.0, 2.0, 1.0])).tolist()
    [1, 3, 2, 0]
    """
    x, along = _operand(x, axis, "argsort")
    lib = library(x.device)
    with lib.on_stream():
        values = lib.take(x)
        kind = {"kind": "stable"} if lib.np is np else {}
        return lib.give(lib.np.argsort(values, axis=along, **kind), dt.int64)


def take_along(x: Array, index: Array, axis: int) -> Array:
    """``x`` read at the positions ``index`` (of ``x``'s shape) along ``axis``, as
    ``numpy.take_along_axis``: a lazy gather.

    >>> import weft as wf
    >>> x = wf.asarray([[10.0, 20.0], [30.0, 40.0]])
    >>> take_along(x, wf.asarray([[1, 0], [1, 1]]), 1).tolist()
    [[20.0, 10.0], [40.0, 40.0]]
    """
    from .creation import col_index, row_index

    if x.ndim == 1:
        return x[index]
    if axis == 0:
        return x[index, col_index(x.shape, device=x.device)]
    return x[row_index(x.shape, device=x.device), index]


def _along(x: Array, index: int, axis: int) -> Array:
    """The slice of ``x`` at ``index`` along ``axis`` (a view)."""
    if x.ndim == 1:
        return x[index]
    return x[index, :] if axis == 0 else x[:, index]


def _virtual_index(method: str, n: int, q: float) -> float | int:
    """Where quantile ``q`` lies among ``n`` sorted values under NumPy's ``method``: an
    integer for the methods that pick one value, else a real position to interpolate at."""
    if method == "linear":
        return (n - 1) * q
    if method == "lower":
        return math.floor((n - 1) * q)
    if method == "higher":
        return math.ceil((n - 1) * q)
    if method == "nearest":
        return int(np.around((n - 1) * q))  # half to even, as NumPy's
    if method == "midpoint":
        return 0.5 * (math.floor((n - 1) * q) + math.ceil((n - 1) * q))
    if method in ("inverted_cdf", "closest_observation"):
        position = n * q - 1 - (0.5 if method == "closest_observation" else 0.0)
        below = math.floor(position)
        # At a whole position: inverted_cdf takes it; closest_observation the even order
        # statistic (odd zero-based position). Otherwise the next one.
        exact = position == below and (method == "inverted_cdf" or below % 2 == 1)
        return max(below if exact else below + 1, 0)
    if method == "averaged_inverted_cdf":
        return n * q - 1
    alpha, beta = _PLOTTING_POSITIONS[method]
    return n * q + (alpha + q * (1 - alpha - beta)) - 1


def _gamma(method: str, position: float) -> float:
    fraction = position - math.floor(position)
    if method == "midpoint":
        return 0.0 if position % 1 == 0 else 0.5
    if method == "averaged_inverted_cdf":
        return 0.5 if fraction == 0 else 1.0
    return fraction


def _at_quantile(ordered: Array, axis: int, n: int, q: float, method: str, real: dt.DType
                 ) -> Array:
    position = _virtual_index(method, n, q)
    if isinstance(position, int):
        return _along(ordered, min(max(position, 0), n - 1), axis)
    if position >= n - 1 or math.isnan(position):
        below = above = n - 1
    elif position < 0:
        below = above = 0
    else:
        below = math.floor(position)
        above = below + 1
    t = _gamma(method, position)
    a, b = _along(ordered, below, axis), _along(ordered, above, axis)
    difference = (b - a).astype(real)  # in the values' type, then widened, as NumPy's
    # NumPy's lerp: from the nearer end, so t = 1 gives b exactly.
    if t < 0.5:
        return a.astype(real) + difference * t
    return b.astype(real) - difference * (1 - t)


def quantile(x: Any, q: Any, axis: int | None = None, method: str = "linear",
             keepdims: bool = False) -> Array:
    """The ``q``-th quantiles (q in [0, 1], a number or a sequence) along ``axis``, as
    ``numpy.quantile`` with any of its methods; NaN where a slice holds one. A sequence of
    ``q`` puts its axis first. Integers and bools give float64.

    >>> import weft as wf
    >>> x = wf.asarray([[1.0, 4.0, 2.0], [8.0, 6.0, 7.0]])
    >>> wf.quantile(x, 0.5, axis=1).tolist(), wf.quantile(x, [0.0, 1.0]).tolist()
    ([2.0, 7.0], [1.0, 8.0])
    """
    return _quantiles("quantile", x, q, axis, method, keepdims)


def percentile(x: Any, q: Any, axis: int | None = None, method: str = "linear",
               keepdims: bool = False) -> Array:
    """``quantile`` with ``q`` in percent, as ``numpy.percentile``.

    >>> import weft as wf
    >>> float(wf.percentile(wf.asarray([1.0, 2.0, 3.0, 4.0, 5.0]), 25))
    2.0
    """
    if isinstance(q, Array):
        q = q.to_numpy()
    return _quantiles("percentile", x, np.true_divide(q, 100), axis, method, keepdims)


def median(x: Any, axis: int | None = None, keepdims: bool = False) -> Array:
    """The median along ``axis``, as ``numpy.median``: the middle value, or the mean of the
    two middle ones; NaN where a slice holds one.

    >>> import weft as wf
    >>> wf.median(wf.asarray([[1.0, 3.0, 2.0, 9.0]]), axis=1).tolist()
    [2.5]
    """
    x = x if isinstance(x, Array) else asarray(x)
    if not x.dtype.is_float:
        x = x.astype(dt.float64)
    ordered, along, n = _sorted_along("median", x, axis)
    if n % 2:
        value = _along(ordered, n // 2, along)
    else:
        value = (_along(ordered, n // 2 - 1, along) + _along(ordered, n // 2, along)) / 2
    return _kept(_with_nan(value, ordered, along, n), x, axis, keepdims)


def _sorted_along(name: str, x: Array, axis: Any) -> tuple[Array, int, int]:
    flat, along = _operand(x, axis, name)
    if flat.size == 0:
        raise ValueError(f"{name}: an empty array has no {name}")
    return sort(flat, axis=along), along, flat.shape[along]


def _with_nan(value: Array, ordered: Array, axis: int, n: int) -> Array:
    """NaN where the slice holds one (sorted last), as NumPy's order statistics."""
    from .functions import isnan, where

    if not ordered.dtype.is_float:
        return value
    return where(isnan(_along(ordered, n - 1, axis)), np.nan, value).astype(value.dtype)


def _kept(value: Array, x: Array, axis: Any, keepdims: bool) -> Array:
    if not keepdims:
        return value
    shape = (1,) * x.ndim if axis is None else tuple(
        1 if k == axis % x.ndim else s for k, s in enumerate(x.shape))
    return value.reshape(shape)


_PICKING = ("lower", "higher", "nearest", "inverted_cdf", "closest_observation")


def _quantiles(name: str, x: Any, q: Any, axis: Any, method: str, keepdims: bool) -> Array:
    from .matrix import stack

    if method not in METHODS:
        raise ValueError(f"{name}: {method!r} is not a method; NumPy's are {', '.join(METHODS)}")
    x = x if isinstance(x, Array) else asarray(x)
    qs = np.asarray(q.to_numpy() if isinstance(q, Array) else q, dtype=np.float64)
    if qs.ndim > 1:
        raise ValueError(f"{name}: q of {qs.ndim} dimensions; weft takes a number or a "
                         "sequence")
    if not ((qs >= 0) & (qs <= 1)).all():
        raise ValueError(f"{name}: q must lie in [0, 1]" if name == "quantile"
                         else f"{name}: q must lie in [0, 100]")
    # The methods that pick a value keep the values' type; the others interpolate in
    # float64, or in the values' real type for one number q (a weak scalar, as NumPy's).
    real = x.dtype if method in _PICKING else (
        x.dtype if x.dtype.is_float and qs.ndim == 0 else dt.float64)
    if not x.dtype.is_float and method not in _PICKING:
        x = x.astype(dt.float64)
    ordered, along, n = _sorted_along(name, x, axis)
    values = [_kept(_with_nan(_at_quantile(ordered, along, n, float(v), method, real),
                              ordered, along, n), x, axis, keepdims)
              for v in qs.reshape(-1)]
    if qs.ndim == 0:
        return values[0]
    if values[0].ndim > 1:
        raise ValueError(f"{name}: {len(values)} quantiles of a result of shape "
                         f"{values[0].shape} make 3 dimensions; weft arrays have at most two")
    return stack(values)


def _in_place_sort(self: Array, axis: int = -1, kind: str | None = None) -> None:
    """Sort this array in place along ``axis``, as ``ndarray.sort``."""
    self[...] = sort(self, axis=axis, kind=kind)


def _argsort_method(self: Array, axis: int | None = -1, kind: str | None = None) -> Array:
    """``wf.argsort`` of this array."""
    return argsort(self, axis=axis)


Array.sort = _in_place_sort  # type: ignore[attr-defined]
Array.argsort = _argsort_method  # type: ignore[attr-defined]
