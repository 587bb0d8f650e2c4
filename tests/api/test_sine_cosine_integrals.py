"""The sine and cosine integrals (``si``, ``ci``, ``sici``) and their hyperbolic pair
(``shichi``) against mpmath and SciPy over their whole domains, both signs, the switches
between series and the other forms, and the special values, in float64 and float32, on
every device; gradients against the closed forms Si' = sin(x)/x, Ci' = cos(x)/x,
Shi' = sinh(x)/x, Chi' = cosh(x)/x."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

special = pytest.importorskip("scipy.special")

X = np.concatenate([np.linspace(-30, 30, 1201), [3.999999, 4.0, 4.000001, -4.0],
                    np.logspace(-10, 8, 120), -np.logspace(-10, 8, 30),
                    [0.0, -0.0, np.inf, -np.inf, np.nan]])


def _scale(ci: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Ci's error is measured against its size or its envelope 1/|x|, whichever is larger:
    near its zeros only an absolute error means anything (SciPy's is the same)."""
    with np.errstate(divide="ignore"):
        return np.maximum(np.abs(ci), np.minimum(1.0, 1.0 / np.abs(x)))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_sici_matches_scipy_across_the_domain(device, dtype):
    x = X.astype(dtype)
    si, ci = wf.eval(*wf.sici(wf.asarray(x)))
    want_si, want_ci = special.sici(x.astype(np.float64))
    got_si, got_ci = si.to_numpy(), ci.to_numpy()
    assert got_si.dtype == got_ci.dtype == np.dtype(dtype)
    rtol = 1e-15 if dtype == "float64" else 6e-8  # float32: one rounding of a double
    finite = np.isfinite(x) & (x != 0)
    np.testing.assert_allclose(got_si[finite], want_si[finite], rtol=2 * rtol, atol=0)
    error = np.abs(got_ci[finite] - want_ci[finite]) / _scale(want_ci[finite], x[finite])
    assert error.max() <= (5e-15 if dtype == "float64" else 6e-8), error.max()
    # The special values, as SciPy's: ±π/2 at ±∞, Ci -∞ at 0, 0 at +∞, NaN at -∞ and NaN.
    special_values = ~finite
    np.testing.assert_array_equal(got_si[special_values], want_si[special_values].astype(dtype))
    np.testing.assert_array_equal(got_ci[special_values], want_ci[special_values].astype(dtype))


def test_against_mpmath(device):
    mpmath = pytest.importorskip("mpmath")
    x = np.concatenate([np.random.default_rng(4).uniform(0, 40, 40), [0.6165054856207162,
                                                                      3.9, 4.1, 1e5]])
    si, ci = (v.to_numpy() for v in wf.eval(*wf.sici(wf.asarray(x))))
    with mpmath.workdps(30):
        want_si = np.array([float(mpmath.si(v)) for v in x])
        want_ci = np.array([float(mpmath.ci(v)) for v in x])
    np.testing.assert_allclose(si, want_si, rtol=1e-15)
    assert (np.abs(ci - want_ci) / _scale(want_ci, x)).max() <= 5e-15


def test_gradients_are_sin_and_cos_over_x(device):
    x = np.concatenate([np.random.default_rng(6).uniform(-20, 20, 30), [0.0, 4.0, -7.5]])
    xs = wf.asarray(x)
    dsi = wf.grad(lambda v: wf.si(v).sum())(xs).to_numpy()
    dci = wf.grad(lambda v: wf.ci(v[v != 0]).sum())(xs).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        np.testing.assert_allclose(dsi, np.where(x == 0, 1.0, np.sin(x) / x), rtol=1e-14)
        np.testing.assert_allclose(dci, np.where(x == 0, 0.0, np.cos(x) / x), rtol=1e-14)


XH = np.concatenate([np.linspace(-20, 20, 801), [0.999999, 1.0, 1.000001, -1.0, 0.5238225713898644],
                     np.logspace(-10, np.log10(700), 120), -np.logspace(-10, 2, 30),
                     [0.0, np.inf, -np.inf, np.nan, 720.0]])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_shichi_matches_scipy(device, dtype):
    """Shi and Chi: the series below |x| = 1 (no cancellation for tiny x), Ei and E1 beyond;
    Chi's error near its zero 0.5238 is absolute, as above."""
    with np.errstate(over="ignore"):
        x = XH.astype(dtype)
    shi, chi = (v.to_numpy() for v in wf.eval(*wf.shichi(wf.asarray(x))))
    want_shi, want_chi = special.shichi(x.astype(np.float64))
    with np.errstate(over="ignore"):
        want_shi, want_chi = want_shi.astype(dtype), want_chi.astype(dtype)
    assert shi.dtype == chi.dtype == np.dtype(dtype)
    rtol = 1e-14 if dtype == "float64" else 6e-8  # float32: one rounding of a double
    finite = np.isfinite(want_shi) & (x != 0)
    np.testing.assert_allclose(shi[finite], want_shi[finite], rtol=rtol, atol=0)
    finite = np.isfinite(want_chi)
    error = np.abs(chi[finite] - want_chi[finite]) / np.maximum(np.abs(want_chi[finite]), 1.0)
    assert error.max() <= rtol, error.max()
    rest = ~(np.isfinite(want_shi) & np.isfinite(want_chi)) | (x == 0)
    np.testing.assert_array_equal(shi[rest], want_shi[rest])
    np.testing.assert_array_equal(chi[rest], want_chi[rest])


def test_shichi_gradients_are_sinh_and_cosh_over_x(device):
    x = np.concatenate([np.random.default_rng(9).uniform(-6, 6, 30), [0.0, 1.0, -0.3]])
    dshi = wf.grad(lambda v: wf.shichi(v)[0].sum())(wf.asarray(x)).to_numpy()
    nonzero = x != 0
    dchi = wf.grad(lambda v: wf.shichi(v)[1].sum())(wf.asarray(x[nonzero])).to_numpy()
    safe = np.where(nonzero, x, 1.0)
    # Shi' = sinh(x)/x, 1 at 0 (the series' branch: no NaN from Ei's at 0); Chi' = cosh(x)/x.
    np.testing.assert_allclose(dshi, np.where(nonzero, np.sinh(safe) / safe, 1.0), rtol=1e-13)
    np.testing.assert_allclose(dchi, np.cosh(x[nonzero]) / x[nonzero], rtol=1e-13)
