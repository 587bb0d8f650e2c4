"""Reductions against NumPy: every op, axis and keepdims over a sweep of shapes, transposed and
sliced operands, structure, fusion with producers, accuracy, dtypes, NaN and empty cases."""

from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest

import weft as wf
from conftest import kernel_count

SIZES = [1, 2, 63, 64, 65, 4095, 4096, 16384]
SHAPES = [(r, c) for r in SIZES for c in SIZES if r * c <= 10**6]
OPS = ["sum", "prod", "max", "min", "mean", "count_nonzero", "any", "all"]


def _numpy(name, a, axis, keepdims=False):
    if name == "count_nonzero":
        out = np.count_nonzero(a, axis=axis, keepdims=keepdims)
        return np.asarray(out)
    return getattr(np, name)(a, axis=axis, keepdims=keepdims)


def _data(shape, rng, name):
    if name == "prod":  # near 1 so products neither overflow nor vanish
        return 1 + rng.uniform(-1e-3, 1e-3, shape)
    a = rng.standard_normal(shape)
    if name in ("count_nonzero", "any", "all"):
        a[rng.random(shape) < 0.3] = 0
    return a


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_sum_max_over_a_sweep_of_shapes(device, shape, axis):
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape)
    x = wf.asarray(a)
    s, m = wf.eval(x.sum(axis=axis), x.max(axis=axis))
    np.testing.assert_allclose(s.to_numpy(), a.sum(axis=axis), rtol=1e-10, atol=1e-9)
    np.testing.assert_array_equal(m.to_numpy(), a.max(axis=axis))


@pytest.mark.parametrize("name", OPS)
@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 5), (130, 3), (2, 700)], ids=str)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, -2])
@pytest.mark.parametrize("keepdims", [False, True])
def test_every_reduction_axis_and_keepdims(device, name, shape, axis, keepdims):
    if axis is not None and not -len(shape) <= axis < len(shape):
        with pytest.raises(ValueError, match="out of bounds"):
            wf.reduce(name, wf.zeros(shape), axis=axis)
        return
    rng = np.random.default_rng(len(shape))
    a = _data(shape, rng, name)
    got = wf.reduce(name, wf.asarray(a), axis=axis, keepdims=keepdims)
    want = _numpy(name, a, axis, keepdims)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.to_numpy(), want, rtol=1e-12)
    assert got.to_numpy().dtype == want.dtype


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_transposed_sliced_and_expression_operands(device, axis):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((300, 129))
    x = wf.asarray(a)
    cases = [(x.T, a.T), (x[3:250:2, ::-3], a[3:250:2, ::-3]), (x[5], a[5]),
             (wf.exp(x.T) * 2 - x.T, np.exp(a.T) * 2 - a.T)]
    for got, want in cases:
        np.testing.assert_allclose(got.sum(axis=axis if got.ndim == 2 else None).to_numpy(),
                                   want.sum(axis=axis if want.ndim == 2 else None), rtol=1e-10)


def test_nan_propagates_through_max_and_min(device):
    a = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    x = wf.asarray(a)
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(x.max(axis=axis).to_numpy(), a.max(axis=axis))
        np.testing.assert_array_equal(x.min(axis=axis).to_numpy(), a.min(axis=axis))


def test_empty_reductions(device):
    empty = wf.zeros((0, 3))
    np.testing.assert_array_equal(empty.sum(axis=0).to_numpy(), np.zeros(3))
    assert empty.sum(axis=1).shape == (0,)
    assert empty.prod().item() == 1.0
    assert np.isnan(wf.zeros(0).mean().item())
    assert not wf.zeros(0, dtype=wf.bool_).any().item()
    assert wf.zeros(0, dtype=wf.bool_).all().item()
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        empty.max(axis=0)
    with pytest.raises(ValueError, match="minimum"):
        wf.zeros(0).min()


def test_dtype_sets_result_and_accumulation(device):
    a = np.arange(10, dtype=np.int32)
    x = wf.asarray(a)
    assert x.sum().dtype == wf.int64 and x.sum().item() == 45
    assert x.mean().dtype == wf.default_real()
    assert x.sum(dtype=wf.float32).dtype == wf.float32
    big = wf.full(3, 2**31 - 1, dtype=wf.int32)
    assert big.sum().item() == 3 * (2**31 - 1)  # int64 accumulation, as NumPy
    assert wf.asarray([True, True]).sum().item() == 2


def test_float32_sum_keeps_1e_6_relative_accuracy_on_10_million(real_device):
    rng = np.random.default_rng(0)
    a = rng.uniform(0, 1, 10**7).astype(np.float32)
    got = wf.asarray(a).sum().item()
    want = a.astype(np.float64).sum()
    assert abs(got - want) / want < 1e-6
    a2 = a.reshape(2500, 4000)
    for axis in (0, 1):
        got = wf.asarray(a2).sum(axis=axis).to_numpy().astype(np.float64)
        want = a2.astype(np.float64).sum(axis=axis)
        assert np.max(np.abs(got - want) / want) < 1e-6


def test_logsumexp(device):
    from scipy.special import logsumexp

    a = np.array([[1000.0, 1000.0, -np.inf], [0.0, 1.0, 2.0]])
    x = wf.asarray(a)
    for axis in (None, 0, 1):
        np.testing.assert_allclose(wf.logsumexp(x, axis=axis).to_numpy(),
                                   logsumexp(a, axis=axis), rtol=1e-12)
    np.testing.assert_allclose(wf.logsumexp(x, axis=1, keepdims=True).to_numpy(),
                               logsumexp(a, axis=1, keepdims=True))
    assert wf.logsumexp(wf.full(2, -np.inf)).item() == -np.inf


def test_reduction_fuses_with_its_producer(real_device):
    a = np.random.default_rng(2).standard_normal((256, 300))
    x = wf.asarray(a)
    source = wf.kernel_source((wf.exp(x) * 2 - x).sum())
    # X is read once per element: one load in each loop (unrolled, remainder; the vector
    # walk's unrolled and last partial steps read it as vectors from its row, then a scalar
    # tail).
    assert kernel_count(source) == 1
    band = len(re.findall(r"double acc0_\d+ = ", source))
    if band:  # a CPU's band: one copy of the body per column of the band, and its tail
        assert source.count("b0[") == band + 1
        for c in range(band):
            assert len(re.findall(rf"acc0_{c} = \(acc0_{c} \+ v\d+_{c}\)", source)) == 1
        assert len(re.findall(r"acc0_0 = \(acc0_0 \+ v\d+\)", source)) == 1
    elif "vector_end" in source:
        width = 2 if "double2" in source else 4
        assert source.count("(b0 + r0 + j0)") == 2 and source.count("b0[") == 1
        accumulations = 2 * width + 1
        assert len(re.findall(r"acc0 = \(acc0 \+ v\d+(_\d)?\)", source)) == accumulations
    else:
        assert source.count("b0[") == 2
        assert len(re.findall(r"acc0 = \(acc0 \+ v\d+\)", source)) == 2
    np.testing.assert_allclose((wf.exp(x) * 2 - x).sum().item(), (np.exp(a) * 2 - a).sum())


def test_reduction_feeding_elementwise_work_is_scheduled(device):
    a = np.random.default_rng(3).standard_normal((50, 40))
    x = wf.asarray(a)
    np.testing.assert_allclose((x - x.mean(axis=0)).to_numpy(), a - a.mean(axis=0))
    np.testing.assert_allclose((x / x.sum(axis=1, keepdims=True)).to_numpy(),
                               a / a.sum(axis=1, keepdims=True))
    np.testing.assert_allclose(((x - x.mean()) ** 2).mean().item(), a.var())


def test_elementwise_outputs_share_the_reduction_kernel(real_device):
    a = np.random.default_rng(4).standard_normal((40, 64))
    x = wf.asarray(a)
    assert kernel_count(wf.kernel_source(x * 2, x.sum(axis=0))) == 1
    doubled, sums = wf.eval(x * 2, x.sum(axis=0))
    np.testing.assert_allclose(doubled.to_numpy(), a * 2)
    np.testing.assert_allclose(sums.to_numpy(), a.sum(axis=0))


def _fixed_settings(device, shape):
    """The launch settings a rows sum over ``shape`` writes into its source (none where the
    device keeps them as arguments): the layout ``compiler`` makes for it."""
    from weft import variants
    from weft.ir import REDUCE_ROWS

    traits = device.traits
    if not traits.rows_fixed:
        return ()
    layout = variants.reduce_layout(
        REDUCE_ROWS, *shape, traits.reduction_groups, traits.is_cpu, 8,
        traits.compute_units, traits.rows_lane_bytes)
    return variants.fixed_settings(layout)


def test_reduction_kernels_are_keyed_by_structure_not_size(real_device):
    """New sizes reuse the kernels: sizes are arguments. Rows of 40 to 46 float64 all start on
    a 16-byte boundary and give a team the same width and walk, so they share one kernel
    whatever the number of rows (a device that writes a rows kernel's launch settings into its
    source compiles once per new setting; these sizes share theirs)."""
    with wf.device(real_device):
        wf.asarray(np.ones((30, 40))).sum(axis=1).eval()
        before = wf.cache_info()["misses"]
        for shape in ((31, 40), (500, 40), (7, 40), (30, 42), (500, 44), (9, 46)):
            assert _fixed_settings(real_device, shape) == _fixed_settings(real_device, (30, 40))
            np.testing.assert_allclose(wf.asarray(np.ones(shape)).sum(axis=1).to_numpy(),
                                       np.full(shape[0], float(shape[1])))
        assert wf.cache_info()["misses"] == before


def test_lower_triangular_sum_skips_the_upper_triangle(device):
    a = np.random.default_rng(5).standard_normal((70, 70))
    lower = wf.tril(wf.asarray(a))
    assert lower.structure == "lower"
    for axis in (None, 0, 1):
        np.testing.assert_allclose(lower.sum(axis=axis).to_numpy(), np.tril(a).sum(axis=axis))
        np.testing.assert_allclose(wf.triu(wf.asarray(a)).sum(axis=axis).to_numpy(),
                                   np.triu(a).sum(axis=axis))
    # max over a triangle still sees its zeros
    np.testing.assert_array_equal(lower.min(axis=1).to_numpy(), np.tril(a).min(axis=1))
    if device.kind != "reference":
        assert "if (end > i + 1) end = i + 1;" in wf.kernel_source(lower.sum(axis=1))


def test_unfused_mode_gives_the_same_reductions(device):
    a = np.random.default_rng(6).standard_normal((20, 30))
    x = wf.asarray(a)
    with wf.config(fuse=False):
        np.testing.assert_allclose((x * 2).sum(axis=0).to_numpy(), (a * 2).sum(axis=0))
        np.testing.assert_allclose((x - x.mean()).to_numpy(), a - a.mean())


@pytest.mark.parametrize("shape", [(1, 5000), (5000, 1), (1, 1), (3, 1)])
def test_reductions_of_single_rows_and_columns_and_their_transposes(device, shape):
    """A transposed row (n, 1) has strides (1, n), contiguous by NumPy's rule: a full sum
    walked it as one run with the stride n and read past its buffer."""
    a = np.arange(float(np.prod(shape))).reshape(shape) - 7.5
    x = wf.asarray(a)
    for view, expected in ((x, a), (x.T, a.T), (x.T * 2, a.T * 2)):
        for axis in (None, 0, 1):
            np.testing.assert_allclose(wf.sum(view, axis=axis).to_numpy(),
                                       expected.sum(axis=axis), rtol=1e-12)
        assert float(wf.max(view)) == expected.max()


def test_a_split_full_sum_combines_its_partials_in_one_pass(device):
    from conftest import launches

    a = np.random.default_rng(3).normal(size=(300, 200))
    x = wf.asarray(a)
    for expression, expected in ((wf.exp(x) * 2 - x, np.exp(a) * 2 - a), (x.T * 2, a.T * 2)):
        before = launches()
        got = float(wf.sum(expression))
        assert launches() - before <= 2  # the partials, then one combining pass
        assert got == pytest.approx(expected.sum(), rel=1e-12)


def test_empty_reductions_follow_numpy_and_scipy(device):
    for shape in ((0,), (0, 0), (0, 3), (3, 0)):
        a = np.zeros(shape)
        x = wf.asarray(a)
        axes = (None,) if len(shape) == 1 else (None, 0, 1)
        for axis in axes:
            with np.errstate(divide="ignore"):  # SciPy's logsumexp fails on some of these
                expected = np.log(np.sum(np.exp(a), axis=axis))
            np.testing.assert_array_equal(wf.logsumexp(x, axis=axis).to_numpy(), expected)
            assert wf.logsumexp(x, axis=axis, keepdims=True).shape == \
                np.sum(a, axis=axis, keepdims=True).shape
            # (A CPU's column bands divided by a band count of zero over (3, 0).)
            for name in ("sum", "prod", "all", "any") if axis is None else ("sum",):
                np.testing.assert_array_equal(getattr(wf, name)(x, axis=axis).to_numpy(),
                                              getattr(np, name)(a, axis=axis), err_msg=name)
            for name in ("max", "min"):
                try:
                    expected = getattr(np, name)(a, axis=axis)
                except ValueError:
                    with pytest.raises(ValueError, match="zero-size array"):
                        getattr(wf, name)(x, axis=axis)
                    continue
                assert getattr(wf, name)(x, axis=axis).shape == expected.shape


@pytest.mark.parametrize("axis", [(0, 1), (1, 0), (0,), (-1,), (-2, -1)])
def test_tuple_axes_as_numpy(device, axis):
    a = np.arange(12.0).reshape(3, 4)
    x = wf.asarray(a)
    for keepdims in (False, True):
        got = wf.sum(x, axis=axis, keepdims=keepdims)
        expected = a.sum(axis=axis, keepdims=keepdims)
        assert got.shape == expected.shape
        np.testing.assert_allclose(got.to_numpy(), expected)
    with pytest.raises(ValueError, match="axis"):
        wf.max(x, axis=(0, 2))
    with pytest.raises(ValueError, match="axis"):
        wf.sum(x, axis=(0, 0))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
def test_var_and_std_as_numpy(device, axis):
    """Two passes: a large common offset does not cancel the variance away."""
    a = np.random.default_rng(5).standard_normal((40, 6)) * 3 + 1e6
    x = wf.asarray(a)
    for ddof in (0, 1):
        for keepdims in (False, True):
            expected = a.var(axis=axis, ddof=ddof, keepdims=keepdims)
            got = wf.var(x, axis=axis, ddof=ddof, keepdims=keepdims)
            assert got.shape == expected.shape
            np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-9)
            np.testing.assert_allclose(x.std(axis=axis, ddof=ddof, keepdims=keepdims).to_numpy(),
                                       a.std(axis=axis, ddof=ddof, keepdims=keepdims),
                                       rtol=1e-9)
    np.testing.assert_allclose(np.var(x, axis=axis).to_numpy(), a.var(axis=axis), rtol=1e-9)


def test_var_of_integers_float32_and_too_few_elements(device):
    ints = wf.asarray(np.array([1, 2, 3, 4], dtype=np.int32))
    assert wf.var(ints).dtype == wf.float64 and wf.var(ints).item() == 1.25
    f32 = wf.asarray(np.array([1.0, 2.0, 4.0], dtype=np.float32))
    assert wf.std(f32).dtype == wf.float32
    np.testing.assert_allclose(wf.std(f32).item(), np.std([1.0, 2.0, 4.0]), rtol=1e-6)
    assert np.isnan(wf.var(wf.asarray([1.0]), ddof=1).item())
    # A real ddof divides by n - ddof, as NumPy's (and the array API's correction).
    np.testing.assert_allclose(wf.var(f32, ddof=0.5).item(),
                               np.var([1.0, 2.0, 4.0], ddof=0.5), rtol=1e-6)
    for bad in ("1", True, None):
        with pytest.raises(TypeError, match="ddof"):
            wf.var(f32, ddof=bad)
    with pytest.raises(ValueError, match="axis"):
        wf.std(f32, axis=2)


# Each row length unrolls kernels of its own: the default profile takes a narrow row and
# both sides of the in-line limit (WEFT_TEST_PROFILE=large: every length).
NARROW = [1, 3, 10, 16, 17] if os.environ.get("WEFT_TEST_PROFILE") == "large" else [3, 16, 17]


@pytest.mark.parametrize("cols", NARROW)
def test_narrow_row_reductions_feeding_work_are_computed_in_line(device, cols):
    """A row reduction over at most 16 elements that feeds other work is lowered where it is
    read (one kernel); every op, keepdims, a mean's scale, integer and bool rows, NaN, and a
    nested one agree with NumPy; wider rows are computed first, as before."""
    rng = np.random.default_rng(cols)
    a = rng.standard_normal((50, cols))
    a[3, 0] = np.nan
    b = rng.standard_normal(cols)
    x, v = wf.asarray(a), wf.asarray(b)
    ints = (np.nan_to_num(a, nan=0.7) * 10).astype(np.int32)
    cases = [
        (wf.exp(0.1 * (x * v).sum(axis=1)) + 1.0, np.exp(0.1 * (a @ b)) + 1.0),
        (x.max(axis=1) * 2.0, a.max(axis=1) * 2.0),
        (x.min(axis=1) - x.mean(axis=1), a.min(axis=1) - a.mean(axis=1)),
        (wf.asarray(ints).sum(axis=1) * 3, ints.sum(axis=1) * 3),
        ((x > 0).any(axis=1) & (x > -5).all(axis=1), (a > 0).any(axis=1) & (a > -5).all(axis=1)),
        (wf.sqrt(wf.abs(x.prod(axis=1))) + 0.5, np.sqrt(np.abs(a.prod(axis=1))) + 0.5),
        (wf.sum(x, axis=1, keepdims=True) * 2.0, a.sum(axis=1, keepdims=True) * 2.0),
        (wf.sum((x * v).sum(axis=1) ** 2), ((a * b).sum(axis=1) ** 2).sum()),
        (v.sum() * v, b.sum() * b),
        (wf.exp(0.1 * (x @ v)), np.exp(0.1 * (a @ b))),
    ]
    with np.errstate(invalid="ignore"):
        for k, (got, want) in enumerate(cases):
            if k < 7 and device.kind != "reference":  # element-wise readers: one kernel
                assert kernel_count(wf.kernel_source(got)) == (1 if cols <= 16 else 2)
            np.testing.assert_allclose(got.to_numpy(), want, rtol=1e-12, atol=1e-12)
    spread = x - x.mean(axis=1, keepdims=True)  # spread over the row: computed first
    np.testing.assert_allclose(spread.to_numpy(), a - a.mean(axis=1, keepdims=True),
                               rtol=1e-12, atol=1e-12)
    clean = wf.asarray(np.nan_to_num(a))
    checked = wf.check(clean, clean > -100.0, "big; x{index} = {value}")
    np.testing.assert_allclose(wf.exp(checked.sum(axis=1) * 0.01).to_numpy(),
                               np.exp(np.nan_to_num(a).sum(axis=1) * 0.01), rtol=1e-12)
    bad = wf.check(clean, clean < 1.0, "small; x{index} = {value}")
    with pytest.raises(ValueError, match="small; x"):
        wf.exp(bad.sum(axis=1) * 0.01).to_numpy()


def test_reducing_over_no_axes_keeps_each_element_as_numpy(device):
    """``axis=()``: every element is its own reduction (NumPy's, and the array API's)."""
    a = np.array([[1.0, 0.0], [3.0, -2.0]])
    ints = np.array([1, 0, 7], dtype=np.int32)
    for values in (a, ints):
        x = wf.asarray(values)
        for name in ("sum", "prod", "max", "min", "mean", "any", "all", "count_nonzero"):
            got = getattr(wf, name)(x, axis=()).to_numpy()
            expected = getattr(np, name)(values, axis=())
            assert got.dtype == expected.dtype, name
            np.testing.assert_array_equal(got, expected, err_msg=name)
    for ddof in (0, 1):
        with warnings.catch_warnings():  # NumPy warns of ddof >= n, then gives NaN
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = np.var(a, axis=(), ddof=ddof)
        np.testing.assert_array_equal(wf.var(wf.asarray(a), axis=(), ddof=ddof).to_numpy(),
                                      expected)


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod", "any", "count_nonzero"])
def test_reductions_of_a_transpose_walk_its_source(device, name):
    """A reduction of x.T is the source's reduction along the other axis (all of it for
    axis=None): NumPy's values and shapes, keepdims included, from the kernel the source's
    own reduction has (a walk along x.T's rows would step down the source's columns)."""
    a = np.random.default_rng(4).uniform(0.5, 1.5, (7, 300))
    x = wf.asarray(a)
    for axis in (None, 0, 1, -1):
        for keepdims in (False, True):
            got = wf.reduce(name, x.T, axis=axis, keepdims=keepdims)
            want = getattr(np, name)(a.T, axis=axis, keepdims=keepdims)
            assert got.shape == np.shape(want)
            np.testing.assert_allclose(got.to_numpy(), want, rtol=1e-12)
    if device.kind == "opencl":
        assert (wf.kernel_source(wf.reduce(name, x.T, axis=1))
                == wf.kernel_source(wf.reduce(name, x, axis=0)))
    g = wf.grad(lambda v: (v.T.sum(axis=1) ** 2).sum())(x).to_numpy()
    np.testing.assert_allclose(g, np.broadcast_to(2 * a.sum(axis=0), a.shape), rtol=1e-12)


def test_reductions_of_element_wise_expressions_over_transposes(device):
    """``(x.T * w).sum(1)`` and its kin: rebuilt over ``x`` and reduced along the other axis
    (so the walk reads rows); the same values as NumPy's for every reduction, keepdims,
    broadcast rows, columns, 1-D vectors and scalars, shared subexpressions and casts;
    expressions that also read a matrix the other way are left as they are."""
    from weft.transposing import flipped

    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((300, 129)), rng.standard_normal((129, 300))
    w, v = rng.standard_normal(300), rng.standard_normal(129)
    x, y, ww, vv = (wf.asarray(t) for t in (a, b, w, v))
    shared = wf.exp(x.T * 0.1)
    cases = [
        (x.T * ww, a.T * w), (x.T * ww[None, :] + vv[:, None], a.T * w[None, :] + v[:, None]),
        (shared * shared - 2.0, np.exp(a.T * 0.1) ** 2 - 2.0),
        ((x.T * ww).astype(wf.float32) + 1, (a.T * w).astype(np.float32) + 1),
    ]
    # Every case along each axis; the reductions and keepdims on the first (each is a kernel
    # of its own to compile).
    combinations = [("sum", axis, False) for axis in (None, 0, 1)]
    for k, (got, want) in enumerate(cases):
        assert flipped(got._node) is not None
        rtol = 1e-5 if want.dtype == np.float32 else 1e-12
        more = [(name, axis, keepdims) for name in ("mean", "max", "min") for axis in (0, 1)
                for keepdims in (False, True)] + [("sum", 1, True)] if k == 0 else []
        for name, axis, keepdims in combinations + more:
            result = wf.reduce(name, got, axis=axis, keepdims=keepdims).to_numpy()
            expected = getattr(np, name)(want, axis=axis, keepdims=keepdims)
            assert result.shape == expected.shape
            np.testing.assert_allclose(result, expected, rtol=rtol, atol=1e-4 * (
                want.dtype == np.float32), err_msg=f"{name} {axis} {keepdims}")
    mixed = x.T * 2 + y  # y read across its rows, x.T down its columns: kept as written
    assert flipped(mixed._node) is None and flipped((x[:100, :100].T * 2)._node) is None
    np.testing.assert_allclose(mixed.sum(1).to_numpy(), (a.T * 2 + b).sum(1), rtol=1e-12)


def test_reductions_over_transposes_in_gradients_and_traced_functions(device):
    from weft.transposing import FLIP_MIN_ELEMENTS, flipped

    rng = np.random.default_rng(5)
    a, w = rng.standard_normal((160, 120)), rng.standard_normal(160)
    assert a.size >= FLIP_MIN_ELEMENTS and flipped((wf.asarray(a).T * wf.asarray(w))._node)
    gx, gw = wf.grad(lambda x, w: ((x.T * w).sum(1) ** 2).sum(), argnums=(0, 1))(
        wf.asarray(a), wf.asarray(w))
    row = (a.T * w).sum(1)  # d/dx_ij = 2 row_j w_i, d/dw_i = 2 sum_j row_j x_ij
    np.testing.assert_allclose(gx.to_numpy(), 2 * np.outer(w, row), rtol=1e-12)
    np.testing.assert_allclose(gw.to_numpy(), 2 * a @ row, rtol=1e-12)
    traced = wf.function(lambda x, w: (x.T * w).sum(1))
    for _ in range(2):  # a new matrix each call: nothing of the first is kept
        a, w = rng.standard_normal((160, 120)), rng.standard_normal(160)
        np.testing.assert_allclose(traced(wf.asarray(a), wf.asarray(w)).to_numpy(),
                                   (a.T * w).sum(1), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_several_sums_over_one_operand_share_a_kernel_and_match_numpy(real_device, dtype):
    # Row sums and full sums of several expressions of one operand: one reduction kernel,
    # whose CPU band walks them in a loop over accumulator arrays (copies of its body left
    # them scalar), with a tail shorter than the band.
    a = np.random.default_rng(8).standard_normal((37, 1003)).astype(dtype)
    x = wf.asarray(a)
    z = (x - 0.25) / 1.5
    rows = [(z * z).sum(axis=1), z.sum(axis=1), wf.exp(z * 0.1).sum(axis=1)]
    source = wf.kernel_source(*rows)
    if real_device.traits.row_band:
        assert "acc0[" in source and "acc2[" in source
    wf.eval(*rows)
    za = (a.astype(np.float64) - 0.25) / 1.5
    tol = 1e-12 if dtype == np.float64 else 2e-6
    for got, want in zip(rows, [(za * za).sum(axis=1), za.sum(axis=1),
                                np.exp(za * 0.1).sum(axis=1)]):
        np.testing.assert_allclose(got.to_numpy(), want, rtol=tol, atol=tol * 40)
    flat = wf.asarray(a.ravel())
    zf = (flat - 0.25) / 1.5
    totals = wf.eval(wf.sum(zf * zf), wf.sum(zf))
    np.testing.assert_allclose([float(t) for t in totals], [(za * za).sum(), za.sum()],
                               rtol=tol * 10)
