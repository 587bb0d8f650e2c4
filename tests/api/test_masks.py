"""Bit masks (RoughPy's layout) and the masked kernel set, case by case, on every device."""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import pytest

import weft as wf
from conftest import kernel_count

RNG = np.random.default_rng(6)


def _bools(n: int) -> np.ndarray:
    return RNG.random(n) < 0.4


@pytest.mark.parametrize("n", [0, 1, 31, 32, 33, 64, 1000])
def test_bitmask_layout_and_round_trip(device, n):
    bools = _bools(n)
    mask = wf.bitmask(wf.asarray(bools))
    assert len(mask) == n and mask.words.dtype == wf.uint32
    padded = np.concatenate([bools, np.zeros(-n % 32, bool)])
    expected = np.packbits(padded.reshape(-1, 32)[:, ::-1], axis=1).view(">u4").ravel()
    np.testing.assert_array_equal(mask.words.to_numpy(), expected.astype(np.uint32))
    np.testing.assert_array_equal(mask.to_bools().to_numpy(), bools)
    again = wf.BitMask(mask.words, n)
    np.testing.assert_array_equal(again.to_bools().to_numpy(), bools)


def test_bitmask_of_a_matrix_is_row_major(device):
    bools = _bools(6 * 7).reshape(6, 7)
    mask = wf.bitmask(bools)
    got = wf.where(mask, wf.ones((6, 7)), 0.0).to_numpy()
    np.testing.assert_array_equal(got, bools.astype(float))


def test_bitmask_errors():
    with pytest.raises(ValueError, match="bits past element 2"):
        wf.BitMask(wf.asarray([0b1000], dtype=wf.uint32), 3)
    with pytest.raises(ValueError, match="need 1 words, got 2"):
        wf.BitMask(wf.asarray([1, 0], dtype=wf.uint32), 3)
    with pytest.raises(TypeError, match="uint32"):
        wf.BitMask(wf.asarray([1], dtype=wf.int32), 3)
    with pytest.raises(TypeError, match="bool"):
        wf.bitmask(wf.asarray([1.0, 2.0]))
    with pytest.raises(ValueError, match="3 elements does not fit shape"):
        wf.assign(wf.zeros(4), wf.ones(4), mask=wf.bitmask([True, False, True]))


def test_mask_test_is_fused_into_the_kernel(real_device):
    mask = wf.bitmask(_bools(1000))
    x = wf.asarray(RNG.standard_normal(1000))
    source = wf.kernel_source(wf.where(mask, x * 2, x))
    assert kernel_count(source) == 1


DTYPES = [np.float64, np.float32]
BINARY = [("masked_add", np.add), ("masked_sub", np.subtract), ("masked_mul", np.multiply),
          ("masked_div", np.divide), ("masked_min", np.fmin), ("masked_max", np.fmax)]


RULES = ["both", "lhs=None", "rhs=None", "no mask", "bool mask"]
# Each pairing is a kernel of its own: float64 meets every rule, float32 the first one
# (every pairing under WEFT_TEST_PROFILE=large).
RULES_AND_DTYPES = [(rule, dtype) for dtype in DTYPES
                    for rule in RULES
                    if dtype == np.float64 or rule == "both"
                    or os.environ.get("WEFT_TEST_PROFILE") == "large"]


@pytest.mark.parametrize("rule, dtype", RULES_AND_DTYPES,
                         ids=[f"{rule}-{np.dtype(dtype).name}" for rule, dtype in RULES_AND_DTYPES])
@pytest.mark.parametrize("name, ref", BINARY, ids=[b[0] for b in BINARY])
def test_binary_masked_kernels(device, name, ref, rule, dtype):
    if dtype == np.float64 and not device.supports_fp64:
        pytest.skip("no float64 on this device")
    n = 77
    d0, l0, r0 = (RNG.standard_normal(n).astype(dtype) for _ in range(3))
    l0[::9] = np.nan  # fmin/fmax take the other operand; arithmetic propagates it
    bools = _bools(n)
    dst, lhs, rhs = wf.asarray(d0), wf.asarray(l0), wf.asarray(r0)
    mask = None if rule == "no mask" else wf.asarray(bools) if rule == "bool mask" \
        else wf.bitmask(bools)
    left, right = (dst, d0) if rule == "lhs=None" else (lhs, l0), \
        (dst, d0) if rule == "rhs=None" else (rhs, r0)
    getattr(wf.kernels, name)(dst, None if rule == "lhs=None" else lhs,
                              None if rule == "rhs=None" else rhs, mask)
    with np.errstate(all="ignore"):
        value = ref(left[1], right[1]).astype(dtype)
    selected = np.ones(n, bool) if mask is None else bools
    expected = np.where(selected, value, d0)
    if name == "masked_div" and dtype == np.float32:
        # OpenCL lets float32 division be off by 2.5 ulp (NVIDIA's is); the rest is exact.
        np.testing.assert_allclose(dst.to_numpy(), expected, rtol=3e-7)
    else:
        np.testing.assert_array_equal(dst.to_numpy(), expected)  # same precision and rounding
    np.testing.assert_array_equal(lhs.to_numpy(), l0)
    np.testing.assert_array_equal(rhs.to_numpy(), r0)


@pytest.mark.parametrize("dtype", DTYPES, ids=["f64", "f32"])
def test_unary_scalar_and_axpy_kernels(device, dtype):
    if dtype == np.float64 and not device.supports_fp64:
        pytest.skip("no float64 on this device")
    n = 70
    d0, s0, r0 = (RNG.standard_normal(n).astype(dtype) for _ in range(3))
    bools = _bools(n)
    mask = wf.bitmask(bools)
    cases = [
        (lambda d, s, r: wf.kernels.masked_uminus(d, s, mask), -s0),
        (lambda d, s, r: wf.kernels.masked_uminus(d, None, mask), -d0),
        (lambda d, s, r: wf.kernels.masked_scalar_multiply(d, s, 0.3, mask),
         dtype(0.3) * s0),
        (lambda d, s, r: wf.kernels.masked_axpy(d, s, r, 1.7, mask), dtype(1.7) * s0 + r0),
        (lambda d, s, r: wf.kernels.masked_axpy(d, None, r, 1.7, mask), dtype(1.7) * d0 + r0),
        (lambda d, s, r: wf.kernels.masked_axpby(d, s, r, 1.7, -0.2, mask),
         dtype(1.7) * s0 + dtype(-0.2) * r0),
        (lambda d, s, r: wf.kernels.masked_axpby(d, s, None, 1.7, -0.2, None),
         dtype(1.7) * s0 + dtype(-0.2) * d0),
    ]
    for k, (call, value) in enumerate(cases):
        dst = wf.asarray(d0)
        call(dst, wf.asarray(s0), wf.asarray(r0))
        selected = np.ones(n, bool) if k == len(cases) - 1 else bools
        # A compiler may contract a * x + b * y into one FMA (NVIDIA's OpenCL does), rounding
        # once: where the terms nearly cancel, only an absolute bound holds.
        tol = ({"rtol": 1e-6, "atol": 2e-6} if dtype == np.float32
               else {"rtol": 1e-15, "atol": 4e-15})
        np.testing.assert_allclose(dst.to_numpy(), np.where(selected, value, d0), **tol,
                                   err_msg=f"case {k}")
        assert dst.dtype == wf.to_dtype(dtype)


def test_both_none_is_a_no_op_and_bad_operands_raise(device):
    d0 = RNG.standard_normal(10)
    dst = wf.asarray(d0)
    wf.kernels.masked_add(dst, None, None)
    wf.kernels.masked_axpy(dst, None, None, 2.0)
    np.testing.assert_array_equal(dst.to_numpy(), d0)
    with pytest.raises(ValueError, match=r"shape \(9,\) and dst of shape \(10,\)"):
        wf.kernels.masked_add(dst, wf.ones(9), None)
    with pytest.raises(TypeError, match="float32 differs from dst's float64"):
        wf.kernels.masked_mul(dst, wf.ones(10, dtype=wf.float32), None)
    with pytest.raises(ValueError, match="does not fit"):
        wf.kernels.masked_add(dst, None, wf.ones(10), wf.bitmask([True] * 11))
    np.testing.assert_array_equal(dst.to_numpy(), d0)  # nothing was lost


def test_float32_arithmetic_stays_float32(device):
    """RoughPy's double kernels round through float; weft's float64 ones must not."""
    big = np.array([1e30, 1.0 + 2.0**-40], dtype=np.float64)
    dst = wf.zeros(2)
    wf.kernels.masked_mul(dst, wf.asarray(big), wf.asarray(big))
    np.testing.assert_array_equal(dst.to_numpy(), big * big)


def test_masked_write_in_place_keeps_copies_and_unselected_values(device):
    """An unshared dst is written in place by a conditional store (dst is not read); a copy
    taken before still shares the buffer, so that write goes to a fresh buffer instead."""
    d0 = RNG.standard_normal(100)
    bools = _bools(100)
    dst = wf.asarray(d0)
    wf.kernels.masked_add(dst, None, wf.ones(100), wf.bitmask(bools))  # in place
    np.testing.assert_array_equal(dst.to_numpy(), np.where(bools, d0 + 1, d0))
    before = dst.copy()
    wf.kernels.masked_mul(dst, None, wf.full(100, 3.0), wf.asarray(bools))  # copy-on-write
    np.testing.assert_array_equal(before.to_numpy(), np.where(bools, d0 + 1, d0))
    np.testing.assert_array_equal(dst.to_numpy(), np.where(bools, (d0 + 1) * 3, d0))


@pytest.mark.parametrize("n", [1, 5, 32, 100, 1027])
@pytest.mark.parametrize("pattern", ["random", "all set", "none set", "runs of 8"])
def test_vector_masked_writes(real_device, monkeypatch, n, pattern):
    """The vector skeleton (large float32 grids on GPUs) with a bit mask: whole-vector stores
    where four neighbours are selected, element stores elsewhere, the scalar loop for tails
    and for views that start off a vector boundary."""
    monkeypatch.setattr(real_device, "traits",
                        replace(real_device.traits, vector_width=4, vector_from=0))
    selected = {"random": _bools(n + 1), "all set": np.ones(n + 1, bool),
                "none set": np.zeros(n + 1, bool),
                "runs of 8": (np.arange(n + 1) // 8) % 2 == 0}[pattern]
    a, b, d = (RNG.standard_normal(n + 1).astype(np.float32) for _ in range(3))
    lhs, rhs = wf.asarray(a), wf.asarray(b)
    if n > 1:
        assert "float4" in wf.kernel_source(wf.where(wf.bitmask(selected[:n]), lhs[:n], rhs[:n]))
    dst = wf.asarray(d)
    wf.kernels.masked_add(dst[:n], lhs[:n], rhs[:n], wf.bitmask(selected[:n]))
    np.testing.assert_array_equal(dst.to_numpy()[:n], np.where(selected, a + b, d)[:n])
    assert dst.to_numpy()[n] == d[n]
    dst = wf.asarray(d)
    wf.kernels.masked_mul(dst[:n], lhs[:n], rhs[:n], wf.asarray(selected[:n]))  # bool mask
    np.testing.assert_array_equal(dst.to_numpy()[:n], np.where(selected, a * b, d)[:n])
    dst = wf.asarray(d)
    wf.kernels.masked_sub(dst[1:], lhs[1:], rhs[1:], wf.bitmask(selected[1:]))  # off boundary
    expected = d.copy()
    expected[1:] = np.where(selected, a - b, d)[1:]
    np.testing.assert_array_equal(dst.to_numpy(), expected)
