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


def test_result_type_takes_weft_and_numpy_dtypes_type_classes_and_names():
    assert wf.result_type(wf.int32, wf.float32) is wf.float32
    assert wf.result_type(np.int32, np.float64) is wf.float64
    assert wf.result_type(np.dtype("int32"), "float32") is wf.float32
    assert wf.result_type(np.int64, 2.0) is wf.float64
    assert wf.result_type(np.bool_, 1) is wf.int64
    assert wf.result_type(np.zeros(2, np.float32), np.float32(1)) is wf.float32
    with pytest.raises(TypeError, match="no float16"):
        wf.result_type(np.float16, wf.float32)


def test_narrow_numpy_types_are_refused_the_same_way_everywhere(device):
    for narrow in (np.int8, np.int16, np.uint8, np.uint16, np.float16):
        name = np.dtype(narrow).name
        with pytest.raises(TypeError, match=f"weft has no {name} arrays"):
            wf.asarray(np.ones(3, narrow))
        with pytest.raises(TypeError, match=f"weft has no {name} arrays"):
            wf.asarray([1.0, 2.0]).astype(narrow)
        converted = wf.asarray(np.arange(3, dtype=narrow), dtype=wf.float32)
        assert converted.dtype is wf.float32 and converted.tolist() == [0.0, 1.0, 2.0]
    # a NumPy scalar of a narrow type acts as the weft type of its kind that holds it
    assert (wf.asarray([1, 2], dtype=wf.int32) * np.int8(3)).tolist() == [3, 6]


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_fmod_of_integers_keeps_their_dtype(device, dtype):
    a = np.array([7, -7, 7, -7, 5, 0], dtype=np.int64)
    b = np.array([3, 3, -3, -3, 0, 2], dtype=np.int64)
    if dtype == np.uint32:
        a, b = np.abs(a), np.abs(b)
    a, b = a.astype(dtype), b.astype(dtype)
    got = wf.fmod(wf.asarray(a), wf.asarray(b))
    assert got.dtype == wf.to_dtype(dtype)
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(got.to_numpy(), np.fmod(a, b))
    lowest = np.array([np.iinfo(np.int64).min])
    if dtype == np.int64:  # the quotient would overflow: 0, as NumPy
        assert wf.fmod(wf.asarray(lowest), -1).tolist() == [0]


@pytest.mark.parametrize("name", ["floor", "ceil", "trunc", "round"])
def test_rounding_a_bool_array_gives_the_default_real(device, name):
    got = getattr(wf, name)(wf.asarray([True, False]))
    assert got.dtype is wf.default_real()  # NumPy: float16, which weft lacks
    assert got.tolist() == [1.0, 0.0]
    assert getattr(wf, name)(wf.asarray([3, -2])).dtype is wf.int64


def test_around_follows_numpys_signature(device):
    x = wf.asarray([1.26, 2.5, -0.35])
    out = wf.zeros(3)
    assert wf.around(x, 1, out) is out
    np.testing.assert_array_equal(out.to_numpy(), np.around([1.26, 2.5, -0.35], 1))
    with pytest.raises(TypeError, match="out must be a wf.Array"):
        wf.around(x, 1, np.zeros(3))
    with pytest.raises(TypeError, match="decimals must be an integer"):
        wf.around(x, 1.5)
    assert wf.around(x, 1, dtype=wf.float32).dtype is wf.float32


_COMPARISONS = {"less": "__lt__", "less_equal": "__le__", "greater": "__gt__",
                "greater_equal": "__ge__", "equal": "__eq__", "not_equal": "__ne__"}
_MIRRORED = {"__lt__": "__gt__", "__le__": "__ge__", "__gt__": "__lt__", "__ge__": "__le__",
             "__eq__": "__eq__", "__ne__": "__ne__"}


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_comparisons_with_python_ints_beyond_the_type_are_exact(device, dtype):
    info = np.iinfo(dtype)
    a = np.array([0, 1, 5, info.min, info.max], dtype=dtype)
    x = wf.asarray(a)
    for value in (2**40, -2**40, 2**70, -2**70, 2**63, -2**63 - 1, 2**32, -1, 3):
        for name, dunder in _COMPARISONS.items():
            np.testing.assert_array_equal(getattr(x, dunder)(value).to_numpy(),
                                          getattr(a, dunder)(value), err_msg=f"x {name} {value}")
            np.testing.assert_array_equal(getattr(wf, name)(value, x).to_numpy(),
                                          getattr(a, _MIRRORED[dunder])(value),
                                          err_msg=f"{value} {name} x")
    with pytest.raises(OverflowError, match="out of bounds"):
        x + 2**70  # arithmetic still refuses, as NumPy 2


def test_dtypes_compare_as_numpy_dtypes():
    """API.md 14: a weft dtype equals its NumPy dtype, type class and name, both ways, and
    NumPy reads it as a dtype; weft dtypes still compare and hash by identity."""
    import pickle

    for d in (wf.bool_, wf.int32, wf.int64, wf.uint32, wf.float32, wf.float64):
        numpy_dtype = d.numpy
        assert d == numpy_dtype and numpy_dtype == d
        assert d == numpy_dtype.type and numpy_dtype.type == d
        assert d == numpy_dtype.name and numpy_dtype.name == d
        assert np.dtype(d) == numpy_dtype and np.zeros(2, dtype=d).dtype == numpy_dtype
        assert pickle.loads(pickle.dumps(d)) is d and {d: 1}[d] == 1
    x = wf.asarray(np.arange(3.0))
    assert x.dtype == np.float64 and np.dtype(x.dtype) == np.float64
    assert wf.float32 != np.float64 and wf.int32 != "int64" and wf.float64 != wf.float32
    assert wf.float64 != None and wf.float64 != "no such type"  # noqa: E711
    assert wf.result_type(np.float32, "int32", np.dtype("int64")) == wf.float32
