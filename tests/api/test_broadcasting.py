"""Property tests: broadcasting and slicing agree with NumPy for random shapes and keys."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import weft as wf
from conftest import DEVICES


@pytest.mark.parametrize("dev", DEVICES, ids=str)
@settings(max_examples=25, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=2, max_side=5))
def test_broadcasting_matches_numpy(dev, shapes):
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(s) for s in shapes.input_shapes)
    with wf.device(dev):
        got = (wf.asarray(a) * wf.asarray(b) - wf.asarray(c)).to_numpy()
    # A device may fuse a * b - c into one rounding (CUDA contracts it): where the terms
    # cancel, the results differ by an ulp of the terms, not of their difference.
    terms = np.abs(a * b) + np.abs(c)
    np.testing.assert_array_less(np.abs(got - (a * b - c)), 4e-16 * terms + 1e-300)
    assert got.shape == shapes.result_shape


def test_incompatible_shapes_name_op_and_shapes():
    with pytest.raises(ValueError, match=r"multiply.*\(2, 3\).*\(4,\)"):
        wf.asarray(np.ones((2, 3))) * wf.asarray(np.ones(4))


_slices = st.slices(7)


@pytest.mark.parametrize("dev", DEVICES, ids=str)
@settings(max_examples=25, deadline=None)
@given(rows=_slices, cols=_slices)
def test_slices_with_any_step_match_numpy(dev, rows, cols):
    m = np.arange(42.0).reshape(6, 7)
    with wf.device(dev):
        got = (wf.asarray(m)[rows, cols] + 1).to_numpy()
    np.testing.assert_array_equal(got, m[rows, cols] + 1)
