"""NumPy's rearranging functions (rearrange.py): roll, tile, repeat, take, meshgrid,
broadcast_arrays, moveaxis, unstack and tensordot against NumPy, as weft's functions and
through NumPy's own (``__array_function__``), and their errors."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

A = np.arange(12.0).reshape(3, 4)
V = np.arange(5.0)


def _same(got, expected):
    assert isinstance(got, wf.Array)
    np.testing.assert_array_equal(got.to_numpy(), expected)


def test_roll_tile_repeat_and_take_match_numpy(device):
    x, v = wf.asarray(A), wf.asarray(V)
    for shift in (0, 1, -1, 5, 13):
        _same(wf.roll(x, shift), np.roll(A, shift))
        for axis in (0, 1, -1):
            _same(wf.roll(x, shift, axis=axis), np.roll(A, shift, axis=axis))
    _same(wf.roll(x, (1, 2), axis=(0, 1)), np.roll(A, (1, 2), axis=(0, 1)))
    _same(np.roll(x, 2), np.roll(A, 2))
    for reps in (0, 1, 2, (2, 1), (1, 3), (0, 2)):
        _same(wf.tile(v, reps), np.tile(V, reps))
        _same(wf.tile(x, reps), np.tile(A, reps))
    _same(np.tile(x, 2), np.tile(A, 2))
    for repeats in (0, 1, 3):
        _same(wf.repeat(v, repeats), np.repeat(V, repeats))
        _same(wf.repeat(x, repeats), np.repeat(A, repeats))
        _same(wf.repeat(x, repeats, axis=1), np.repeat(A, repeats, axis=1))
    _same(np.repeat(x, 2, axis=0), np.repeat(A, 2, axis=0))
    # One count per element: lists, NumPy and weft arrays, zeros, one count broadcast.
    for counts, axis in (([1, 0, 2, 3, 1], None), ([2, 0, 1], 0), ([0, 3, 1, 1], 1),
                         ([0, 0, 0, 0], 1), (np.array([2]), 1)):
        source, values = (v, V) if axis is None else (x, A)
        _same(wf.repeat(source, counts, axis=axis), np.repeat(values, counts, axis=axis))
        _same(wf.repeat(source, wf.asarray(np.asarray(counts, np.int32)), axis=axis),
              np.repeat(values, counts, axis=axis))
    _same(np.repeat(x, [1, 2, 0], axis=0), np.repeat(A, [1, 2, 0], axis=0))
    _same(wf.take(x, [0, 5, 11]), np.take(A, [0, 5, 11]))
    _same(np.take(x, [2, 0], axis=1), np.take(A, [2, 0], axis=1))


def test_grids_broadcasts_and_axes_match_numpy(device):
    x, v, w = wf.asarray(A), wf.asarray(V), wf.asarray([1.0, 2.0])
    for indexing in ("xy", "ij"):
        got = wf.meshgrid(v, w, indexing=indexing)
        for g, e in zip(got, np.meshgrid(V, [1.0, 2.0], indexing=indexing)):
            _same(g, e)
    column = [[1.0], [2.0]]
    for got in (wf.broadcast_arrays(v, wf.asarray(column)),
                np.broadcast_arrays(v, wf.asarray(column))):
        for g, e in zip(got, np.broadcast_arrays(V, column)):
            _same(g, e)
    _same(wf.moveaxis(x, 0, 1), np.moveaxis(A, 0, 1))
    _same(wf.moveaxis(x, -1, 0), np.moveaxis(A, -1, 0))
    _same(wf.moveaxis(x, 0, 0), A)
    _same(np.moveaxis(x, [0, 1], [1, 0]), A.T)
    assert [u.tolist() for u in wf.unstack(x, axis=1)] == [list(c) for c in A.T]


def test_tensordot_matches_numpy(device):
    x, y, v = wf.asarray(A), wf.asarray(np.arange(20.0).reshape(4, 5)), wf.asarray(V)
    cases = [(x, y, 1), (v, v, 0), (v, v, 1), (x, x, 2), (x, x, ([0], [0])),
             (x, x, ([1], [1])), (x, wf.asarray(A.T), ([0, 1], [1, 0])),
             (x, wf.asarray(np.ones(4)), 1)]
    for a, b, axes in cases:
        expected = np.tensordot(a.to_numpy(), b.to_numpy(), axes)
        np.testing.assert_allclose(wf.tensordot(a, b, axes).to_numpy(), expected)
        np.testing.assert_allclose(np.tensordot(a, b, axes).to_numpy(), expected)
    # In the operands' type, contracted whole or not, as NumPy's (a sum alone would widen).
    for dtype in (np.uint32, np.int32, np.float32):
        m = (np.arange(6) % 4).reshape(2, 3).astype(dtype)
        for axes in (2, ([0], [0])):
            got = wf.tensordot(wf.asarray(m), wf.asarray(m), axes)
            want = np.tensordot(m, m, axes)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got.to_numpy(), want)


def test_take_along_axis_matches_numpy(device):
    """take_along_axis (and NumPy's, through the protocol) pairs each index with its place
    along the other axis, broadcasting there as NumPy does; negative indices count back."""
    a = np.array([[10, 30, 20, 5], [60, 40, 50, 70], [0, -1, 3, 2]])
    x = wf.asarray(a)
    for axis in (0, 1, -1):
        order = np.argsort(a, axis=axis)
        _same(wf.take_along_axis(x, wf.asarray(order), axis=axis),
              np.take_along_axis(a, order, axis=axis))
        _same(np.take_along_axis(x, wf.asarray(order), axis=axis),
              np.take_along_axis(a, order, axis=axis))
    for indices, axis in ((np.array([[3], [0], [-1]]), 1), (np.array([[2, 0, 1, -3]]), 0),
                          (np.array([[1, 1]]), 1)):
        _same(wf.take_along_axis(x, wf.asarray(indices), axis=axis),
              np.take_along_axis(a, indices, axis=axis))
    _same(wf.take_along_axis(x, wf.asarray(np.array([11, 0])), axis=None),
          np.take_along_axis(a, np.array([11, 0]), axis=None))
    _same(wf.take_along_axis(wf.asarray(a[0]), wf.asarray(np.array([3, 1])), axis=0),
          np.take_along_axis(a[0], np.array([3, 1]), axis=0))
    with pytest.raises(ValueError, match="must match"):
        wf.take_along_axis(x, wf.asarray(np.array([0, 1])), axis=1)
    with pytest.raises(TypeError, match="integers"):
        wf.take_along_axis(x, wf.asarray(np.array([[0.0]])), axis=1)
    with pytest.raises(ValueError, match="do not broadcast"):
        wf.take_along_axis(x, wf.asarray(np.zeros((2, 1), np.int64)), axis=1)


def test_rearranging_errors_name_what_is_wrong(device):
    x, v = wf.asarray(A), wf.asarray(V)
    with pytest.raises(ValueError, match="at most 2"):
        wf.tile(x, (2, 2, 2))
    with pytest.raises(ValueError, match="4 counts for 5 elements"):
        wf.repeat(v, [1, 2, 3, 4])
    with pytest.raises(ValueError, match="negative repeats"):
        wf.repeat(v, [1, -2, 3, 4, 5])
    with pytest.raises(TypeError, match="must be integers"):
        wf.repeat(v, [1.0, 2.0, 3.0, 4.0, 5.0])
    with pytest.raises(ValueError, match="out of bounds"):
        wf.roll(x, 1, axis=2)
    with pytest.raises(ValueError, match="at most 2"):
        wf.meshgrid(v, v, v)
    with pytest.raises(ValueError, match="do not match"):
        wf.tensordot(x, x, 1)
    with pytest.raises(ValueError, match="more than 2"):
        wf.tensordot(x, v, 0)
    with pytest.raises(ValueError, match="indexing"):
        wf.meshgrid(v, indexing="xz")
