"""The sine and cosine integrals (``si``, ``ci``, ``sici``) against mpmath and SciPy over
their whole domain, both signs, the switch from the series to the continued fraction at 4
and the special values, in float64 and float32, on every device; gradients against the
closed forms Si' = sin(x)/x and Ci' = cos(x)/x."""

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
