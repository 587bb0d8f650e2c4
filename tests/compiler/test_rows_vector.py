"""Rows reductions that walk their operands with vector loads (``REDUCE_ROWS_VECTOR``).

GPUs take this walk wherever the views allow it (float64 rows need 16-byte loads to reach the
memory bandwidth); CPUs take it for 4-byte elements. Here every real device is made to take it
for every element type, so the walk's values, tails, splits, checks and fallbacks are tested on
the CPU device too.
"""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import pytest

import weft as wf
from weft import tuning, variants
from weft.ir import REDUCE_COLS, REDUCE_ROWS
from weft.skeletons.reduce import WORK_GROUP
from weft.target import vector_widths

LARGE = os.environ.get("WEFT_TEST_PROFILE") == "large"

WALK = "vector_end"  # only the vector walk's source has it


@pytest.fixture(params=["own lanes", "interleaved lanes"])
def vector_walk(request, real_device, monkeypatch):
    """``real_device``, loading 16 bytes at a time in rows reductions whatever the type; and
    again with a GPU's walk, lanes interleaved along the row (on a CPU device, each lane
    otherwise walks a contiguous run). Teams of lanes, not a CPU's bands."""
    traits = replace(real_device.traits, rows_vector_widths=vector_widths(16), row_band=0,
                     column_band=0)
    if request.param == "interleaved lanes":
        if not real_device.traits.is_cpu:
            pytest.skip("the device's own walk interleaves its lanes")
        traits = replace(traits, is_cpu=False)
    monkeypatch.setattr(real_device, "traits", traits)
    with wf.device(real_device):
        yield real_device


def _values(rng, shape, dtype):
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-50, 50, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# Each length compiles its own kernels: an unaligned single row and aligned rows by default,
# two more lengths with WEFT_TEST_PROFILE=large (CI's cold compiles decide the suite's time).
@pytest.mark.parametrize("cols", [1029, 8192] + ([2052, 4099] if LARGE else []))
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64])
def test_row_sums_and_extremes_match_numpy(vector_walk, dtype, cols):
    rng = np.random.default_rng(cols)
    rows = 6 if cols % 4 == 0 else 1  # rows cols apart are unaligned unless there is one
    a = _values(rng, (rows, cols), dtype)
    x = wf.asarray(a)
    assert WALK in wf.kernel_source(x.sum(axis=1))
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    sums, maxima, minima = wf.eval(x.sum(axis=1), x.max(axis=1), x.min(axis=1))  # one kernel
    np.testing.assert_allclose(sums.to_numpy(), a.sum(axis=1), rtol=rtol)
    np.testing.assert_array_equal(maxima.to_numpy(), a.max(axis=1))
    np.testing.assert_array_equal(minima.to_numpy(), a.min(axis=1))


@pytest.mark.parametrize("cols", [512 + 36 * k for k in range(8)])
def test_every_length_of_the_last_partial_step(vector_walk, cols):
    """A lane's last vectors, fewer than an unrolled step, are loaded together under a guard
    where its walk is short (GPU lanes: a few unrolled steps each): these rows leave each count
    of them (0 to 7) to some lane."""
    rng = np.random.default_rng(cols)
    a, b = rng.standard_normal((3, cols)), rng.standard_normal(cols)
    x, beta = wf.asarray(a), wf.asarray(b)
    product = (x * beta.reshape(1, cols)).sum(axis=1)
    if not vector_walk.traits.is_cpu:
        assert "if (j0 < vector_end)" in wf.kernel_source(product)
    np.testing.assert_allclose(product.to_numpy(), a @ b, rtol=1e-12)
    np.testing.assert_allclose(x.max(axis=1).to_numpy(), a.max(axis=1))


def test_rows_past_32_bit_columns_walk_with_wide_indexes(vector_walk, monkeypatch):
    """In a launch with 64-bit indexes, column indexes are 32-bit where rows are shorter than
    ``INT_COLUMNS``; longer rows keep the device's wide index type (here: every row counts as
    long)."""

    a = np.random.default_rng(9).standard_normal((5, 1030))
    x = wf.asarray(a)
    monkeypatch.setattr(tuning, "INDEX32_LIMIT", 0)
    assert "int j_next" in wf.kernel_source(x.sum(axis=1))
    assert "const int cols = " not in wf.kernel_source(x.sum(axis=1))
    monkeypatch.setattr(tuning, "INT_COLUMNS", 0)
    source = wf.kernel_source(x.sum(axis=1))
    assert WALK in source and "int j_next" not in source
    np.testing.assert_allclose(x.sum(axis=1).to_numpy(), a.sum(axis=1), rtol=1e-12)


def test_matrix_vector_product_walks_both_operands(vector_walk):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((300, 2048)), rng.standard_normal(2048)
    x, beta = wf.asarray(a), wf.asarray(b)
    product = (x * beta.reshape(1, 2048)).sum(axis=1)
    source = wf.kernel_source(product)
    assert WALK in source and source.count("q1[u] = *(") == 2  # beta, in both vector loops
    assert "const int cols = " not in source  # the walk's rows keep 64-bit offsets
    np.testing.assert_allclose(product.to_numpy(), a @ b, rtol=1e-12)
    np.testing.assert_allclose((x @ beta).to_numpy(), a @ b, rtol=1e-12)


def test_boolean_rows(vector_walk):
    a = np.zeros((4, 1500), dtype=bool)
    a[1, 1499] = True  # in the scalar tail
    a[2, 700] = True  # in the vector walk
    a[3] = True
    x = wf.asarray(a)
    assert WALK in wf.kernel_source(x.any(axis=1))
    np.testing.assert_array_equal(x.any(axis=1).to_numpy(), a.any(axis=1))
    np.testing.assert_array_equal(x.all(axis=1).to_numpy(), a.all(axis=1))


def test_split_full_reduction_and_mean(vector_walk):
    rng = np.random.default_rng(2)
    a = rng.standard_normal(3 * 2**18 + 5)
    y = wf.asarray(a)
    source = wf.kernel_source(wf.sum(y * 2.0))
    assert WALK in source
    if vector_walk.traits.is_cpu:  # long contiguous runs: one at a time
        assert "j_next += vector_step)" in source and "if (j0 < vector_end)" not in source
    np.testing.assert_allclose(wf.sum(y * 2.0).item(), (a * 2.0).sum(), rtol=1e-11)
    np.testing.assert_allclose(wf.mean(wf.exp(y)).item(), np.exp(a).mean(), rtol=1e-11)
    f = a.astype(np.float32)
    np.testing.assert_allclose(wf.sum(wf.asarray(f)).item(), f.astype(np.float64).sum(),
                               rtol=1e-6)


def test_fused_check_reports_the_failing_element(vector_walk):
    from scipy import stats

    rng = np.random.default_rng(3)
    a = rng.standard_normal(2**20)
    y = wf.asarray(a)
    np.testing.assert_allclose(wf.stats.normal_lpdf(y, 0.5, 2.0).item(),
                               stats.norm.logpdf(a, 0.5, 2.0).sum(), rtol=1e-11)
    for bad in (123457, 2**20 - 1):  # inside the walk; in the last vector
        b = a.copy()
        b[bad] = np.nan
        with pytest.raises(ValueError, match=rf"y\[{bad}\] = nan"):
            wf.stats.normal_lpdf(wf.asarray(b), 0.5, 2.0).item()


def test_reduction_with_an_elementwise_output_in_the_same_kernel(vector_walk):
    rng = np.random.default_rng(4)
    a = rng.standard_normal((8, 1030))
    x = wf.asarray(a)
    doubled = x * 2.0
    total = doubled.sum(axis=1)
    assert WALK in wf.kernel_source(doubled, total)
    wf.eval(doubled, total)
    np.testing.assert_array_equal(doubled.to_numpy(), a * 2.0)
    np.testing.assert_allclose(total.to_numpy(), (a * 2.0).sum(axis=1), rtol=1e-12)


def test_row_index_and_column_broadcast_are_per_element(vector_walk):
    rng = np.random.default_rng(5)
    a, c = rng.standard_normal((6, 1024)), rng.standard_normal((6, 1))
    x, col = wf.asarray(a), wf.asarray(c)
    # The column vector is read along each row with stride 0: element by element.
    np.testing.assert_allclose(((x - col) ** 2).sum(axis=1).to_numpy(),
                               ((a - c) ** 2).sum(axis=1), rtol=1e-12)
    j = np.arange(1024)
    weighted = (x * wf.arange(1024).reshape(1, 1024)).sum(axis=1)
    np.testing.assert_allclose(weighted.to_numpy(), (a * j).sum(axis=1), rtol=1e-12)


@pytest.mark.parametrize("view", ["offset", "odd_row_stride", "column_step", "transposed"])
def test_views_that_do_not_start_rows_on_a_vector_boundary_walk_elements(vector_walk, view):
    rng = np.random.default_rng(6)
    a = rng.standard_normal((10, 1201))
    x = wf.asarray(a)
    selected, expected = {
        "offset": (x[:, 1:1201], a[:, 1:1201]),  # rows start one element in
        "odd_row_stride": (x[:, :1200], a[:, :1200]),  # rows 1201 apart
        "column_step": (x[:, ::2], a[:, ::2]),
        "transposed": (x.T, a.T),
    }[view]
    assert WALK not in wf.kernel_source(selected.sum(axis=1))
    np.testing.assert_allclose(selected.sum(axis=1).to_numpy(), expected.sum(axis=1),
                               rtol=1e-12)
    aligned = x[2:8, :1200] if view == "offset" else None
    if aligned is not None:  # 6 rows of a 1201-wide matrix: odd row stride, walked elementwise
        np.testing.assert_allclose(aligned.sum(axis=1).to_numpy(),
                                   a[2:8, :1200].sum(axis=1), rtol=1e-12)


def test_aligned_view_of_a_larger_matrix_is_walked(vector_walk):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((12, 2048))
    x = wf.asarray(a)
    block = x[2:10, 4:2048]  # offset 2 * 2048 + 4, row stride 2048: every row aligned
    assert WALK in wf.kernel_source(block.sum(axis=1))
    np.testing.assert_allclose(block.sum(axis=1).to_numpy(), a[2:10, 4:].sum(axis=1),
                               rtol=1e-12)


def test_walk_on_the_default_rows_reduction(real_device):
    """Without forcing: GPUs walk float64 rows with vector loads, and float32 rows of a
    contiguous matrix; CPUs walk rows in bands of independent accumulators."""
    with wf.device(real_device):
        a = np.random.default_rng(8).standard_normal((64, 4096)).astype(np.float32)
        x = wf.asarray(a)
        banded = bool(real_device.traits.row_band)
        assert (("total0" if banded else WALK) in wf.kernel_source(x.sum(axis=1)))
        np.testing.assert_allclose(x.sum(axis=1).to_numpy(), a.sum(axis=1, dtype=np.float64),
                                   rtol=1e-6)


@pytest.mark.parametrize(("rows", "cols", "itemsize", "lanes"), [
    (100000, 5000, 8, 128),  # 40000 bytes a row: 256 bytes or more a lane, 128 lanes
    (400000, 1250, 8, 32),
    (1000000, 500, 8, 8),  # short rows: up to 8 lanes, 96 bytes or more each
    (5000000, 100, 8, 8),
    (7812500, 64, 8, 4),
    (31250000, 16, 8, 1),
    (1000, 3, 8, 1),
    (8192, 8192, 4, 128),
    (10000, 50000, 8, 256),  # never more than a work-group
])
def test_gpu_lanes_walk_256_bytes_of_a_row_each(rows, cols, itemsize, lanes):

    layout = variants.reduce_layout(REDUCE_ROWS, rows, cols, 1056, False, itemsize)
    assert layout.lanes == lanes
    assert layout.groups * (WORK_GROUP // lanes) >= rows * layout.splits
    cpu = variants.reduce_layout(REDUCE_ROWS, rows, cols, 32, True, itemsize)
    assert cpu.lanes == min(tuning.CPU_LANES, variants._pow2_at_least(cols))  # CPUs: 4


def test_rows_tuning_by_device():
    """Measured per-device values (``ROWS_TUNING_BY_DEVICE``): the H100 keeps a rows
    kernel's launch settings as arguments, under CUDA and NVIDIA's OpenCL; other devices,
    the H200 among them, take them as constants and walk 256 bytes of a row per lane."""
    for kind in ("cuda", "opencl"):
        h100 = tuning.rows_tuning(kind, "NVIDIA H100 80GB HBM3")
        assert (h100.lane_bytes, h100.fixed) == (256, False)
        h200 = tuning.rows_tuning(kind, "NVIDIA H200")
        assert (h200.lane_bytes, h200.fixed) == (256, True)
    layout = variants.reduce_layout(REDUCE_ROWS, 100000, 5000, 1056, False, 8, 132,
                                    tuning.rows_tuning("cuda", "NVIDIA H200").lane_bytes)
    assert layout.lanes == 128
    assert variants.fixed_settings(layout) == (("lanes", 128), ("contiguous", 0), ("splits", 1))


@pytest.mark.parametrize("fixed", [True, False])
@pytest.mark.parametrize("cols", [1, 2, 3, 7, 100, 3000])
def test_launch_settings_fixed_in_the_source_or_passed(real_device, monkeypatch, fixed, cols):
    """A rows kernel writes its team width and walk kind into the source as constants (a
    device measured apart keeps them as arguments); the sums agree with NumPy either way,
    for every team width the columns give."""
    import re

    from weft import memo

    monkeypatch.setattr(real_device, "traits", replace(real_device.traits, rows_fixed=fixed,
                                                       row_band=0))
    memo.MEMO.clear()
    a = np.random.default_rng(cols).standard_normal((37, cols))
    with wf.device(real_device):
        x = wf.asarray(a)
        source = wf.kernel_source(wf.sum(x * 2.0, axis=1))
        constant = re.search(r"const \w+( \w+)? lanes = (\d+);", source)
        if fixed:
            assert constant is not None, "the team width is not a constant in the source"
            lanes = int(constant.group(2))
            assert 1 <= lanes <= WORK_GROUP and lanes & (lanes - 1) == 0
            assert "lanes_argument" in source or "args.lanes" not in source
        else:
            assert constant is None
        np.testing.assert_allclose(wf.sum(x * 2.0, axis=1).to_numpy(), 2.0 * a.sum(axis=1),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(float(wf.sum(x * 2.0)), 2.0 * a.sum(), rtol=1e-12)
    memo.MEMO.clear()


def test_one_row_keeps_full_teams():
    """A full reduction's single row is split across work-groups of whole teams (then the last
    group can finish it in the same launch)."""

    layout = variants.reduce_layout(REDUCE_ROWS, 1, 1000, 1056, False, 8)
    assert layout.lanes == WORK_GROUP


@pytest.mark.parametrize(("length", "splits"), [
    (100_000, 98),  # was 13 groups of 32-element walks: now one group per SM or 4 elements
    (300_000, 98),  # one group per compute unit, fewer once chunks round to 1024 elements
    (1_000_000, 123),  # as many as MIN_WALK gives
    (4_000_000, 489),  # MIN_WALK's 489 groups are already more than the compute units
    (2_000, 2),
    (500, 1),
])
def test_short_full_reductions_take_a_group_per_compute_unit(length, splits):
    """A split one-row reduction on a GPU spreads over the compute units (132 here) while its
    lanes walk SHORT_WALK elements or more; CPU plans and many rows keep MIN_WALK."""

    layout = variants.reduce_layout(REDUCE_ROWS, 1, length, 1056, False, 8, 132)
    assert layout.splits == splits
    assert layout.splits * layout.chunk >= length > (layout.splits - 1) * layout.chunk
    walk = layout.chunk // layout.lanes
    assert walk >= tuning.SHORT_WALK
    before = variants.reduce_layout(REDUCE_ROWS, 1, length, 1056, False, 8)
    assert layout.splits >= before.splits
    cpu = variants.reduce_layout(REDUCE_ROWS, 1, length, 4, True, 8, 2)
    assert cpu == variants.reduce_layout(REDUCE_ROWS, 1, length, 4, True, 8)
    rows = variants.reduce_layout(REDUCE_ROWS, 8, length, 1056, False, 8, 132)
    assert rows == variants.reduce_layout(REDUCE_ROWS, 8, length, 1056, False, 8)


@pytest.mark.parametrize(("rows", "cols", "splits"), [
    (1000, 10, 1),  # 62 rows a lane: two splits of 31 would add a combining launch
    (500, 64, 1),
    (4000, 8, 3),  # 125 rows a lane: three splits of MIN_WALK or more
    (100_000, 10, 174),  # 195 walks of MIN_WALK, fewer once chunks round to whole vectors
])
def test_split_columns_walk_min_walk_each(rows, cols, splits):
    """A GPU's column reduction splits its rows only into walks of MIN_WALK elements a lane
    or more: a shorter split's combining pass is a launch that costs more than it saves."""

    layout = variants.reduce_layout(REDUCE_COLS, rows, cols, 1056, False, 8)
    assert layout.splits == splits
    assert layout.splits * layout.chunk >= rows
    if splits > 1:
        assert rows // layout.splits // layout.lanes >= tuning.MIN_WALK
