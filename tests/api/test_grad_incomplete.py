"""The incomplete gamma and beta functions' gradients in their shape parameters (and their
inverses'), against mpmath at 256 bits: across P's series, Q's continued fraction, Temme's
expansion from a = 1e6, deep tails (relative accuracy where P or Q is 1e-266), the limit
a -> 0, ibeta's continued fraction on both sides of the mean, and float32; the inverses
against central differences of SciPy's; the SciPy-style distribution functions through
them. The comparisons with mpmath run on the compiling devices: the reference device's
derivatives are mpmath's (its edges are checked here too)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from scipy import special

import weft as wf
from weft.incomplete_derivative import gamma_p_da_reference, ibeta_da_reference, ibeta_db_reference

pytest.importorskip("mpmath")


@functools.cache
def gamma_points() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, x, dP/da from mpmath)."""
    rng = np.random.default_rng(5)
    a = np.exp(rng.uniform(np.log(0.01), np.log(5e4), 40))
    x = a * np.exp(rng.uniform(-1.5, 1.5, 40))  # far into both tails for large a
    a = np.concatenate([a, [0.0, 0.0, 1e-8, 0.5, 1.0, 3.0, 20.0, 100.0, 1e4, 2e6, 2e6, 2e6,
                            5e6, 9.5, 10.5]])
    x = np.concatenate([x, [0.5, 3.0, 2.0, 0.3, 2.0, 4.5, 20.0, 130.0, 1e4 + 50, 2e6,
                            2e6 + 1500, 2e6 - 3000, 5e6 + 100, 10.0, 10.0]])
    return a, x, gamma_p_da_reference(a, x)


@functools.cache
def beta_points() -> tuple[np.ndarray, ...]:
    """(a, b, x, dI/da, dI/db from mpmath)."""
    rng = np.random.default_rng(7)
    a = np.exp(rng.uniform(np.log(0.05), np.log(3e3), 30))
    b = np.exp(rng.uniform(np.log(0.05), np.log(3e3), 30))
    x = np.clip(a / (a + b) * np.exp(rng.uniform(-0.5, 0.5, 30)), 1e-6, 1 - 1e-6)
    # Then: the truncating fraction (b = 1), tails on either side, large a with small b
    # (where the value takes DiDonato and Morris's expansion), both large near the mean.
    a = np.concatenate([a, [1.0, 2.0, 0.5, 20.0, 1e5, 1e5, 5e4, 2500, 2500, 0.01, 5.0, 968.0]])
    b = np.concatenate([b, [1.0, 3.0, 0.5, 2.0, 10.0, 3.5, 150.0, 2500, 2500, 0.01, 0.001, 56.0]])
    x = np.concatenate([x, [0.3, 0.5, 0.99, 0.93, 0.99985, 0.99995, 0.997, 0.5, 0.505, 0.5,
                            0.3, 0.999999]])
    return a, b, x, ibeta_da_reference(a, b, x), ibeta_db_reference(a, b, x)


def test_gamma_p_and_q_in_a_against_mpmath(real_device):
    a, x, want = gamma_points()
    at = wf.asarray(x)
    dp = wf.grad(lambda a: wf.gamma_p(a, at).sum())(wf.asarray(a)).to_numpy()
    dq = wf.grad(lambda a: wf.gamma_q(a, at).sum())(wf.asarray(a)).to_numpy()
    assert np.all(want <= 0) and np.min(np.abs(want[want != 0])) < 1e-200  # (tails: relative)
    np.testing.assert_allclose(dp, want, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(dq, -dp)
    # The limit a -> 0: -E1(x).
    np.testing.assert_allclose(dp[a == 0], -special.exp1(x[a == 0]), rtol=1e-13)


def test_gamma_p_in_a_float32(real_device):
    a, x, _ = gamma_points()
    keep = a < 1e6  # (float32 holds 2e6 + 1500 only to 0.25)
    a32, x32 = a[keep].astype(np.float32), x[keep].astype(np.float32)
    got = wf.grad(lambda a: wf.gamma_p(a, wf.asarray(x32)).sum())(wf.asarray(a32)).to_numpy()
    want = gamma_p_da_reference(a32.astype(np.float64), x32.astype(np.float64))
    assert got.dtype == np.float32
    normal = np.abs(want) >= np.finfo(np.float32).tiny
    np.testing.assert_allclose(got[normal], want[normal], rtol=2e-6)
    assert np.all(np.abs(got[~normal]) <= 2 * np.finfo(np.float32).tiny)


def test_gamma_p_in_a_at_the_edges(device):
    a = wf.asarray([-1.0, 2.0, np.inf, 2.0, np.nan, 0.0])
    x = wf.asarray([1.0, 0.0, 3.0, np.inf, 1.0, 0.0])
    got = wf.grad(lambda a: wf.gamma_p(a, x).sum())(a).to_numpy()
    assert np.isnan(got[0]) and got[1] == 0 and got[2] == 0 and got[3] == 0
    assert np.isnan(got[4]) and np.isnan(got[5])


def test_ibeta_in_a_and_b_against_mpmath(real_device):
    a, b, x, want_a, want_b = beta_points()
    da, db = wf.grad(lambda a, b: wf.ibeta(a, b, wf.asarray(x)).sum(), argnums=(0, 1))(
        wf.asarray(a), wf.asarray(b))
    assert np.all(want_a < 0) and np.all(want_b > 0)
    np.testing.assert_allclose(da.to_numpy(), want_a, rtol=2e-11, atol=0)
    np.testing.assert_allclose(db.to_numpy(), want_b, rtol=2e-11, atol=0)
    a32, b32, x32 = (v.astype(np.float32) for v in (a, b, x))
    da32 = wf.grad(lambda a: wf.ibeta(a, wf.asarray(b32), wf.asarray(x32)).sum())(
        wf.asarray(a32)).to_numpy()
    want32 = ibeta_da_reference(*(v.astype(np.float64) for v in (a32, b32, x32)))
    normal = np.abs(want32) >= np.finfo(np.float32).tiny
    assert da32.dtype == np.float32
    np.testing.assert_allclose(da32[normal], want32[normal], rtol=2e-6)


def test_ibeta_in_a_and_b_at_the_edges(device):
    a = wf.asarray([0.0, 2.0, 2.0, np.inf, -1.0, 2.0])
    b = wf.asarray([2.0, 3.0, 3.0, 3.0, 3.0, np.nan])
    x = wf.asarray([0.5, 0.0, 1.0, 0.5, 0.5, 0.5])
    da, db = wf.grad(lambda a, b: wf.ibeta(a, b, x).sum(), argnums=(0, 1))(a, b)
    for got in (da.to_numpy(), db.to_numpy()):
        assert np.isnan(got[0]) and got[1] == 0 and got[2] == 0 and got[3] == 0
        assert np.isnan(got[4]) and np.isnan(got[5])


def _central(fn, x: np.ndarray) -> np.ndarray:
    h = 1e-6 * np.maximum(1.0, np.abs(x))
    return (fn(x + h) - fn(x - h)) / (2 * h)


def test_inverse_functions_in_their_shape_parameters(real_device):
    rng = np.random.default_rng(11)
    a, b = rng.uniform(0.5, 30, 12), rng.uniform(0.5, 30, 12)
    p = rng.uniform(0.02, 0.98, 12)
    pa, bb, pp = wf.asarray(a), wf.asarray(b), wf.asarray(p)
    for name, scipy_fn in (("gamma_p_inv", special.gammaincinv),
                           ("gamma_q_inv", special.gammainccinv)):
        got = wf.grad(lambda a, name=name: getattr(wf, name)(a, pp).sum())(pa).to_numpy()
        want = _central(lambda s, f=scipy_fn: f(s, p), a)
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=name)
    for name, scipy_fn in (("ibeta_inv", special.betaincinv),
                           ("ibetac_inv", special.betainccinv)):
        da, db = wf.grad(lambda a, b, name=name: getattr(wf, name)(a, b, pp).sum(),
                         argnums=(0, 1))(pa, bb)
        np.testing.assert_allclose(da.to_numpy(), _central(lambda s, f=scipy_fn: f(s, b, p), a),
                                   rtol=1e-6, err_msg=name)
        np.testing.assert_allclose(db.to_numpy(), _central(lambda s, f=scipy_fn: f(a, s, p), b),
                                   rtol=1e-6, err_msg=name)


def test_distribution_functions_in_their_shape_parameters(real_device):
    """The SciPy-style CDFs built on them: a censored gamma or chi-square model's gradient."""
    rng = np.random.default_rng(12)
    shape, x = rng.uniform(0.5, 8, 10), rng.uniform(0.2, 10, 10)
    got = wf.grad(lambda s: wf.log(wf.gdtrc(1.5, s, wf.asarray(x))).sum())(
        wf.asarray(shape)).to_numpy()
    want = _central(lambda s: np.log(special.gdtrc(1.5, s, x)), shape)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    got = wf.grad(lambda v: wf.chdtr(v, wf.asarray(x)).sum())(wf.asarray(shape)).to_numpy()
    np.testing.assert_allclose(got, _central(lambda v: special.chdtr(v, x), shape), rtol=1e-6)
    dfn, dfd = rng.uniform(1, 20, 10), rng.uniform(1, 20, 10)
    got = wf.grad(lambda n: wf.fdtr(n, wf.asarray(dfd), wf.asarray(x)).sum())(
        wf.asarray(dfn)).to_numpy()
    # (a central difference of values near 1 is good to about 1e-10 absolute)
    np.testing.assert_allclose(got, _central(lambda n: special.fdtr(n, dfd, x), dfn),
                               rtol=1e-6, atol=1e-9)
