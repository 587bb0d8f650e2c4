"""SciPy's convex-analysis functions (convex_analysis.py) and NumPy's fix against SciPy and
NumPy on every device: values, the domain's edges, dtypes, and gradients."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sp

import weft as wf

EDGES = np.array([0.0, -0.0, 1.0, -1.0, 2.5, 1e-300, 1e300, np.inf, -np.inf, np.nan])
PAIRS = [grid.ravel() for grid in np.meshgrid(EDGES, EDGES)]
_RNG = np.random.default_rng(12)
X, Y = _RNG.uniform(-1, 4, 400), _RNG.uniform(-1, 4, 400)
X[::7] = 0.0


@pytest.mark.parametrize("name", ["rel_entr", "kl_div", "huber", "pseudo_huber"])
def test_binary_convex_functions_match_scipy(device, name):
    ours, theirs = getattr(wf, name), getattr(sp, name)
    x, y = np.concatenate([X, PAIRS[0]]), np.concatenate([Y, PAIRS[1]])
    got = ours(wf.asarray(x), wf.asarray(y)).to_numpy()
    with np.errstate(all="ignore"):
        want = theirs(x, y)
    if name == "kl_div":
        # SciPy's x/y overflows (inf) and underflows (-inf) at (1e300, 1e-300) and back;
        # weft's log(x) - log(y) there gives the values, 1.38e303 and 1e300.
        with np.errstate(all="ignore"):
            extreme = (np.abs(np.log10(np.abs(x) + 1e-320) - np.log10(np.abs(y) + 1e-320))
                       > 590) & (x > 0) & (y > 0) & np.isfinite(x) & np.isfinite(y)
        np.testing.assert_allclose(got[extreme], x[extreme] * (np.log(x[extreme]) - np.log(
            y[extreme])) - x[extreme] + y[extreme], rtol=1e-14)
        got, want, x, y = got[~extreme], want[~extreme], x[~extreme], y[~extreme]
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite], want[~finite])
    # kl_div's x log(x/y) - x + y cancels where x is near y: an error of an ulp of x or y.
    scale = np.nan_to_num(np.abs(x[finite]) + np.abs(y[finite]))  # (pseudo_huber(nan, 0) is 0)
    err = np.abs(got[finite] - want[finite])
    assert np.all(err <= 1e-14 * np.abs(want[finite]) + 4e-16 * scale), err.max()
    small = ours(wf.asarray(X.astype(np.float32)), 0.75)
    assert small.dtype == np.float32
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(small.to_numpy(), theirs(X.astype(np.float32), 0.75),
                                   rtol=2e-6, atol=1e-7)


def test_entr_and_fix_match_scipy_and_numpy(device):
    x = np.concatenate([X, EDGES])
    np.testing.assert_allclose(wf.entr(wf.asarray(x)).to_numpy(), sp.entr(x), rtol=1e-14)
    np.testing.assert_array_equal(wf.fix(wf.asarray(x)).to_numpy(), np.fix(x))
    integers = np.array([3, -2, 0])
    fixed = wf.fix(wf.asarray(integers))
    assert fixed.dtype == np.int64 and fixed.tolist() == [3, -2, 0]
    assert wf.fix(wf.asarray([True, False])).tolist() == [True, False]


def test_convex_functions_gradients(device):
    """entr' = -(log x + 1); rel_entr's = (log(x/y) + 1, -x/y); kl_div's = (log(x/y),
    1 - x/y); huber's in r = r inside delta, delta sign(r) beyond; pseudo_huber's in r =
    r / sqrt(1 + (r/delta)^2)."""
    x, y = _RNG.uniform(0.2, 3, 16), _RNG.uniform(0.2, 3, 16)
    r = _RNG.uniform(-4, 4, 16)
    wx, wy, wr = wf.asarray(x), wf.asarray(y), wf.asarray(r)
    rtol = 1e-12 if device.supports_fp64 else 1e-5
    np.testing.assert_allclose(wf.grad(lambda a: wf.sum(wf.entr(a)))(wx).to_numpy(),
                               -(np.log(x) + 1), rtol=rtol)
    dx, dy = wf.grad(lambda a, b: wf.sum(wf.rel_entr(a, b)), argnums=(0, 1))(wx, wy)
    np.testing.assert_allclose(dx.to_numpy(), np.log(x / y) + 1, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(dy.to_numpy(), -x / y, rtol=rtol)
    dx, dy = wf.grad(lambda a, b: wf.sum(wf.kl_div(a, b)), argnums=(0, 1))(wx, wy)
    np.testing.assert_allclose(dx.to_numpy(), np.log(x / y), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(dy.to_numpy(), 1 - x / y, rtol=rtol, atol=rtol)
    dr = wf.grad(lambda a: wf.sum(wf.huber(1.5, a)))(wr).to_numpy()
    np.testing.assert_allclose(dr, np.where(np.abs(r) <= 1.5, r, 1.5 * np.sign(r)), rtol=rtol)
    dr = wf.grad(lambda a: wf.sum(wf.pseudo_huber(1.5, a)))(wr).to_numpy()
    np.testing.assert_allclose(dr, r / np.sqrt(1 + (r / 1.5) ** 2), rtol=rtol)
