"""A scan's kernels (scan_kernels.py, skeletons/scan.py), compiled for other targets with no
device: the layout each device's traits choose, the passes a long row takes, what the scan
reads straight from a buffer, and the sources' skeletons."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf
from weft.backends.cuda.dialect import CUDA
from weft.backends.opencl.dialect import OPENCL
from weft.compiler import Target, compile, temporary_leaf
from weft.scan_kernels import MIN_CPU_SPLIT, SERIAL_COLS, scan_layout
from weft.target import Traits

GPU = Traits(compute_units=132, reduction_groups=1056)
CPU = Traits(is_cpu=True, compute_units=2, reduction_groups=4, row_band=8, column_band=8)


@pytest.fixture
def reference():
    with wf.device("reference") as d:
        yield d


def _kernels(array: wf.Array, target: Target) -> list:
    return compile([(array._node, temporary_leaf(array.shape, array.dtype))], target).kernels


def test_layouts_follow_the_traits():
    # CPU: a long row is cut into splits for the cores, a task per work-group.
    cpu = scan_layout(1, 1 << 22, 8, CPU)
    assert cpu.splits == 4 and cpu.chunk * cpu.splits >= 1 << 22 and cpu.by_groups
    assert cpu.per_thread == 0 and cpu.groups == 4
    # Short rows are not split below MIN_CPU_SPLIT elements; many rows need no split.
    assert scan_layout(1, MIN_CPU_SPLIT, 8, CPU).splits == 1
    assert scan_layout(1000, 1 << 20, 8, CPU).splits == 1
    # GPU: tiles of per_thread * 256 elements, splits to fill the device.
    gpu = scan_layout(1, 1 << 26, 4, GPU)
    assert gpu.per_thread == 16 and gpu.chunk % (16 * 256) == 0
    assert gpu.splits * gpu.chunk >= 1 << 26 and gpu.groups == gpu.splits
    assert scan_layout(1, 1 << 26, 8, GPU).per_thread == 4
    # Rows too short for a tile: a work-item per row.
    short = scan_layout(10000, SERIAL_COLS, 4, GPU)
    assert short.per_thread == 0 and short.splits == 1 and short.groups == 40
    # Down the columns of a row-major array: a work-item walks a band of adjacent columns
    # (CPUs: 8 float64 or 16 float32; GPUs: one, adjacent work-items adjacent columns).
    columns = scan_layout(4096, 1024, 8, CPU, down_columns=True)
    assert columns.band == 8 and columns.splits == 1 and columns.by_groups
    assert scan_layout(4096, 1024, 4, CPU, down_columns=True).band == 16
    gpu_columns = scan_layout(4096, 1024, 4, GPU, down_columns=True)
    assert gpu_columns.band == 1 and gpu_columns.per_thread == 0
    assert gpu_columns.splits > 1 and gpu_columns.splits * gpu_columns.chunk >= 1024


def test_a_long_row_takes_three_passes_a_short_one_one(reference):
    long_row = wf.asarray(np.ones(1 << 20))
    passes = _kernels(wf.cumsum(long_row), Target(OPENCL, CPU))
    assert [k.ir.scan.totals for k in passes] == [True, False, False]
    assert [k.ir.scan.exclusive for k in passes] == [False, True, False]
    assert passes[2].ir.scan.carried
    (single,) = _kernels(wf.cumsum(wf.asarray(np.ones(100))), Target(OPENCL, CPU))
    assert not single.ir.scan.carried and not single.ir.scan.totals


def test_the_scan_computes_its_operand_where_it_reads_it(reference):
    m = wf.asarray(np.ones((50, 40), np.int32))
    # A transposed view (axis 0) widened to int64 as it loads: one kernel, no copy.
    (scan,) = _kernels(wf.cumsum(m, axis=0), Target(OPENCL, CPU))
    text = scan.source(OPENCL)
    assert scan.ir.scan is not None and "w0_s1" in text and "(long)" in text
    assert scan.variant.scan_band == 8 and "accs[8]" in text
    # A producer fuses into the scan's loads; what reads the scan follows it.
    scan, after = _kernels(wf.cumsum(wf.exp(m * 2.0), axis=1) + 1, Target(OPENCL, CPU))
    assert scan.ir.scan is not None and after.ir.scan is None
    assert "exp(" in scan.source(OPENCL) and "exp(" not in after.source(OPENCL)
    # A gather (its index checks need an error record) is computed first.
    first, scan = _kernels(wf.cumsum(m[wf.asarray([0, 2])], axis=1), Target(OPENCL, CPU))
    assert first.ir.scan is None and first.ir.checked and scan.ir.scan is not None


def test_float32_sums_run_in_float64_where_the_device_has_it(reference):
    x = wf.asarray(np.ones(100, np.float32))
    (with_fp64,) = _kernels(wf.cumsum(x), Target(OPENCL, CPU))
    (without,) = _kernels(wf.cumsum(x), Target(OPENCL, CPU, fp64=False))
    assert with_fp64.ir.scan.dtype.name == "float64" and "double acc" in with_fp64.source(OPENCL)
    assert without.ir.scan.dtype.name == "float32" and "double" not in without.source(OPENCL)


@pytest.mark.parametrize("dialect", [OPENCL, CUDA], ids=["opencl", "cuda"])
def test_gpu_sources_scan_tiles_in_work_group_memory(reference, dialect):
    x = wf.asarray(np.ones(1 << 22, np.float32))
    totals, carries, scan = _kernels(wf.cummax(x), Target(dialect, GPU))
    text = scan.source(dialect)
    assert scan.variant.scan_per_thread == 16 and "tile[4096 + 4096 / 32]" in text
    assert dialect.barrier in text and "carries[task]" in text
    assert "weft_scan_totals_maximum" in totals.source(dialect)
    assert "weft_scan_carries_maximum" in carries.source(dialect)
    (rows,) = _kernels(wf.cummax(wf.asarray(np.ones((5000, 8), np.float32)), axis=1),
                       Target(dialect, GPU))
    assert rows.variant.scan_per_thread == 0 and "tile" not in rows.source(dialect)


def test_arg_reductions_along_rows_take_one_pass_or_two(reference):
    (single,) = _kernels(wf.argmax(wf.asarray(np.ones((50, 100))), axis=1), Target(OPENCL, CPU))
    assert single.ir.scan.arg and not single.ir.scan.totals
    assert "weft_argmax_rows" in single.source(OPENCL)
    first, combine = _kernels(wf.argmin(wf.asarray(np.ones(1 << 20))), Target(CUDA, GPU))
    assert first.ir.scan.totals and combine.ir.scan.combining
    assert "bests_at[" in first.source(CUDA) and "part_at[i * cols + j]" in combine.source(CUDA)
    # Down columns: bands of columns walked row by row; over a whole matrix: each row's
    # pairs with their flat positions, then one combining pass.
    (columns,) = _kernels(wf.argmax(wf.asarray(np.ones((50, 100))), axis=0),
                          Target(OPENCL, CPU))
    assert columns.variant.scan_band == 8 and "bests[8]" in columns.source(OPENCL)
    rows, combine = _kernels(wf.argmin(wf.asarray(np.ones((50, 100)))), Target(OPENCL, CPU))
    assert rows.ir.scan.flat and "(long)(i * cols + j)" in rows.source(OPENCL)
    assert combine.ir.scan.combining


def test_gpu_shaped_arg_reductions_match_numpy_on_a_real_device(real_device, monkeypatch):
    # The GPU walks (a column per work-item; tiles of a row), run where CI can: on a CPU
    # device told it is a GPU. Ties, NaNs, extremes equal to the walk's starting value,
    # long rows combined across splits, integers.
    from dataclasses import replace

    monkeypatch.setattr(real_device, "traits", replace(real_device.traits, is_cpu=False,
                                                       reduction_groups=64))
    rng = np.random.default_rng(3)
    ties = rng.integers(0, 40, (3, 70_001)).astype(np.float64)
    ties[1, 50_000] = ties[1, 60_000] = np.nan
    cases = [(ties, "argmax", (None, 0, 1)), (ties, "argmin", (1,)),
             (np.full((3000, 5), -np.inf), "argmax", (None, 0)),
             (np.where(np.arange(40_001) == 39_999, np.nan, -np.inf), "argmax", (None,)),
             (np.full(40_001, np.iinfo(np.int64).min), "argmax", (None,)),
             (rng.integers(0, 40, (5000, 70)), "argmin", (0,))]
    sources = ""
    for values, name, axes in cases:
        for axis in axes:
            result = getattr(wf, name)(wf.asarray(values), axis=axis)
            sources += wf.kernel_source(result)
            np.testing.assert_array_equal(result.to_numpy(), getattr(np, name)(values, axis=axis))
    assert "#pragma unroll 4" in sources and "best_k" in sources  # the GPU walks ran
