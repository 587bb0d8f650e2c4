"""Reads whose size depends on the data: ``x[mask]``, ``nonzero``, ``flatnonzero``,
``argwhere`` and ``where`` with one argument, as NumPy's.

A compaction is a scan and a scatter. The running count of the mask (``cumsum``) gives each
selected element its place in the result; the count's last value is the result's size, the
one value read back to the host; each selected element is written to its place in one
kernel, and the others to a spare slot past the end that the result leaves out. Where the
device's array library reads the mask in place (NumPy on a CPU device, whose memory the host
maps; CuPy on CUDA), its ``nonzero`` gives the positions instead, and the values are a lazy
gather at them. A
compaction's gradient sends each result's adjoint back to the element it came from (a
gather by the same count); elements not selected get 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as dt
from .array import Array
from .creation import arange, asarray, col_index, row_index, zeros
from .tape import recorded


def _places(flat_mask: Array) -> Array:
    """Each element's place among the selected ones, counted from 1."""
    from .scans import cumsum

    return cumsum(flat_mask, dtype=dt.int64)


def _counted_places(flat_mask: Array) -> tuple[Array, int]:
    """The places and their number: the one value read back to the host."""
    places = _places(flat_mask).eval()
    return places, (int(places[-1]) if places.size else 0)


def _scatter(flat_values: Array, flat_mask: Array, places: Array, count: int) -> Array:
    from .functions import where

    out = zeros((count + 1,), dtype=flat_values.dtype, device=flat_values.device)
    out[where(flat_mask, places - 1, count)] = flat_values
    return out[:count]


def _library_positions(mask: Array) -> tuple[Array, ...] | None:
    """``nonzero`` of ``mask`` by the device's array library where it reads the mask in
    place: NumPy on a CPU device (whose memory the host maps), CuPy on a CUDA device. One
    count and one pass over the mask's bytes, where the scan and the scatter wrote and read
    an 8-byte place per element (PoCL, 2^22 elements: ``flatnonzero`` 16-17 -> 6.3-6.7 ms,
    NumPy 5.2-5.5; the H200, 2^24: 1.77 ms against CuPy's 0.70). None elsewhere (a GPU's
    OpenCL device: the scan and the scatter)."""
    from .linalg_library import Host, library

    device = mask.device
    if device.kind == "cuda":
        lib = library(device)
    elif device.target.traits.is_cpu and device.target.dialect is not None:
        lib = Host(device)
    else:
        return None
    with lib.on_stream():
        found = lib.np.nonzero(lib.take(mask))
        return tuple(lib.give(p, dt.int64) for p in found)


@recorded("compact")
def _compact(flat_values: Array, flat_mask: Array) -> Array:
    found = _library_positions(flat_mask)
    if found is not None:  # the values read at them, lazily (their gradient: a scatter)
        from .gather import take_in_bounds

        return take_in_bounds(flat_values, found[0])
    places, count = _counted_places(flat_mask)
    return _scatter(flat_values, flat_mask, places, count)


def compact_adjoint(g: Array, out: Array, flat_values: Array, flat_mask: Array
                    ) -> tuple[Any, ...]:
    """The reverse rule of ``_compact``: each selected element gets the adjoint of its place
    in the result, the others 0."""
    from .functions import maximum, where
    from .matrix import concatenate

    padded = concatenate([g, zeros((1,), dtype=g.dtype, device=g.device)])  # never empty
    return (where(flat_mask, padded[maximum(_places(flat_mask) - 1, 0)], 0), None)


def masked_read(x: Array, mask: Any) -> Array:
    """``x[mask]``: the elements where ``mask`` (of ``x``'s shape) is true, in row-major
    order, or the rows where a 1-D ``mask`` is true for a 2-D ``x``."""
    from .matrix import ravel

    mask = mask if isinstance(mask, Array) else asarray(mask, device=x.device)
    if x.ndim == 2 and mask.ndim == 1:
        if mask.shape[0] != x.shape[0]:
            raise IndexError(f"boolean index of length {mask.shape[0]} does not match the "
                             f"{x.shape[0]} rows of the indexed array")
        return x[flatnonzero(mask)]
    if mask.shape != x.shape:
        raise IndexError(f"boolean index of shape {mask.shape} does not match the indexed "
                         f"array's shape {x.shape} (weft selects with a mask of the array's "
                         "own shape, or of its rows for a 2-D array)")
    return _compact(ravel(x), ravel(mask))


def masked_write(x: Array, mask: Any, value: Any) -> None:
    """``x[mask] = value``, as NumPy: ``mask`` of ``x``'s shape (or of its rows, for a 2-D
    ``x``); a scalar (or 0-d array) goes to every selected element in one fused kernel, with
    no read-back; an array goes to the selected elements in row-major order, so its length
    (or, selecting rows, its rows) must match how many are selected, which is read back.

    >>> import weft as wf
    >>> x = wf.asarray([1.0, -2.0, 3.0, -4.0])
    >>> x[x < 0] = 0.0
    >>> x.tolist()
    [1.0, 0.0, 3.0, 0.0]
    >>> x[x > 0] = wf.asarray([10.0, 30.0])
    >>> x.tolist()
    [10.0, 0.0, 30.0, 0.0]
    """
    from .matrix import assign

    mask = mask if isinstance(mask, Array) else asarray(mask, device=x.device)
    rows = x.ndim == 2 and mask.ndim == 1
    if rows and mask.shape[0] != x.shape[0]:
        raise IndexError(f"boolean index of length {mask.shape[0]} does not match the "
                         f"{x.shape[0]} rows of the indexed array")
    if not rows and mask.shape != x.shape:
        raise IndexError(f"boolean index of shape {mask.shape} does not match the indexed "
                         f"array's shape {x.shape} (weft selects with a mask of the array's "
                         "own shape, or of its rows for a 2-D array)")
    if not isinstance(value, Array) and np.ndim(value) > 0:  # a list, a NumPy array
        value = asarray(value, device=x.device)
    if not isinstance(value, Array) or value.ndim == 0:
        assign(x, value, mask=mask[:, None] if rows else mask)
        return
    if x.ndim == 0:  # one element, written if the mask is true (NumPy takes a 1-value array)
        if value.size == 1:
            assign(x, value.reshape(()), mask=mask)
            return
        if value.size == 0 and not bool(mask):  # (no values for no element: NumPy's too)
            return
        raise ValueError(f"NumPy boolean array indexing assignment cannot assign "
                         f"{value.shape} input values to the {int(bool(mask))} output values "
                         "where the mask is true")
    if rows:
        x[flatnonzero(mask)] = value
        return
    positions = nonzero(mask)
    selected = positions[0].shape[0]
    if value.ndim != 1 or value.shape[0] not in (1, selected):
        raise ValueError(f"NumPy boolean array indexing assignment cannot assign "
                         f"{value.shape} input values to the {selected} output values where "
                         "the mask is true")
    x[positions if x.ndim == 2 else positions[0]] = value


def _selected(x: Any) -> Array:
    x = x if isinstance(x, Array) else asarray(x)
    return x if x.dtype.kind == "b" else x != 0


def flatnonzero(a: Any) -> Array:
    """The int64 positions of the nonzero elements of ``ravel(a)``, as
    ``numpy.flatnonzero``.

    >>> import weft as wf
    >>> wf.flatnonzero(wf.asarray([[0, 3], [5, 0]])).tolist()
    [1, 2]
    """
    from .matrix import ravel

    flat = ravel(_selected(a))
    found = _library_positions(flat)
    if found is not None:
        return found[0]
    return _compact(arange(flat.size, dtype=dt.int64, device=flat.device), flat)


def nonzero(a: Any) -> tuple[Array, ...]:
    """The int64 indexes of the nonzero elements, one array per dimension, as
    ``numpy.nonzero`` (row-major order). The count is read back once for all of them.

    >>> import weft as wf
    >>> [i.tolist() for i in wf.nonzero(wf.asarray([[0, 3], [5, 0]]))]
    [[0, 1], [1, 0]]
    """
    from .matrix import ravel

    selected = _selected(a)
    if selected.ndim == 0:
        raise ValueError("nonzero of a 0-d array: use wf.atleast_1d(a) or a[None] first "
                         "(NumPy no longer allows it)")
    found = _library_positions(selected)
    if found is not None:
        return found
    flat = ravel(selected)
    places, count = _counted_places(flat)
    if selected.ndim == 1:
        positions = [arange(flat.size, dtype=dt.int64, device=flat.device)]
    else:
        shape, device = selected.shape, selected.device
        positions = [row_index(shape, device=device).astype(dt.int64),
                     col_index(shape, device=device).astype(dt.int64)]
    return tuple(_scatter(ravel(p), flat, places, count) for p in positions)


def argwhere(a: Any) -> Array:
    """The int64 indexes of the nonzero elements as rows, shape (count, ndim), as
    ``numpy.argwhere``.

    >>> import weft as wf
    >>> wf.argwhere(wf.asarray([[0, 3], [5, 0]])).tolist()
    [[0, 1], [1, 0]]
    """
    from .matrix import stack

    indexes = nonzero(a)
    return stack(indexes, axis=1)


def _nonzero_method(self: Array) -> tuple[Array, ...]:
    """``wf.nonzero`` of this array."""
    return nonzero(self)


Array.nonzero = _nonzero_method  # type: ignore[attr-defined]
