"""How many passes a gradient takes: a GLM's value and gradient read x twice at most (once
where one row walk computes them), its per-row derivative is computed once per row, and a
scale parameter's gradient needs no kernel of its own; each against NumPy's values too."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf


def _record_launches(device, monkeypatch) -> list[tuple]:
    """From a cleared cache on: the size, the op names and the IR of each kernel launched (a
    first evaluation launches through ``backend.launch``; replays bind their own)."""
    launched: list[tuple] = []
    original = device.backend.launch

    def launch(dev, program, ir, args, size, *rest):
        launched.append((size, {s.op for s in ir.body if hasattr(s, "op")}, ir))
        return original(dev, program, ir, args, size, *rest)

    monkeypatch.setattr(device.backend, "launch", launch)
    wf.clear_cache()
    return launched


@pytest.mark.parametrize("columns", [2, 40])
def test_glm_value_and_gradient_read_x_twice_at_most(device, monkeypatch, columns):
    """A GLM's value and its gradients come from one evaluation: one pass over x computes
    the linear predictor with every per-row quantity, one more forms x.T @ d (where x has a
    few columns, its sums are the first pass's, written straight into beta's gradient)."""
    rng = np.random.default_rng(columns)
    rows = 1000
    xs, ys = rng.standard_normal((rows, columns)), rng.standard_normal(rows)
    beta0 = rng.standard_normal(columns) * 0.1
    x, y = wf.asarray(xs), wf.asarray(ys)
    launched = _record_launches(device, monkeypatch)
    value, (g_beta, g_alpha, g_sigma) = wf.value_and_grad(
        lambda b, a, s: wf.stats.normal_id_glm_lpdf(y, x, a, b, s), argnums=(0, 1, 2))(
        wf.asarray(beta0), 0.3, 1.7)
    wf.eval(value, g_beta, g_alpha, g_sigma)
    monkeypatch.undo()
    if device.kind != "reference":
        # Kernels over x's elements (wide), or over its rows, reading its few columns.
        passes = [size for size, *_ in launched]
        over_x = [n for n in passes if n == (rows if columns <= 8 else rows * columns)]
        assert len(over_x) == (1 if columns <= 8 else 2) and (columns > 8 or passes == over_x)
    residual = ys - 0.3 - xs @ beta0
    np.testing.assert_allclose(g_beta.to_numpy(), xs.T @ residual / 1.7**2, rtol=1e-10)
    np.testing.assert_allclose(float(g_alpha), residual.sum() / 1.7**2, rtol=1e-10)
    np.testing.assert_allclose(float(g_sigma), -rows / 1.7 + (residual**2).sum() / 1.7**3,
                               rtol=1e-10)


def test_logistic_glm_gradient_reads_its_per_row_derivative_stored(device, monkeypatch):
    """The per-row derivative (an inv_logit of the linear predictor) is computed once per
    row and stored, not once per element of x in the pass forming x.T @ d; or, where one
    row walk reads x (CPUs), in the walk's per-row phase and nowhere else."""
    from weft.ir import ROW_WALK
    from weft.rowwalk import phases

    rng = np.random.default_rng(5)
    rows, columns = 300, 40
    xs = rng.standard_normal((rows, columns))
    ns = (rng.random(rows) < 0.4).astype(np.int32)
    beta0 = rng.standard_normal(columns) * 0.2
    x, n = wf.asarray(xs), wf.asarray(ns)
    launched = _record_launches(device, monkeypatch)
    value, (g_beta, g_alpha) = wf.value_and_grad(
        lambda b, a: wf.stats.bernoulli_logit_glm_lpmf(n, x, a, b), argnums=(0, 1))(
        wf.asarray(beta0), -0.2)
    wf.eval(value, g_beta, g_alpha)
    monkeypatch.undo()
    if device.kind != "reference":
        over_x = [(ops, ir) for size, ops, ir in launched if size == rows * columns]
        if over_x[0][1].skeleton == ROW_WALK:
            assert len(over_x) == 1, launched
            walk = phases(over_x[0][1])
            per_row, per_element = ({getattr(s, "op", None) for s in statements}
                                    for statements in (walk.per_row,
                                                       (*walk.row_loop, *walk.column_loop)))
            assert "inv_logit" in per_row or "exp" in per_row, per_row
            assert not {"inv_logit", "exp"} & per_element, per_element
        else:
            assert len(over_x) == 2, launched
            assert all("inv_logit" not in ops and "exp" not in ops for ops, _ in over_x), over_x
    residual = ns - 1 / (1 + np.exp(-(xs @ beta0 - 0.2)))
    np.testing.assert_allclose(g_beta.to_numpy(), xs.T @ residual, rtol=1e-10)
    np.testing.assert_allclose(float(g_alpha), residual.sum(), rtol=1e-10)


def test_a_scale_parameters_gradient_needs_no_kernel_of_its_own(device, monkeypatch):
    """At small sizes the adjoint of a 0-d value (1 / sigma) passes on spread over the
    elements, so sigma's gradient is one more sum in the value's reduction kernel, not a
    scalar kernel after it."""
    ys = np.random.default_rng(6).standard_normal(1000)
    y = wf.asarray(ys)
    launched = _record_launches(device, monkeypatch)
    value, (g_mu, g_sigma) = wf.value_and_grad(
        lambda m, s: wf.stats.normal_lpdf(y, m, s), argnums=(0, 1))(0.2, 1.4)
    wf.eval(value, g_mu, g_sigma)
    monkeypatch.undo()
    if device.kind != "reference":
        sizes = [size for size, *_ in launched]
        assert 1 not in sizes, sizes
    z = (ys - 0.2) / 1.4
    np.testing.assert_allclose(float(g_mu), z.sum() / 1.4, rtol=1e-12)
    np.testing.assert_allclose(float(g_sigma), (z * z - 1).sum() / 1.4, rtol=1e-12)
