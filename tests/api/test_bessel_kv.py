"""K_v(x) of real order (SciPy's kv and kve, skeletons/bessel_kv.py) against 40-digit
mpmath, its edges against SciPy's, and its gradient in both arguments."""

from __future__ import annotations

import functools

import numpy as np
import pytest
import scipy.special as sp

import weft as wf

mpmath = pytest.importorskip("mpmath")

_RNG = np.random.default_rng(11)
# Orders and arguments across the regimes: the peak of the integrand at 0 (v << x) and far
# out (v >> x), x down to 1e-300, orders to 200, and the overflow of K and of e^x. (mpmath
# takes seconds a point for orders and arguments both in the hundreds.)
V = np.concatenate([_RNG.uniform(-20, 20, 150), np.geomspace(1e-6, 200, 60),
                    [0.0, 0.5, 1.0, 2.5, 120.0, 1e-3, 2.0, 0.3, 40.0, 3.9]])
X = np.concatenate([_RNG.uniform(0, 30, 150), np.geomspace(1e-300, 300, 60),
                    [1e-300, 1e-200, 1e-10, 800.0, 100.0, 1e-300, 1e-5, 2.7e-71, 39.0, 1e-30]])


@functools.cache
def _mpmath_values() -> tuple[np.ndarray, np.ndarray]:
    """K_v(x) and e^x K_v(x) at (V, X), to 40 digits."""
    with mpmath.workdps(40):
        k = [mpmath.besselk(mpmath.mpf(float(v)), mpmath.mpf(float(x))) for v, x in zip(V, X)]
        scaled = [a * mpmath.exp(mpmath.mpf(float(x))) for a, x in zip(k, X)]
        return np.array([float(a) for a in k]), np.array([float(a) for a in scaled])


def _relative_error(got: np.ndarray, want: np.ndarray) -> float:
    assert np.array_equal(np.isinf(got), np.isinf(want))
    keep = np.isfinite(want) & (want > 1e-300)
    assert keep.sum() > 150
    return float(np.max(np.abs(got[keep] - want[keep]) / want[keep]))


def test_kv_and_kve_against_mpmath(real_device):
    """Within 1e-13 of mpmath (measured 4e-14 at most, on a wider set: SciPy's worst there
    was 1.7e-13): the error grows with the exponent of a huge K, rounded once."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    v, x = wf.asarray(V), wf.asarray(X)
    kv, kve = wf.eval(wf.kv(v, x), wf.kve(v, x))
    want, want_scaled = _mpmath_values()
    assert _relative_error(kv.to_numpy(), want) < 1e-13
    assert _relative_error(kve.to_numpy(), want_scaled) < 1e-13


def test_kv_float32_rounds_the_double_value(device):
    v = V[np.abs(V) < 50].astype(np.float32)
    x = X[np.abs(V) < 50].astype(np.float32)
    got = wf.kv(wf.asarray(v), wf.asarray(x)).to_numpy()
    assert got.dtype == np.float32
    with np.errstate(over="ignore"):  # (a K beyond float32's range rounds to inf)
        want = sp.kv(v.astype(np.float64), x.astype(np.float64)).astype(np.float32)
    finite = np.isfinite(want) & (want > np.finfo(np.float32).tiny)
    assert np.array_equal(np.isinf(got), np.isinf(want))
    np.testing.assert_allclose(got[finite], want[finite], rtol=3e-7)


def test_kv_edges_follow_scipy(device):
    """NaN for x < 0, NaN and infinite orders; +inf at x = 0; 0 at x = +inf (kve too, where
    SciPy says NaN); even in the order."""
    v = np.array([0.5, 0.5, 0.5, np.inf, -np.inf, np.nan, 0.5, -2.5, 0.0, 3.0])
    x = np.array([-1.0, 0.0, np.inf, 1.0, 1.0, 1.0, np.nan, 1.5, 0.0, 1e300])
    kv, kve = (f(wf.asarray(v), wf.asarray(x)).to_numpy() for f in (wf.kv, wf.kve))
    np.testing.assert_allclose(kv, sp.kv(v, x), rtol=1e-14)  # (NaN and inf exactly)
    # SciPy's kve says NaN at x = +inf and from 1e15 on, where e^x K_v(x) is sqrt(pi / 2x)
    # to within (4 v^2 - 1) / 8x.
    scipy_kve = np.where(np.isposinf(x), 0.0, sp.kve(v, x))
    scipy_kve[-1] = np.sqrt(np.pi / 2e300)
    np.testing.assert_allclose(kve, scipy_kve, rtol=1e-14)
    huge = np.array([1e15, 1e20, 1e200])
    got = wf.kve(wf.asarray([100.0, 3.0, 0.5]), wf.asarray(huge)).to_numpy()
    mu = 4 * np.array([100.0, 3.0, 0.5]) ** 2
    np.testing.assert_allclose(got, np.sqrt(np.pi / (2 * huge)) * (1 + (mu - 1) / (8 * huge)),
                               rtol=1e-14)
    np.testing.assert_array_equal(kv[7], wf.kv(2.5, wf.asarray(1.5)).item())


def test_kv_of_orders_beyond_the_quadrature_by_laplace_s_method(device):
    """Past 100,000 nodes (orders beyond about 1e8) Laplace's method: within 1e-8 of
    Hankel's expansion where x >> v^2, inf and 0 where K overflows and underflows."""
    if device.kind == "reference":
        pytest.skip("the reference device answers as SciPy: NaN at these orders")
    v = np.array([1e9, 1e8, 1e12, 1e12])
    x = np.array([1e20, 1e19, 1.0, 1e30])
    kve = wf.kve(wf.asarray(v), wf.asarray(x)).to_numpy()
    kv = wf.kv(wf.asarray(v), wf.asarray(x)).to_numpy()
    mu, z = 4 * v ** 2, 8 * x
    hankel = np.sqrt(np.pi / (2 * x)) * (
        1 + (mu - 1) / z * (1 + (mu - 9) / (2 * z) * (1 + (mu - 25) / (3 * z))))
    keep = [0, 1, 3]
    np.testing.assert_allclose(kve[keep], hankel[keep],
                               rtol=1e-8 if device.supports_fp64 else 1e-5)
    assert kv[2] == np.inf and kve[2] == np.inf and kv[3] == 0.0 and kv[0] == 0.0


_GRAD_V = np.array([0.5, 2.5, -2.5, 0.0, 7.3, 0.01, 1.0])
_GRAD_X = np.array([1.5, 0.3, 0.3, 2.0, 12.0, 1e-5, 40.0])


@functools.cache
def _mpmath_gradients() -> list[list[float]]:
    """d/dv and d/dx of K_v(x) and of e^x K_v(x) at (_GRAD_V, _GRAD_X)."""
    def k(v: float, x: float, scaled: bool) -> mpmath.mpf:
        return mpmath.besselk(v, x) * (mpmath.exp(x) if scaled else 1)

    out = []
    with mpmath.workdps(40):
        for scaled in (False, True):
            for in_order in (True, False):
                out.append([float(mpmath.diff(
                    (lambda s, a=a, b=b, c=scaled: k(s, b, c)) if in_order
                    else (lambda s, a=a, b=b, c=scaled: k(a, s, c)), a if in_order else b))
                    for a, b in zip(_GRAD_V, _GRAD_X)])
    return out


def test_kv_gradients_against_mpmath(device):
    """d/dv from the same quadrature (t sinh(v t)), odd in v; d/dx = -(K_{v-1} + K_{v+1})/2;
    for kve, e^x times those plus kve itself in x."""
    v, x = wf.asarray(_GRAD_V), wf.asarray(_GRAD_X)
    dv, dx = wf.grad(lambda a, b: wf.sum(wf.kv(a, b)), argnums=(0, 1))(v, x)
    dve, dxe = wf.grad(lambda a, b: wf.sum(wf.kve(a, b)), argnums=(0, 1))(v, x)
    # (The reference device's d/dv: differences of SciPy's kv, good to about 1e-10.)
    rtol = 1e-9 if device.kind == "reference" else 1e-12 if device.supports_fp64 else 1e-5
    for got, expected in zip((dv, dx, dve, dxe), _mpmath_gradients(), strict=True):
        np.testing.assert_allclose(got.to_numpy(), expected, rtol=rtol, atol=1e-300)


def test_integer_and_half_integer_orders_by_the_recurrence_against_mpmath(real_device):
    """Orders 0 to 64 that are integers or half-integers (Matern's 1/2, 3/2, 5/2) take the
    upward recurrence from K_0 and K_1 or K_1/2: within 1e-14 of mpmath (measured 1.9e-15;
    SciPy's worst on these points 2.5e-14), the overflow at tiny x and the underflow of K
    (not of e^x K) at large x included."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    orders = np.array([0, 1, 2, 3, 10, 40, 64, 0.5, 1.5, 2.5, 3.5, 20.5, 63.5, -2.5, -3.0])
    xs = np.array([1e-300, 1e-30, 1e-5, 0.01, 0.3, 1.0, 2.5, 7.0, 30.0, 100.0, 700.0, 740.0,
                   1e4])
    v, x = (a.ravel() for a in np.meshgrid(orders, xs, indexing="ij"))
    _kv_and_kve_against_mpmath(v, x, rtol=1e-14)


def test_other_orders_below_x_2_against_mpmath(real_device):
    """Orders to 64 that are neither integers nor half-integers, where x <= 2 (on CPUs by
    Temme's K_mu and K_(mu+1), |mu| <= 1/2, then the upward recurrence; on GPUs by the
    quadrature): within 1e-13 of mpmath (the series measured 3.0e-14, at x = 1e-261 where
    (x/2)^-mu is e^265), mu near 0 and near +-1/2 included."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    rng = np.random.default_rng(17)
    v = np.concatenate([rng.uniform(0, 64, 60), [1e-12, 1e-9, 0.4999999, 0.5000001, 63.9,
                                                  -2.3, 7.0000001]])
    x = np.concatenate([rng.uniform(0, 2, 30), np.geomspace(1e-280, 2, 30),
                        [1e-5, 2.0, 2.0, 0.5, 1e-3, 1.3, 0.7]])
    _kv_and_kve_against_mpmath(v, x, rtol=1e-13)


def _kv_and_kve_against_mpmath(v: np.ndarray, x: np.ndarray, rtol: float) -> None:
    """kv and kve at (v, x) within ``rtol`` of 40-digit mpmath where finite and above 1e-300
    (over half of the points), infinite where mpmath's value overflows."""
    kv, kve = wf.eval(wf.kv(wf.asarray(v), wf.asarray(x)), wf.kve(wf.asarray(v), wf.asarray(x)))
    with mpmath.workdps(40):
        exact = [mpmath.besselk(mpmath.mpf(float(a)), mpmath.mpf(float(b))) for a, b in zip(v, x)]
        want = np.array([float(k) for k in exact])
        want_scaled = np.array([float(k * mpmath.exp(mpmath.mpf(float(b))))
                                for k, b in zip(exact, x)])
    for got, expected in ((kv.to_numpy(), want), (kve.to_numpy(), want_scaled)):
        assert np.array_equal(np.isinf(got), np.isinf(expected))
        keep = np.isfinite(expected) & (expected > 1e-300)
        assert keep.sum() > len(v) // 2
        np.testing.assert_allclose(got[keep], expected[keep], rtol=rtol, atol=0)
