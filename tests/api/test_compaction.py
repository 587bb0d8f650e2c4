"""Reads of data-dependent size (API.md 14) against NumPy: x[mask], nonzero, flatnonzero,
argwhere and one-argument where, through NumPy's functions; the gradient of x[mask]; and
writes through a mask (x[mask] = v)."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

RNG = np.random.default_rng(21)
MATRIX = RNG.standard_normal((6, 9))
VALUES = {
    "matrix": MATRIX, "vector": RNG.standard_normal(40),
    "long": RNG.standard_normal(5000),  # three levels of the count's scan
    "int32": RNG.integers(-3, 3, (4, 7)).astype(np.int32),
    "float32": RNG.standard_normal((3, 11)).astype(np.float32),
}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_masked_reads_match_numpy(device, name):
    values = VALUES[name]
    x = wf.asarray(values)
    for mask in (values > 0.3, values > 100, values > -100):  # some, none, all
        for key in (wf.asarray(mask), mask):
            got = x[key]
            assert got.device is device and got.dtype == values.dtype
            np.testing.assert_array_equal(got.to_numpy(), values[mask])


def test_masked_reads_fuse_their_mask_and_select_rows(device):
    x = wf.asarray(MATRIX)
    np.testing.assert_array_equal(x[wf.exp(x) > 2.0].to_numpy(), MATRIX[np.exp(MATRIX) > 2.0])
    rows = MATRIX[:, 0] > 0
    np.testing.assert_array_equal(x[rows].to_numpy(), MATRIX[rows])
    np.testing.assert_array_equal(x[wf.asarray(rows)].to_numpy(), MATRIX[rows])
    picks = [True, False, True, True, False, False]
    np.testing.assert_array_equal(x[picks].to_numpy(), MATRIX[picks])
    empty = wf.zeros((0,))
    assert empty[empty > 0].shape == (0,) and wf.argwhere(wf.zeros((0, 3))).shape == (0, 2)
    np.testing.assert_array_equal(wf.asarray(2.0)[wf.asarray(2.0) > 1].to_numpy(), [2.0])


@pytest.mark.parametrize("name", sorted(VALUES))
def test_nonzero_flatnonzero_argwhere_and_where_match_numpy(device, name):
    values = np.where(VALUES[name] > 0.5, VALUES[name], 0)
    x = wf.asarray(values)
    for got, expected in ((wf.nonzero(x), np.nonzero(values)), (x.nonzero(), values.nonzero()),
                          (np.nonzero(x), np.nonzero(values)),
                          (wf.where(x != 0), np.where(values != 0)),
                          (np.where(x != 0), np.where(values != 0))):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            assert isinstance(g, wf.Array) and g.dtype == np.int64
            np.testing.assert_array_equal(g.to_numpy(), e)
    for got, expected in ((wf.flatnonzero(x), np.flatnonzero(values)),
                          (np.flatnonzero(x), np.flatnonzero(values)),
                          (wf.argwhere(x), np.argwhere(values)),
                          (np.argwhere(x), np.argwhere(values))):
        assert got.dtype == np.int64 and got.shape == expected.shape
        np.testing.assert_array_equal(got.to_numpy(), expected)


def test_the_gradient_of_a_masked_read_goes_back_to_the_selected_elements(device):
    x = wf.asarray(MATRIX)
    g = wf.grad(lambda v: (v[v > 0] ** 2).sum())(x)
    np.testing.assert_allclose(g.to_numpy(), np.where(MATRIX > 0, 2 * MATRIX, 0), rtol=1e-14)
    g = wf.grad(lambda v: v[v > 100].sum())(x)  # nothing selected
    np.testing.assert_array_equal(g.to_numpy(), np.zeros_like(MATRIX))


@pytest.mark.parametrize("name", ["matrix", "vector", "int32", "float32"])
def test_masked_writes_match_numpy(device, name):
    values = VALUES[name]
    for mask in (values > 0.3, values > 100, values > -100):  # some, none, all
        count = int(mask.sum())
        written = (np.arange(count) * 3 - 1).astype(values.dtype)
        for value in (-7, np.float64(2.5), written):
            if values.dtype.kind == "i" and isinstance(value, np.float64):
                continue
            expected = values.copy()
            expected[mask] = value
            for key in (wf.asarray(mask), mask):
                x = wf.asarray(values)
                alias = x.copy()  # value semantics: the copy keeps the old elements
                x[key] = wf.asarray(value) if isinstance(value, np.ndarray) else value
                np.testing.assert_array_equal(x.to_numpy(), expected)
                np.testing.assert_array_equal(alias.to_numpy(), values)
            y, listed = wf.asarray(values), values.copy()
            y[mask] = written.tolist()  # a list (or a NumPy array) as NumPy takes it
            listed[mask] = written
            np.testing.assert_array_equal(y.to_numpy(), listed)


def test_masked_writes_select_rows_fuse_and_differentiate(device):
    x = wf.asarray(MATRIX)
    x[wf.exp(x) > 2.0] = 0.0  # the mask computed in the writing kernel
    expected = MATRIX.copy()
    expected[np.exp(MATRIX) > 2.0] = 0.0
    np.testing.assert_array_equal(x.to_numpy(), expected)
    rows = MATRIX[:, 0] > 0
    for value in (1.5, np.arange(9.0), np.arange(9.0 * rows.sum()).reshape(-1, 9)):
        x, expected = wf.asarray(MATRIX), MATRIX.copy()
        x[rows] = wf.asarray(value) if isinstance(value, np.ndarray) else value
        expected[rows] = value
        np.testing.assert_array_equal(x.to_numpy(), expected)

    def clipped(v):
        v = v * 1.0
        v[v > 0.5] = 0.5
        return (v ** 2).sum()

    g = wf.grad(clipped)(wf.asarray(MATRIX))
    np.testing.assert_allclose(g.to_numpy(), np.where(MATRIX > 0.5, 0, 2 * MATRIX),
                               rtol=1e-14)


def test_masked_writes_of_a_0d_array(device):
    """x[mask] = v for a 0-d x and mask, as NumPy: a one-value array is written where the
    mask is true, no values where it is false (SciPy's array API code does both)."""
    for flag, value, want in ((True, [5.0], 5.0), (False, [5.0], 1.0), (False, [], 1.0),
                              (True, 7.0, 7.0)):
        x, reference = wf.asarray(1.0), np.array(1.0)
        x[wf.asarray(flag)] = wf.asarray(value) if isinstance(value, list) else value
        reference[np.array(flag)] = value
        assert x.shape == () and x.item() == want == reference.item()
    x = wf.asarray(1.0)
    for flag, value in ((True, [5.0, 6.0]), (True, [])):
        with pytest.raises(ValueError, match="cannot assign"):
            x[wf.asarray(flag)] = wf.asarray(value)
        assert x.item() == 1.0
    assert wf.asarray(2.0)[wf.asarray(True)].tolist() == [2.0]


def test_masked_write_errors_leave_the_array_as_it_was(device):
    x = wf.asarray(MATRIX)
    for key, value, error, match in (
            (MATRIX > 0, wf.asarray([1.0, 2.0]), ValueError, "cannot assign"),
            (np.ones((2, 2), dtype=bool), 1.0, IndexError, "does not match"),
            (np.ones(4, dtype=bool), 1.0, IndexError, "rows")):
        with pytest.raises(error, match=match):
            x[key] = value
        np.testing.assert_array_equal(x.to_numpy(), MATRIX)


def test_compaction_errors():
    x = wf.asarray(MATRIX)
    with pytest.raises(IndexError, match="does not match"):
        x[np.ones((2, 2), dtype=bool)]
    with pytest.raises(IndexError, match="rows"):
        x[np.ones(4, dtype=bool)]
    with pytest.raises(TypeError, match="whole array"):
        x[np.ones(6, dtype=bool), 0]
    with pytest.raises(ValueError, match="both x and y"):
        wf.where(x > 0, x)
    with pytest.raises(ValueError, match="0-d"):
        wf.nonzero(wf.asarray(1.0))
