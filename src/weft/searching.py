"""Searching sorted values and finding the distinct ones, as NumPy's: ``searchsorted``,
``digitize``, ``unique`` and the array API's ``unique_values``, ``unique_counts``,
``unique_inverse`` and ``unique_all``.

Like ``sort``, they run the device's library (``linalg_library``: CuPy's on CUDA, NumPy's on
the host for OpenCL and the reference device): a binary search per value, and a sort and a
compaction for the distinct values, whose count only the data says (one read-back). Their
results are integer positions and counts, or values copied out of the input; they pass no
gradient on (``unique``'s values are constants to a gradient, as a sort's are not).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from . import dtypes as dt
from .array import Array
from .creation import asarray
from .linalg_library import library


def _array(x: Any, like: Array | None = None) -> Array:
    if isinstance(x, Array):
        return x
    return asarray(x, device=like.device) if like is not None else asarray(x)


def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Array:
    """Where each value of ``v`` would go in the sorted 1-D ``a`` to keep it sorted, as
    int64 positions of ``v``'s shape: before equal elements (``side="left"``) or after them
    (``"right"``); ``sorter``: the positions that sort ``a`` where it is not sorted itself.
    NaN sorts last, as in ``sort``.

    >>> import weft as wf
    >>> edges = wf.asarray([0.0, 1.0, 2.0, 3.0])
    >>> wf.searchsorted(edges, wf.asarray([-1.0, 1.0, 2.5, 9.0])).tolist()
    [0, 1, 3, 4]
    >>> wf.searchsorted(edges, 1.0, side="right").item()
    2
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', not {side!r}")
    a = _array(a)
    v = _array(v, a)
    if a.ndim != 1:
        raise ValueError(f"searchsorted: a must be 1-dimensional, not of shape {a.shape}")
    if v.device is not a.device:
        raise ValueError(f"searchsorted: v is on {v.device}, a on {a.device}")
    lib = library(a.device)
    with lib.on_stream():
        keywords = {}
        if sorter is not None:
            order = _array(sorter, a)
            if order.shape != a.shape or order.dtype.kind not in "iu":
                raise ValueError(f"searchsorted: sorter must be integer positions of a's "
                                 f"shape {a.shape}, not {order.dtype} of shape {order.shape}")
            keywords["sorter"] = lib.take(order)
        found = lib.np.searchsorted(lib.take(a), lib.take(v), side=side, **keywords)
        return lib.give(found, dt.int64)


def digitize(x: Any, bins: Any, right: bool = False) -> Array:
    """The index of the bin of ``bins`` (increasing or decreasing edges, 1-D) each value of
    ``x`` falls in, as ``numpy.digitize``: 0 below the first edge, ``len(bins)`` past the
    last; ``right`` closes the bins on the right.

    >>> import weft as wf
    >>> wf.digitize(wf.asarray([0.2, 6.4, 3.0, 1.6]), wf.asarray([0.0, 1.0, 2.5, 4.0])).tolist()
    [1, 4, 3, 2]
    """
    bins = _array(bins)
    x = _array(x, bins)
    if bins.ndim != 1:
        raise ValueError(f"digitize: bins must be 1-dimensional, not of shape {bins.shape}")
    lib = library(bins.device)
    with lib.on_stream():
        return lib.give(lib.np.digitize(lib.take(x), lib.take(bins), right=right), dt.int64)


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _distinct(x: Any, equal_nan: bool, index: bool = False, inverse: bool = False,
              counts: bool = False) -> list[Array]:
    """The sorted distinct values of ``x`` (flattened) and, as asked, the position of each
    one's first occurrence, each element's place among them (of ``x``'s shape) and their
    counts: the library computes only those."""
    x = _array(x)
    lib = library(x.device)
    with lib.on_stream():
        found = lib.np.unique(lib.take(x), return_index=index, return_inverse=inverse,
                              return_counts=counts, equal_nan=equal_nan)
        found = list(found) if isinstance(found, tuple) else [found]
        out = [lib.give(found.pop(0), x.dtype)]
        for wanted, shape in ((index, None), (inverse, x.shape), (counts, None)):
            if wanted:
                part = found.pop(0)
                out.append(lib.give(part if shape is None else part.reshape(shape), dt.int64))
        return out


def unique(ar: Any, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: None = None, *, equal_nan: bool = True
           ) -> Array | tuple[Array, ...]:
    """The sorted distinct values of ``ar`` (flattened), as ``numpy.unique``: with
    ``return_index`` the position of each one's first occurrence, ``return_inverse`` each
    element's place among them (of ``ar``'s shape, as NumPy 2), ``return_counts`` how many
    times each occurs; NaNs count as one value unless ``equal_nan=False`` (then which of
    the NaN places each NaN's position and place name is the library's: CuPy's and NumPy's
    differ).

    >>> import weft as wf
    >>> values, counts = wf.unique(wf.asarray([3, 1, 3, 2, 3]), return_counts=True)
    >>> values.tolist(), counts.tolist()
    ([1, 2, 3], [1, 1, 3])
    """
    if axis is not None:
        raise NotImplementedError("unique: axis= is not supported yet (the distinct rows of "
                                  "a matrix); unique flattens")
    found = _distinct(ar, equal_nan, return_index, return_inverse, return_counts)
    return tuple(found) if len(found) > 1 else found[0]


def unique_values(x: Any) -> Array:
    """The distinct values of ``x`` (the array API's; each NaN distinct).

    >>> import weft as wf
    >>> wf.unique_values(wf.asarray([2.0, 1.0, 2.0])).tolist()
    [1.0, 2.0]
    """
    return _distinct(x, False)[0]


def unique_counts(x: Any) -> UniqueCountsResult:
    """The distinct values of ``x`` and how many times each occurs (the array API's).

    >>> import weft as wf
    >>> wf.unique_counts(wf.asarray([2, 1, 2])).counts.tolist()
    [1, 2]
    """
    return UniqueCountsResult(*_distinct(x, False, counts=True))


def unique_inverse(x: Any) -> UniqueInverseResult:
    """The distinct values of ``x`` and each element's place among them, of ``x``'s shape
    (the array API's): ``values[inverse_indices]`` is ``x``.

    >>> import weft as wf
    >>> wf.unique_inverse(wf.asarray([[2, 1], [2, 5]])).inverse_indices.tolist()
    [[1, 0], [1, 2]]
    """
    return UniqueInverseResult(*_distinct(x, False, inverse=True))


def unique_all(x: Any) -> UniqueAllResult:
    """The distinct values of ``x``, each one's first position in the flattened ``x``, each
    element's place among them and their counts (the array API's).

    >>> import weft as wf
    >>> wf.unique_all(wf.asarray([2, 1, 2])).indices.tolist()
    [1, 0]
    """
    return UniqueAllResult(*_distinct(x, False, True, True, True))


def _searchsorted_method(self: Array, v: Any, side: str = "left", sorter: Any = None
                         ) -> Array:
    return searchsorted(self, v, side, sorter)


Array.searchsorted = _searchsorted_method  # type: ignore[attr-defined]
