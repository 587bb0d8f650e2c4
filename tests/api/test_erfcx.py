"""erfcx (SciPy's scaled complementary error function; skeletons/erfcx.py) against 40-digit
mpmath on both sides of a = 2 where its two polynomials meet, at the ends of the range, and
below 0 where SciPy loses digits."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sp

import weft as wf

mpmath = pytest.importorskip("mpmath")

X = np.concatenate([np.linspace(-26, 30, 1201), np.geomspace(1e-300, 1e8, 200),
                    2 + np.array([-1e-12, 0.0, 1e-12]), [1e-3, 0.5, 1.0, 1.99, 2.01, 27.0]])


def _mpmath(x: float) -> float:
    with mpmath.workdps(40):
        t = mpmath.mpf(x)
        return float(mpmath.exp(t * t) * mpmath.erfc(t))


def test_against_mpmath(real_device):
    """Within 2 ulps for x >= 0 and 4 below (the mirror's difference), where SciPy's
    error reaches 5.6e-14 (x < 0)."""
    dtype = np.float64 if real_device.supports_fp64 else np.float32
    x = X.astype(dtype)
    want = np.array([_mpmath(v) for v in x.astype(np.float64)])
    got = wf.erfcx(wf.asarray(x)).to_numpy()
    eps = np.finfo(dtype).eps
    relative = np.abs(got - want) / want
    assert relative[x >= 0].max() <= 2 * eps
    assert relative[x < 0].max() <= 4 * eps


def test_edges(real_device):
    """1 at 0, 0 at +inf, +inf at -inf and once 2 e^(x^2) overflows, NaN at NaN; tiny at
    huge x (1 / (sqrt(pi) x))."""
    dtype = np.float64 if real_device.supports_fp64 else np.float32
    x = np.array([0.0, np.inf, -np.inf, -30.0, np.nan, 1e30], dtype=dtype)
    got = wf.erfcx(wf.asarray(x)).to_numpy()
    assert got[:4].tolist() == [1.0, 0.0, np.inf, np.inf] and np.isnan(got[4])
    np.testing.assert_allclose(got[5], sp.erfcx(np.float64(x[5])), rtol=4 * np.finfo(dtype).eps)
