"""NumPy's insert, delete, partition, argpartition, lexsort, vander, fromfunction, piecewise
and histogram2d on weft arrays, against NumPy's own results, on every device; through
NumPy's functions too (``__array_function__``)."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

RNG = np.random.default_rng(38)


def _same(got, want) -> None:
    got = got.to_numpy() if isinstance(got, wf.Array) else np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape,
                                                                 want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)


def test_insert_and_delete(device):
    a = np.arange(6).reshape(2, 3)
    f = RNG.standard_normal((3, 4))
    long = RNG.standard_normal(40)
    for arr, obj, values, axis in [
            (a, 1, 5, 1), (a, [1], [[7], [8]], 1), (a, 1, [7, 8], 1), (a, [1, 1], [7, 8], 1),
            (a, 1, [7, 8, 9], 0), (np.arange(4), [0, 2, 2], [9, 8, 7], None),
            (a, -1, 9, None), (np.arange(4), 1, 2.7, None), (f, slice(0, 4, 2), 0.5, 1),
            (f, 3, [1.0, 2.0, 3.0], 1), (f, [0, 3], [[1, 2], [3, 4], [5, 6]], 1),
            (long, list(range(0, 40, 3)), -1.0, None)]:  # many runs: one gather
        want = np.insert(arr, obj, values, axis=axis)
        _same(wf.insert(wf.asarray(arr), obj, values, axis=axis), want)
    _same(np.insert(wf.asarray(f), 2, 0.0, axis=0), np.insert(f, 2, 0.0, axis=0))
    for arr, obj, axis in [(np.arange(5), [True, False, True, False, False], None),
                           (np.arange(5), [-1, 0, 0], None), (f, slice(None, None, 2), 1),
                           (f, [0, 2], 0), (f, [], 0), (f, 5, None),
                           (long, list(range(1, 40, 2)), 0)]:
        _same(wf.delete(wf.asarray(arr), obj, axis=axis), np.delete(arr, obj, axis=axis))
    _same(np.delete(wf.asarray(f), 1, axis=1), np.delete(f, 1, axis=1))
    wide = RNG.standard_normal((3, 30))  # many runs along a matrix's axis: one gather
    for obj in (list(range(0, 30, 2)), [0, 0, 5, 29, 29, 3, 7, 9, 11, 13, 17]):
        _same(wf.delete(wf.asarray(wide), obj, axis=1), np.delete(wide, obj, axis=1))
        values = np.arange(3 * len(obj)).reshape(3, len(obj)) * 1.5
        _same(wf.insert(wf.asarray(wide), obj, values, axis=1),
              np.insert(wide, obj, values, axis=1))
        _same(wf.insert(wf.asarray(wide.T), obj, -1.0, axis=0),
              np.insert(wide.T, obj, -1.0, axis=0))
    x = wf.asarray(np.arange(4))
    with pytest.raises(IndexError, match="delete: index 5 is out of bounds for axis 0 with "
                                         "size 4"):
        wf.delete(x, 5)
    with pytest.raises(IndexError, match="insert: index -5 is out of bounds"):
        wf.insert(x, -5, 1)
    with pytest.raises(ValueError, match="delete: a boolean obj must be one-dimensional and "
                                         "match the axis length of 4"):
        wf.delete(x, [True, False])
    with pytest.raises(IndexError, match="must be of integer"):
        wf.delete(x, [1.0])


def test_delete_by_a_running_count(device, monkeypatch):
    """Many runs deleted from a long array: the gather's positions from a running count of
    the marked positions on the device (forced on CPU devices too): deletions first, last,
    side by side, repeated, by a mask, along a matrix's columns."""
    from weft import editing

    monkeypatch.setattr(editing, "_HOST_POSITIONS", 0)
    long = RNG.standard_normal(1000)
    wide = RNG.standard_normal((3, 50))
    last = [997, 998, 999]
    for arr, obj, axis in [
            (long, list(range(0, 1000, 7)), None), (long, [0, 1, 2, 50, 51, *range(9, 99, 9),
                                                       *last], 0),
            (long, [5, 5, 5, 17, 17, *range(100, 200, 10)], None),
            (long, long > 0.5, None), (long, list(range(1, 1000, 2)), None),
            (wide, list(range(0, 50, 3)) + [49], 1), (wide, list(range(1, 50, 4)), None),
            (long.astype(np.int32), list(range(3, 1000, 11)), 0)]:
        _same(wf.delete(wf.asarray(arr), obj, axis=axis), np.delete(arr, obj, axis=axis))


def test_partition_argpartition_lexsort(device):
    a = RNG.standard_normal((6, 40))
    a[2, 5] = np.nan
    x = wf.asarray(a)
    for axis in (None, 0, -1):
        flat = a.reshape(-1) if axis is None else a
        along = 0 if axis is None else axis
        ordered = np.sort(flat, axis=along)
        for kth in (0, 3, [1, 4], -1):
            positions = wf.argpartition(x, kth, axis=axis).to_numpy()
            # partition's values and the array read at argpartition's positions: each a
            # permutation of the array's values keeping the partition's contract.
            for got in (wf.partition(x, kth, axis=axis).to_numpy(),
                        np.take_along_axis(flat, positions, axis=along)):
                np.testing.assert_array_equal(np.sort(got, axis=along), ordered)
                for k in np.atleast_1d(kth) % flat.shape[along]:
                    pivot = np.take(got, [k], axis=along)
                    np.testing.assert_array_equal(pivot, np.take(ordered, [k], axis=along))
                    before = np.take(got, np.arange(k), axis=along)
                    after = np.take(got, np.arange(k + 1, flat.shape[along]), axis=along)
                    assert np.all((before <= pivot) | np.isnan(pivot))
                    assert np.all((after >= pivot) | np.isnan(after))
    _same(np.partition(wf.asarray([3, 1, 2]), 1)[1:2], np.array([2]))
    keys = [RNG.standard_normal(50), RNG.integers(0, 3, 50), RNG.integers(0, 2, 50)]
    _same(wf.lexsort([wf.asarray(k) for k in keys]), np.lexsort(keys))
    _same(np.lexsort(wf.asarray(np.stack(keys[1:]))), np.lexsort(np.stack(keys[1:])))
    with pytest.raises(ValueError, match=r"partition: kth\(=2\) out of bounds \(2\)"):
        wf.partition(wf.asarray([1.0, 2.0]), 2)
    with pytest.raises(ValueError, match="lexsort: all keys need to be the same shape"):
        wf.lexsort([wf.asarray([1, 2]), wf.asarray([1])])


def test_partition_gradient(device):
    """partition reads the array at argpartition's positions: the gradient goes back to
    the elements that moved (central differences of NumPy's partition)."""
    values = RNG.permutation(8).astype(np.float64) + RNG.uniform(0, 0.5, 8)
    weights = np.arange(1.0, 9.0)

    def numpy_value(v):
        return float(np.sort(np.partition(v, 3)[:4]) @ weights[:4])

    got = wf.grad(lambda v: wf.sum(wf.sort(wf.partition(v, 3)[:4]) * wf.asarray(weights[:4])))(
        wf.asarray(values)).to_numpy()
    want = [(numpy_value(values + step) - numpy_value(values - step)) / 2e-6
            for step in np.eye(8) * 1e-6]
    np.testing.assert_allclose(got, want, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_vander(device, dtype):
    x = np.array([1, 2, 3, 0, -2]).astype(dtype)
    for n_columns in (None, 0, 1, 4):
        for increasing in (False, True):
            _same(wf.vander(wf.asarray(x), n_columns, increasing=increasing),
                  np.vander(x, n_columns, increasing=increasing))
    if dtype == np.float64:
        r = RNG.standard_normal(20)
        _same(np.vander(wf.asarray(r), 9), np.vander(r, 9))  # NumPy's running product


def test_fromfunction_and_piecewise(device):
    _same(wf.fromfunction(lambda i, j: i * 3 - j, (2, 3)),
          np.fromfunction(lambda i, j: i * 3 - j, (2, 3)))
    _same(wf.fromfunction(lambda i: i * 2, (4,), dtype=int),
          np.fromfunction(lambda i: i * 2, (4,), dtype=int))
    v = np.linspace(-3, 3, 13)
    x = wf.asarray(v)
    for conditions, functions in [([v < 0, v >= 0], [lambda t: -t, lambda t: t * t]),
                                  ([v < 0], [-1, 1]),
                                  ([v < 0, v > 1], [1, 2, lambda t: t * 10]),
                                  ([v > 0, v > 1], [1, 2])]:  # a later condition wins
        _same(wf.piecewise(x, [wf.asarray(c) for c in conditions], functions),
              np.piecewise(v, conditions, functions))
    _same(np.piecewise(x, [x > 0], [lambda t, k: t * k], 10),
          np.piecewise(v, [v > 0], [lambda t, k: t * k], 10))
    n = np.arange(5)
    _same(wf.piecewise(wf.asarray(n), [wf.asarray(n) > 1], [lambda t: t * 1.5]),
          np.piecewise(n, [n > 1], [lambda t: t * 1.5]))  # cast to x's dtype
    with pytest.raises(ValueError, match="either 1 or 2 functions are expected, not 3"):
        wf.piecewise(x, [x < 0], [1, 2, 3])


def test_histogram2d(device):
    x, y = RNG.standard_normal(3000), RNG.standard_normal(3000) * 2
    with_nan = x.copy()
    with_nan[3] = np.nan
    weights = RNG.uniform(0, 1, 3000)
    for xs, keywords in [
            (x, {}), (x, {"bins": [5, 9]}),
            (with_nan, {"bins": [np.linspace(-2, 2, 6), np.array([-5.0, 0.0, 5.0])]}),
            (with_nan, {"bins": (4, 6), "range": [[-1, 1], [-3, 2]]}),
            (x, {"bins": 5, "weights": weights}), (x, {"bins": 5, "density": True}),
            (x, {"bins": np.linspace(-1, 1, 5)})]:
        want = np.histogram2d(xs, y, **keywords)
        given = {k: wf.asarray(v) if k == "weights" else v for k, v in keywords.items()}
        got = wf.histogram2d(wf.asarray(xs), wf.asarray(y), **given)
        assert got[0].dtype == np.float64 and got[0].shape == want[0].shape
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.to_numpy(), w, rtol=1e-12)
    h, _, _ = np.histogram2d(wf.asarray(x), wf.asarray(y), bins=3)
    np.testing.assert_allclose(h.to_numpy(), np.histogram2d(x, y, bins=3)[0])
    with pytest.raises(ValueError, match="histogram2d: x and y must be 1-D and of one length"):
        wf.histogram2d(wf.asarray(x), wf.asarray(y[:5]))
