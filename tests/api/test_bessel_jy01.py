"""J and Y of orders 0 and 1, and yn, by their fixed-cost forms (skeletons/bessel_jy01.py):
against 30-digit mpmath on both sides of x = 5 where the polynomials meet Hankel's form,
next to the zeros, at tiny and huge arguments, at the edges, for float32, and their
gradients."""

from __future__ import annotations

import functools

import numpy as np
import pytest
import scipy.special as sp

import weft as wf
from weft.skeletons.bessel_jy01 import J0_ZEROS, J1_ZERO

mpmath = pytest.importorskip("mpmath")

_RNG = np.random.default_rng(5)
X = np.concatenate([
    _RNG.uniform(0, 12, 150), np.geomspace(1e-300, 1e-2, 25), np.geomspace(12, 1e300, 40),
    5 + np.array([-1e-12, 0, 1e-12, -1e-3, 1e-3]),
    [0.01, 0.5, 1.0, 2.0, 4.99, 5.01, 8.0, 30.0, 1e3, 1e4, 1e16, 3.3e20]])
FUNCTIONS = (("j0", 0), ("j1", 1), ("y0", 0), ("y1", 1))


@functools.cache
def _mpmath_values(name: str, points: tuple[float, ...]) -> np.ndarray:
    function = mpmath.besselj if name[0] == "j" else mpmath.bessely
    with mpmath.workdps(30):
        return np.array([float(function(int(name[1]), x)) for x in points])


def _dtype(device) -> type:
    return np.float64 if device.supports_fp64 else np.float32


@pytest.mark.parametrize("name,order", FUNCTIONS)
def test_orders_zero_and_one_against_mpmath(real_device, name, order):
    """Within a few ulps of the envelope sqrt(2 / (pi x)) everywhere (absolute next to the
    zeros of Hankel's region), and within a few ulps relative where the function is not
    near a zero."""
    dtype = _dtype(real_device)
    x = X.astype(dtype)
    want = _mpmath_values(name, tuple(x.astype(np.float64).tolist()))
    got = getattr(wf, name)(wf.asarray(x)).to_numpy()
    eps = np.finfo(dtype).eps
    envelope = np.sqrt(2 / (np.pi * np.maximum(x.astype(np.float64), 1)))
    finite = np.isfinite(want) & (np.abs(want) < np.finfo(dtype).max)
    assert finite.sum() > 200
    error = np.abs(got[finite] - want[finite])
    assert np.all(error <= 4 * eps * np.maximum(np.abs(want[finite]), envelope[finite])), name
    away = finite & (np.abs(want) > 0.2 * envelope)
    relative = np.abs(got[away] - want[away]) / np.abs(want[away])
    assert relative.max() <= 16 * eps, name


def test_the_first_zeros_keep_relative_accuracy(real_device):
    """J0 and J1 are factored by their first zeros below x = 5, held as two doubles: next to
    j01 and j11 the values keep a relative accuracy that an absolute error would lose."""
    if not real_device.supports_fp64:
        pytest.skip("the zeros' second parts are below float32's resolution")
    for name, zero in (("j0", J0_ZEROS[0]), ("j1", J1_ZERO)):
        root = zero[0] + zero[1]
        x = root * (1 + np.array([-1e-9, -1e-12, -4e-16, 4e-16, 1e-12, 1e-9]))
        want = _mpmath_values(name, tuple(x.tolist()))
        got = getattr(wf, name)(wf.asarray(x)).to_numpy()
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=0, err_msg=name)


def test_edges_follow_scipy_and_the_limits(real_device):
    """j0 is even and j1 odd; y0 and y1 are NaN below 0 and -inf at 0; all four are 0 at
    +-inf (the limits; SciPy answers NaN there) and NaN at NaN."""
    dtype = _dtype(real_device)
    x = np.array([0.0, -0.0, -2.5, -7.0, np.inf, -np.inf, np.nan], dtype=dtype)
    got = {name: getattr(wf, name)(wf.asarray(x)).to_numpy() for name, _ in FUNCTIONS}
    j0_at, j1_at = sp.j0(2.5), sp.j1(2.5)
    np.testing.assert_allclose(got["j0"][:4], [1, 1, j0_at, sp.j0(7.0)], rtol=1e-5)
    np.testing.assert_allclose(got["j1"][:4], [0, 0, -j1_at, -sp.j1(7.0)], rtol=1e-5)
    for name in ("j0", "j1"):
        assert got[name][4:6].tolist() == [0.0, 0.0] and np.isnan(got[name][6]), name
    for name in ("y0", "y1"):
        assert got[name][:2].tolist() == [-np.inf, -np.inf], name
        assert np.isnan(got[name][2:4]).all() and np.isnan(got[name][5:]).all(), name
        assert got[name][4] == 0.0, name


def test_yn_by_the_forward_recurrence(real_device):
    """yn truncates its order toward zero, Y_-n = (-1)^n Y_n, and Y overflowing at tiny x
    stays -inf (or +inf for a negative odd order); orders beyond 2^20 take the general
    algorithm."""
    dtype = _dtype(real_device)
    n = np.repeat(np.arange(-12, 41, dtype=np.float64), 5)
    x = np.tile([1e-9, 0.7, 5.0, 13.0, 60.0], n.size // 5)
    n = np.concatenate([n, [2.9, -3.7, 0.0, -3.0, 3.0, 200.0, 2.0**21]])
    x = np.concatenate([x, [4.0, 4.0, 0.0, 0.0, np.inf, 1e-5, 1e3]])
    got = wf.yn(wf.asarray(n.astype(dtype)), wf.asarray(x.astype(dtype))).to_numpy()
    want = sp.yn(np.trunc(n).astype(int), x.astype(dtype).astype(np.float64))
    want[-3] = 0.0  # Y at +inf: the limit (SciPy: NaN)
    infinite = np.isinf(want)
    assert infinite.sum() >= 10
    assert np.array_equal(got[infinite], want[infinite])
    rtol = 1e-13 if dtype == np.float64 else 2e-5
    # Next to a zero, relative to the envelope sqrt(2 / (pi x)) (SciPy's own error there
    # is 1e-13 of the value at n = 34, x = 60).
    envelope = np.sqrt(2 / (np.pi * np.maximum(x, 1)))
    error = np.abs(got[~infinite] - want[~infinite])
    assert np.all(error <= rtol * np.maximum(np.abs(want[~infinite]), envelope[~infinite]))


def test_gradients(real_device):
    """d/dx: J0' = -J1, J1' = J0 - J1 / x (1/2 at 0), Y0' = -Y1, Y1' = Y0 - Y1 / x, and
    yn's (Y_(n-1) - Y_(n+1)) / 2, against SciPy's jvp and yvp."""
    dtype = _dtype(real_device)
    x = np.array([0.0, 1e-3, 0.9, 3.0, 5.0, 7.5, 40.0], dtype=dtype)
    rtol = 1e-12 if dtype == np.float64 else 2e-5
    for name, order in FUNCTIONS:
        start = 0 if name[0] == "j" else 1
        got = wf.grad(lambda t, name=name: wf.sum(getattr(wf, name)(t)))(
            wf.asarray(x[start:])).to_numpy()
        derivative = sp.jvp if name[0] == "j" else sp.yvp
        want = derivative(order, x[start:].astype(np.float64))
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-15, err_msg=name)
    n = np.array([0.0, 1.0, 3.0, -4.0, 7.0], dtype=dtype)
    at = x[2:].astype(dtype)
    got = wf.grad(lambda t: wf.sum(wf.yn(wf.asarray(n), t)))(wf.asarray(at)).to_numpy()
    np.testing.assert_allclose(got, sp.yvp(n, at.astype(np.float64)), rtol=rtol)


def test_the_kernels_are_fixed_cost(real_device):
    """Orders 0 and 1 do not reach the general algorithm (whose loops run about x terms and
    diverge across a GPU's warp); yn reaches it only beyond order 2^20."""
    x = wf.asarray(np.linspace(0.5, 30, 8).astype(_dtype(real_device)))
    for name, _ in FUNCTIONS:
        source = wf.kernel_source(getattr(wf, name)(x))
        assert "weft_bessel_jy01_" in source and "weft_bessel_jy_" not in source, name
