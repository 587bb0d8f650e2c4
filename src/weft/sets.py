"""Set operations on arrays, as NumPy's: ``isin``, ``intersect1d``, ``union1d``,
``setdiff1d`` and ``setxor1d``.

Like ``unique`` (searching.py) they run the device's library (CuPy's on CUDA, NumPy's on the
host for OpenCL and the reference device): a sort and a search or a merge, whose result size
only the data says. Their results are membership flags, or values copied out of the inputs:
constants to a gradient.
"""

from __future__ import annotations

from typing import Any

from . import dtypes as dt
from .array import Array
from .linalg import _pair
from .linalg_library import library


def isin(element: Any, test_elements: Any, assume_unique: bool = False,
         invert: bool = False, *, kind: str | None = None) -> Array:
    """Where each element of ``element`` is (or, with ``invert``, is not) among
    ``test_elements``: a bool array of ``element``'s shape. ``kind`` (NumPy's choice of
    algorithm) is accepted; the library chooses, and the answer is the same.

    >>> import weft as wf
    >>> wf.isin(wf.asarray([1, 2, 3, 4]), [2, 4]).tolist()
    [False, True, False, True]
    """
    element, test_elements = _pair(element, test_elements, "isin", evaluate=False)
    lib = library(element.device)
    with lib.on_stream():
        found = lib.np.isin(lib.take(element), lib.take(test_elements),
                            assume_unique=assume_unique, invert=invert)
        return lib.give(found.reshape(element.shape), dt.bool_)


def _combined(name: str, ar1: Any, ar2: Any, **keywords: Any) -> Array:
    ar1, ar2 = _pair(ar1, ar2, name, evaluate=False)
    from .functions import result_type

    dtype = result_type(ar1, ar2)
    lib = library(ar1.device)
    with lib.on_stream():
        found = getattr(lib.np, name)(lib.take(ar1), lib.take(ar2), **keywords)
        return lib.give(found, dtype)


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False,
                return_indices: bool = False) -> Any:
    """The sorted values in both ``ar1`` and ``ar2`` (flattened); with ``return_indices``
    also the positions of their first occurrences in each.

    >>> import weft as wf
    >>> wf.intersect1d(wf.asarray([3, 1, 2]), [2, 3, 5]).tolist()
    [2, 3]
    """
    if not return_indices:
        return _combined("intersect1d", ar1, ar2, assume_unique=assume_unique)
    ar1, ar2 = _pair(ar1, ar2, "intersect1d", evaluate=False)
    from .functions import result_type

    dtype = result_type(ar1, ar2)
    lib = library(ar1.device)
    with lib.on_stream():
        values, first1, first2 = lib.np.intersect1d(
            lib.take(ar1), lib.take(ar2), assume_unique=assume_unique, return_indices=True)
        return (lib.give(values, dtype), lib.give(first1, dt.int64),
                lib.give(first2, dt.int64))


def union1d(ar1: Any, ar2: Any) -> Array:
    """The sorted distinct values in ``ar1`` or ``ar2`` (flattened).

    >>> import weft as wf
    >>> wf.union1d(wf.asarray([3, 1]), [2, 1]).tolist()
    [1, 2, 3]
    """
    return _combined("union1d", ar1, ar2)


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Array:
    """The sorted distinct values of ``ar1`` that are not in ``ar2``.

    >>> import weft as wf
    >>> wf.setdiff1d(wf.asarray([5, 1, 2, 1]), [2]).tolist()
    [1, 5]
    """
    return _combined("setdiff1d", ar1, ar2, assume_unique=assume_unique)


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Array:
    """The sorted values in exactly one of ``ar1`` and ``ar2``.

    >>> import weft as wf
    >>> wf.setxor1d(wf.asarray([1, 2, 3]), [2, 3, 4]).tolist()
    [1, 4]
    """
    return _combined("setxor1d", ar1, ar2, assume_unique=assume_unique)


__all__ = ["isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"]
