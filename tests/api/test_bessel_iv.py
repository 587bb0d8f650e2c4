"""I_v(x) of real order (SciPy's iv and ive; skeletons/bessel_iv.py) against 30-digit mpmath,
its edges, float32, and its gradients in x and in the order."""

from __future__ import annotations

import functools

import numpy as np
import pytest
import scipy.special as sp

import weft as wf

mpmath = pytest.importorskip("mpmath")

_RNG = np.random.default_rng(31)
# Small x (f's fraction short), large x (the asymptotic expansion, or the fraction's
# 6 sqrt(x) terms where v is large too), orders to 300, negative orders (the reflection
# through K), and I's overflow and underflow.
V = np.concatenate([_RNG.uniform(-30, 30, 120), np.geomspace(1e-6, 300, 50),
                    [0.0, 0.5, 1.0, -0.5, -1.5, 2.0, -3.0, 100.0, 250.0, 0.25]])
X = np.concatenate([_RNG.uniform(0, 60, 120), np.geomspace(1e-10, 2e4, 50),
                    [1e-10, 2.0, 25.0, 24.9, 1e5, 30.0, 1.9, 26.0, 100.0, 712.0]])


@functools.cache
def _mpmath_values() -> tuple[np.ndarray, np.ndarray]:
    """I_v(x) and e^-x I_v(x) at (V, X), to 30 digits (inf beyond float64's range)."""
    with mpmath.workdps(30):
        values = [mpmath.besseli(float(v), float(x)) for v, x in zip(V, X)]
        scaled = [a * mpmath.exp(-float(x)) for a, x in zip(values, X)]
    as_float = lambda a: float(a) if abs(a) < 1e308 else float(mpmath.sign(a)) * np.inf  # noqa: E731
    return np.array([as_float(a) for a in values]), np.array([as_float(a) for a in scaled])


def _relative_error(got: np.ndarray, want: np.ndarray) -> float:
    assert np.array_equal(np.isinf(got), np.isinf(want))
    keep = np.isfinite(want) & (np.abs(want) > 1e-300)
    assert keep.sum() > 150
    return float(np.max(np.abs(got[keep] - want[keep]) / np.abs(want[keep])))


def test_iv_and_ive_against_mpmath(real_device):
    """Within 1e-13 of mpmath (K's accuracy, which I inherits through the Wronskian)."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    v, x = wf.asarray(V), wf.asarray(X)
    iv, ive = wf.eval(wf.iv(v, x), wf.ive(v, x))
    want, want_scaled = _mpmath_values()
    assert _relative_error(iv.to_numpy(), want) < 1e-13
    assert _relative_error(ive.to_numpy(), want_scaled) < 1e-13


def test_edges(device):
    """SciPy's values, except the limits where SciPy says NaN (x = inf, ive at infinite
    orders) or +inf for a negative value (I of a negative non-integer order at x = 0 has the
    sign of 1 / Gamma(v + 1))."""
    v = np.array([0.0, 2.0, -0.5, -1.5, -2.0, 0.5, 3.0, 2.0, np.inf, np.nan, 1.0, 2.5, 3.0])
    x = np.array([0.0, 0.0, 0.0, 0.0, 0.0, -1.0, -1.0, -1.0, 1.0, 1.0, np.nan, np.inf, -np.inf])
    a, b = wf.asarray(v), wf.asarray(x)
    iv, ive = wf.iv(a, b).to_numpy(), wf.ive(a, b).to_numpy()
    want = [1.0, 0.0, np.inf, -np.inf, 0.0, np.nan, -sp.iv(3, 1.0), sp.iv(2, 1.0), 0.0,
            np.nan, np.nan, np.inf, -np.inf]
    want_scaled = [1.0, 0.0, np.inf, -np.inf, 0.0, np.nan, -sp.ive(3, 1.0), sp.ive(2, 1.0),
                   0.0, np.nan, np.nan, 0.0, 0.0]
    np.testing.assert_allclose(iv, want, rtol=1e-13)
    np.testing.assert_allclose(ive, want_scaled, rtol=1e-13)
    # I0(712) is finite though e^712 is not; e^-x I_v(x) from 1e20 on (SciPy: NaN).
    assert wf.iv(0.0, wf.asarray([712.0])).to_numpy()[0] == pytest.approx(sp.iv(0, 712.0),
                                                                           rel=1e-13)
    far = wf.ive(wf.asarray([0.5, 2.0]), wf.asarray([1e20, 1e300])).to_numpy()
    np.testing.assert_allclose(far, 1 / np.sqrt(2 * np.pi * np.array([1e20, 1e300])),
                               rtol=1e-14)


def test_float32_rounds_the_double_value(device):
    keep = (np.abs(V) < 30) & (X < 80)
    v, x = V[keep].astype(np.float32), X[keep].astype(np.float32)
    for name in ("iv", "ive"):
        got = getattr(wf, name)(wf.asarray(v), wf.asarray(x)).to_numpy()
        assert got.dtype == np.float32
        with np.errstate(over="ignore"):
            want = getattr(sp, name)(v.astype(np.float64), x.astype(np.float64))
        finite = np.isfinite(want) & (np.abs(want) < 3e38) & (np.abs(want) > 1e-37)
        np.testing.assert_allclose(got[finite], want[finite], rtol=3e-7)


def _summed(function):
    return lambda *args: wf.sum(function(*args))


def test_gradients_in_x_and_in_the_order(device):
    """d/dx against mpmath's derivative; d/dv within 1e-9 (the differences' error)."""
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    v = np.array([0.3, 1.7, 2.5, -0.7, 5.0, 0.0])
    x = np.array([1.5, 3.0, 30.0, 8.0, 4.0, 0.7])
    def scaled(a, t):
        return mpmath.besseli(a, t) * mpmath.exp(-t)

    for name, function in (("iv", mpmath.besseli), ("ive", scaled)):
        dv, dx = wf.grad(_summed(getattr(wf, name)), argnums=(0, 1))(wf.asarray(v),
                                                                     wf.asarray(x))
        with mpmath.workdps(30):
            want_dx = [float(mpmath.diff(lambda t, a=a, f=function: f(a, t), b))
                       for a, b in zip(v, x)]
            want_dv = [float(mpmath.diff(lambda s, b=b, f=function: f(s, b), a))
                       for a, b in zip(v, x)]
        np.testing.assert_allclose(dx.to_numpy(), want_dx, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(dv.to_numpy(), want_dv, rtol=1e-9, atol=1e-11)
