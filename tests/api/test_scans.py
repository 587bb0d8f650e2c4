"""Scans (API.md 14) against NumPy: cumsum, cumprod, cummax, cummin, logcumsumexp along every
axis, over rows long enough to be split across the device, through NumPy's functions and
ufunc accumulate, in place and in traced functions; gradients."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import weft as wf

RNG = np.random.default_rng(12)
REFERENCE = {"cumsum": np.cumsum, "cumprod": np.cumprod, "cummax": np.maximum.accumulate,
             "cummin": np.minimum.accumulate, "logcumsumexp": np.logaddexp.accumulate}
NAN = np.array([[1.0, np.nan, 3.0, 0.5], [2.0, 1.0, 0.0, 5.0]])
VALUES = {
    "matrix": RNG.uniform(0.5, 1.5, (5, 40)), "vector": RNG.uniform(0.9, 1.1, 37),
    "tall": RNG.standard_normal((300, 3)), "int64": RNG.integers(-5, 5, (7, 300)),
    "int32": RNG.integers(-5, 5, 50).astype(np.int32), "bool": RNG.uniform(size=(4, 20)) > 0.5,
    "float32": RNG.uniform(0.5, 1.5, (3, 70)).astype(np.float32), "nan": NAN,
    "three levels": RNG.uniform(0.99, 1.01, 5000),
}


def _expected(name: str, values: np.ndarray, axis: int | None) -> np.ndarray:
    if name == "logcumsumexp" and values.dtype.kind != "f":
        values = values.astype(np.float64)
    if axis is None:
        values, axis = values.ravel(), 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return REFERENCE[name](values, axis=axis)


# Each dtype compiles its own kernels: every scan meets the float64 values; the integer,
# bool and float32 ones meet the scans whose identities or rounding they test (all of them
# with WEFT_TEST_PROFILE=large).
LARGE = os.environ.get("WEFT_TEST_PROFILE") == "large"
OTHER_DTYPES = {"int64": ("cumsum", "cummax", "cumprod"), "int32": ("cumsum", "cummin"),
                "bool": ("cumsum", "cummax"), "float32": ("cumsum", "logcumsumexp")}


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_scans_match_numpy(device, name):
    for label, values in VALUES.items():
        if not LARGE and name not in OTHER_DTYPES.get(label, REFERENCE):
            continue
        x = wf.asarray(values)
        for axis in (None, 0, -1) + ((1,) if values.ndim == 2 else ()):
            expected = _expected(name, values, axis)
            got = getattr(wf, name)(x, axis=axis)
            where = f"{name} of {label} along {axis}"
            assert got.device is device and got.shape == expected.shape, where
            assert got.dtype == expected.dtype, where
            if values.dtype == np.float32:  # blocked sums round otherwise than NumPy's loop
                np.testing.assert_allclose(got.to_numpy(), expected, rtol=2e-6, err_msg=where)
            else:
                np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-12, atol=1e-12,
                                           err_msg=where)


def test_scans_through_numpy_and_as_methods(device):
    values = VALUES["matrix"]
    x = wf.asarray(values)
    for got, expected in ((np.cumsum(x, axis=1), np.cumsum(values, axis=1)),
                          (np.cumprod(x), np.cumprod(values)),
                          (np.add.accumulate(x), np.add.accumulate(values)),
                          (np.maximum.accumulate(x, axis=1),
                           np.maximum.accumulate(values, axis=1)),
                          (np.logaddexp.accumulate(x), np.logaddexp.accumulate(values)),
                          (np.maximum.accumulate(x, dtype=np.float32),
                           np.maximum.accumulate(values, dtype=np.float32)),
                          (x.cumsum(axis=0), values.cumsum(axis=0)),
                          (x.cumprod(dtype=np.float32), values.cumprod(dtype=np.float32)),
                          (wf.cumsum(wf.asarray([True, True, False])), np.array([1, 2, 2]))):
        assert isinstance(got, wf.Array)
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-6)


def test_scans_fuse_with_their_producer_and_consumer(device):
    values = VALUES["matrix"]
    x = wf.asarray(values)
    walk = wf.cumsum(wf.exp(x) - 1.0, axis=1) * 2.0
    np.testing.assert_allclose(walk.to_numpy(), np.cumsum(np.exp(values) - 1, axis=1) * 2,
                               rtol=1e-12)


LONG = 100_003  # rows this long are split across the device's tasks (three passes)


def test_long_rows_split_across_the_device(device):
    row = RNG.uniform(-1.0, 1.0, LONG)
    x = wf.asarray(row)
    np.testing.assert_allclose(wf.logcumsumexp(x).to_numpy(), np.logaddexp.accumulate(row),
                               rtol=1e-10)
    # Two rows along axis 1, and down two columns (axis 0), widened from int32 as loaded.
    ints = RNG.integers(-3, 4, (2, LONG // 2)).astype(np.int32)
    got = wf.cumsum(wf.asarray(ints), axis=1)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.to_numpy(), np.cumsum(ints, axis=1))
    np.testing.assert_array_equal(wf.cummin(wf.asarray(ints.T), axis=0).to_numpy(),
                                  np.minimum.accumulate(ints.T, axis=0))
    # float32 sums run in float64 where the device has it: as close to the exact sums as
    # float32 holds them (NumPy's own float32 loop drifts further).
    single = row.astype(np.float32)
    exact = np.cumsum(single.astype(np.float64))
    got32 = wf.cumsum(wf.asarray(single)).to_numpy()
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32, exact, rtol=1e-6, atol=1e-4)


def test_scans_write_in_place_and_record_in_traced_functions(device):
    values = RNG.uniform(size=50)
    x = wf.asarray(values)
    x[:] = wf.cumsum(x)  # the scan reads what it overwrites: it goes through a temporary
    np.testing.assert_allclose(x.to_numpy(), np.cumsum(values), rtol=1e-12)
    y = wf.asarray(values)
    y[::-1] = wf.cummax(y)
    np.testing.assert_array_equal(y.to_numpy(), np.maximum.accumulate(values)[::-1])

    @wf.function
    def walk_end(steps, scale):
        return wf.cumsum(steps * scale)[-1]

    for scale in (1.0, 2.5):
        expected = np.cumsum(values * scale)[-1]
        assert float(walk_end(wf.asarray(values), scale)) == pytest.approx(expected, rel=1e-12)


def test_a_scans_gradient_records_in_a_traced_function(device):
    from weft.function import _PLAIN

    steps = RNG.standard_normal(200)

    @wf.function
    def walk_and_grad(s, scale):
        return wf.value_and_grad(lambda v: (wf.cumsum(v * scale) ** 2).sum())(s)

    for scale in (0.5, 1.5, 2.0):
        value, grad = walk_and_grad(wf.asarray(steps), scale)
        path = np.cumsum(steps * scale)
        assert float(value) == pytest.approx((path ** 2).sum(), rel=1e-12)
        np.testing.assert_allclose(grad.to_numpy(), 2 * scale * np.cumsum(path[::-1])[::-1],
                                   rtol=1e-12)
    assert walk_and_grad.plans and _PLAIN not in walk_and_grad.plans.values()


GRADIENT_POINTS = {
    "cumsum": RNG.uniform(0.5, 1.5, (3, 20)),
    "cumprod": np.array([[1.5, 0.5, 0.0, 2.0, 0.0, 1.2, 0.8],  # a row's first 0 and a second
                         [1.1, 0.9, 1.3, 0.7, 1.0, 1.2, 0.8]]),
    "logcumsumexp": RNG.normal(size=(3, 20)),
    "cummax": np.array([[1.0, 3.0, 2.0, 3.5, 5.0, 4.0, 6.0, 1.0],  # no ties: differentiable
                        [0.0, -1.0, 2.2, 2.5, 1.0, 3.0, 0.5, 4.0]]),
    "cummin": RNG.normal(size=(2, 40)),
}


def _finite_difference(loss, values: np.ndarray, step: float = 1e-6) -> np.ndarray:
    numeric = np.empty_like(values)
    for k in np.ndindex(values.shape):
        up, down = values.copy(), values.copy()
        up[k] += step
        down[k] -= step
        numeric[k] = (float(loss(wf.asarray(up))) - float(loss(wf.asarray(down)))) / (2 * step)
    return numeric


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_scan_gradients_match_finite_differences(device, name):
    values = GRADIENT_POINTS[name]
    for axis in (1, 0):
        w = wf.asarray(RNG.standard_normal(values.shape))

        def loss(v, axis=axis, w=w):
            return (getattr(wf, name)(v, axis=axis) * w).sum()

        g = wf.grad(loss)(wf.asarray(values)).to_numpy()
        np.testing.assert_allclose(g, _finite_difference(loss, values), rtol=1e-5, atol=1e-7,
                                   err_msg=f"{name} along {axis}")


def test_cumsum_gradient_is_the_reversed_cumsum(device):
    weights = RNG.standard_normal(40)
    w = wf.asarray(weights)
    g = wf.grad(lambda v: (wf.cumsum(v) * w).sum())(wf.asarray(RNG.uniform(size=40)))
    np.testing.assert_allclose(g.to_numpy(), np.cumsum(weights[::-1])[::-1], rtol=1e-12)


def test_cummax_gradient_goes_to_the_element_copied(device):
    values = np.array([1.0, 3.0, 2.0, 3.0, np.nan, 4.0])
    g = wf.grad(lambda v: wf.cummax(v).sum())(wf.asarray(values)).to_numpy()
    # outputs 1, 3, 3, 3, nan, nan copy elements 0, 1, 1, 3 (the latest tie), 4, 4
    np.testing.assert_array_equal(g, [1.0, 2.0, 0.0, 1.0, 2.0, 0.0])


def test_scan_errors_and_edges():
    with pytest.raises(ValueError, match="out of bounds"):
        wf.cumsum(wf.asarray(VALUES["matrix"]), axis=2)
    with pytest.raises(TypeError, match="axis must be None or an integer"):
        wf.cummax(wf.asarray(VALUES["matrix"]), axis=(0, 1))
    assert wf.cumsum(wf.asarray(2.5)).tolist() == [2.5]
    assert wf.cumsum(wf.zeros((0,))).shape == (0,)
    with pytest.raises(TypeError, match="accumulate"):
        np.subtract.accumulate(wf.asarray([1.0, 2.0]))
