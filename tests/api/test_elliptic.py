"""Complete elliptic integrals (``ellipk``, ``ellipkm1``, ``ellipe``) against SciPy over
their whole domains and at their special values, in float64 and float32, on every device;
their gradients against the closed forms dK/dm = (E − (1 − m)K) / (2m(1 − m)) and
dE/dm = (E − K) / (2m)."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

special = pytest.importorskip("scipy.special")

RNG = np.random.default_rng(12)
M = np.concatenate([np.linspace(-50, 1, 301), -np.logspace(-300, 300, 60),
                    1 - np.logspace(-16, 0, 60), RNG.uniform(0, 1, 40),
                    [1.0, 1.5, -np.inf, np.inf, np.nan, 0.0, -0.0]])
P = np.concatenate([np.logspace(-300, 300, 120), [0.0, -1.0, np.inf, np.nan]])
# Relative tolerances: E's sum cancels as m approaches 1 (elliptic.py).
RTOL = {"float64": {"ellipk": 1e-15, "ellipkm1": 1e-15, "ellipe": 5e-15},
        "float32": {"ellipk": 6e-8, "ellipkm1": 6e-8, "ellipe": 6e-8}}  # rounded once


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_complete_integrals_match_scipy(device, dtype):
    with np.errstate(all="ignore"):  # (float32 rounds the largest arguments to infinity)
        m, p = M.astype(dtype), P.astype(dtype)
        want = {"ellipk": special.ellipk(m), "ellipkm1": special.ellipkm1(p),
                "ellipe": special.ellipe(m)}
    got = dict(zip(want, wf.eval(wf.ellipk(wf.asarray(m)), wf.ellipkm1(wf.asarray(p)),
                                 wf.ellipe(wf.asarray(m)))))
    for name, value in got.items():
        assert value.dtype == np.dtype(dtype), name
        expected = want[name].astype(dtype)
        np.testing.assert_allclose(value.to_numpy(), expected, rtol=RTOL[dtype][name],
                                   atol=0, equal_nan=True, err_msg=name)


def test_special_values(device):
    m = wf.asarray([1.0, 2.0, -np.inf, 0.0])
    k, e = wf.eval(wf.ellipk(m), wf.ellipe(m))
    assert k.tolist()[0] == np.inf and np.isnan(k.tolist()[1]) and k.tolist()[2] == 0.0
    assert e.tolist()[0] == 1.0 and np.isnan(e.tolist()[1]) and e.tolist()[2] == np.inf
    assert k.tolist()[3] == e.tolist()[3] == np.pi / 2
    assert float(wf.ellipkm1(wf.asarray(0.0))) == np.inf
    assert wf.ellipk(wf.asarray([1, 0])).dtype == wf.float64  # integers give float64


def test_gradients_match_the_closed_forms(device):
    m = np.concatenate([RNG.uniform(-5, 0.999, 20), [0.3, -2.0, 0.99]])
    x = wf.asarray(m)
    dk = wf.grad(lambda x: wf.ellipk(x).sum())(x).to_numpy()
    de = wf.grad(lambda x: wf.ellipe(x).sum())(x).to_numpy()
    p = 1 - m
    dkm1 = wf.grad(lambda p: wf.ellipkm1(p).sum())(wf.asarray(p)).to_numpy()
    k, e = special.ellipk(m), special.ellipe(m)
    np.testing.assert_allclose(dk, (e - (1 - m) * k) / (2 * m * (1 - m)), rtol=1e-11)
    np.testing.assert_allclose(de, (e - k) / (2 * m), rtol=1e-11)
    np.testing.assert_allclose(dkm1, -(e - (1 - m) * k) / (2 * m * (1 - m)), rtol=1e-11)
