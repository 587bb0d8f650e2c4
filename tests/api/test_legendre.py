"""lpmv (skeletons/legendre.py): P_v^m(x) of integer order and degree against mpmath, the
values weft gives where SciPy's are quirks of its code, and the gradient in x."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sp

import weft as wf

mpmath = pytest.importorskip("mpmath")


def test_lpmv_against_mpmath(real_device):
    """CuPy's test grid (orders 0-4, degrees to 50 on [-1, 1]) and negative orders and
    degrees: within 1e-12 relative, or 1e-12 absolute where P is near 0."""
    rng = np.random.default_rng(14)
    m = rng.integers(-4, 5, 300).astype(np.float64)
    v = rng.integers(-50, 51, 300).astype(np.float64)
    x = rng.uniform(-1, 1, 300)
    got = wf.lpmv(wf.asarray(m), wf.asarray(v), wf.asarray(x)).to_numpy()
    with mpmath.workdps(40):
        want = []
        for a, b, c in zip(m, v, x):
            n = -b - 1 if b < 0 else b
            want.append(0.0 if abs(a) > n and a > 0 else np.nan if abs(a) > n else float(
                mpmath.legenp(int(n), int(a), mpmath.mpf(float(c)), type=2)))
    want = np.array(want)
    rtol = 1e-12 if real_device.supports_fp64 else 1e-5
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


def test_lpmv_edges(device):
    """SciPy's: 0 for m > v, NaN for -m > v and off [-1, 1] for m != 0, P_(-v-1) = P_v;
    weft's own where SciPy's code answers otherwise: NaN at x = NaN, x itself for P_1
    (SciPy: inf at 1e300, -0.0 at 1e-300), NaN for a non-integer degree."""
    if device.kind == "reference":
        pytest.skip("the reference device answers as SciPy")
    m = np.array([3.0, -3.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5])
    v = np.array([2.0, 2.0, 2.0, 2.0, -3.0, 3.0, 0.0, 1.0, 1.0, 2.0, 2.5, 2.0])
    x = np.array([0.5, 0.5, 1.5, 1.5, 0.5, -np.inf, np.nan, 1e300, 1e-300, np.inf, 0.3, 0.3])
    got = wf.lpmv(wf.asarray(m), wf.asarray(v), wf.asarray(x)).to_numpy()
    want = [0.0, np.nan, np.nan, 2.875, sp.lpmv(0, 2, 0.5), -np.inf, np.nan, 1e300, 1e-300,
            np.inf, np.nan, np.nan]
    np.testing.assert_array_equal(got, want)


def test_lpmv_gradient_in_x(device):
    """(n x P_n^k - (n + k) P_(n-1)^k) / (x^2 - 1), scaled for a negative order."""
    m = np.array([0.0, 1.0, 2.0, -2.0, 3.0, -1.0])
    v = np.array([5.0, 4.0, 7.0, 7.0, 3.0, -6.0])
    x = np.array([0.3, -0.7, 0.2, 0.2, 0.9, 0.45])
    got = wf.grad(lambda t: wf.sum(wf.lpmv(wf.asarray(m), wf.asarray(v), t)))(wf.asarray(x))
    with mpmath.workdps(40):
        want = [float(mpmath.diff(lambda t, a=a, b=b: mpmath.legenp(
            int(-b - 1 if b < 0 else b), int(a), t, type=2), mpmath.mpf(float(c))))
            for a, b, c in zip(m, v, x)]
    rtol = 1e-11 if device.supports_fp64 else 1e-4
    np.testing.assert_allclose(got.to_numpy(), want, rtol=rtol)
