"""SciPy's spherical Bessel functions (spherical_jn, spherical_yn, spherical_in and
spherical_kn; weft's spherical_bessel.py) against SciPy on a grid of orders and arguments with
its edges, with derivative=, float32, truncated real orders, and the gradient in z."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sp

import weft as wf

NAMES = ("spherical_jn", "spherical_yn", "spherical_in", "spherical_kn")
ORDERS = np.arange(-1, 31)[:, None]
# (Below 1e-8 SciPy's j_n and i_n underflow early: test_tiny_arguments_against_mpmath.)
Z = np.concatenate([np.linspace(-40, 40, 161), np.geomspace(1e-6, 1e3, 40),
                    [0.0, np.inf, -np.inf, np.nan, 1e-7]])[None, :]


def _scipy(name: str, n, z, derivative: bool = False) -> np.ndarray:
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(n, z, derivative=derivative)
    if name == "spherical_kn":  # (SciPy: the real part of a complex value; weft: NaN)
        want = np.where(z < 0, np.nan, want)
    # SciPy's j_n'(0) is 0 for n < 0 too (weft: NaN, as for every other z).
    return np.where(np.asarray(n) < 0, np.nan, want)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("derivative", [False, True])
def test_matches_scipy_on_a_grid(device, name, derivative):
    """Within 1e-12 relative, or 1e-14 absolute near the zeros (the functions are at most 1
    there); NaN, inf and 0 where SciPy has them."""
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    got = getattr(wf, name)(wf.asarray(ORDERS), wf.asarray(Z), derivative=derivative)
    got = got.to_numpy()
    want = _scipy(name, ORDERS, Z, derivative)
    assert got.shape == want.shape and got.dtype == np.float64
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[np.isinf(want)], want[np.isinf(want)])
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-12, atol=1e-14)


def test_orders_are_truncated_and_negative_orders_are_nan(device):
    z = wf.asarray([1.5, 1.5, 1.5])
    got = wf.spherical_jn(wf.asarray([1.7, 2.0, -1.0]), z).to_numpy()
    want = [sp.spherical_jn(1, 1.5), sp.spherical_jn(2, 1.5), np.nan]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_float32_arguments_give_scipy_doubles(device):
    """SciPy's loops are double only: float32 and integer arguments give float64 (float32 on
    a device without doubles)."""
    z = np.linspace(0.1, 30, 200).astype(np.float32)
    for name in NAMES:
        got = getattr(wf, name)(wf.asarray(np.int32(3)), wf.asarray(z)).to_numpy()
        assert got.dtype == (np.float64 if device.supports_fp64 else np.float32)
        want = _scipy(name, 3, z.astype(np.float64))
        np.testing.assert_allclose(got, want, rtol=1e-12 if device.supports_fp64 else 3e-6,
                                   atol=1e-14 if device.supports_fp64 else 1e-7)


def test_gradient_in_z_is_the_derivative(device):
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    z = np.array([0.3, 1.0, 4.5, 12.0, -2.5, 40.0])
    for name in NAMES:
        function = getattr(wf, name)
        for n in (0, 1, 2, 7):
            at = np.abs(z) if name == "spherical_kn" else z
            got = wf.grad(lambda t, f=function, n=n: wf.sum(f(n, t)))(wf.asarray(at))
            np.testing.assert_allclose(got.to_numpy(), _scipy(name, n, at, derivative=True),
                                       rtol=1e-12, atol=1e-15, err_msg=f"{name} n={n}")


def test_tiny_arguments_against_mpmath(device):
    """Below z = 1e-8 j_n and i_n take their series' two terms (C_(n + 1/2) alone would
    underflow first: SciPy's j_1(1e-300) is 0, its i_0(1e-300) 0 and its j_1'(1e-300) 1)."""
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    mpmath = pytest.importorskip("mpmath")
    n = np.array([0, 1, 2, 5, 0, 1, 3, 1])
    z = np.array([1e-300, 1e-300, 1e-150, 1e-20, -1e-9, -1e-300, 3e-9, 1e-200])
    cylinder = {"spherical_jn": mpmath.besselj, "spherical_in": mpmath.besseli}
    for name, function in cylinder.items():
        def exact(order, t, f=function):
            return mpmath.sqrt(mpmath.pi / (2 * t)) * f(order + 0.5, t)
        def slope(order, t, name=name, exact=exact):
            # c_n' = c_(n-1) - (n + 1) / t c_n; c_0' = -+c_1 (j, i)
            if order == 0:
                return exact(1, t) * (-1 if name == "spherical_jn" else 1)
            return exact(order - 1, t) - (order + 1) / t * exact(order, t)

        with mpmath.workdps(40):
            values = [exact(int(a), mpmath.mpf(abs(b))) * (-1 if b < 0 and a % 2 else 1)
                      for a, b in zip(n, z)]
            slopes = [slope(int(a), mpmath.mpf(abs(b))) * (-1 if b < 0 and a % 2 == 0 else 1)
                      for a, b in zip(n, z)]
        function = getattr(wf, name)
        got = wf.eval(*(function(wf.asarray(n), wf.asarray(z), derivative=derivative)
                        for derivative in (False, True)))  # (one kernel)
        for derivative, want, result in ((False, values, got[0]), (True, slopes, got[1])):
            np.testing.assert_allclose(result.to_numpy(), [float(w) for w in want],
                                       rtol=1e-14, atol=0,
                                       err_msg=f"{name} derivative={derivative}")


def test_high_orders_against_mpmath(device):
    """The recurrences over hundreds of orders: upward (x > n for j_n, every x for y_n) and,
    for j_n at x <= n, downward (Miller's algorithm) up to the turning point x = n: within
    1e-13 of 50-digit values away from the zeros."""
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    mpmath = pytest.importorskip("mpmath")
    turning = [(k, x) for k in (1, 2, 5, 9, 30, 68, 500)
               for x in (k, 0.98 * k, 0.5 * k, 2e-6 * k)]
    n = np.array([50, 50, 200, 200, 200, 200, 1000, 1000, 3, 3, *(k for k, _ in turning)])
    z = np.array([10.0, 60.0, 150.0, 201.0, 250.0, 1000.0, 1001.0, 5000.0, 1e5, 3.0001,
                  *(x for _, x in turning)])
    for name, cylinder in (("spherical_jn", mpmath.besselj), ("spherical_yn", mpmath.bessely)):
        got = getattr(wf, name)(wf.asarray(n), wf.asarray(z)).to_numpy()
        with mpmath.workdps(50):
            want = [float(mpmath.sqrt(mpmath.pi / (2 * mpmath.mpf(b)))
                          * cylinder(int(a) + mpmath.mpf(0.5), mpmath.mpf(b)))
                    for a, b in zip(n, z)]
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=0, err_msg=name)
