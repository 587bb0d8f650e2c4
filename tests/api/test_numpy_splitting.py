"""NumPy's splits and joins (splitting.py), kron and cross (products.py), pad (padding.py),
select, identity, tri, and the top-level dot, inner, outer, reshape, copy, finfo and iinfo
on weft arrays: against NumPy on every device, as wf.* and through NumPy's own functions."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf


def _same(got, want) -> None:
    assert isinstance(got, wf.Array), type(got)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got.to_numpy(), want)


def test_splits_and_joins(device):
    a = np.arange(24.0).reshape(4, 6)
    x = wf.asarray(a)
    for sections, axis in ((2, 0), (3, 1), ([1, 4], 1), ([-1], 0), ([2, 9], 1)):
        for got, want in zip(np.split(x, sections, axis=axis), np.split(a, sections, axis)):
            _same(got, want)
    for sections in (4, 5, [2, 3]):
        pieces = wf.array_split(x, sections, axis=1)
        wanted = np.array_split(a, sections, axis=1)
        assert len(pieces) == len(wanted)
        for got, want in zip(pieces, wanted):
            _same(got, want)
    with pytest.raises(ValueError, match="split: array split does not result in an equal"):
        wf.split(x, 5, axis=1)
    with pytest.raises(ValueError, match="number of sections must be positive"):
        wf.array_split(x, 0)
    _same(np.append(x, a[:1], axis=0), np.append(a, a[:1], axis=0))
    _same(wf.append(x, [1.0, 2.0]), np.append(a, [1.0, 2.0]))
    _same(np.column_stack([x[:, 0], x[:, 1:3], x[:, 5]]),
          np.column_stack([a[:, 0], a[:, 1:3], a[:, 5]]))
    _same(np.atleast_1d(wf.asarray(3.0)), np.atleast_1d(3.0))
    _same(np.atleast_2d(x[0]), np.atleast_2d(a[0]))
    pair = wf.atleast_2d(x[0], x)
    assert [p.shape for p in pair] == [(1, 6), (4, 6)]


def test_select_and_constructors(device):
    a = np.linspace(-3, 3, 7)
    x = wf.asarray(a)
    _same(np.select([x < -1, x > 1], [-x, x * 10], default=x),
          np.select([a < -1, a > 1], [-a, a * 10], default=a))
    _same(wf.select([x < 0], [x]), np.select([a < 0], [a]))
    with pytest.raises(ValueError, match="select: 2 conditions for 1 choices"):
        wf.select([x < 0, x > 0], [x])
    with pytest.raises(TypeError, match="select: a condition must be bool"):
        wf.select([x], [x])
    _same(wf.identity(3, dtype=wf.int32), np.identity(3, dtype=np.int32))
    for args in ((3,), (3, 4), (4, 3, 1), (3, 3, -1)):
        _same(wf.tri(*args), np.tri(*args))
    assert wf.finfo(wf.float32).eps == np.finfo(np.float32).eps
    assert wf.iinfo(wf.int64).max == np.iinfo(np.int64).max


def test_products_reshape_copy(device):
    a = np.arange(6.0).reshape(2, 3)
    b = np.arange(3.0) + 1
    x, y = wf.asarray(a), wf.asarray(b)
    _same(wf.dot(x, y), np.dot(a, b))
    _same(wf.inner(y, y), np.inner(b, b))
    _same(np.inner(x, x), np.inner(a, a))
    _same(wf.outer(y, y), np.outer(b, b))
    _same(wf.reshape(x, (3, -1)), np.reshape(a, (3, -1)))
    c = wf.copy(x)
    c[0, 0] = 9.0
    assert x[0, 0].item() == 0.0 and c[0, 0].item() == 9.0


def _close(got, want) -> None:
    assert isinstance(got, wf.Array), type(got)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got.to_numpy(), want, rtol=1e-12, atol=1e-12)


def test_kron_cross_pad(device):
    rng = np.random.default_rng(5)
    for a, b in ((rng.standard_normal(3), rng.standard_normal(4)),
                 (rng.standard_normal((2, 3)), rng.standard_normal((4, 2))),
                 (rng.standard_normal(3), rng.standard_normal((2, 2)))):
        _close(np.kron(wf.asarray(a), wf.asarray(b)), np.kron(a, b))
    for a, b in ((rng.standard_normal(3), rng.standard_normal(3)),
                 (rng.standard_normal((5, 3)), rng.standard_normal(3)),
                 (rng.standard_normal((4, 3)), rng.standard_normal((4, 3)))):
        _close(np.cross(wf.asarray(a), wf.asarray(b)), np.cross(a, b))
    with pytest.raises(ValueError, match="cross: both input arrays must be .* 3-dimensional"):
        wf.cross(wf.asarray([1.0, 2.0]), wf.asarray([1.0, 2.0, 3.0]))
    ints = rng.integers(0, 9, (3, 4))
    vector = rng.standard_normal(5)
    cases = [(ints, 1, {}), (ints, ((1, 2), (0, 3)), dict(mode="edge")),
             (ints, (2, 1), dict(mode="reflect")), (ints, 2, dict(mode="symmetric")),
             (ints, ((0, 1), (5, 2)), dict(mode="wrap")), (ints, 1, dict(constant_values=7.5)),
             (ints, ((1, 1), (2, 2)), dict(constant_values=((1, 2), (3, 4)))),
             (vector, 7, dict(mode="reflect")), (vector, 9, dict(mode="symmetric")),
             (np.zeros((0, 3)), 1, {})]
    # reflect_type="odd": twice the edge minus the reflection, chunk by chunk past the
    # array's length (each chunk about the edge the last one made), as NumPy's.
    odd = dict(reflect_type="odd")
    cases += [(ints, ((2, 1), (3, 0)), dict(mode="reflect", **odd)),
              (ints.astype(np.uint32), 2, dict(mode="symmetric", **odd)),
              (vector, (11, 4), dict(mode="reflect", **odd)),
              (vector, (3, 13), dict(mode="symmetric", **odd)),
              (np.array([1.0, np.inf, 3.0]), 2, dict(mode="reflect", **odd)),
              (np.array([4.0]), 2, dict(mode="reflect", **odd))]
    for values, width, kwargs in cases:
        _close(np.pad(wf.asarray(values), width, **kwargs), np.pad(values, width, **kwargs))
    with pytest.raises(ValueError, match="pad: reflect_type must be 'even' or 'odd'"):
        wf.pad(wf.asarray(vector), 1, mode="reflect", reflect_type="bad")
    with pytest.raises(TypeError, match="pad: reflect_type='odd' .* not bool"):
        wf.pad(wf.asarray([True, False]), 1, mode="reflect", reflect_type="odd")
    with pytest.raises(ValueError, match="unsupported keyword arguments for mode 'edge'"):
        wf.pad(wf.asarray(vector), 1, mode="edge", constant_values=1)
    with pytest.raises(ValueError, match="negative values"):
        wf.pad(wf.asarray(vector), -1)


def test_pad_computed_modes(device):
    """The modes that pad with statistics of the ends or ramps to end values, axis after
    axis as NumPy (the second axis's statistics see the first's padding); integers rounded
    (mean, median: half to even) or floored (ramps) as NumPy's."""
    rng = np.random.default_rng(6)
    ints = rng.integers(-9, 9, (4, 5))
    reals = rng.standard_normal((5, 3))
    cases = [(ints, ((1, 2), (2, 1)), dict(mode="maximum")),
             (reals, 2, dict(mode="minimum", stat_length=2)),
             (ints, (2, 1), dict(mode="mean", stat_length=((1, 3), (2, 2)))),
             (np.array([1, 2, 6, 4]), (3, 2), dict(mode="mean")),
             (reals, ((0, 2), (1, 1)), dict(mode="median")),
             (np.array([1, 4, 2, 7]), 2, dict(mode="median", stat_length=2)),
             (ints, (3, 2), dict(mode="linear_ramp", end_values=(10, -3))),
             (reals.astype(np.float32), 2, dict(mode="linear_ramp"))]
    for values, width, kwargs in cases:
        _close(np.pad(wf.asarray(values), width, **kwargs), np.pad(values, width, **kwargs))
    _close(wf.pad(wf.asarray(reals), 1, mode="empty"), np.pad(reals, 1))  # zeros here
    with pytest.raises(ValueError, match="stat_length must be positive integers"):
        wf.pad(wf.asarray(reals), 1, mode="mean", stat_length=0)
    with pytest.raises(ValueError, match="can't extend empty axis 0"):
        wf.pad(wf.asarray(np.zeros(0)), 1, mode="maximum")
