"""NumPy's statistics habits on weft arrays: the reductions that ignore NaN (ignoring_nan.py),
average, cov and corrcoef (covariance.py), ptp, bincount and histogram (counting.py), and
flip, squeeze, expand_dims and swapaxes, each against NumPy on every device, called as wf.*
and through NumPy's own functions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import weft as wf

RNG = np.random.default_rng(44)


def _with_nan(dtype) -> np.ndarray:
    a = RNG.standard_normal((5, 4)).astype(dtype)
    a[1, 2] = a[4, 0] = np.nan
    a[:, 3] = np.nan  # a column of NaN only
    return a


def _numpy(name, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (NumPy warns of slices of NaN)
        return getattr(np, name)(*args, **kwargs)


def _same(got, want, rtol) -> None:
    got = got.to_numpy() if isinstance(got, wf.Array) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, equal_nan=True)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_reductions_ignoring_nan(device, dtype):
    a = _with_nan(dtype)
    x = wf.asarray(a)
    rtol = 1e-12 if dtype == np.float64 else 2e-6
    # Every axis; keepdims along one (float64) or all (float32). Each a kernel to compile.
    for name in ("nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
                 "nanmedian"):
        for axis, keepdims in ((None, False), (0, False), (-1, False),
                               (1 if dtype == np.float64 else None, True)):
            want = _numpy(name, a, axis=axis, keepdims=keepdims)
            _same(getattr(wf, name)(x, axis=axis, keepdims=keepdims), want, rtol)
            _same(getattr(np, name)(x, axis=axis, keepdims=keepdims), want, rtol)
    _same(wf.nanvar(x, axis=0, ddof=1), _numpy("nanvar", a, axis=0, ddof=1), rtol)
    _same(wf.nanstd(x[:2], axis=0, ddof=2), _numpy("nanstd", a[:2], axis=0, ddof=2), rtol)
    for q in (0.3, [0.0, 0.5, 1.0]):
        for axis in (None, 1):
            want = _numpy("nanquantile", a, q, axis=axis)
            _same(wf.nanquantile(x, q, axis=axis), want, rtol)
            _same(np.nanquantile(x, q, axis=axis), want, rtol)
        _same(wf.nanquantile(x[:, 0], q, keepdims=True),
              _numpy("nanquantile", a[:, 0], q, keepdims=True), rtol)
    _same(wf.nanpercentile(x, [25, 75], axis=1), _numpy("nanpercentile", a, [25, 75], axis=1),
          rtol)
    for name in ("nanargmax", "nanargmin"):
        b = a[:, :3]
        for axis in (None, 0, 1):
            _same(getattr(np, name)(wf.asarray(b), axis=axis), _numpy(name, b, axis=axis), 0)
        with pytest.raises(ValueError, match=rf"{name}: All-NaN slice encountered \(the "
                                             r"slice at \[3\]\)"):
            getattr(wf, name)(x, axis=0).to_numpy()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nanmax_nanmin_in_one_pass(device, dtype):
    """NumPy's fmax.reduce: long rows and columns whose split parts are NaN only, -inf and
    +inf among NaN, slices of NaN; an empty array raises as NumPy's."""
    a = RNG.standard_normal((9, 5000)).astype(dtype)
    a[:, :4000] = np.nan  # whole chunks of a row's split reduction are NaN
    a[2] = np.nan
    a[3, 4500] = -np.inf
    a[4, 4999] = np.inf
    a[5, 4001:] = np.nan  # one number in the row
    x = wf.asarray(a)
    for name in ("nanmax", "nanmin"):
        for axis in (None, 0, 1):
            _same(getattr(wf, name)(x, axis=axis), _numpy(name, a, axis=axis), 0)
        _same(getattr(wf, name)(x.T, axis=0), _numpy(name, a.T, axis=0), 0)
        with pytest.raises(ValueError, match=f"{name}: zero-size array to reduction operation "
                                             f"f{name[3:]} which has no identity"):
            getattr(wf, name)(wf.asarray(np.zeros(0, dtype)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nanquantile_methods(device, dtype):
    """Every NumPy method, each slice's count of numbers its own (NaN left out): positions
    computed on the device; the picking methods keep the values' type."""
    from weft.sorting import METHODS

    a = _with_nan(dtype)
    a[4, :2] = np.nan  # a row with one number
    x = wf.asarray(a)
    rtol = 1e-12 if dtype == np.float64 else 2e-6
    # Each method a kernel of its own (compiled cold in CI): every one along one axis in
    # float64, two in float32, the other axes for three.
    methods = METHODS if dtype == np.float64 else ("nearest", "hazen")
    for method in methods:
        ways = ((None, 0.37), (0, [0.0, 0.25, 1.0]), (1, 0.5)) if method in (
            "nearest", "hazen", "closest_observation") else ((0, [0.0, 0.25, 1.0]),)
        for axis, q in ways:
            _same(wf.nanquantile(x, q, axis=axis, method=method),
                  _numpy("nanquantile", a, q, axis=axis, method=method), rtol)
    _same(np.nanpercentile(x, 30, axis=1, method="nearest"),
          _numpy("nanpercentile", a, 30, axis=1, method="nearest"), rtol)


def test_integers_have_no_nan(device):
    a = RNG.integers(-9, 9, (3, 4)).astype(np.int32)
    x = wf.asarray(a)
    for name in ("nansum", "nanmean", "nanvar", "nanmax", "nanargmin"):
        _same(getattr(wf, name)(x, axis=0), _numpy(name, a, axis=0).astype(
            np.int64 if name in ("nansum", "nanargmin") else
            np.int32 if name == "nanmax" else np.float64), 1e-12)
    with pytest.raises(ValueError, match="nanquantile: method must be one of"):
        wf.nanquantile(wf.asarray([1.0, np.nan]), 0.5, method="closest")
    with pytest.raises(ValueError, match=r"q must be a number or a 1-D sequence in \[0, 1\]"):
        wf.nanquantile(wf.asarray([1.0, np.nan]), 1.5)


def test_average_cov_corrcoef_ptp(device):
    a = RNG.standard_normal((3, 6))
    x, b, w = wf.asarray(a), RNG.standard_normal(6), RNG.uniform(0.1, 2, 6)
    f, aw = RNG.integers(0, 4, 6), RNG.uniform(0.1, 2, 6)
    _same(wf.average(x), np.average(a), 1e-12)
    _same(np.average(x, axis=1, weights=w), np.average(a, axis=1, weights=w), 1e-12)
    _same(wf.average(x, weights=np.abs(a)), np.average(a, weights=np.abs(a)), 1e-12)
    _same(wf.average(x, axis=0, weights=[1.0, 2.0, 3.0], keepdims=True),
          np.average(a, axis=0, weights=[1.0, 2.0, 3.0], keepdims=True), 1e-12)
    for axis, weights in ((1, w), (0, None), (None, None)):
        got, want = (wf.average(x, axis=axis, weights=weights, returned=True),
                     np.average(a, axis=axis, weights=weights, returned=True))
        _same(got[0], want[0], 1e-12)
        _same(got[1], want[1], 1e-12)
    with pytest.raises(ValueError, match="average: weights sum to zero"):
        wf.average(x, axis=1, weights=np.zeros(6)).to_numpy()
    with pytest.raises(TypeError, match=r"weights of shape \(6,\) differ .* give axis"):
        wf.average(x, weights=w)
    with pytest.raises(ValueError, match=r"weights must be 1-D of length 3"):
        wf.average(x, axis=0, weights=w)
    cases = [dict(), dict(rowvar=False), dict(bias=True), dict(ddof=3), dict(fweights=f),
             dict(aweights=aw), dict(fweights=f, aweights=aw),
             dict(fweights=f, aweights=aw, ddof=0)]
    for kwargs in cases:
        _same(wf.cov(x, **kwargs), np.cov(a, **kwargs), 1e-12)
    _same(np.cov(x, b), np.cov(a, b), 1e-12)
    _same(wf.cov(wf.asarray(b)), np.cov(b), 1e-12)  # one variable: 0-d
    _same(wf.cov(wf.asarray(a.astype(np.float32))), np.cov(a.astype(np.float32)), 1e-6)
    _same(np.corrcoef(x), np.corrcoef(a), 1e-12)
    _same(wf.corrcoef(x, b), np.corrcoef(a, b), 1e-12)
    with pytest.raises(ValueError, match="cov: fweights cannot be negative"):
        wf.cov(x, fweights=-f - 1).to_numpy()
    with pytest.raises(TypeError, match="cov: fweights must be integers"):
        wf.cov(x, fweights=w)
    with pytest.raises(ValueError, match=r"cov: m and y must have as many observations"):
        wf.cov(x, b[:5])
    for axis in (None, 0, 1):
        _same(np.ptp(x, axis=axis), np.ptp(a, axis=axis), 1e-12)


def test_flips_and_axes(device):
    a = np.arange(12.0).reshape(3, 4)
    x = wf.asarray(a)
    for axis in (None, 0, 1, -1, (0, 1)):
        _same(np.flip(x, axis), np.flip(a, axis), 0)
    _same(np.fliplr(x), np.fliplr(a), 0)
    _same(np.flipud(x), np.flipud(a), 0)
    _same(wf.flipud(x[0]), np.flipud(a[0]), 0)
    _same(np.squeeze(x[:1]), np.squeeze(a[:1]), 0)
    _same(wf.squeeze(x[:, :1], axis=1), np.squeeze(a[:, :1], axis=1), 0)
    _same(np.expand_dims(x[0], 0), np.expand_dims(a[0], 0), 0)
    _same(wf.expand_dims(x[0], -1), np.expand_dims(a[0], -1), 0)
    _same(np.swapaxes(x, 0, 1), np.swapaxes(a, 0, 1), 0)
    with pytest.raises(ValueError, match="fliplr: the array must be 2-D"):
        wf.fliplr(x[0])
    with pytest.raises(ValueError, match="expand_dims: .* weft arrays have at most 2"):
        wf.expand_dims(x, 0)
    with pytest.raises(ValueError, match="squeeze: cannot select an axis"):
        wf.squeeze(x, axis=0)


def test_bincount_and_histogram(device):
    v = RNG.integers(0, 12, 500)
    w = RNG.uniform(0, 1, 500)
    _same(np.bincount(wf.asarray(v)), np.bincount(v), 0)
    _same(wf.bincount(v, weights=w, minlength=20), np.bincount(v, weights=w, minlength=20),
          1e-12)
    _same(wf.bincount(np.zeros(0, np.int64), minlength=3), np.bincount([], minlength=3), 0)
    # Views and int32, bool and uint32 values, counted where they lie (a CPU device's
    # mapped memory), which stays as it was.
    grid = wf.asarray(v.reshape(20, 25).astype(np.int32))
    _same(wf.bincount(grid[::-2, 3], weights=wf.asarray(w.reshape(20, 25))[::-2, 4]),
          np.bincount(v.reshape(20, 25)[::-2, 3], weights=w.reshape(20, 25)[::-2, 4]), 1e-12)
    _same(wf.bincount(wf.asarray(v % 2 == 0)), np.bincount(v % 2 == 0), 0)
    _same(wf.bincount(wf.asarray(v.astype(np.uint32))), np.bincount(v), 0)
    _same(grid, v.reshape(20, 25).astype(np.int32), 0)
    with pytest.raises(ValueError, match="bincount: x must have no negative elements, got -2"):
        wf.bincount(wf.asarray([1, -2]))
    with pytest.raises(TypeError, match="bincount: x must hold integers"):
        wf.bincount(wf.asarray([1.0]))
    samples = (RNG.standard_normal(2000), RNG.standard_normal(2000).astype(np.float32),
               RNG.integers(0, 50, 1000), np.arange(11.0), np.arange(0.0, 1.0, 0.1))
    for a in samples:
        for kwargs in (dict(), dict(bins=5, range=(-1, 1)), dict(bins=[-2, -0.5, 0, 0.3, 2]),
                       dict(bins=6, density=True), dict(bins=4, weights=np.abs(a) * 1.0)):
            counts, edges = np.histogram(wf.asarray(a), **kwargs)
            want_counts, want_edges = np.histogram(a, **kwargs)
            _same(counts, want_counts, 1e-12)
            _same(edges, want_edges, 0)
    with_nan = np.array([1.0, np.nan, 2.0, 3.0])
    _same(wf.histogram(with_nan, bins=2, range=(0, 3))[0],
          np.histogram(with_nan, bins=2, range=(0, 3))[0], 0)
    with pytest.raises(ValueError, match="bins must increase monotonically"):
        wf.histogram(wf.asarray([1.0]), bins=[2.0, 1.0])
    with pytest.raises(ValueError, match=r"bins must be 1-D when an array, not of shape \(1, 2\)"):
        wf.histogram(wf.asarray([1.0]), bins=[[1.0, 2.0]])
    with pytest.raises(ValueError, match=r"autodetected range of \[nan, nan\] is not finite"):
        wf.histogram(wf.asarray(with_nan))


def test_histogram_bin_rules(device):
    """NumPy's rules for the number of bins: the same edges and counts, over the whole data
    or inside a range; a constant sample gets one bin; weights refused as NumPy's."""
    samples = (RNG.standard_normal(3000), RNG.exponential(size=2000).astype(np.float32),
               RNG.integers(0, 50, 1000), np.r_[np.zeros(100), 1.0, 2.0], np.array([3.0]))
    for a in samples:
        x = wf.asarray(a)
        for rule in ("auto", "fd", "doane", "scott", "rice", "sturges", "sqrt"):
            for given in (None, (-1, 2)):
                want_counts, want_edges = np.histogram(a, bins=rule, range=given)
                counts, edges = np.histogram(x, bins=rule, range=given)
                _same(counts, want_counts, 0)
                _same(edges, want_edges, 1e-6 if a.dtype == np.float32 else 1e-12)
        for given in (None, (-1, 2)):  # stone: a score per candidate count of bins
            with warnings.catch_warnings(record=True) as numpy_said:
                warnings.simplefilter("always")
                want_counts, want_edges = np.histogram(a, bins="stone", range=given)
            with warnings.catch_warnings(record=True) as weft_said:
                warnings.simplefilter("always")
                counts, edges = np.histogram(x, bins="stone", range=given)
            _same(counts, want_counts, 0)
            _same(edges, want_edges, 1e-6 if a.dtype == np.float32 else 1e-12)
            assert [str(w.message) for w in weft_said] == [str(w.message) for w in numpy_said]
    with pytest.raises(ValueError, match="'nope' is not a valid estimator"):
        wf.histogram(wf.asarray([1.0, 2.0]), bins="nope")
    with pytest.raises(TypeError, match="does not take weighted data"):
        wf.histogram(wf.asarray([1.0, 2.0]), bins="auto", weights=wf.asarray([1.0, 1.0]))


def test_gradients_pass_through(device):
    """Built of differentiable ops, they have gradients: zero at an ignored NaN, else
    central differences of NumPy's own functions."""
    a = RNG.standard_normal((4, 3))
    a[1, 1] = np.nan
    b = RNG.standard_normal((3, 6))
    cases = [(a, lambda x: wf.nanvar(x, ddof=1), lambda x: _numpy("nanvar", x, ddof=1)),
             (a, lambda x: wf.sum(wf.nanmax(x, axis=1)),
              lambda x: np.sum(_numpy("nanmax", x, axis=1))),
             (b, lambda x: wf.sum(wf.corrcoef(x)), lambda x: np.sum(np.corrcoef(x)))]
    for values, weft_function, numpy_function in cases:
        got = wf.grad(weft_function)(wf.asarray(values)).to_numpy()
        want = np.zeros_like(values)
        for index in zip(*np.nonzero(~np.isnan(values))):
            step = np.zeros_like(values)
            step[index] = 1e-6
            want[index] = (numpy_function(values + step) - numpy_function(values - step)) / 2e-6
        np.testing.assert_allclose(got, want, atol=1e-6)


def test_sort_kinds(device):
    """The host's sort of ``kind`` (NumPy's default unless given): the values of NumPy's
    sort of that kind, zeros' signs included; a kind NumPy does not have is refused on
    every device."""
    a = np.array([3.0, -0.0, 0.0, 1.0, -0.0, np.nan, -2.0])
    for kind in (None, "stable", "mergesort", "heapsort"):
        got = wf.sort(wf.asarray(a), kind=kind).to_numpy()
        np.testing.assert_array_equal(got, np.sort(a, kind="stable"))  # (values)
        if device.kind != "cuda":
            assert np.array_equal(np.signbit(got), np.signbit(np.sort(a, kind=kind)))
    x = wf.asarray(a)
    x.sort(kind="stable")
    assert np.array_equal(np.signbit(x.to_numpy()), np.signbit(np.sort(a, kind="stable")))
    with pytest.raises(ValueError, match="sort: kind must be one of"):
        wf.sort(wf.asarray(a), kind="bogus")
