"""The Jacobi elliptic functions (SciPy's ellipj; skeletons/elliptic_jacobi.py) against
30-digit mpmath across the parameter's range, next to m = 1 where SciPy's expansion fails,
at the edges, in float32, in one kernel, and their gradients in u and m."""

from __future__ import annotations

import functools

import numpy as np
import pytest
import scipy.special as sp

import weft as wf

mpmath = pytest.importorskip("mpmath")

_RNG = np.random.default_rng(11)
U = np.concatenate([_RNG.uniform(-20, 20, 120), [0.0, 1e-300, -1e-8, 0.5, 3.0, 60.0, -45.0]])
M = np.concatenate([_RNG.uniform(0, 1, 120), [0.5, 0.3, 1e-12, 1 - 1e-12, 0.9999, 1e-5, 0.99]])


@functools.cache
def _mpmath_values() -> np.ndarray:
    """sn, cn, dn at (U, M) as rows, to 30 digits."""
    with mpmath.workdps(30):
        return np.array([[float(mpmath.ellipfun(part, u, m=m)) for u, m in zip(U, M)]
                         for part in ("sn", "cn", "dn")])


def _dtype(device) -> type:
    return np.float64 if device.supports_fp64 else np.float32


def test_values_against_mpmath(real_device):
    """sn, cn, dn within about 4 ulps times the number of quarter periods in u (the
    amplitude's absolute error grows with it, as in every method through the amplitude);
    sin(ph) is sn, and ph is SciPy's where SciPy is accurate (m <= 0.99)."""
    dtype = _dtype(real_device)
    u, m = wf.asarray(U.astype(dtype)), wf.asarray(M.astype(dtype))
    outputs = wf.ellipj(u, m)
    wf.eval(*outputs)
    sn, cn, dn, ph = (o.to_numpy() for o in outputs)
    if dtype == np.float32:  # the arguments rounded to float32 move the values
        want = np.array(sp.ellipj(U.astype(np.float32).astype(np.float64),
                                  M.astype(np.float32).astype(np.float64))[:3])
        near_one = M.astype(np.float32) > 0.99
        tolerance = 2e-6 * np.maximum(1, np.abs(U))
    else:
        want = _mpmath_values()
        near_one = np.zeros(U.shape, bool)
        tolerance = 1e-15 * np.maximum(4, np.abs(U))
    for name, got, expected in zip(("sn", "cn", "dn"), (sn, cn, dn), want):
        error = np.abs(got - expected)[~near_one]
        assert np.all(error <= tolerance[~near_one]), name
    np.testing.assert_allclose(np.sin(ph.astype(np.float64)), sn, atol=4 * np.finfo(dtype).eps)
    moderate = M <= 0.99
    scipy_ph = sp.ellipj(U.astype(dtype), M.astype(dtype))[3]
    np.testing.assert_allclose(ph[moderate], scipy_ph[moderate],
                               rtol=1e-13 if dtype == np.float64 else 1e-5, atol=1e-300)


def test_next_to_m_one_where_scipy_fails(real_device):
    """At m = 1 - 1e-12 and u = 100, SciPy's first-order expansion in 1 - m gives
    cn = -3.4e30; the mean converges there and gives mpmath's values. Where the expansion
    holds (1 - m = 2e-15, u = 8.3: the amplitude next to pi/2, where the mean's steps would
    lose digits of cn) weft uses it too."""
    if not real_device.supports_fp64:
        pytest.skip("1 - 1e-12 is 1 in float32")
    u = np.array([100.0, 30.0, -25.0, 8.278603826224938, -5.23])
    m = np.array([1 - 1e-12, 1 - 1e-14, 1 - 1e-9, 1 - 2e-15, 1 - 9.9e-9])
    got = [p.to_numpy() for p in wf.ellipj(wf.asarray(u), wf.asarray(m))][:3]
    with mpmath.workdps(40):
        for part, values in zip(("sn", "cn", "dn"), got):
            want = [float(mpmath.ellipfun(part, a, m=b)) for a, b in zip(u, m)]
            # (the amplitude's absolute error grows with u: 1.5e-14 at u = 100)
            assert np.all(np.abs(values - want) <= 4e-16 * np.abs(u)), part
    assert abs(sp.ellipj(100.0, 1 - 1e-12)[1]) > 1  # (SciPy's failure, which weft avoids)


def test_edges_follow_scipy(real_device):
    """m = 0 gives sin u, cos u, 1, u; m = 1 gives tanh u, sech u, sech u, gd(u); NaN
    for m off [0, 1], infinite u and NaN, as SciPy."""
    dtype = _dtype(real_device)
    u = np.array([0.7, 0.7, -2.0, 40.0, 0.7, 0.7, np.inf, np.nan, 0.7], dtype=dtype)
    m = np.array([0.0, 1.0, 1.0, 1.0, -0.1, 1.1, 0.5, 0.5, np.nan], dtype=dtype)
    got = [p.to_numpy() for p in wf.ellipj(wf.asarray(u), wf.asarray(m))]
    want = sp.ellipj(u, m)
    for name, g, w in zip(("sn", "cn", "dn", "ph"), got, want):
        np.testing.assert_allclose(g, w, rtol=4 * np.finfo(dtype).eps, atol=0, err_msg=name)
        assert g.dtype == dtype


def test_the_four_evaluate_in_one_kernel_with_one_mean(real_device):
    """sn, cn and dn take the amplitude's op as an argument: the kernel calls the mean's
    helper once per element, and the three others on its result."""
    u = wf.asarray(np.linspace(-3, 3, 16).astype(_dtype(real_device)))
    source = wf.kernel_source(*wf.ellipj(u, 0.5))
    assert source.count("__kernel") + source.count("__global__") == 1
    calls = [line for line in source.splitlines() if "= weft_ellipj_" in line]
    assert [c.split("= weft_ellipj_")[1].split("_")[0] for c in calls] == ["ph", "sn", "cn", "dn"]


def test_gradients_against_mpmath(real_device):
    """d/du and d/dm of sn, cn, dn, ph (through the amplitude's slope in m, and its limit
    at m = 0) against mpmath's numerical derivatives."""
    if not real_device.supports_fp64:
        pytest.skip("the reference derivatives need double")
    u = np.array([0.4, 1.7, -2.5, 6.0, 1.1])
    m = np.array([0.3, 0.8, 0.55, 0.1, 0.0])
    with mpmath.workdps(30):
        # (mpmath continues the functions to m < 0, so the differences at m = 0 are central)
        def partial(part, a, b, order):
            value = mpmath.diff(lambda s, t: mpmath.ellipfun(part, s, m=t), (a, b), order)
            return float(mpmath.re(value))

        want = {part: [[partial(part, a, b, order) for a, b in zip(u, m)]
                       for order in ((1, 0), (0, 1))]
                for part in ("sn", "cn", "dn")}
    for k, part in enumerate(("sn", "cn", "dn")):
        du, dm = wf.grad(lambda a, b, k=k: wf.sum(wf.ellipj(a, b)[k]), argnums=(0, 1))(
            wf.asarray(u), wf.asarray(m))
        np.testing.assert_allclose(du.to_numpy(), want[part][0], rtol=1e-11, atol=1e-13,
                                   err_msg=part)
        np.testing.assert_allclose(dm.to_numpy(), want[part][1], rtol=1e-8, atol=1e-10,
                                   err_msg=part)
    # ph: its u-derivative is dn, and its m-derivative makes sn's through cos(ph)
    du, dm = wf.grad(lambda a, b: wf.sum(wf.ellipj(a, b)[3]), argnums=(0, 1))(
        wf.asarray(u), wf.asarray(m))
    cn = np.array([float(mpmath.ellipfun("cn", a, m=b)) for a, b in zip(u, m)])
    dn = np.array([float(mpmath.ellipfun("dn", a, m=b)) for a, b in zip(u, m)])
    np.testing.assert_allclose(du.to_numpy(), dn, rtol=1e-13)
    np.testing.assert_allclose(dm.to_numpy() * cn, want["sn"][1], rtol=1e-8, atol=1e-10)


def test_gradients_in_m_next_to_one(real_device):
    """Next to m = 1 the slope through the amplitude divides by 1 - m; the expansion's
    derivatives take over there and are exact at m = 1 (worst where the two meet: 4e-7
    relative at u = 0.3, 6e-8 at 1.3)."""
    if not real_device.supports_fp64:
        pytest.skip("the reference derivatives need double")
    u = np.array([0.3, 1.3, 1.3, 1.3, 4.0, -2.0])
    m = np.array([1.0, 1.0, 1 - 1e-12, 1 - 1e-9, 1 - 1e-4, 1 - 1e-6])
    for k, part in enumerate(("sn", "cn", "dn")):
        got = wf.grad(lambda b, k=k: wf.sum(wf.ellipj(wf.asarray(u), b)[k]))(
            wf.asarray(m)).to_numpy()
        with mpmath.workdps(40):
            # one-sided at m = 1 (mpmath's continuation beyond 1 is complex)
            want = [float(mpmath.re(mpmath.diff(
                lambda t, a=a, p=part: mpmath.ellipfun(p, a, m=t), b,
                direction=-1 if b == 1 else 0))) for a, b in zip(u, m)]
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-12, err_msg=part)
