"""Special functions against SciPy on dense grids, extreme arguments and edge cases, on every
device; the tolerances are the issue's (float64 1e-12 relative, float32 5e-6) with the
absolute floors docs/special.md explains (near a function's zeros, and float32's deepest
tails)."""

from __future__ import annotations

import os
import zlib

import numpy as np
import pytest
from scipy import special

import weft as wf
from weft.ops import OPS, SPECIAL_FUNCTIONS
from weft.skeletons.special import THROUGH_DOUBLE

NAMES = [name for name, *_ in SPECIAL_FUNCTIONS]
EDGES = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -2.5, 1e-300,
                  1e300, -1e300])
PROBABILITIES = np.concatenate([np.linspace(0, 1, 4001), np.geomspace(1e-300, 0.5, 1000),
                                1 - np.geomspace(1e-16, 0.5, 1000)])
REALS = np.concatenate([np.linspace(-30, 30, 6001), np.geomspace(1e-300, 1e300, 600),
                        -np.geomspace(1e-300, 1e300, 600)])
# Absolute floors: where a function crosses zero, a relative error has no meaning within
# rounding of the terms that cancel; lchoose's reference (gammaln differences up to n = 200)
# is itself only good to about 1e-13 (docs/special.md).
FLOOR64 = {"lgamma": 1e-15, "lfact": 1e-15, "lbeta": 1e-14, "lchoose": 5e-13,
           "digamma": 1e-15, "ci": 1e-15, **dict.fromkeys(("jv", "yv", "yn", "j0", "j1", "y0",
                                                           "y1"), 1e-14)}
FLOOR32 = {"lgamma": 3e-7, "lfact": 3e-7, "lbeta": 1e-5, "lchoose": 2e-4, "digamma": 1e-6,
           "Phi": 1e-30, "erfc": 1e-30, "log_diff_exp": 1e-7, "ci": 1e-7,
           **dict.fromkeys(("jv", "yv", "yn", "j0", "j1", "y0", "y1"), 1e-7)}


def _grid(name: str) -> list[np.ndarray]:
    rng = np.random.default_rng(zlib.crc32(name.encode()))  # the same grid in every run
    if name in ("logit", "inv_Phi"):
        return [PROBABILITIES]
    if name == "erfinv":
        return [PROBABILITIES * 2 - 1]
    if name == "trigamma":  # SciPy's polygamma is very slow for huge negative arguments
        return [REALS[np.abs(REALS) < 1e6]]
    if name == "zeta":
        # s > 1 (SciPy's domain) with q > 0; integer s with negative non-integer q.
        s = np.concatenate([rng.uniform(1, 40, 2000), np.geomspace(1 + 1e-10, 1e3, 1000),
                            rng.integers(2, 12, 1000)])
        q = np.concatenate([rng.uniform(0, 50, 2000), np.geomspace(1e-5, 1e12, 1000),
                            rng.uniform(-30, 0, 1000)])
        return [s, q]
    if name == "polygamma":
        x = np.concatenate([rng.uniform(-30, 30, 2000), np.geomspace(1e-5, 1e10, 1000)])
        return [rng.integers(0, 12, 3000).astype(np.float64), x]
    if name == "expn":
        x = np.concatenate([rng.uniform(0, 5, 2000), np.geomspace(1e-5, 700, 2000)])
        return [rng.integers(0, 60, 4000).astype(np.float64), x]
    if name in ("j0", "j1", "y0", "y1"):
        # SciPy's phase x - pi/4 loses digits as x grows (5e-13 of the envelope at 1e4, all
        # of them at 1e16): up to 1000 here, mpmath's points beyond in test_bessel_jy.
        return [REALS[np.abs(REALS) <= 1000]]
    if name in ("riemann_zeta", "zetac"):
        return [np.concatenate([np.linspace(-200, 80, 5601), np.linspace(-1, 1, 801),
                                1 + np.geomspace(1e-12, 1e-2, 200)])]
    if name == "lbeta":
        # Beyond these, SciPy's betaln itself drifts (test_lbeta_where_scipy_drifts).
        a = np.concatenate([rng.uniform(0, 30, 3000), np.geomspace(1e-3, 1e3, 1000)])
        b = np.concatenate([rng.uniform(0, 30, 3000), np.geomspace(1e3, 1e-3, 1000)])
        return [a, b]
    if name == "lchoose":
        n = np.concatenate([rng.uniform(0, 200, 3000), rng.integers(0, 200, 1000)])
        k = np.concatenate([rng.uniform(0, 1, 3000), rng.uniform(0, 1, 1000)]) * n
        return [n, np.where(np.arange(4000) >= 3000, np.round(k), k)]
    if name in ("gamma_p", "gamma_q"):
        a_wide = np.geomspace(1e-8, 1e5, 1500)  # beyond, SciPy drifts
        near_mean = np.abs(a_wide + np.sqrt(a_wide) * rng.normal(0, 3, 1500))
        a = np.concatenate([rng.uniform(0, 30, 1500), a_wide, np.geomspace(1e-3, 1e3, 1000)])
        x = np.concatenate([rng.uniform(0, 60, 1500), near_mean,
                            rng.permutation(np.geomspace(1e-300, 1e300, 1000))])
        return [a, x]
    if name in ("gamma_p_inv", "gamma_q_inv"):
        a = np.concatenate([rng.uniform(0, 30, 3000), np.geomspace(1e-3, 1e4, 3000)])
        return [a, rng.permutation(PROBABILITIES)[:6000]]
    if name in ("ibeta_inv", "ibetac_inv"):
        # a, b from 1e-2 (below, 1/a amplifies I's last bits past 1e-10); p from 1e-150
        # (below, SciPy's inverse gives up: NaN).
        a = np.concatenate([rng.uniform(0, 30, 2000), rng.permutation(np.geomspace(1e-2, 1e4,
                                                                                  2000))])
        b = np.concatenate([rng.uniform(0, 30, 2000), np.geomspace(1e-2, 1e4, 2000)])
        p = rng.permutation(PROBABILITIES[PROBABILITIES >= 1e-150])[:4000]
        return [np.maximum(a, 1e-2), np.maximum(b, 1e-2), p]
    if name == "ibeta":
        a = np.concatenate([rng.uniform(0, 30, 2000),
                            rng.permutation(np.geomspace(1e-3, 1e4, 2000))])
        b = np.concatenate([rng.uniform(0, 30, 2000), np.geomspace(1e-3, 1e4, 2000)])
        x = np.concatenate([rng.uniform(0, 1, 2000), np.geomspace(1e-300, 1, 700),
                            1 - np.geomspace(1e-16, 0.5, 700), rng.uniform(0, 1, 600)])
        # Half the random pairs near the mean a / (a + b), where the fractions work hardest.
        mean = a / (a + b)
        spread = np.sqrt(mean * (1 - mean) / (a + b + 1))
        x[::2] = np.clip(mean + spread * rng.normal(0, 2, 4000), 0, 1)[::2]
        return [a, b, x]
    if name == "lpmv":
        # Integer orders and degrees (weft's domain) on [-1, 1] and, for order 0, beyond.
        m = rng.integers(-6, 7, 4000).astype(np.float64)
        v = rng.integers(-60, 61, 4000).astype(np.float64)
        x = np.where(m == 0, rng.uniform(-3, 3, 4000), rng.uniform(-1, 1, 4000))
        return [m, v, x]
    if name in ("iv", "ive"):
        v = np.concatenate([rng.uniform(-30, 30, 2000), np.geomspace(1e-8, 300, 1000)])
        x = np.concatenate([rng.uniform(0, 40, 2000), rng.permutation(np.geomspace(1e-300, 700,
                                                                                   1000))])
        with np.errstate(all="ignore"):
            value = OPS[name].numpy(v, x)
        keep = np.isfinite(value) & (np.abs(value) > 1e-280)
        return [v[keep], x[keep]]
    if name in ("kv", "kve"):
        v = np.concatenate([rng.uniform(-30, 30, 2000), np.geomspace(1e-8, 300, 1000)])
        x = np.concatenate([rng.uniform(0, 40, 2000), rng.permutation(np.geomspace(1e-300, 700,
                                                                                   1000))])
        # Where SciPy's K overflows weft's may not yet (7e305 at (2.34, 2.9e-131), where
        # SciPy says inf): the grid keeps SciPy's finite values.
        from scipy import special

        with np.errstate(all="ignore"):
            finite = np.isfinite(special.kv(v, x))
        return [v[finite], x[finite]]
    if name in ("ellipkinc", "ellipeinc"):
        # m <= 1 (SciPy answers NaN for every m > 1: test_elliptic_incomplete has weft's).
        phi = np.concatenate([rng.uniform(-20, 20, 3000), np.geomspace(1e-300, 1e3, 500)])
        m = np.concatenate([rng.uniform(-10, 1, 3000), 1 - np.geomspace(1e-15, 1e3, 500)])
        return [phi, m]
    if name in ("jv", "yv", "yn"):
        # Orders to 60 and x to 100 (SciPy's jv drifts to 1e-11 beyond: mpmath's points in
        # test_bessel_jy go further); SciPy's +-inf and underflows are kept out.
        v = np.concatenate([rng.uniform(-60, 60, 2500), np.geomspace(1e-8, 60, 500)])
        x = np.concatenate([rng.uniform(0, 100, 2500), rng.permutation(np.geomspace(1e-30, 100,
                                                                                    500))])
        if name == "yn":
            v = np.trunc(v)
        with np.errstate(all="ignore"):
            value = OPS[name].numpy(v, x)
        keep = np.isfinite(value) & (np.abs(value) > 1e-280) & (np.abs(value) < 1e280)
        return [v[keep], x[keep]]
    if name in ("log_diff_exp", "xlogy"):
        a, b = rng.uniform(-40, 40, 4000), rng.uniform(-40, 40, 4000)
        if name == "log_diff_exp":
            a, b = np.maximum(a, b), np.minimum(a, b)
        else:
            b = np.abs(b)
        return [a, b]
    return [REALS]


def _check(name: str, got: np.ndarray, ref: np.ndarray, dtype: np.dtype) -> None:
    with np.errstate(over="ignore"):
        ref = ref.astype(dtype)
    assert np.array_equal(np.isnan(got), np.isnan(ref)), f"{name}: NaN where SciPy has none"
    finite = np.isfinite(ref)
    assert np.array_equal(got[~finite], ref[~finite], equal_nan=True), f"{name}: inf/nan differ"
    tiny = np.finfo(dtype).tiny
    keep = finite & (np.abs(ref) >= tiny)  # subnormal results: the device may flush them
    rtol, floors = (1e-12, FLOOR64) if dtype == np.float64 else (5e-6, FLOOR32)
    if name in ("ibeta", "trigamma", "inv_Phi") and dtype == np.float64:
        rtol = 1e-11
    if name in ("gamma_p_inv", "gamma_q_inv") and dtype == np.float64:
        rtol = 2e-12  # for a near 1e-3, 1/a amplifies P's last bits (docs/special.md)
    if name in ("ibeta_inv", "ibetac_inv") and dtype == np.float64:
        rtol = 1e-10  # the same, for a near 1e-2 (docs/special.md)
    if name == "lpmv" and dtype == np.float64:
        rtol = 1e-10  # SciPy's own error: 1.7e-11 at (-3, 40, 0.702) (mpmath; weft's 5e-12)
    if name in ("iv", "ive") and dtype == np.float64:
        rtol = 2e-12  # SciPy's error: 1.1e-12 at ive(-30.0, 5.25) (mpmath; weft's 3e-16)
    if name in ("expi", "expn") and dtype == np.float64:
        rtol = 1e-13  # SciPy's error: 2.8e-14 at Ei(40), 5.7e-14 at E_57(510) (mpmath)
    g, r = got[keep].astype(np.float64), ref[keep].astype(np.float64)
    err = np.abs(g - r) - rtol * np.abs(r)
    worst = int(np.argmax(err))
    assert err[worst] <= floors.get(name, 0.0), (
        f"{name}: {g[worst]!r} vs SciPy {r[worst]!r}, relative error "
        f"{abs(g[worst] - r[worst]) / abs(r[worst]):.3g}")


# float32 forms that evaluate the float64 one and round it (THROUGH_DOUBLE) on devices with
# doubles: two of them by default (each case builds its own kernel), all under
# WEFT_TEST_PROFILE=large, and every float32 form that computes in float.
GRID_CASES = [(name, dtype) for name in NAMES for dtype in (np.float64, np.float32)
              if dtype == np.float64 or name not in THROUGH_DOUBLE
              or name in ("gamma_p", "zeta") or os.environ.get("WEFT_TEST_PROFILE") == "large"]


@pytest.mark.parametrize("name, dtype", GRID_CASES,
                         ids=[f"{n}-{'f64' if d == np.float64 else 'f32'}" for n, d in GRID_CASES])
def test_special_function_matches_scipy_on_a_dense_grid(device, name, dtype):
    if dtype == np.float64 and not device.supports_fp64:
        pytest.skip("no float64 on this device")
    big = np.finfo(dtype).max
    args = [np.clip(a, -big, big).astype(dtype) for a in _grid(name)]
    got = wf.apply_op(name, *[wf.asarray(a) for a in args]).to_numpy()
    assert got.dtype == dtype
    with np.errstate(all="ignore"):
        ref = np.asarray(OPS[name].numpy(*[a.astype(np.float64) for a in args]))
    _check(name, got, ref, dtype)


@pytest.mark.parametrize("name", NAMES)
def test_special_function_edge_cases_match_scipy(device, name):
    """Poles, infinities, NaN, signed zeros and extreme arguments, every pair for binaries."""
    arity = OPS[name].arity
    edges = EDGES
    if name in ("lbeta", "lchoose"):
        # Their domain is finite a, b >= 0 (Stan's); outside it SciPy's betaln answers inf
        # for some NaN, negative and infinite pairs where weft answers NaN or -inf
        # (docs/special.md).
        edges = np.array([0.0, 1.0, 2.0, 0.5, 1e-300, 3.5, 40.0])
        assert np.isnan(wf.apply_op(name, np.nan, 2.0).item())
    if name == "ibeta":
        # SciPy answers NaN at (2, 1e300, 1e-300), where the value is 1 - 2/e
        # (test_incomplete_beta_beyond_scipy), and 0.5 at (1e300, 1e300, 0.5), where weft's
        # fraction does not converge and says NaN.
        edges = edges[np.abs(edges) != 1e300]
    args = [grid.ravel() for grid in np.meshgrid(*[edges] * arity)]
    if name == "lpmv":
        # A non-integer degree: SciPy's hypergeometric series, NaN in weft (docs/special.md).
        # An infinite, NaN or 1e300 order or degree: SciPy answers NaN, 0 or +-inf by the
        # argument's path through its code (inf at (1, NaN, -1)), weft NaN or 0 (m > v).
        # At x = NaN SciPy answers 1 for degree 0 (weft: NaN), and at |x| = 1e300 inf for
        # P_1 and -0.0 for P_1(1e-300) (weft: x); test_lpmv_edges has weft's.
        sane = (np.abs(args[0]) < 1e300) & (np.abs(args[1]) < 1e300)
        sane &= np.isfinite(args[2]) & (np.abs(args[2]) != 1e300) & (args[2] != 1e-300)
        args = [a[sane & (args[1] == np.floor(args[1]))] for a in args]
    if name in ("ellipkinc", "ellipeinc"):
        # m > 1: SciPy's NaN where the integrals are real; phi = +-1e300: no digit of the
        # reduction by pi is left (SciPy and weft answer different noise); m = -inf: SciPy's
        # E is +inf for every phi, 0 and negative ones too, and its F(phi|1) +inf below
        # -pi/2 (weft's: odd in phi, test_elliptic_incomplete).
        inside = (args[1] <= 1) & (np.abs(args[0]) != 1e300) & (args[1] != -np.inf)
        inside &= ~((args[1] == 1) & (args[0] < -np.pi / 2))
        args = [a[inside] for a in args]
    if name in ("iv", "ive"):
        # Orders of 1e300: K there is Laplace's (test_bessel_kv), and SciPy's I NaN or 0.
        args = [a[np.abs(args[0]) != 1e300] for a in args]
    if name in ("kv", "kve"):
        # SciPy's K at order 1e300 is NaN or inf by the function, not by the value (kv NaN
        # and kve inf at (1e300, 1)); weft's Laplace form there: test_bessel_kv.
        args = [a[np.abs(args[0]) != 1e300] for a in args]
    if name in ("jv", "yv", "yn", "j0", "j1", "y0", "y1"):
        # At |x| = 1e300 SciPy's phase x - pi/4 has lost every digit (test_bessel_jy checks
        # weft's against mpmath). Orders of 1e300: SciPy answers NaN or 0 where weft has
        # the parity of an even integer (J(-1), Y at 0) or an overflow (Y(1) = -inf), and
        # weft answers NaN within 1000 v^2, for want of a uniform expansion in the order
        # (docs/special.md); yn's infinite orders are SciPy's integer conversions.
        inside = np.abs(args[-1]) != 1e300
        if arity == 2:
            inside &= np.abs(args[0]) != 1e300
            inside &= ~np.isinf(args[0]) | (name != "yn")
        args = [a[inside] for a in args]
    if name == "zeta":
        # SciPy checks its poles before NaN (zeta(1, nan) and zeta(nan, -1) are inf; weft:
        # NaN, as NumPy's functions answer NaN arguments), and answers NaN at (inf, 2) and
        # (1e300, 2), where the sum 2^-s is 0 (mpmath agrees).
        inside = ~(np.isnan(args[0]) | np.isnan(args[1]))
        inside &= ~((args[0] >= 1e300) & (args[1] == 2.0))
        args = [a[inside] for a in args]
    if name == "polygamma":
        # SciPy's (-1)^(n + 1) takes n + 1 rounded: 1 + 1e-300 is the integer 1 (weft: NaN,
        # n is no integer) and 1e300 + 1 is even (weft: n is even, the sign is -1).
        args = [a[(args[0] != 1e-300) & (args[0] != 1e300)] for a in args]
    if name in ("gamma_p_inv", "gamma_q_inv"):
        # Outside [0, 1] SciPy answers 0 for some a of 0 or 1e-300 (weft: NaN, as for
        # every other a), and at a = 0 NaN or 0 by the probability's size (weft: NaN
        # inside (0, 1)); keep the probabilities inside and a away from 0.
        inside = np.isnan(args[1]) | ((args[1] >= 0) & (args[1] <= 1) & (args[0] != 0))
        args = [a[inside] for a in args]
    if name in ("ibeta_inv", "ibetac_inv"):
        # SciPy's answers at infinite parameters and at 1e300 and 1e-300 disagree with each
        # other (0 or NaN for the same limit) and with mpmath (2.2e-308 for 0); weft says
        # NaN at infinities. Keep the others.
        inside = (np.abs(args[0]) < 1e300) & (np.abs(args[1]) < 1e300) & (
            args[0] != 1e-300) & (args[1] != 1e-300) & (args[2] != 1e-300)
        inside |= np.isnan(args[0]) | np.isnan(args[1])
        args = [a[inside] for a in args]
    got = wf.apply_op(name, *[wf.asarray(a) for a in args]).to_numpy()
    with np.errstate(all="ignore"):
        ref = np.asarray(OPS[name].numpy(*args), dtype=np.float64)
    finite = np.isfinite(ref)
    np.testing.assert_array_equal(got[~finite], ref[~finite])
    np.testing.assert_allclose(got[finite], ref[finite], rtol=1e-12, atol=1e-15)


def test_lbeta_where_scipy_drifts():
    """At (1.4e-6, 7.1e5) SciPy's betaln is about 2.6e-10 off; compare with a 40-digit
    evaluation of -ln x - x (gamma + psi(y)) + pi^2 x^2 / 12 (the rest is below 1e-17)."""
    from decimal import Decimal, getcontext

    getcontext().prec = 40
    x, y = Decimal(1.4e-6), Decimal(7.1e5)
    euler = Decimal("0.5772156649015328606065120900824024310422")
    psi_y = y.ln() - 1 / (2 * y) - 1 / (12 * y * y)
    exact = -x.ln() - x * (euler + psi_y) + x * x * Decimal("0.8224670334241132182362")
    assert abs(wf.lbeta(1.4e-6, 7.1e5).item() - float(exact)) <= 1e-15 * float(exact)


# Values from a 50-digit mpmath evaluation of the defining series (below the mean) or
# continued fraction (above), where SciPy's own answers drift (by 7e-7 at a = 8e5).
LARGE_A = [
    (8e5, 795527.8640450004, "p", 2.7360397000574354e-7),
    (1e6, 970000.0, "p", 4.9209087785911619e-202),
    (1e6, 1e6, "q", 0.49986701923912741),
    (1e7, 10009486.832980504, "q", 0.0013536377311479772),
    (1e7, 10117004.27342623, "q", 1.1388896925389375e-297),
    (1e9, 999968377.2233983, "p", 0.15865525389121661),
    (1e9, 999051316.7019495, "p", 3.690632537018029e-198),
]


@pytest.mark.parametrize("a, x, which, expected", LARGE_A)
def test_incomplete_gamma_for_large_a(real_device, a, x, which, expected):
    """Device code only: the reference device is SciPy, which drifts here."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    got = (wf.gamma_p if which == "p" else wf.gamma_q)(a, x).item()
    assert abs(got - expected) <= 1e-12 * expected


def test_incomplete_beta_beyond_scipy(real_device):
    """Closed forms: I_x(a, 1) = x^a, I_x(1, b) = 1 - (1 - x)^b and, for a = 2,
    1 - (1 - x)^b (1 + b x); SciPy answers NaN at (2, 1e300, 1e-300). Device code only."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    rng = np.random.default_rng(3)
    a = np.geomspace(1e-3, 1e8, 500)
    x = rng.uniform(0, 1, 500)
    b = rng.permutation(a)
    ones = np.ones(500)
    # Every point in one call (one kernel: ibeta's compile is most of this test's time),
    # then, from SciPy's NaN at (2, 1e300, 1e-300): 50-digit mpmath where the fraction runs
    # long (a = 1e5, near the mean), and a point where it does not converge (NaN, no wrong
    # answer).
    got = wf.ibeta(wf.asarray(np.concatenate([a, ones, [2.0, 1e5, 1e300]])),
                   wf.asarray(np.concatenate([ones, b, [1e300, 44.701815586961935, 1e300]])),
                   wf.asarray(np.concatenate([x, x, [1e-300, 0.9992992923936151, 0.5]])))
    got = got.to_numpy()
    np.testing.assert_allclose(got[:500], x**a, rtol=1e-11, atol=1e-300)
    np.testing.assert_allclose(got[500:1000], -np.expm1(b * np.log1p(-x)), rtol=1e-11)
    assert abs(got[1000] - (1 - 2 / np.e)) <= 1e-15
    assert abs(got[1001] - 0.00048231539935818113) <= 1e-11 * got[1001]
    assert np.isnan(got[1002])


def test_incomplete_functions_edges_and_complements(device):
    assert wf.ibeta(0.0, 2.0, 0.3).item() == 1.0 and wf.ibeta(2.0, 0.0, 0.3).item() == 0.0
    assert wf.ibeta(0.0, 2.0, 0.0).item() == 0.0 and wf.ibeta(2.0, 0.0, 1.0).item() == 1.0
    assert np.isnan(wf.ibeta(0.0, 0.0, 0.5).item()) and np.isnan(wf.ibeta(1.0, 1.0, 1.5).item())
    assert wf.gamma_p(0.0, 2.0).item() == 1.0 and np.isnan(wf.gamma_q(-1.0, 2.0).item())
    a = wf.asarray(np.geomspace(1e-6, 1e4, 200))
    x = wf.asarray(np.geomspace(1e-4, 1e4, 200)[::-1].copy())
    total = (wf.gamma_p(a, x) + wf.gamma_q(a, x)).to_numpy()
    np.testing.assert_allclose(total, 1.0, rtol=1e-14)
    # Q for tiny a: 1 - P would keep no digits of it.
    np.testing.assert_allclose(wf.gamma_q(1e-10, 0.5).item(), special.gammaincc(1e-10, 0.5),
                               rtol=1e-12)


def test_incomplete_beta_inverse_in_deep_tails_against_mpmath(real_device):
    """betaincinv where SciPy's gives NaN: the tail at weft's answer is p to 1e-13
    (mpmath); an answer below the smallest double is 0; betainccinv with a and b swapped
    gives 1 - x."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    mpmath = pytest.importorskip("mpmath")
    a = np.array([1.1311670953170792, 3.78, 2.09, 50.0, 0.05, 0.3])
    b = np.array([0.009874093802154659, 18.1, 6.66, 0.5, 3.0, 0.3])
    p = np.array([3.162240123733269e-299, 1.26e-229, 2e-198, 1e-250, 1e-200, 1e-100])
    x = wf.betaincinv(wf.asarray(a), wf.asarray(b), wf.asarray(p)).to_numpy()
    with mpmath.workdps(40):
        tails = [float(mpmath.betainc(a[k], b[k], 0, x[k], regularized=True) / p[k])
                 for k in range(4)]
    np.testing.assert_allclose(tails, 1.0, rtol=1e-13)
    np.testing.assert_array_equal(x[4:], 0.0)  # (x^0.05 / (0.05 B) = 1e-200: x = 1e-4000)
    upper = wf.betainccinv(wf.asarray(b[:4]), wf.asarray(a[:4]), wf.asarray(p[:4])).to_numpy()
    np.testing.assert_allclose(upper, 1 - x[:4], rtol=1e-15)


def test_documented_special_values():
    assert wf.lbeta(0.0, 2.0).item() == np.inf
    assert wf.log1m_exp(0.0).item() == -np.inf and np.isnan(wf.log1m_exp(0.5).item())
    assert wf.log_diff_exp(1.0, 1.0).item() == -np.inf
    assert np.isnan(wf.log_diff_exp(1.0, 2.0).item())
    assert wf.xlogy(0.0, 0.0).item() == 0.0 and np.isnan(wf.xlogy(0.0, np.nan).item())
    assert wf.erfinv(1.0).item() == np.inf and wf.inv_Phi(0.0).item() == -np.inf
    assert wf.digamma(0.0).item() == -np.inf and wf.digamma(-0.0).item() == np.inf
    assert wf.trigamma(-3.0).item() == np.inf


def test_erfinv_and_inv_phi_in_their_tails_against_mpmath(real_device):
    """erfinv near +-1 and inv_Phi down to the smallest subnormal probability, within 8 ulps
    of mpmath (erfc solved on the log scale, so no digit of 1 - y or p is lost)."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(9)

    def tail_root(c):  # z with erfc(z) = c
        return mpmath.findroot(lambda z: mpmath.log(mpmath.erfc(z)) - mpmath.log(c),
                               mpmath.sqrt(-mpmath.log(c)))

    c = 10 ** rng.uniform(-16, -1, 200)
    y = np.concatenate([1 - c, -(1 - c), [0.3, -0.6, 0.95]])
    p = np.concatenate([10 ** rng.uniform(-323, -1, 300), [5e-324, 0.2, 0.7]])
    with mpmath.workdps(40):
        erfinv_ref = [float(tail_root(1 - mpmath.mpf(abs(v))) * np.sign(v)) for v in y]
        ndtri_ref = [float(-mpmath.sqrt(2) * tail_root(2 * mpmath.mpf(min(v, 1 - v)))
                           * (1 if v < 0.5 else -1)) for v in p]
    for got, want in ((wf.erfinv(wf.asarray(y)).to_numpy(), np.array(erfinv_ref)),
                      (wf.inv_Phi(wf.asarray(p)).to_numpy(), np.array(ndtri_ref))):
        assert np.all(np.abs(got - want) <= 8 * np.spacing(np.abs(want)))


def test_infinite_arguments_take_the_limits(device):
    """logaddexp as NumPy's (equal infinities included); log(e^a - e^b) is +inf for a = +inf
    and any smaller b, and undefined for a = b = +inf."""
    edges = np.array([np.inf, -np.inf, np.nan, 0.0, -3.5, 700.0])
    a, b = (g.ravel() for g in np.meshgrid(edges, edges))
    for dtype in (np.float64, np.float32):
        if dtype == np.float64 and not device.supports_fp64:
            continue
        got = wf.logaddexp(wf.asarray(a.astype(dtype)), wf.asarray(b.astype(dtype)))
        with np.errstate(all="ignore"):
            expected = np.logaddexp(a.astype(dtype), b.astype(dtype))
        # Infinities and NaN exactly; finite values to an ulp or two (a CPU's own exp/log).
        np.testing.assert_allclose(got.to_numpy(), expected, rtol=4 * np.finfo(dtype).eps)
    inf = np.inf
    cases = [(inf, 1.0, inf), (inf, -inf, inf), (inf, -1e300, inf), (inf, inf, np.nan),
             (-inf, -inf, -inf), (1.0, -inf, 1.0), (1.0, inf, np.nan), (-inf, 1.0, np.nan)]
    a, b, expected = (np.array(column) for column in zip(*cases))
    got = wf.log_diff_exp(wf.asarray(a), wf.asarray(b)).to_numpy()
    np.testing.assert_array_equal(got, expected)


def test_integer_arguments_give_the_default_real_and_dtype_is_the_computation_type(device):
    k = np.arange(1, 40, dtype=np.int32)
    got = wf.lgamma(wf.asarray(k))
    assert got.dtype == wf.default_real()
    np.testing.assert_allclose(got.to_numpy(), special.gammaln(k), rtol=1e-12)
    x = np.linspace(0.1, 5, 50)
    f32 = wf.digamma(wf.asarray(x), dtype=wf.float32)
    assert f32.dtype == wf.float32
    np.testing.assert_allclose(f32.to_numpy(), special.psi(x.astype(np.float32)), rtol=5e-6)
    previous = wf.default_real()
    wf.set_default_real(wf.float32)
    try:
        assert wf.erf(wf.asarray(k)).dtype == wf.float32
    finally:
        wf.set_default_real(previous)


def test_multivariate_lgamma_and_digamma(device):
    x = np.linspace(3.0, 40.0, 101)
    for p in (1, 2, 5):
        got = wf.lgamma(wf.asarray(x), p).to_numpy()
        np.testing.assert_allclose(got, [special.multigammaln(v, p) for v in x], rtol=1e-12)
        psi = sum(special.psi(x + (1 - j) / 2) for j in range(1, p + 1))
        np.testing.assert_allclose(wf.digamma(wf.asarray(x), p).to_numpy(), psi, rtol=1e-12)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="positive integer"):
            wf.lgamma(wf.asarray(x), bad)


def test_special_functions_fuse_into_one_kernel(real_device):
    from conftest import kernel_count

    x = wf.asarray(np.linspace(0.5, 20, 1000))
    expr = wf.lgamma(x) + wf.digamma(x) * wf.erfinv(x / 21) - wf.lbeta(x, 2.0)
    assert kernel_count(wf.kernel_source(expr)) == 1
    v = np.linspace(0.5, 20, 1000)
    np.testing.assert_allclose(
        expr.to_numpy(),
        special.gammaln(v) + special.psi(v) * special.erfinv(v / 21) - special.betaln(v, 2.0),
        rtol=1e-11)


def test_scipy_aliases():
    pairs = {"gammaln": "lgamma", "betaln": "lbeta", "expit": "inv_logit", "ndtr": "Phi",
             "ndtri": "inv_Phi", "xlogy": "xlogy", "psi": "digamma", "gammainc": "gamma_p",
             "gammaincc": "gamma_q", "betainc": "ibeta", "gammaincinv": "gamma_p_inv",
             "gammainccinv": "gamma_q_inv", "betaincinv": "ibeta_inv",
             "betainccinv": "ibetac_inv"}
    # The same functions (their values are the dense grids' above, which compile each op's
    # kernel once; compiling them again here cost 10 s of a 2-core run).
    for alias, name in pairs.items():
        assert getattr(wf, alias) is getattr(wf, name), alias
    x = wf.asarray([0.25, 0.5])
    np.testing.assert_allclose(wf.gammainc(2.0, x).to_numpy(), special.gammainc(2.0, [0.25, 0.5]),
                               rtol=1e-14)  # SciPy's argument order


def test_zeta_family_against_mpmath(device):
    """Where SciPy is not the last word: Hurwitz's zeta across its domain, Riemann's through
    the reflection (down to -195, where Gamma(1 - x) alone overflows), polygamma at negative
    arguments, against mpmath at 100 digits (at 50, its Hurwitz zeta is off by 4e-10 at
    s = 27, q = 310)."""
    mpmath = pytest.importorskip("mpmath")
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    rng = np.random.default_rng(5)
    s, q = rng.uniform(1.01, 30, 60), np.geomspace(1e-3, 1e9, 60)
    x = np.concatenate([rng.uniform(-195, -0.5, 40), rng.uniform(-0.5, 1, 20)])
    n, z = rng.integers(1, 6, 40).astype(np.float64), rng.uniform(-12, 12, 40)
    got = wf.eval(wf.zeta(wf.asarray(s), wf.asarray(q)), wf.zeta(wf.asarray(x)),
                  wf.polygamma(wf.asarray(n), wf.asarray(z)))
    with mpmath.workdps(100):
        want = [[float(mpmath.zeta(a, b)) for a, b in zip(s, q)],
                [float(mpmath.zeta(a)) for a in x],
                [float(mpmath.polygamma(int(a), b)) for a, b in zip(n, z)]]
    for g, w, rtol in zip(got, want, (4e-15, 3e-13, 1e-13)):
        np.testing.assert_allclose(g.to_numpy(), w, rtol=rtol)


def test_exponential_integrals_against_mpmath(real_device):
    """E1 across the series/fraction switch at 1, Ei where SciPy drifts (2.8e-14 at 40; so
    not on the reference device, which is SciPy) and out to its overflow, E_n for n up to
    60 on both sides of x = 1, against mpmath."""
    mpmath = pytest.importorskip("mpmath")
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    rng = np.random.default_rng(6)
    x = np.concatenate([rng.uniform(0.01, 5, 30), np.geomspace(5, 700, 20)])
    n, z = rng.integers(0, 60, 40).astype(np.float64), np.geomspace(1e-4, 500, 40)
    got = wf.eval(wf.exp1(wf.asarray(x)), wf.expi(wf.asarray(x)),
                  wf.expn(wf.asarray(n), wf.asarray(z)))
    with mpmath.workdps(100):  # (at 40 digits its E_46(227) is 27% off)
        want = [[float(mpmath.e1(a)) for a in x], [float(mpmath.ei(a)) for a in x],
                [float(mpmath.expint(int(a), b)) for a, b in zip(n, z)]]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.to_numpy(), w, rtol=1e-14)


def test_bessel_k_against_mpmath(real_device):
    """K0, K1 and their scaled forms from 1e-12 to 700, across the switch at x = 1 from the
    series' structure to the polynomial in 1/x (tried on 2600 points: at most 1.9 ulps),
    against mpmath."""
    mpmath = pytest.importorskip("mpmath")
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    rng = np.random.default_rng(7)
    x = np.concatenate([np.geomspace(1e-12, 700, 40), rng.uniform(0.95, 1.05, 10),
                        [1.0, 1 - 1e-15, 1 + 1e-15, 2.0, 17.4, 19.4]])
    got = wf.eval(*[getattr(wf, name)(wf.asarray(x)) for name in ("k0", "k1", "k0e", "k1e")])
    with mpmath.workdps(40):
        k = [[mpmath.besselk(order, a) for a in x] for order in (0, 1)]
        want = [*k, *[[v * mpmath.exp(a) for v, a in zip(row, x)] for row in k]]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.to_numpy(), [float(v) for v in w], rtol=5e-16)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_digamma_and_trigamma_where_the_recurrence_rounds_onto_ten(device, dtype):
    """Just below an integer k <= 10, y + (10 - k) rounds to 10: the asymptotic series must
    start where the recurrence's steps stopped (a step counted but not taken was 1/10 off)."""
    mpmath = pytest.importorskip("mpmath")
    whole = np.arange(1.0, 11.0, dtype=dtype)
    x = np.concatenate([np.nextafter(whole, dtype(0)), np.nextafter(whole, dtype(20)),
                        -np.nextafter(whole, dtype(0)) + dtype(0.5)]).astype(dtype)
    with mpmath.workprec(120):
        psi = np.array([float(mpmath.digamma(mpmath.mpf(float(v)))) for v in x])
        psi1 = np.array([float(mpmath.polygamma(1, mpmath.mpf(float(v)))) for v in x])
    rtol = 1e-13 if dtype == np.float64 else 2e-6
    np.testing.assert_allclose(wf.digamma(wf.asarray(x)).to_numpy(), psi, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(wf.trigamma(wf.asarray(x)).to_numpy(), psi1, rtol=rtol)
