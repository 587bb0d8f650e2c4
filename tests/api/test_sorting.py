"""Sorting and order statistics (API.md 14) against NumPy: sort, argsort, median, quantile
with every NumPy method, percentile; through NumPy's own functions; gradients; errors."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import weft as wf
from weft.sorting import METHODS

RNG = np.random.default_rng(8)
X = RNG.standard_normal((5, 8))
X_NAN = X.copy()
X_NAN[1, 3] = np.nan
TIES = RNG.integers(0, 4, (6, 5))
F32 = RNG.standard_normal((3, 7)).astype(np.float32)
VALUES = {"float64": X, "nan": X_NAN, "int64": TIES, "float32": F32,
          "vector": RNG.standard_normal(9)}
# Every method meets every kind of values under WEFT_TEST_PROFILE=large; by default the
# others meet the 2-D float64 values with and without NaN (each pairing compiles kernels).
LARGE = os.environ.get("WEFT_TEST_PROFILE") == "large"
# The ends and points between (each q builds kernels of its own; all of them under
# WEFT_TEST_PROFILE=large).
QUANTILES = ((0.0, 0.1, 0.25, 0.5, 0.77, 1.0, [0.2, 0.9]) if LARGE
             else (0.0, 0.25, 0.77, 1.0, [0.2, 0.9]))
# One of each kind: interpolated, rounded to an observation, and a step of the empirical CDF.
EVERY_VALUE_METHODS = ("linear", "nearest", "inverted_cdf")


def _assert_as_numpy(got: np.ndarray, expected: np.ndarray, device, values: np.ndarray,
                     err_msg: str = "") -> None:
    """Interpolated order statistics equal NumPy's bit for bit on CPUs. A GPU compiler fuses
    the interpolation's multiply and add (one rounding, not two), which moves a result by a
    few ulps of the values it lies between, more where it is near 0 (within 4 ulps of the
    largest value there)."""
    assert got.dtype == expected.dtype, err_msg
    if device.kind == "reference" or device.traits.is_cpu or got.dtype.kind != "f":
        np.testing.assert_array_equal(got, expected, err_msg=err_msg)
    else:
        scale = np.nanmax(np.abs(values)).astype(got.dtype)
        np.testing.assert_allclose(got, expected, rtol=0, atol=4 * np.spacing(scale),
                                   equal_nan=True, err_msg=err_msg)


@pytest.mark.parametrize("name", sorted(VALUES))
def test_sort_and_argsort_match_numpy(device, name):
    values = VALUES[name]
    x = wf.asarray(values)
    for axis in (-1, 0, None) + ((1,) if values.ndim == 2 else ()):
        got = wf.sort(x, axis=axis)
        assert got.device is device and got.dtype == values.dtype
        np.testing.assert_array_equal(got.to_numpy(), np.sort(values, axis=axis))
        order = wf.argsort(x, axis=axis)
        assert order.dtype == np.int64
        np.testing.assert_array_equal(order.to_numpy(),
                                      np.argsort(values, axis=axis, kind="stable"))
    np.testing.assert_array_equal(np.sort(x).to_numpy(), np.sort(values))
    np.testing.assert_array_equal(x.argsort().to_numpy(),
                                  np.argsort(values, kind="stable"))


def test_the_sort_method_sorts_in_place_as_numpy(device):
    x = wf.asarray(X)
    alias = x
    assert x.sort(axis=0) is None
    np.testing.assert_array_equal(alias.to_numpy(), np.sort(X, axis=0))
    whole = wf.asarray(X)
    block = whole[1:3, 2:6]
    block.sort()
    expected = X.copy()
    expected[1:3, 2:6].sort()
    np.testing.assert_array_equal(whole.to_numpy(), expected)


@pytest.mark.parametrize("method", METHODS)
def test_quantile_equals_numpy_for_every_method(device, method):
    names = VALUES if LARGE or method in EVERY_VALUE_METHODS else ("float64", "nan")
    for name in names:
        values = VALUES[name]
        x = wf.asarray(values)
        for q in QUANTILES:
            for axis in (None, 0) + ((1,) if values.ndim == 2 else ()):
                for keepdims in (False, True) if np.ndim(q) == 0 else (False,):
                    with warnings.catch_warnings():  # NumPy's NaN arithmetic warns
                        warnings.simplefilter("ignore", RuntimeWarning)
                        expected = np.quantile(values, q, axis=axis, method=method,
                                               keepdims=keepdims)
                    got = wf.quantile(x, q, axis=axis, method=method, keepdims=keepdims)
                    where = f"{name} q={q} axis={axis} keepdims={keepdims}"
                    assert got.shape == expected.shape, where
                    assert got.dtype == expected.dtype, where
                    _assert_as_numpy(got.to_numpy(), expected, device, values, err_msg=where)


@pytest.mark.parametrize("name", sorted(VALUES))
def test_median_and_percentile_equal_numpy(device, name):
    values = VALUES[name]
    x = wf.asarray(values)
    for axis in (None, 0, -1):
        for keepdims in (False, True):
            expected = np.median(values, axis=axis, keepdims=keepdims)
            for got in (wf.median(x, axis=axis, keepdims=keepdims),
                        np.median(x, axis=axis, keepdims=keepdims)):
                assert isinstance(got, wf.Array)
                assert got.shape == expected.shape and got.dtype == expected.dtype
                _assert_as_numpy(got.to_numpy(), expected, device, values)
    _assert_as_numpy(np.percentile(x, [5, 50, 95], axis=0).to_numpy(),
                     np.percentile(values, [5, 50, 95], axis=0), device, values)
    _assert_as_numpy(np.quantile(x, 0.3, method="hazen").to_numpy(),
                     np.quantile(values, 0.3, method="hazen"), device, values)


def test_sort_and_median_have_gradients(device):
    row = X[0]
    weights = np.arange(8.0)
    g = wf.grad(lambda v: (wf.sort(v) * wf.asarray(weights)).sum())(wf.asarray(row))
    np.testing.assert_array_equal(g.to_numpy(), weights[np.argsort(np.argsort(row))])
    g = wf.grad(lambda v: wf.median(v, axis=1).sum())(wf.asarray(X))
    expected = np.zeros_like(X)
    order = np.argsort(X, axis=1)
    for i in range(X.shape[0]):  # 8 columns: the mean of the two middle values
        expected[i, order[i, 3]] = expected[i, order[i, 4]] = 0.5
    np.testing.assert_array_equal(g.to_numpy(), expected)
    g = wf.grad(lambda v: wf.sort(v, axis=0)[0].sum())(wf.asarray(X))
    np.testing.assert_array_equal(g.to_numpy(), (X == X.min(axis=0)).astype(float))


def test_order_statistics_inside_a_traced_function(device):
    f = wf.function(lambda v, q: wf.quantile(v, q, axis=1))
    for q in (0.25, 0.75):
        np.testing.assert_array_equal(f(wf.asarray(X), q).to_numpy(),
                                      np.quantile(X, q, axis=1))
    np.testing.assert_array_equal(f(wf.asarray(-X), 0.75).to_numpy(),
                                  np.quantile(-X, 0.75, axis=1))


def test_order_statistics_errors():
    x = wf.asarray(X)
    with pytest.raises(ValueError, match=r"q must lie in \[0, 1\]"):
        wf.quantile(x, 1.5)
    with pytest.raises(ValueError, match=r"q must lie in \[0, 100\]"):
        wf.percentile(x, -1)
    with pytest.raises(ValueError, match="'cubic' is not a method"):
        wf.quantile(x, 0.5, method="cubic")
    with pytest.raises(ValueError, match="3 dimensions"):
        wf.quantile(x, [0.1, 0.2], axis=0, keepdims=True)
    with pytest.raises(ValueError, match="empty"):
        wf.median(wf.zeros((0,)))
    with pytest.raises(ValueError, match="out of bounds"):
        wf.sort(x, axis=2)
    with pytest.raises(TypeError, match="weights"):
        np.quantile(x, 0.5, method="inverted_cdf", weights=np.ones(X.shape))
