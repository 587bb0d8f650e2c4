"""Counting as NumPy's ``bincount`` and ``histogram``: where each element falls computed on the
device (fused), then counted by the device library's ``bincount`` (CuPy's on CUDA, NumPy's
elsewhere, over a CPU device's memory in place). What sizes the result is read back first,
as NumPy needs it too: ``bincount``'s largest value (its length; NumPy's own pass finds it
on the host), and a ``histogram``'s range when none is given.

>>> import weft as wf
>>> wf.bincount(wf.asarray([0, 1, 1, 3])).tolist()
[1, 2, 0, 1]
>>> counts, edges = wf.histogram(wf.asarray([0.5, 1.5, 1.7, 3.0]), bins=3)
>>> counts.tolist(), edges.tolist()
([1, 2, 1], [0.5, 1.3333333333333335, 2.166666666666667, 3.0])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import dtypes as dt
from .api import eval as evaluate
from .array import Array, apply_op
from .bin_rules import bin_count
from .creation import asarray, zeros
from .functions import where
from .gather import take_in_bounds
from .linalg_library import Host, library
from .reductions import reduce
from .searching import searchsorted

__all__ = ["bincount", "histogram", "histogram2d"]


def _counted(places: Array, length: int, weights: Array | None) -> Array:
    """How many of ``places`` (each in 0..``length``-1; NumPy's lengthens past it) fall at
    each place (int64), or the sums of their ``weights`` (float64), by the ``bincount`` of
    the device's library:
    CuPy's on CUDA, which counts in shared memory first, and NumPy's elsewhere. Atomic adds
    straight into the bins contend where the bins are few: 2^24 doubles into 100 bins on
    an H200 took 8.2 ms by CUDA's atomic adds (CuPy 0.73) and 3.9 s by NVIDIA OpenCL's
    compare-and-swap loops for doubles, for 2^22 of them."""
    lib = library(places.device)
    with lib.on_stream():
        counts = lib.np.bincount(lib.take(places, writable=True),
                                 None if weights is None else lib.take(weights, writable=True),
                                 minlength=length)
        return lib.give(counts, dt.int64 if weights is None else dt.float64)


def bincount(x: Any, weights: Any = None, minlength: int = 0) -> Array:
    """How many times each value 0, 1, 2... occurs in the 1-D integer array ``x`` (the
    sum of their ``weights``, float64, where given), as NumPy's ``bincount``: of length
    ``max(x) + 1``, at least ``minlength``. Reads ``x``'s extremes back first: its length,
    and a negative value, which raises ``ValueError``.

    >>> import weft as wf
    >>> wf.bincount(wf.asarray([2, 2]), weights=wf.asarray([0.5, 1.0]), minlength=4).tolist()
    [0.0, 0.0, 1.5, 0.0]
    """
    values = x if isinstance(x, Array) else asarray(x)
    if values.ndim != 1:
        raise ValueError(f"bincount: x must be 1-D, got shape {values.shape}")
    if values.dtype.kind not in "iub":
        raise TypeError(f"bincount: x must hold integers, not {values.dtype}")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError(f"bincount: minlength must be non-negative, got {minlength}")
    if weights is not None:
        weights = weights if isinstance(weights, Array) else asarray(weights)
        if weights.shape != values.shape:
            raise ValueError(f"bincount: weights of shape {weights.shape} differ from x's "
                             f"{values.shape}")
    if values.size and isinstance(library(values.device), Host):
        # NumPy's bincount finds the extremes itself, in its one pass over the mapped
        # buffer: no reduction kernel and wait first (PoCL, 4M int64: 2.6x NumPy's time).
        try:
            return _counted(values, minlength, weights)
        except ValueError:  # NumPy's, for a negative value
            low = int(reduce("min", values).item())
            raise ValueError(f"bincount: x must have no negative elements, got {low}") from None
    length = minlength
    if values.size:
        places = values.astype(dt.int64)
        low, high = reduce("min", places), reduce("max", places)
        evaluate(low, high)
        if int(low) < 0:
            raise ValueError(f"bincount: x must have no negative elements, got {int(low)}")
        length = max(length, int(high) + 1)
    if not values.size:
        return zeros(length, dtype=dt.int64 if weights is None else dt.float64)
    return _counted(values.astype(dt.int64), length,
                    None if weights is None else weights.astype(dt.float64))


def histogram(a: Any, bins: Any = 10, range: tuple[float, float] | None = None,  # noqa: A002
              density: bool = False, weights: Any = None) -> tuple[Array, Array]:
    """The counts of ``a``'s elements (flattened) in ``bins`` intervals and the intervals'
    edges, as NumPy's ``histogram``: ``bins`` equal intervals (as many as NumPy's rule
    gives for a name: ``"auto"``, ``"fd"``, ``"sturges"``...) over ``range`` (``a``'s
    smallest to largest, read back, where not given), or the edges given; each interval
    half-open but the last, closed; elements outside (and NaN) left out. ``weights``: their
    sums instead; ``density``: a density (integrating to one over the range).

    >>> import weft as wf
    >>> wf.histogram(wf.asarray([1.0, 2.0, 2.5]), bins=[0.0, 2.0, 3.0])[0].tolist()
    [1, 2]
    """
    x = a if isinstance(a, Array) else asarray(a)
    x = x.reshape(x.size)
    if weights is not None:
        weights = weights if isinstance(weights, Array) else asarray(weights)
        if weights.shape != (x.size,) and weights.size == x.size:
            weights = weights.reshape(x.size)
        if weights.shape != (x.size,):
            raise ValueError(f"histogram: weights of shape {weights.shape} differ from a's")
    if isinstance(bins, str) and weights is not None:
        raise TypeError(f"histogram: a rule for the bins (bins={bins!r}) does not take "
                        "weighted data (as NumPy's)")
    place, edges, edges_host = _placed("histogram", x, bins, range)
    n = edges_host.size - 1
    counts = _counted(place, n + 1, None if weights is None else weights.astype(dt.float64))
    counts = counts[:n]
    if density:
        widths = asarray(np.diff(edges_host.astype(np.float64)))
        return counts / reduce("sum", counts) / widths, edges
    if weights is None:
        return counts, edges
    return counts.astype(weights.dtype if weights.dtype.is_float else dt.int64), edges


def _placed(name: str, x: Array, bins: Any, given: Any) -> tuple[Array, Array, np.ndarray]:
    """The bin of each element of the 1-D ``x`` (the bin count for one outside the range,
    or NaN), the edges (as given where given), and the edges on the host."""
    real = x.dtype if x.dtype.is_float else dt.float64
    edges_host = _edges(name, x, bins, given, real.numpy)  # compared in x's type, as NumPy
    n = edges_host.size - 1
    edges = asarray(edges_host, device=x.device)
    xr = x.astype(real)
    inside = (xr >= edges_host[0]) & (xr <= edges_host[-1])
    if np.ndim(bins):
        place = searchsorted(edges, xr, side="right") - 1
        place = where(xr == edges_host[-1], n - 1, place)
        edges = bins if isinstance(bins, Array) else asarray(bins, device=x.device)
    else:
        place = _uniform_place(xr, inside, edges, edges_host)
    return where(inside, place, n), edges, edges_host


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None,  # noqa: A002
                density: bool | None = None, weights: Any = None
                ) -> tuple[Array, Array, Array]:
    """The counts of the points ``(x[i], y[i])`` in a grid of bins and the grid's edges
    along x and y, as NumPy's ``histogram2d``: ``bins`` a count or edges for both, or a
    pair of them; ``range`` a pair of (low, high) pairs; counts in float64 as NumPy's (the
    sums of ``weights`` where given; a density with ``density``); points outside left out.

    >>> import weft as wf
    >>> h, xe, ye = wf.histogram2d(wf.asarray([0.0, 0.2, 1.0]), wf.asarray([0.0, 1.0, 1.0]),
    ...                            bins=2)
    >>> h.tolist()
    [[1.0, 1.0], [0.0, 1.0]]
    """
    xs, ys = (v if isinstance(v, Array) else asarray(v) for v in (x, y))
    if xs.ndim != 1 or ys.shape != xs.shape:
        raise ValueError(f"histogram2d: x and y must be 1-D and of one length, not shapes "
                         f"{xs.shape} and {ys.shape}")
    # As NumPy: two of anything are x's and y's; one count, or more edges, serve both.
    pair = isinstance(bins, (list, tuple, np.ndarray)) and len(bins) == 2
    bins_x, bins_y = (bins[0], bins[1]) if pair else (bins, bins)
    range_x, range_y = (None, None) if range is None else range
    place_x, edges_x, host_x = _placed("histogram2d", xs, bins_x, range_x)
    place_y, edges_y, host_y = _placed("histogram2d", ys, bins_y, range_y)
    nx, ny = host_x.size - 1, host_y.size - 1
    if weights is not None:
        weights = weights if isinstance(weights, Array) else asarray(weights)
        if weights.shape != xs.shape:
            raise ValueError(f"histogram2d: weights of shape {weights.shape} differ from "
                             f"x's {xs.shape}")
        weights = weights.astype(dt.float64)
    place = where((place_x < nx) & (place_y < ny), place_x * ny + place_y, nx * ny)
    counts = _counted(place, nx * ny + 1, weights)[:nx * ny].astype(dt.float64)
    counts = counts.reshape(nx, ny)
    if density:
        areas = np.outer(np.diff(host_x.astype(np.float64)), np.diff(host_y.astype(np.float64)))
        counts = counts / reduce("sum", counts) / asarray(areas, device=counts.device)
    return counts, edges_x, edges_y


def _uniform_place(x: Array, inside: Array, edges: Array, edges_host: np.ndarray) -> Array:
    """The bin of each element of ``x`` (where ``inside`` the range) among equal intervals: its
    position by arithmetic, then moved by one where the rounded edges say otherwise, as
    NumPy (the rule "edge_i <= x < edge_(i+1)", the last bin closed, with no search: a
    binary search over 101 edges took 182 ms for 4M doubles on PoCL)."""
    n = edges_host.size - 1
    low, high = float(edges_host[0]), float(edges_host[-1])
    estimate = where(inside, (x.astype(dt.float64) - low) * (n / (high - low)), 0.0)
    place = apply_op("minimum", apply_op("maximum", apply_op("floor", estimate), 0), n - 1)
    place = place.astype(dt.int64)
    # (place is clamped to 0..n-1 and the edges are n + 1: plain loads, nothing to check)
    below = x < take_in_bounds(edges, place)
    above = (x >= take_in_bounds(edges, place + 1)) & (place != n - 1)
    return place - below.astype(dt.int64) + (above & ~below).astype(dt.int64)


def _edges(name: str, x: Array, bins: Any, given: tuple[float, float] | None,
           real: np.dtype) -> np.ndarray:
    """The histogram's edges in ``real``, on the host, as NumPy computes them (its
    autodetected range in ``a``'s own type: float32 edges from float32 arithmetic)."""
    if isinstance(bins, str) or np.ndim(bins) == 0:
        if not isinstance(bins, str):
            count = operator.index(bins)
            if count < 1:
                raise ValueError(f"{name}: bins must be positive, got {count}")
        extremes = None  # the data's, where read (a rule then need not read them again)
        if given is not None:
            low, high = (float(v) for v in given)
            if not (np.isfinite(low) and np.isfinite(high)) or low > high:
                raise ValueError(f"{name}: range must be finite and increasing, got "
                                 f"{given}")
        elif x.size:
            low_, high_ = reduce("min", x), reduce("max", x)
            evaluate(low_, high_)
            low, high = low_.item(), high_.item()
            if x.dtype.is_float:
                low, high = real.type(low), real.type(high)
            if not (np.isfinite(low) and np.isfinite(high)):
                raise ValueError(f"{name}: autodetected range of [{low}, {high}] is not "
                                 "finite")
            extremes = (low, high)
        else:
            low, high = 0.0, 1.0
        if low == high:
            low, high = low - 0.5, high + 0.5
        if isinstance(bins, str):
            count = bin_count(name, x, bins, low, high, given, extremes)
        edges = np.linspace(low, high, count + 1, dtype=real)
        if np.any(edges[:-1] >= edges[1:]):
            raise ValueError(f"{name}: too many bins for the data range: cannot make {count} "
                             "finite-sized bins")
        return edges
    edges = np.asarray(bins.to_numpy() if isinstance(bins, Array) else bins, dtype=np.float64)
    if edges.ndim != 1:
        raise ValueError(f"{name}: bins must be 1-D when an array, not of shape {edges.shape}")
    if edges.size < 2 or np.any(np.diff(edges) < 0):
        raise ValueError(f"{name}: bins must increase monotonically, when an array")
    return edges.astype(real)
