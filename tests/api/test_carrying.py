"""Expressions carried from one evaluation to the next (carrying.py): a loop that rebinds a
lazy array to an expression of itself and reads something made from it at every turn
compiles a bounded number of kernels, not one per turn, with NumPy's values; temporaries
nobody holds still fuse into one kernel; a check failing in what was asked for is not
attached to the carried array."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf
from weft.carrying import CARRY_DEPTH


def test_a_carried_array_compiles_a_bounded_number_of_kernels(device):
    g_np = np.linspace(-1.0, 1.0, 40)
    g, p = wf.asarray(g_np), wf.asarray(np.zeros(40))
    p_np = np.zeros(40)
    misses = []
    for _ in range(4 * CARRY_DEPTH):
        p = p + 0.01 * g
        p_np = p_np + 0.01 * g_np
        assert float((p * p).sum()) == pytest.approx(np.sum(p_np * p_np), rel=1e-12)
        misses.append(wf.cache_info()["misses"])
    # Every structure of a cycle was seen in the first turns: the last ones compile nothing.
    assert misses[-1] == misses[2 * CARRY_DEPTH]
    assert p._node.depth <= CARRY_DEPTH + 2
    np.testing.assert_allclose(p.to_numpy(), p_np, rtol=1e-12)


def test_temporaries_nobody_holds_still_fuse(device):
    x = wf.asarray(np.linspace(0.0, 1.0, 30))

    def horner(x, coefficients):
        total = x * 0.0
        for c in coefficients:
            total = total * x + c  # the previous total is dropped: nobody holds it
        return total

    coefficients = [0.5 + 0.1 * k for k in range(2 * CARRY_DEPTH)]
    want = np.polyval(coefficients, np.linspace(0.0, 1.0, 30))
    before = wf.cache_info()["launches"]
    got = horner(x, coefficients).to_numpy()
    assert wf.cache_info()["launches"] - before == 1
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_a_held_deep_array_is_computed_by_the_evaluation_that_reads_it(device):
    x_np = np.array([0.25, -0.5, 1.0])
    held = wf.asarray(x_np)
    want = x_np.copy()
    for _ in range(CARRY_DEPTH):
        held = wf.sin(held) + 0.5
        want = np.sin(want) + 0.5
    assert held.is_lazy
    total = float((held * 2.0).sum())
    assert not held.is_lazy  # computed first, then read by the sum
    assert total == pytest.approx(2 * want.sum(), rel=1e-13)
    np.testing.assert_allclose(held.to_numpy(), want, rtol=1e-13)


def test_a_failed_check_is_not_attached_to_the_carried_array(device):
    p_np = np.array([1.0, 2.0])
    p = wf.asarray(p_np)
    for _ in range(CARRY_DEPTH):
        p = p * 1.01 + 0.5
        p_np = p_np * 1.01 + 0.5
    checked = wf.check(p, lambda v: v > 1e9, "p must exceed 1e9")
    with pytest.raises(ValueError, match="p must exceed 1e9"):
        float(checked.sum())
    np.testing.assert_allclose(p.to_numpy(), p_np, rtol=1e-13)  # computed apart: no error
