"""Promotion (bool < int32 < int64 < float32 < float64), weak scalars, default real, dtype=."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import weft as wf

ORDER = [wf.bool_, wf.int32, wf.int64, wf.float32, wf.float64]


@given(st.sampled_from(ORDER), st.sampled_from(ORDER))
def test_promotion_is_the_highest(a, b):
    expected = max(a, b, key=ORDER.index)
    assert wf.result_type(a, b) is expected
    assert wf.result_type(b, a) is expected


def test_int_with_float32_is_float32(device):
    x = wf.asarray([1, 2], dtype=wf.int64) + wf.asarray([0.5, 0.5], dtype=wf.float32)
    assert x.dtype == wf.float32
    assert x.tolist() == [1.5, 2.5]


@pytest.mark.parametrize("dtype", ORDER[1:])
def test_python_scalars_are_weak(device, dtype):
    x = wf.asarray([1, 2], dtype=dtype)
    assert (x * 3).dtype == dtype
    assert (x + True).dtype == dtype
    expected = dtype if dtype.is_float else wf.default_real()
    assert (x * 2.5).dtype == expected
    assert (2.5 * x).dtype == expected


def test_weak_int_with_bool_array_is_int64(device):
    assert (wf.asarray([True]) + 1).dtype == wf.int64


def test_real_functions_of_integers_give_default_real(device):
    i = wf.asarray([4, 9])
    assert wf.sqrt(i).dtype == wf.float64
    assert (i / wf.asarray([2, 2])).dtype == wf.float64
    try:
        wf.set_default_real(wf.float32)
        assert wf.sqrt(i).dtype == wf.float32
        assert wf.asarray([1.0]).dtype == wf.float32
        np.testing.assert_allclose(wf.sqrt(i).to_numpy(), [2.0, 3.0])
    finally:
        wf.set_default_real(wf.float64)
    with pytest.raises(TypeError):
        wf.set_default_real(wf.int32)


def test_dtype_argument_is_result_and_computation_type(device):
    big = wf.asarray([2**24 + 1], dtype=wf.int64)
    # computed in float32, 2**24 + 1 rounds to 2**24 before the addition
    y = wf.add(big, 0, dtype=wf.float32)
    assert y.dtype == wf.float32 and y.item() == 2.0**24
    z = wf.divide(wf.asarray([7]), wf.asarray([2]), dtype=wf.float32)
    assert z.dtype == wf.float32 and z.item() == 3.5
    w = wf.add(wf.asarray([1.7]), 1, dtype=wf.int32)
    assert w.dtype == wf.int32 and w.item() == 2
    cmp = wf.less(wf.asarray([2**24 + 1]), 2**24, dtype=wf.float32)
    assert cmp.dtype == wf.bool_ and cmp.item() is False


def test_casts_follow_numpy(device):
    v = np.array([-1.7, 0.0, 2.5, 3.0])
    x = wf.asarray(v)
    np.testing.assert_array_equal(x.astype(wf.int32).to_numpy(), v.astype(np.int32))
    np.testing.assert_array_equal(x.astype(wf.bool_).to_numpy(), v.astype(bool))
    np.testing.assert_array_equal(wf.cast(x, "float32").to_numpy(), v.astype(np.float32))
    with pytest.raises(TypeError):
        x.astype(np.complex64)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ORDER), st.sampled_from(ORDER), st.sampled_from(["add", "multiply",
                                                                         "maximum", "less"]))
def test_array_results_follow_result_type(a, b, name):
    if name != "less" and a is wf.bool_ and b is wf.bool_ and name == "subtract":
        return
    with wf.device("reference"):
        x = wf.asarray(np.array([1, 0, 1]).astype(a.numpy))
        y = wf.asarray(np.array([1, 1, 0]).astype(b.numpy))
        out = wf.apply_op(name, x, y)
        expected = wf.bool_ if name == "less" else wf.result_type(a, b)
        assert out.dtype is expected
        ref = getattr(np, name)(x.to_numpy().astype(expected.numpy if name != "less"
                                                   else wf.result_type(a, b).numpy),
                                y.to_numpy().astype(wf.result_type(a, b).numpy))
        np.testing.assert_array_equal(out.to_numpy(), ref)


@pytest.mark.parametrize("dtype", [*ORDER, wf.uint32])
def test_dtypes_are_their_constants_after_pickling_and_copying(dtype):
    """Equality is identity (structural keys hash a dtype per node), so a dtype that crosses
    a process boundary (Dask) or is copied must come back as its constant."""
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(dtype)) is dtype
    assert copy.copy(dtype) is dtype and copy.deepcopy(dtype) is dtype
    assert {dtype: 1}[pickle.loads(pickle.dumps(dtype))] == 1
    assert dtype != (wf.float32 if dtype is not wf.float32 else wf.float64)
