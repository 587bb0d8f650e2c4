"""A value and its gradients, read one by one as a user reads them (``float(value)``, then
each gradient), are computed together: the same launches as ``wf.eval(value, *grads)``, the
values of NumPy's formulas. A member dropped unread leaves the others to compute, one written
before the read is computed as written, and a ``vjp`` pullback's gradients are grouped too."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf


def _logistic_reference(n, x, alpha, beta):
    eta = alpha + x @ beta
    d = n - 1 / (1 + np.exp(-eta))
    return np.sum(n * eta - np.logaddexp(0, eta)), d.sum(), x.T @ d


def test_a_value_and_its_gradients_are_computed_together(device):
    rng = np.random.default_rng(11)
    xn = rng.standard_normal((300, 4))
    nn = (rng.uniform(size=300) < 0.4).astype(np.int32)
    bn = rng.standard_normal(4) * 0.3
    x, n = wf.asarray(xn), wf.asarray(nn)
    vg = wf.value_and_grad(lambda a, b: wf.stats.bernoulli_logit_glm_lpmf(n, x, a, b),
                           argnums=(0, 1))
    want_value, want_alpha, want_beta = _logistic_reference(nn, xn, 0.2, bn)

    def launches_reading(together_first: bool) -> int:
        value, (ga, gb) = vg(wf.asarray(0.2), wf.asarray(bn))
        before = wf.cache_info()["launches"]
        if together_first:
            wf.eval(value, ga, gb)
        assert float(value) == pytest.approx(want_value, rel=1e-12)
        assert not ga.is_lazy and not gb.is_lazy  # read with the value
        np.testing.assert_allclose(gb.to_numpy(), want_beta, rtol=1e-11)
        assert float(ga) == pytest.approx(want_alpha, rel=1e-11)
        return wf.cache_info()["launches"] - before

    launches_reading(True)  # compiles
    assert launches_reading(False) == launches_reading(True)

    # A member dropped unread is not computed; one written before the read is computed as
    # written; a pullback's gradients are computed together too.
    value, (ga, gb) = vg(wf.asarray(0.2), wf.asarray(bn))
    del value
    gb += 1.0
    np.testing.assert_allclose(gb.to_numpy(), want_beta + 1, rtol=1e-11)
    assert not ga.is_lazy
    _, pullback = wf.vjp(lambda a, b: a * b, wf.asarray([1.0, 2.0]), wf.asarray([3.0, 4.0]))
    g1, g2 = pullback(wf.asarray([1.0, -1.0]))
    assert g1.tolist() == [3.0, -4.0] and not g2.is_lazy and g2.tolist() == [1.0, -2.0]
