"""Kernels whose parameters fit the device (breadth.py): an expression over more arrays than
one kernel's parameters hold (a loop adding a new array each turn, many outputs computed
together) is computed in parts, each kernel within ``Traits.parameter_bytes``; its values
are NumPy's. Expressions that fit are scheduled as before."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf
from weft import expr as ex
from weft import schedule
from weft.compiler import Target, TemporaryBuffer, compile, temporary_leaf
from weft.ops import OPS
from weft.target import Traits

SMALL = 1024  # the parameter bytes OpenCL guarantees (and PoCL reports)


def _kernels(outputs, parameter_bytes):
    dests = [(root, temporary_leaf(root.shape, root.dtype)) for root in outputs]
    return compile(dests, Target(None, Traits(parameter_bytes=parameter_bytes))).kernels


def _parameter_bytes(kernel) -> int:
    return 8 * len(kernel.arguments)  # pointers, offsets, strides and scalars: 8 bytes each


def test_a_loop_adding_a_new_array_each_turn(device):
    rng = np.random.default_rng(3)
    terms = [rng.standard_normal(7) for _ in range(300)]
    total, want = wf.zeros(7), np.zeros(7)
    for k, t in enumerate(terms):
        total = total + float(k % 5) * wf.asarray(t)
        want = want + float(k % 5) * t
    kernels = _kernels([total._node], SMALL)
    assert len(kernels) > 1
    assert all(_parameter_bytes(k) <= SMALL for k in kernels)
    assert len(_kernels([total._node], 0)) == 1  # no limit: one kernel
    np.testing.assert_allclose(total.to_numpy(), want, rtol=1e-12, atol=1e-12)
    wide_sum = (total * total).sum()  # a reduction whose operand is wide
    assert float(wide_sum) == pytest.approx(np.sum(want * want), rel=1e-12)


def test_many_outputs_computed_together_are_parted(device):
    arrays = [wf.asarray(np.full((2, 3), float(k))) for k in range(120)]
    outs = [arrays[k] * 2.0 + arrays[(k + 1) % 120] for k in range(120)]
    kernels = _kernels([o._node for o in outs], SMALL)
    assert len(kernels) > 1 and all(_parameter_bytes(k) <= SMALL for k in kernels)
    wf.eval(*outs)
    for k, o in enumerate(outs):
        np.testing.assert_array_equal(o.to_numpy(), np.full((2, 3), 2.0 * k + (k + 1) % 120))


def test_outputs_reading_each_others_destinations_stay_in_one_kernel():
    """Each element is read before it is written within one kernel; parted, a later kernel
    would read what an earlier one wrote."""
    buffers = [TemporaryBuffer(wf.float64, 4) for _ in range(80)]
    leaves = [ex.buffer(b, (4,)) for b in buffers]
    swapped = [(leaves[(k + 1) % 80], leaves[k]) for k in range(80)]
    steps = schedule.fused(swapped, lambda n: temporary_leaf(n.shape, n.dtype), SMALL)
    assert len(steps) == 1
    add = OPS["add"]
    independent = [(ex.apply(add, (leaves[k], leaves[k]), wf.float64, wf.float64, (4,)),
                    temporary_leaf((4,), wf.float64)) for k in range(80)]
    assert len(schedule.fused(independent, lambda n: temporary_leaf(n.shape, n.dtype),
                              SMALL)) > 1


def test_a_traced_function_over_many_arrays_replays(device):
    @wf.function
    def total(*arrays):
        out = arrays[0]
        for a in arrays[1:]:
            out = out + a * a
        return out

    for shift in (0.0, 1.0):
        values = [np.arange(5.0) + k + shift for k in range(150)]
        want = values[0] + sum(v * v for v in values[1:])
        got = total(*[wf.asarray(v) for v in values]).to_numpy()
        np.testing.assert_allclose(got, want, rtol=1e-13)


def test_narrow_expressions_are_scheduled_as_before():
    x = wf.asarray(np.ones((50, 4)), device="reference")
    y = wf.asarray(np.ones(50), device="reference")
    value = wf.stats.normal_lpdf(y, x @ wf.asarray(np.ones(4), device="reference"), 1.0)
    assert len(_kernels([value._node], SMALL)) == len(_kernels([value._node], 0))
