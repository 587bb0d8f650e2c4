"""lpmv (skeletons/legendre.py): P_v^m(x) of integer order and integer or real degree
against mpmath, the values weft gives where SciPy's are quirks of its code, and the gradient
in x."""

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


def test_lpmv_non_integer_degree_against_mpmath(real_device):
    """Real degrees to +-1000, orders -5..5, x on [-1, 1] and within 1e-12..0.1 of +-1: within
    1e-11 of 40-digit mpmath relative to the envelope sqrt(P^2 + (2Q/pi)^2) where P oscillates
    (its value where the order is negative). SciPy's worst on such points is 1e1-1e3: its
    recurrence starts below the turning degree near x = -1."""
    rng = np.random.default_rng(21)
    size = 160
    m = rng.integers(-5, 6, size).astype(np.float64)
    v = np.where(rng.random(size) < 0.75, rng.uniform(-60, 60, size),
                 rng.uniform(-1000, 1000, size))
    x = rng.uniform(-1, 1, size)
    near = rng.random(size) < 0.25
    x[near] = np.sign(x[near]) * (1 - 10 ** rng.uniform(-12, -1, near.sum()))
    got = wf.lpmv(wf.asarray(m), wf.asarray(v), wf.asarray(x)).to_numpy()
    want, scale = [], []
    with mpmath.workdps(40):
        for a, b, c in zip(m, v, x):
            p = float(mpmath.legenp(mpmath.mpf(b), int(a), mpmath.mpf(c), type=2))
            q = (float(mpmath.legenq(mpmath.mpf(b), int(a), mpmath.mpf(c), type=2))
                 if a >= 0 else 0.0)
            want.append(p)
            scale.append(max(abs(p), np.hypot(p, 2 * q / np.pi)))
    err = np.abs(got - np.array(want)) / np.array(scale)
    tol = 1e-11 if real_device.supports_fp64 else 1e-4
    assert err.max() < tol, (m[err.argmax()], v[err.argmax()], x[err.argmax()], err.max())


def test_lpmv_edges(device):
    """SciPy's: 0 for m > v, NaN for -m > v and off [-1, 1] for m != 0, P_(-v-1) = P_v;
    weft's own where SciPy's code answers otherwise: NaN at x = NaN, x itself for P_1
    (SciPy: inf at 1e300, -0.0 at 1e-300); at x = -1 a real degree's limit, +-inf (SciPy's
    sign is wrong for P_(1/2)^1 and P_(-1/4)); NaN for a real degree off [-1, 1] (SciPy's
    domain) and a real order."""
    if device.kind == "reference":
        pytest.skip("the reference device answers as SciPy")
    m = np.array([3.0, -3.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5,
                  0.0, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0])
    v = np.array([2.0, 2.0, 2.0, 2.0, -3.0, 3.0, 0.0, 1.0, 1.0, 2.0, 2.0,
                  0.5, 0.5, -0.25, 0.5, 2.5, 0.5, 0.5])
    x = np.array([0.5, 0.5, 1.5, 1.5, 0.5, -np.inf, np.nan, 1e300, 1e-300, np.inf, 0.3,
                  -1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 2.0])
    got = wf.lpmv(wf.asarray(m), wf.asarray(v), wf.asarray(x)).to_numpy()
    want = [0.0, np.nan, np.nan, 2.875, sp.lpmv(0, 2, 0.5), -np.inf, np.nan, 1e300, 1e-300,
            np.inf, np.nan, -np.inf, -np.inf, np.inf, 0.0, 0.0, 1.0, np.nan]
    np.testing.assert_array_equal(got, want)


def test_lpmv_gradient_in_x(device):
    """(n x P_n^m - (n + m) P_(n-1)^m) / (x^2 - 1): integer degrees at |m|, scaled for a
    negative order; real degrees at m, negative ones below -1/2 as P_(-v-1)."""
    m = np.array([0.0, 1.0, 2.0, -2.0, 3.0, -1.0, 0.0, 1.0, -2.0, 3.0, -1.0, 0.0, 4.0])
    v = np.array([5.0, 4.0, 7.0, 7.0, 3.0, -6.0, 0.5, 2.3, 7.7, -4.2, -0.3, -0.7, 30.4])
    x = np.array([0.3, -0.7, 0.2, 0.2, 0.9, 0.45, 0.3, -0.7, 0.2, -0.95, 0.45, 0.9, -0.4])
    got = wf.grad(lambda t: wf.sum(wf.lpmv(wf.asarray(m), wf.asarray(v), t)))(wf.asarray(x))
    with mpmath.workdps(40):
        want = [float(mpmath.diff(lambda t, a=a, b=b: mpmath.legenp(
            mpmath.mpf(float(b)), int(a), t, type=2), mpmath.mpf(float(c))))
            for a, b, c in zip(m, v, x)]
    rtol = 1e-11 if device.supports_fp64 else 1e-4
    np.testing.assert_allclose(got.to_numpy(), want, rtol=rtol)
