"""Values every element shares (scalar arguments, one broadcast element of an array, what ops
and casts make of those) are computed once per thread, before the kernel walks its elements
(``KernelIR.invariants``, the skeletons' ``invariants`` slot)."""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.stats

import weft as wf
from weft.compiler import compile, temporary_leaf
from weft.ir import Apply, Load, Store

N = (1 << 20) + 5  # large enough for the GPUs' vector and several-per-thread kernels


def _cases(rng):
    x32 = rng.standard_normal(N).astype(np.float32)
    x64 = rng.standard_normal(N)
    m = rng.standard_normal((300, 200))
    m2 = rng.standard_normal((200, 300))
    i32 = rng.integers(-100, 100, 4099).astype(np.int32)
    c32, c64, k, zero = np.float32(2.5), 1.75, np.int32(17), np.int32(0)

    def cases(x32_, x64_, m_, m2_, i32_, c32_, c64_, k_, zero_, flag_):
        log, exp, sqrt = (getattr(wf, f) if isinstance(x64_, wf.Array) else getattr(np, f)
                          for f in ("log", "exp", "sqrt"))
        where = wf.where if isinstance(x64_, wf.Array) else np.where
        return {
            "float32 vector": x32_ * log(c32_) + exp(c32_) / np.float32(3),
            "several per thread": x64_ * sqrt(c64_) - c64_ / 7.0,
            "tiled transpose": m_.T * log(c64_) + m2_,
            "column sums": (m_ * exp(c64_)).sum(axis=0),
            "row sums": (m_ / sqrt(c64_)).sum(axis=1),
            "full sum": (x64_ * (c64_ / 3.0)).sum(),
            "integer division by a zero scalar": i32_ + k_ // zero_ + k_ % 5,
            "selected scalar": where(flag_, c64_, 2.0) * x64_,
            "only a scalar stored": log(c64_) + 0.0 * x64_,
        }

    host = cases(x32, x64, m, m2, i32, c32, c64, k, zero, True)
    arrays = [wf.asarray(a) for a in (x32, x64, m, m2, i32)]
    zero_d = [wf.asarray(np.asarray(v)) for v in (c32, c64, k, zero, True)]
    return host, cases(*arrays, *zero_d)


def test_shared_values_match_numpy_in_every_kernel_shape(device):
    rng = np.random.default_rng(7)
    with np.errstate(divide="ignore"):
        want, got = _cases(rng)
    for name, expression in got.items():
        expected = np.asarray(want[name])
        rtol = 1e-5 if expected.dtype == np.float32 else 1e-12
        atol = rtol * float(np.abs(expected).max())  # float32 sums cancel near zero
        np.testing.assert_allclose(expression.to_numpy(), expected, rtol=rtol, atol=atol,
                                   err_msg=name)


@pytest.mark.parametrize("sigma", [1.7, "0-d array"])
def test_a_densitys_log_of_sigma_runs_once_per_thread(real_device, sigma):
    """The normal density's ``log(sigma)`` and ``1 / sigma``: one scalar each, computed before
    the walk, not per element (NVRTC left both in the loop)."""
    rng = np.random.default_rng(3)
    y, mu = rng.standard_normal(100_003), 0.25
    s = 1.7 if sigma == 1.7 else wf.asarray(np.asarray(1.7))
    density = wf.stats.normal_lpdf(wf.asarray(y), mu, s)
    source = wf.kernel_source(density)
    kernel = source[re.search(r"(__kernel|__global__) void", source).start():]  # not helpers
    walk = kernel.index("for (")
    calls = [m.start() for m in re.finditer(r"\b(log|weft_log_f64)\(", kernel)]
    assert len(calls) == 1 and calls[0] < walk
    want = scipy.stats.norm.logpdf(y, mu, 1.7).sum()
    np.testing.assert_allclose(float(density), want, rtol=1e-12)


def test_invariants_are_what_no_element_changes():
    """Scalars, a broadcast element and ops over those alone; not a walked load, what depends
    on one, or a store (which every element makes, even of a shared value)."""
    device = wf.get_device("reference")
    with wf.device(device):
        y = wf.asarray(np.arange(1.0, 6.0))
        c = wf.asarray(np.asarray(4.0))
        expression = (y * wf.log(c * 2.0)).sum()
    dest = temporary_leaf(expression.shape, expression.dtype)
    (kernel,) = compile([(expression._node, dest)], device.target).kernels
    ir = kernel.ir
    by_var = {s.var: s for s in ir.body if not isinstance(s, Store)}
    shared = {by_var[v].op if isinstance(by_var[v], Apply) else type(by_var[v]).__name__
              for v in ir.invariants}
    assert shared == {"Load", "ReadScalar", "multiply", "log"}
    walked = [s for s in ir.body if isinstance(s, Load) and s.var not in ir.invariants]
    assert len(walked) == 1 and walked[0].access == "flat"
    product = next(s for s in ir.body if isinstance(s, Apply) and walked[0].var in s.args)
    assert product.var not in ir.invariants
    np.testing.assert_allclose(float(expression), np.log(8.0) * 15.0, rtol=1e-15)
