"""The Bessel functions J and Y (SciPy's jv, yv, j0, j1, y0, y1, yn; skeletons/bessel_jy.py)
against 30-digit mpmath in each of the algorithm's regimes, their edges, float32, and their
gradients in x and in the order."""

from __future__ import annotations

import functools

import numpy as np
import pytest
import scipy.special as sp

import weft as wf
from weft.skeletons.bessel_jy import RGAMMA_TAYLOR

mpmath = pytest.importorskip("mpmath")

_RNG = np.random.default_rng(23)
# Orders and arguments across the regimes: Temme's series (x <= 2), Steed's fractions
# (2 < x < 25), Hankel's expansion (x >= 25) with J forward (v < x) and by its fraction
# (v >= x); J tiny and Y huge (v >> x); negative orders (reflection); near the turning
# point v = x.
V = np.concatenate([_RNG.uniform(-40, 40, 160), np.geomspace(1e-6, 300, 50),
                    _RNG.uniform(0, 1, 20) * 500,
                    [0.0, 0.5, 1.0, -0.5, -1.5, 2.0, -3.0, 0.49, 0.51, 100.0, 250.0, 1000.0]])
X = np.concatenate([_RNG.uniform(0, 40, 160), np.geomspace(1e-12, 3000, 50),
                    _RNG.uniform(0.9, 1.1, 20) * V[210:230],
                    [1e-10, 2.0, 2.0000001, 25.0, 24.999, 1e5, 30.0, 1.9, 26.0, 100.0, 1.0,
                     1000.0]])


@functools.cache
def _mpmath_values() -> tuple[np.ndarray, np.ndarray]:
    """J_v(x) and Y_v(x) at (V, X), to 30 digits."""
    with mpmath.workdps(30):
        pairs = [(mpmath.besselj(float(v), float(x)), mpmath.bessely(float(v), float(x)))
                 for v, x in zip(V, X)]
    return (np.array([float(j) for j, _ in pairs]), np.array([float(y) for _, y in pairs]))


def _scaled_error(got: np.ndarray, want: np.ndarray, modulus: np.ndarray) -> np.ndarray:
    """|got - want| over |want|, or over the modulus sqrt(J^2 + Y^2) where the function
    oscillates (x > |v|) and its zeros make a relative error meaningless."""
    oscillating = X > np.abs(V)
    scale = np.where(oscillating, np.maximum(np.abs(want), modulus), np.abs(want))
    keep = np.isfinite(want) & (np.abs(want) > 1e-300)
    assert keep.sum() > 200
    return np.abs(got[keep] - want[keep]) / scale[keep]


def test_rgamma_taylor_coefficients_match_mpmath():
    """log(1 / Gamma(1 + z)) = gamma z - sum_(k >= 2) zeta(k) (-z)^k / k, exponentiated as a
    power series (c_n = (1/n) sum_k k L_k c_(n - k))."""
    count = len(RGAMMA_TAYLOR)
    with mpmath.workdps(30):
        logs = [mpmath.mpf(0), +mpmath.euler] + [-mpmath.zeta(k) * (-1) ** k / k
                                                 for k in range(2, count)]
        want = [mpmath.mpf(1)]
        for n in range(1, count):
            want.append(sum(k * logs[k] * want[n - k] for k in range(1, n + 1)) / n)
    np.testing.assert_allclose(RGAMMA_TAYLOR, [float(c) for c in want], rtol=1e-16, atol=0)


def test_jv_and_yv_against_mpmath(real_device):
    """Within 1e-13 of mpmath, relative where the function is monotone and against the
    modulus where it oscillates (measured: 4e-15 at most; SciPy's worst on these points,
    1.6e-12 for jv, is in docs/special.md)."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    v, x = wf.asarray(V), wf.asarray(X)
    j, y = wf.eval(wf.jv(v, x), wf.yv(v, x))
    want_j, want_y = _mpmath_values()
    modulus = np.hypot(want_j, want_y)
    j, y = j.to_numpy(), y.to_numpy()
    assert np.array_equal(np.isinf(y), np.isinf(want_y))
    assert np.max(_scaled_error(j, want_j, modulus)) < 1e-13
    assert np.max(_scaled_error(y, want_y, modulus)) < 1e-13


def test_orders_zero_and_one_and_integer_orders(real_device):
    """j0, j1, y0, y1 are J and Y of orders 0 and 1 (against SciPy up to x = 60, and
    mpmath beyond, where SciPy's j0 and y0 drift: 5e-13 of the envelope at x = 1e4, every
    digit from 1e16 on); yn truncates its order (SciPy's); jn is jv; J of an integer order
    has a parity in x."""
    near = np.linspace(0.01, 60, 400)
    far = np.concatenate([np.geomspace(60, 1e6, 40), [1e10, 3.3e20, 1e50, 1e300]])
    device = real_device  # (the reference interpreter computes with SciPy's)
    dtype = np.float64 if device.supports_fp64 else np.float32
    rtol = 1e-12 if dtype == np.float64 else 3e-6
    for name, order in (("j0", 0), ("j1", 1), ("y0", 0), ("y1", 1)):
        mp_function = mpmath.besselj if name[0] == "j" else mpmath.bessely
        with mpmath.workdps(30):
            far_values = [float(mp_function(order, t)) for t in far]
        x = np.concatenate([near, far])
        want = np.concatenate([getattr(sp, name)(near), far_values])
        got = getattr(wf, name)(wf.asarray(x.astype(dtype))).to_numpy()
        # Near the zeros, an error of a few ulps of the envelope sqrt(2 / (pi x)).
        floor = np.sqrt(2 / (np.pi * np.maximum(x, 1))) * (4e-16 if dtype == np.float64
                                                          else 2e-7)
        if dtype == np.float32:  # (x rounded to float32 moves the far values)
            want = getattr(sp, name)(x.astype(np.float32).astype(np.float64))
        assert np.all(np.abs(got - want) <= rtol * np.abs(want) + 8 * floor), name
    n = np.array([0.0, 1.0, 2.0, 3.7, -3.2, 10.0, 40.0])
    xs = np.array([1.0, 5.0, 0.5, 3.0, 2.0, 12.0, 30.0])
    got = wf.yn(wf.asarray(n.astype(dtype)), wf.asarray(xs.astype(dtype))).to_numpy()
    np.testing.assert_allclose(got, sp.yv(np.trunc(n), xs), rtol=rtol)
    assert wf.jn is wf.jv
    odd = wf.jv(wf.asarray([3.0, 4.0]), wf.asarray([-2.5, -2.5])).to_numpy()
    np.testing.assert_allclose(odd, [-sp.jv(3, 2.5), sp.jv(4, 2.5)], rtol=rtol)


def test_edges(device):
    """SciPy's values at x = 0, x < 0, NaN and infinite orders; 0 at x = inf (SciPy: NaN,
    though J and Y tend to 0); Y of a negative half-integer order is 0 at x = 0, as the
    J_(n + 1/2) it equals (SciPy: +-inf)."""
    v = np.array([0.0, 2.0, 0.5, -0.5, -1.5, -2.0, -3.0, 0.5, 3.0, np.inf, np.nan, 1.0, 2.5,
                  -2.5, 1.0])
    x = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, -1.0, 1.0, 1.0, np.nan, np.inf,
                  np.inf, -np.inf])
    a, b = wf.asarray(v), wf.asarray(x)
    j, y = wf.jv(a, b).to_numpy(), wf.yv(a, b).to_numpy()
    want_j = [1.0, 0.0, 0.0, np.inf, -np.inf, 0.0, 0.0, np.nan, -sp.jv(3, 1.0), 0.0, np.nan,
              np.nan, 0.0, 0.0, 0.0]
    want_y = [-np.inf, -np.inf, -np.inf, 0.0, 0.0, -np.inf, np.inf, np.nan, np.nan, np.nan,
              np.nan, np.nan, 0.0, 0.0, np.nan]
    np.testing.assert_allclose(j, want_j, rtol=1e-14)
    np.testing.assert_allclose(y, want_y, rtol=1e-14)
    # J_v(0) of a negative non-integer order has the sign of 1 / Gamma(v + 1).
    orders = np.array([-0.3, -1.3, -2.3, -3.3])
    got = wf.jv(wf.asarray(orders), wf.asarray(np.zeros(4))).to_numpy()
    assert np.array_equal(got, np.copysign(np.inf, sp.rgamma(orders + 1)))
    # Huge orders: J underflows to 0 and Y overflows to -inf without looping to the order.
    big = wf.asarray([1e8, 1e15])
    assert wf.jv(big, wf.asarray([1.0, 30.0])).to_numpy().tolist() == [0.0, 0.0]
    assert wf.yv(big, wf.asarray([1.0, 30.0])).to_numpy().tolist() == [-np.inf, -np.inf]


def test_float32_rounds_the_double_value(device):
    v = V[np.abs(V) < 50].astype(np.float32)
    x = X[np.abs(V) < 50].astype(np.float32)
    for name in ("jv", "yv"):
        got = getattr(wf, name)(wf.asarray(v), wf.asarray(x)).to_numpy()
        assert got.dtype == np.float32
        with np.errstate(over="ignore"):
            want = getattr(sp, name)(v.astype(np.float64), x.astype(np.float64))
        envelope = np.sqrt(2 / (np.pi * np.maximum(x, 1.0)))
        floor = np.where(x > np.abs(v), envelope * 1e-7, 0)
        finite = np.isfinite(want) & (np.abs(want) < 3e38) & (np.abs(want) > 1e-37)
        err = np.abs(got[finite] - want[finite]) - 3e-7 * np.abs(want[finite])
        assert np.all(err <= floor[finite] * 2), name


def _mpmath_derivatives(mp_function, v, x) -> tuple[list[float], list[float]]:
    """d/dx and d/dv of ``mp_function(v, x)`` at each pair, to 30 digits."""
    with mpmath.workdps(30):
        dx = [float(mpmath.diff(lambda t, a=a: mp_function(a, t), b)) for a, b in zip(v, x)]
        dv = [float(mpmath.diff(lambda s, b=b: mp_function(s, b), a)) for a, b in zip(v, x)]
    return dx, dv


def _summed(function):
    return lambda *args: wf.sum(function(*args))


def test_gradients_in_x_and_in_the_order(device):
    """d/dx against mpmath's derivative in x; d/dv against its derivative in the order
    (within 1e-9: the differences' error)."""
    if not device.supports_fp64:
        pytest.skip("no float64 on this device")
    v = np.array([0.3, 1.7, 2.5, -0.7, 5.0, 0.0])
    x = np.array([1.5, 3.0, 30.0, 8.0, 4.0, 0.7])
    for name, mp_function in (("jv", mpmath.besselj), ("yv", mpmath.bessely)):
        dv, dx = wf.grad(_summed(getattr(wf, name)), argnums=(0, 1))(wf.asarray(v),
                                                                     wf.asarray(x))
        want_dx, want_dv = _mpmath_derivatives(mp_function, v, x)
        np.testing.assert_allclose(dx.to_numpy(), want_dx, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(dv.to_numpy(), want_dv, rtol=1e-9, atol=1e-11)
    for name, want in (("j0", lambda t: -sp.j1(t)),
                       ("j1", lambda t: 0.5 * (sp.j0(t) - sp.jv(2, t))),
                       ("y0", lambda t: -sp.y1(t)),
                       ("y1", lambda t: 0.5 * (sp.y0(t) - sp.yv(2, t)))):
        point = np.array([0.0 if name[0] == "j" else 0.2, 0.5, 3.0])
        got = wf.grad(_summed(getattr(wf, name)))(wf.asarray(point)).to_numpy()
        np.testing.assert_allclose(got, want(point), rtol=1e-12, atol=1e-15)


def test_integer_orders_by_the_recurrence_against_mpmath(real_device):
    """jv at integer orders to 64 and yv at integer orders (bessel_integer.py: upward from
    orders 0 and 1, J downward by Miller's algorithm where x <= n) within 1e-13 of mpmath,
    relative where the function is monotone and against the modulus where it oscillates;
    negative orders and arguments by their parities, order 65 by the general algorithm."""
    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    orders = [2, 3, 5, 10, 30, 64, 65, -7]
    pairs = [(n, t) for n in orders
             for t in (1e-300, 1e-9, 0.5, 0.98 * abs(n), abs(n), 1.02 * abs(n),
                       3 * abs(n) + 10, 1e4, -2.5)]
    v = np.array([float(n) for n, _ in pairs])
    x = np.array([t for _, t in pairs])
    j, y = wf.eval(wf.jv(wf.asarray(v), wf.asarray(x)), wf.yv(wf.asarray(v), wf.asarray(x)))
    j, y = j.to_numpy(), y.to_numpy()
    with mpmath.workdps(30):
        want_j = np.array([float(mpmath.besselj(int(n), t)) for n, t in pairs])
        want_y = np.array([float(mpmath.bessely(int(n), t)) if t > 0 else np.nan
                           for n, t in pairs])
    modulus = np.hypot(want_j, np.nan_to_num(want_y, nan=0.0, posinf=0.0, neginf=0.0))
    oscillating = np.abs(x) > np.abs(v)
    for got, want in ((j, want_j), (y, want_y)):
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.array_equal(got[np.isinf(want)], want[np.isinf(want)])
        keep = np.isfinite(want) & (np.abs(want) > 1e-300)
        scale = np.where(oscillating, np.maximum(np.abs(want), modulus), np.abs(want))
        error = np.abs(got[keep] - want[keep]) / scale[keep]
        assert error.max() < 1e-13, (error.max(), v[keep][np.argmax(error)],
                                     x[keep][np.argmax(error)])
