"""searchsorted, digitize, unique and the array API's unique_* against NumPy, on every
device: both sides, a sorter, NaNs, integer and float32 values, matrices of queries, empty
arrays; NumPy's functions on weft arrays; errors."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

RNG = np.random.default_rng(5)
EDGES = np.sort(RNG.uniform(-2, 2, 40))
EDGES[7:10] = EDGES[7]  # repeated edges: the sides differ there
QUERIES = np.concatenate([RNG.uniform(-3, 3, 50), EDGES[5:12], [np.nan, -np.inf, np.inf]])


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_searchsorted_matches_numpy(device, dtype):
    edges = (EDGES * 10).astype(dtype) if dtype == "int64" else EDGES.astype(dtype)
    queries = (np.nan_to_num(QUERIES, posinf=99, neginf=-99) * 10).astype(dtype) \
        if dtype == "int64" else QUERIES.astype(dtype)
    a = wf.asarray(edges)
    for side in ("left", "right"):
        for v in (queries, queries[:48].reshape(6, 8)):
            got = wf.searchsorted(a, wf.asarray(v), side=side)
            assert got.dtype == wf.int64 and got.shape == v.shape and got.device is device
            np.testing.assert_array_equal(got.to_numpy(), np.searchsorted(edges, v, side))
        scalar = wf.searchsorted(a, queries[3], side=side)
        assert scalar.shape == () and scalar.item() == np.searchsorted(edges, queries[3], side)
    shuffled = RNG.permutation(edges)
    order = np.argsort(shuffled, kind="stable")
    np.testing.assert_array_equal(
        wf.searchsorted(wf.asarray(shuffled), wf.asarray(queries),
                        sorter=wf.asarray(order)).to_numpy(),
        np.searchsorted(shuffled, queries, sorter=order))
    np.testing.assert_array_equal(np.searchsorted(a, wf.asarray(queries)).to_numpy(),
                                  np.searchsorted(edges, queries))
    np.testing.assert_array_equal(a.searchsorted(wf.asarray(queries), "right").to_numpy(),
                                  edges.searchsorted(queries, "right"))


def test_digitize_matches_numpy_for_increasing_and_decreasing_bins(device):
    x = QUERIES[:-3]
    for bins in (EDGES, EDGES[::-1]):
        for right in (False, True):
            got = wf.digitize(wf.asarray(x), wf.asarray(bins), right=right)
            np.testing.assert_array_equal(got.to_numpy(), np.digitize(x, bins, right=right))
    np.testing.assert_array_equal(np.digitize(wf.asarray(x), wf.asarray(EDGES)).to_numpy(),
                                  np.digitize(x, EDGES))


VALUES = {
    "ints": RNG.integers(0, 6, (7, 9)),
    "floats with NaNs": np.where(RNG.random(30) < 0.2, np.nan, RNG.integers(0, 4, 30) / 2),
    "float32": RNG.integers(0, 3, 20).astype(np.float32),
    "empty": np.zeros((0,)),
}


def _same_distinct(got: list, expected: list, values: np.ndarray, flags: tuple) -> None:
    """``unique``'s results against NumPy's. NaNs counted apart (``equal_nan=False``) are
    distinct values no order tells apart: which NaN goes to which of their places is the
    library's (CuPy's and NumPy's differ), so there the first positions and each element's
    place are checked by what they must do."""
    assert len(got) == len(expected)
    got = [g.to_numpy() for g in got]
    np.testing.assert_array_equal(got[0], expected[0])
    parts = dict(zip([f for f, wanted in zip(("index", "inverse", "counts"), flags) if wanted],
                     zip(got[1:], expected[1:])))
    flat = values.ravel()
    for name, (g, e) in parts.items():
        assert g.shape == e.shape, name
        if name == "counts" or np.isnan(got[0]).sum() < 2:
            np.testing.assert_array_equal(g, e, err_msg=name)
        elif name == "index":  # each distinct value's first position holds it
            np.testing.assert_array_equal(flat[g], got[0])
            assert sorted(g[np.isnan(got[0])]) == sorted(np.flatnonzero(np.isnan(flat)))
        else:  # each element's place holds it
            np.testing.assert_array_equal(got[0][g], values)
            np.testing.assert_array_equal(g[~np.isnan(values)], e[~np.isnan(values)])


@pytest.mark.parametrize("name", sorted(VALUES))
def test_unique_matches_numpy(device, name):
    values = VALUES[name]
    x = wf.asarray(values)
    for flags in ((False, False, False), (True, True, True), (False, False, True)):
        for equal_nan in (True, False):
            got = wf.unique(x, *flags, equal_nan=equal_nan)
            expected = np.unique(values, *flags, equal_nan=equal_nan)
            got, expected = (got, expected) if any(flags) else ((got,), (expected,))
            assert all(g.device is device for g in got)
            _same_distinct(list(got), list(expected), values, flags)
    # The standard's functions (each NaN distinct; NumPy 2.3+ leaves unique_values unsorted,
    # so the expected values come from np.unique, sorted).
    for function, flags in (("unique_values", (False, False, False)),
                            ("unique_counts", (False, False, True)),
                            ("unique_inverse", (False, True, False)),
                            ("unique_all", (True, True, True))):
        expected = np.unique(values, *flags, equal_nan=False)
        expected = expected if any(flags) else (expected,)
        for got in (getattr(wf, function)(x), getattr(np, function)(x)):
            got = got if any(flags) else (got,)
            assert all(isinstance(g, wf.Array) for g in got)
            _same_distinct(list(got), list(expected), values, flags)
    inverse = wf.unique_inverse(x)
    np.testing.assert_array_equal(inverse.values[inverse.inverse_indices].to_numpy(), values)


def test_searching_errors():
    a = wf.asarray(EDGES)
    with pytest.raises(ValueError, match="side must be 'left' or 'right'"):
        wf.searchsorted(a, 1.0, side="middle")
    with pytest.raises(ValueError, match="1-dimensional"):
        wf.searchsorted(wf.asarray(np.eye(2)), 1.0)
    with pytest.raises(ValueError, match="sorter"):
        wf.searchsorted(a, 1.0, sorter=wf.asarray([0, 1]))
    with pytest.raises(ValueError, match="1-dimensional"):
        wf.digitize(a, wf.asarray(np.eye(2)))
    with pytest.raises(NotImplementedError, match="axis"):
        wf.unique(wf.asarray(np.eye(2)), axis=0)
