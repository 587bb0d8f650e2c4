"""Epilogues: a small element-wise step after a CPU reduction of one work-item runs in that
work-item once its results are stored (``KernelIR.epilogue``), one launch instead of two.
Values against NumPy on every device; the kernels for a CPU target; checks that fail in
the epilogue; and the steps that stay apart."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import weft as wf
from weft import tuning
from weft.compiler import Target, compile, temporary_leaf
from weft.target import Traits

CPU = Traits(is_cpu=True, reduction_groups=4, row_band=16, column_band=64)


def _kernels(arrays) -> list:
    from weft.backends.opencl.dialect import OPENCL

    outputs = [(a._node, temporary_leaf(a.shape, a.dtype)) for a in arrays]
    return compile(outputs, Target(OPENCL, CPU)).kernels


def _joins(device) -> bool:
    return bool(device.target.traits.is_cpu and device.target.dialect is not None)


def test_a_sum_then_a_small_step_is_one_kernel(device):
    rng = np.random.default_rng(3)
    xh, yh, zh = rng.standard_normal(3000), rng.standard_normal(7), rng.standard_normal(7)
    x, y, z = wf.asarray(xh), wf.asarray(yh), wf.asarray(zh)
    out = y * x.sum() + wf.exp(z)
    from weft.backends.opencl.dialect import OPENCL

    (kernel,) = _kernels([out])
    assert kernel.ir.epilogue and "epilogue_n" in kernel.source(OPENCL)
    np.testing.assert_allclose(out.to_numpy(), yh * xh.sum() + np.exp(zh), rtol=1e-12)


def test_an_epilogue_over_a_matrix_reads_rows_and_columns(device):
    rng = np.random.default_rng(4)
    xh = rng.standard_normal((40, 30)).astype(np.float32)
    vh, wh = rng.standard_normal(5).astype(np.float32), rng.standard_normal(3)
    x, v, w = wf.asarray(xh), wf.asarray(vh), wf.asarray(wh)
    total = x.sum()
    out = wf.asarray(np.ones((3, 5))) * total + v[None, :] - w[:, None]
    assert len(_kernels([out])) == 1
    want = np.float64(xh.astype(np.float64).sum(dtype=np.float64)) + vh[None, :] - wh[:, None]
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-6)


def test_an_epilogue_may_overwrite_what_the_reduction_read(device):
    xh = np.random.default_rng(5).standard_normal(200)
    x = wf.asarray(xh)
    x[...] = x - x.mean()
    np.testing.assert_allclose(x.to_numpy(), xh - xh.mean(), rtol=1e-12, atol=1e-14)


def test_a_density_with_a_prior_is_one_launch(device):
    """The example's value and gradient: the GLM's sums, then the prior and the gradient's
    assembly as the epilogue (one launch on CPUs)."""
    path = Path(__file__).resolve().parents[2] / "examples" / "hmc_logistic.py"
    spec = importlib.util.spec_from_file_location("hmc_logistic", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    xh, yh = example.simulate(500, np.array([0.5, 1.0, -2.0, 0.25]))
    value_and_grad = example.make_log_density(xh, yh)
    for theta in np.random.default_rng(8).normal(0, 0.5, (4, 4)):  # traced, then replayed
        lp, g = value_and_grad(wf.asarray(theta))
        eta = theta[0] + xh @ theta[1:]
        d = yh - 1 / (1 + np.exp(-eta))
        want = (np.sum(yh * eta - np.logaddexp(0, eta))
                - 0.5 * np.sum(theta**2) / 2.5**2 - 4 * np.log(2.5 * np.sqrt(2 * np.pi)))
        assert float(lp) == pytest.approx(want, rel=1e-12)
        np.testing.assert_allclose(g.to_numpy(), np.concatenate([[d.sum()], xh.T @ d])
                                   - theta / 2.5**2, rtol=1e-11)
    if _joins(device):
        (trace,) = value_and_grad.plans.values()
        assert len(trace.replay.steps) == 1


def test_a_row_walk_takes_an_epilogue(device):
    """A wider GLM is a row walk (its rows read once for the value and the gradient); its
    prior and the gradient's assembly follow in the same work-item on CPUs."""
    rng = np.random.default_rng(10)
    xh, yh = rng.standard_normal((700, 10)), (rng.random(700) < 0.5).astype(np.float64)
    x, y = wf.asarray(xh), wf.asarray(yh)

    def density(theta):
        return (wf.stats.bernoulli_logit_glm_lpmf(y, x, theta[0], theta[1:])
                + wf.stats.normal_lpdf(theta, 0.0, 2.5))

    value_and_grad = wf.function(wf.value_and_grad(density))
    for theta in rng.normal(0, 0.3, (3, 11)):
        lp, g = value_and_grad(wf.asarray(theta))
        eta = theta[0] + xh @ theta[1:]
        d = yh - 1 / (1 + np.exp(-eta))
        want = (np.sum(yh * eta - np.logaddexp(0, eta)) - 0.5 * np.sum(theta**2) / 2.5**2
                - 11 * np.log(2.5 * np.sqrt(2 * np.pi)))
        assert float(lp) == pytest.approx(want, rel=1e-12)
        np.testing.assert_allclose(g.to_numpy(), np.concatenate([[d.sum()], xh.T @ d])
                                   - theta / 2.5**2, rtol=1e-11, atol=1e-12)
    if _joins(device):
        (trace,) = value_and_grad.plans.values()
        (step,) = trace.replay.steps
        assert step.ir.skeleton == "row_walk" and step.ir.epilogue


def test_a_check_that_fails_in_the_epilogue_names_its_element(device):
    rng = np.random.default_rng(9)
    xh, vh = rng.standard_normal(3000), rng.standard_normal(4)
    x, v = wf.asarray(xh), wf.asarray(vh)
    take = wf.function(lambda x, v, at: v[at] * x.sum())
    for at in ([1, 3, 2, 0], [0, 0, 1, 1], [3, 2, 1, 0]):  # traced, then replayed
        np.testing.assert_allclose(take(x, v, wf.asarray(np.array(at))).to_numpy(),
                                   vh[at] * xh.sum(), rtol=1e-12)
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 4"):
        take(x, v, wf.asarray(np.array([1, 3, 9, 0]))).to_numpy()
    np.testing.assert_allclose(take(x, v, wf.asarray(np.array([2, 2, 2, 2]))).to_numpy(),
                               vh[2] * xh.sum(), rtol=1e-12)
    if _joins(device):
        (trace,) = take.plans.values()
        assert len(trace.replay.steps) == 1


def test_a_split_sum_hands_its_epilogue_to_the_pass_adding_the_splits(device):
    rng = np.random.default_rng(7)
    longh, smallh = rng.standard_normal(1 << 17), rng.standard_normal(4)
    out = wf.asarray(smallh) * wf.asarray(longh).sum()
    first, combining = _kernels([out])
    assert not first.ir.epilogue and combining.ir.epilogue
    if _joins(device):  # the combining pass is shown: it holds the step
        assert "epilogue_n" in wf.kernel_source(out)
    np.testing.assert_allclose(out.to_numpy(), smallh * longh.sum(), rtol=1e-11)


def test_what_stays_apart():
    """A step past ``tuning.EPILOGUE_ELEMENTS``, a reduction after a reduction and every
    step without fusion keep their own launches."""
    rng = np.random.default_rng(6)
    x = wf.asarray(rng.standard_normal(3000))
    big = wf.asarray(rng.standard_normal(tuning.EPILOGUE_ELEMENTS + 1))
    assert [bool(k.ir.epilogue) for k in _kernels([big * x.sum()])] == [False, False]
    small = wf.asarray(rng.standard_normal(4))
    assert [bool(k.ir.epilogue) for k in _kernels([(small * x.sum()).sum()])] == [False,
                                                                                   False]
    with wf.config(fuse=False):  # one kernel per operation, as asked
        assert [bool(k.ir.epilogue) for k in _kernels([small * x.sum()])] == [False, False]
