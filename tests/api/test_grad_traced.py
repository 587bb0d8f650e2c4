"""Gradients of lazy arguments, and gradients inside traced functions.

A lazy argument (``x * 2 + 1``) is computed first, in place, except inside a traced
function's trace, where it is differentiated as the expression it is: a ``wf.function``
whose step calls a traced value-and-gradient (an HMC leapfrog step) is then one trace that
replays, instead of running as plain Python and handing back expressions that grow with
every call. Values are checked against NumPy's formulas of the same model, step by step."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import weft as wf
from weft.trace import Trace


def _logistic(x: np.ndarray, y: np.ndarray, theta: np.ndarray) -> tuple[float, np.ndarray]:
    """A logistic regression's log density (normal(0, 2.5) priors) and its gradient."""
    eta = theta[0] + x @ theta[1:]
    d = y - 1 / (1 + np.exp(-eta))
    value = (np.sum(y * eta - np.logaddexp(0, eta)) - 0.5 * np.sum(theta**2) / 2.5**2
             - theta.size * (np.log(2.5) + 0.5 * np.log(2 * np.pi)))
    return value, np.concatenate([[d.sum()], x.T @ d]) - theta / 2.5**2


@pytest.fixture
def model():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((400, 3))
    y = (rng.random(400) < 0.4).astype(np.float64)
    x_dev, y_dev = wf.asarray(x), wf.asarray(y)

    def log_density(theta):
        prior = wf.stats.normal_lpdf(theta, 0.0, 2.5)
        return wf.stats.bernoulli_logit_glm_lpmf(y_dev, x_dev, theta[0], theta[1:]) + prior

    return x, y, log_density


def test_a_leapfrog_step_around_a_traced_gradient_traces_whole(device, model):
    x, y, log_density = model
    value_and_grad = wf.function(wf.value_and_grad(log_density))

    @wf.function
    def leapfrog(theta, p, g, step):
        p = p + g * 0.5 * step  # (0.5 * step would be host arithmetic: a static step)
        theta = theta + p * step
        lp, g = value_and_grad(theta)  # theta is lazy here: part of this step's expression
        return theta, p + g * 0.5 * step, lp, g

    theta_np, p_np = np.zeros(4), np.array([0.3, -0.2, 0.1, 0.5])
    _, g_np = _logistic(x, y, theta_np)
    theta, p, g = wf.asarray(theta_np), wf.asarray(p_np), wf.asarray(g_np)
    launches = []
    for k in range(12):
        step = 0.01 * (1 + k % 3)
        before = wf.cache_info()["launches"]
        theta, p, lp, g = leapfrog(theta, p, g, step)
        launches.append(wf.cache_info()["launches"] - before)
        p_np = p_np + 0.5 * step * g_np
        theta_np = theta_np + step * p_np
        lp_np, g_np = _logistic(x, y, theta_np)
        p_np = p_np + 0.5 * step * g_np
        assert not any(a.is_lazy for a in (theta, p, lp, g))  # values, not growing graphs
        np.testing.assert_allclose(theta.to_numpy(), theta_np, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(p.to_numpy(), p_np, rtol=1e-11, atol=1e-14)
        np.testing.assert_allclose(g.to_numpy(), g_np, rtol=1e-11, atol=1e-12)
        assert float(lp) == pytest.approx(lp_np, rel=1e-12)
    assert [type(plan) for plan in leapfrog.plans.values()] == [Trace]  # steps don't retrace
    assert len(set(launches[2:])) == 1  # the replay launches the same kernels every step


@pytest.mark.parametrize("how", ["grad", "vjp", "hessian-vector"])
def test_gradients_of_lazy_arguments(device, how):
    a_np = np.array([0.5, -1.0, 2.0])
    a = wf.asarray(a_np)
    lazy = a * 2.0 + 1.0  # the argument: an expression, computed first, in place
    u_np = 2 * a_np + 1
    if how == "grad":
        got = wf.grad(lambda u: (wf.exp(u) * u).sum())(lazy).to_numpy()
        want = np.exp(u_np) * (u_np + 1)
    elif how == "vjp":
        value, pullback = wf.vjp(lambda u: wf.sin(u) * u, lazy)
        (got,) = pullback(wf.asarray([1.0, 2.0, 3.0]))
        got = got.to_numpy()
        np.testing.assert_allclose(value.to_numpy(), np.sin(u_np) * u_np, rtol=1e-14)
        want = np.array([1.0, 2.0, 3.0]) * (np.cos(u_np) * u_np + np.sin(u_np))
    else:  # the gradient's own argument lazy, and the gradient's gradient along v
        v = wf.asarray([1.0, 0.0, -1.0])
        inner = wf.grad(lambda u: (u**3).sum())
        got = wf.grad(lambda u: (inner(u * 1.0) * v).sum())(lazy).to_numpy()
        want = 6 * u_np * np.array([1.0, 0.0, -1.0])
    np.testing.assert_allclose(got, want, rtol=1e-13)
    assert not lazy.is_lazy
    # The gradient through an outer expression of the argument still reaches it.
    outer = wf.grad(lambda b: wf.grad(lambda u: (u * u).sum())(b * 3.0).sum())
    assert outer(a).tolist() == [6.0, 6.0, 6.0]  # d/db of sum(2 * 3b)


def test_a_traced_float_inside_a_lazy_argument_stays_a_run_time_value(device):
    x = wf.asarray([1.0, 2.0, 3.0])

    @wf.function
    def slope(c):
        return wf.grad(lambda u: (u * u * x).sum())(wf.full(3, c) * 2.0)

    for c in (0.5, 1.5, -2.0):
        np.testing.assert_allclose(slope(c).to_numpy(), 2 * (2 * c) * np.array([1, 2, 3.0]),
                                   rtol=1e-14)
    assert any(isinstance(plan, Trace) for plan in slope.plans.values())
    assert len(slope.plans) == 1


def test_a_long_chain_of_vector_additions_evaluates(device):
    """``p = p + 0.01 * g`` more times than Python's recursion limit, with vectors on both
    sides (the shape every step of a sampler has)."""
    depth = sys.getrecursionlimit() + 200
    g_np = np.array([1.0, -2.0, 0.5])
    g, p = wf.asarray(g_np), wf.asarray(np.zeros(3))
    for _ in range(depth):
        p = p + 0.01 * g
    np.testing.assert_allclose(p.to_numpy(), depth * 0.01 * g_np, rtol=1e-10)
