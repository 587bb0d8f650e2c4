"""``compiler.compile``: outputs and a ``Target`` to kernels, with no device. The launch choices
follow the target's traits, split reductions gain their combining pass and temporaries, and a
target's occupancy answer replans a split row; nothing is allocated, built or launched."""

from __future__ import annotations

import os

import numpy as np
import pytest

import weft as wf
from weft.backends.cuda.dialect import CUDA
from weft.backends.opencl.dialect import OPENCL, OPENCL_CPU
from weft.cache import CACHE
from weft.compiler import Target, TemporaryBuffer, compile, temporary_leaf
from weft.storage import Storage
from weft.target import Traits

GPU = Traits(compute_units=132, vector_width=4, vector_from=1 << 20, per_thread=4,
             per_thread_from=1 << 20, tiles_transposes=True, reduction_groups=1056)


def _outputs(*arrays: wf.Array) -> list:
    return [(a._node, temporary_leaf(a.shape, a.dtype)) for a in arrays]


@pytest.fixture
def reference():
    with wf.device("reference") as d:
        yield d


def test_compiling_touches_no_device(reference):
    x = wf.asarray(np.ones(3_000_000, np.float32))
    before = (dict(CACHE.stats), wf.cache_info())
    compiled = compile(_outputs(wf.sum(wf.exp(x) * 2.0)), Target(CUDA, GPU))
    assert (dict(CACHE.stats), wf.cache_info()) == before  # nothing built or looked up
    first, combine = compiled.kernels
    assert first.groups > 1 and not first.combines and combine.combines
    partials, out = compiled.temporaries  # in order of first use
    assert type(partials) is TemporaryBuffer and partials.size == first.groups
    assert partials in first.arguments and partials in combine.arguments
    assert out in combine.arguments and out not in first.arguments
    assert "__global__" in first.source(CUDA) and "__kernel" in first.source(OPENCL)
    assert not any(isinstance(a, Storage) and a.device is not reference
                   for k in compiled.kernels for a in k.arguments)


def test_launch_choices_follow_the_traits(reference):
    x = wf.asarray(np.ones(1 << 21, np.float32))
    m = wf.asarray(np.ones((64, 64)))
    on_gpu = compile(_outputs(x * 2.0, wf.exp(m.T) + m), Target(OPENCL, GPU)).kernels
    plain = compile(_outputs(x * 2.0, wf.exp(m.T) + m), Target(OPENCL, Traits())).kernels
    assert [k.variant.vector for k in on_gpu] == [4, 1] and on_gpu[1].variant.tiled
    assert [k.variant.vector for k in plain] == [1, 1] and not plain[1].variant.tiled
    assert all(k.groups is None for k in plain)  # one thread per element


def test_a_split_row_is_replanned_to_the_groups_resident_at_once(reference):
    x = wf.asarray(np.ones(3_000_017))
    asked = []

    def resident(ir, variant):
        asked.append(variant)
        return 264

    first, _ = compile(_outputs(wf.sum(x)), Target(CUDA, GPU)).kernels
    replanned, _ = compile(_outputs(wf.sum(x)), Target(CUDA, GPU, resident_groups=resident)
                           ).kernels
    assert len(asked) == 1 and first.groups > 264 >= replanned.groups > 1


def test_a_device_without_float64_is_refused_by_name(reference):
    x = wf.asarray(np.ones(4))
    with pytest.raises(TypeError, match="my-gpu has no float64 support"):
        compile(_outputs(x + 1), Target(OPENCL, Traits(), fp64=False, name="my-gpu"))


def test_compiled_kernels_run_as_given(real_device):
    """What ``compile`` gives for a device's own target is what evaluation launches."""
    with wf.device(real_device):
        a = np.random.default_rng(3).standard_normal((300, 500))
        x = wf.asarray(a)
        total = wf.sum(wf.exp(x) - x, axis=0)
        kernels = compile(_outputs(total), real_device.target).kernels
        before = wf.cache_info()
        np.testing.assert_allclose(total.to_numpy(), (np.exp(a) - a).sum(axis=0), rtol=1e-12)
        after = wf.cache_info()
        launched = after["hits"] + after["misses"] - before["hits"] - before["misses"]
        assert launched == len(kernels) >= 1


def test_cpus_walk_runs_of_elements_without_a_bounds_test(reference):
    x = wf.asarray(np.ones(1000))
    cpu = Traits(is_cpu=True, walks_elements=True)
    (kernel,) = compile(_outputs(x * 2.0), Target(OPENCL, cpu)).kernels
    source = kernel.source(OPENCL)
    assert kernel.variant.walk and "for (int gid = first; gid < end; ++gid)" in source
    assert "return;" not in source
    (plain,) = compile(_outputs(x * 2.0), Target(OPENCL, Traits())).kernels
    assert "    if (gid >= n) return;" in plain.source(OPENCL)


@pytest.mark.parametrize("n", [1, 255, 256, 257, 1000, (1 << 16) + 3, (1 << 20) + 7])
def test_an_element_walk_computes_every_element_once(real_device, monkeypatch, n):
    """Forced on any device: runs split the grid exactly, whatever the work-item count, and
    writing in place (a read and a write of one buffer) stays element by element."""
    from dataclasses import replace

    from weft import memo

    monkeypatch.setattr(real_device, "traits",
                        replace(real_device.traits, walks_elements=True, per_thread=1,
                                vector_width=1))
    memo.MEMO.clear()
    try:
        a = np.random.default_rng(n).standard_normal(n)
        x = wf.asarray(a)
        y = wf.exp(x) * 2.0 - x
        assert "gid < end" in wf.kernel_source(y)
        np.testing.assert_allclose(y.to_numpy(), np.exp(a) * 2.0 - a, rtol=1e-14)
        x += 1.0
        np.testing.assert_array_equal(x.to_numpy(), a + 1.0)
        # A 2-d grid whose rows the runs cut across.
        m = np.random.default_rng(1).standard_normal((n // 7 + 1, 7))
        col = np.arange(7.0)
        np.testing.assert_array_equal((wf.asarray(m) + wf.asarray(col)).to_numpy(), m + col)
    finally:
        memo.MEMO.clear()


@pytest.mark.parametrize("shape", [(1, 1), (3, 200), (129, 2), (130, 261)])
def test_a_tile_walk_computes_every_block_once(real_device, monkeypatch, shape):
    """Forced on any device: a transpose walked block by block through private tiles (as on
    CPUs), partial blocks at both edges, one and two transposed operands (two halve the
    edge), a view with an offset, and a transposed operand read beside a plain one. A GPU
    keeps its tiles small: CUDA reserves a thread's local memory for every resident thread
    (128 x 129 doubles each is tens of gigabytes; test processes side by side ran out)."""
    from dataclasses import replace

    from weft import memo, tuning

    monkeypatch.setattr(real_device, "traits",
                        replace(real_device.traits, walks_elements=True, tiles_transposes=True,
                                per_thread=1, vector_width=1))
    edge = 64 if real_device.traits.is_cpu else 16  # of two operands' tiles; one's is twice
    monkeypatch.setattr(tuning, "PRIVATE_TILE_BYTES", 2 * edge * (2 * edge + 1) * 8)
    memo.MEMO.clear()
    try:
        rng = np.random.default_rng(shape[0])
        a = rng.standard_normal(shape[::-1])
        b = rng.standard_normal((shape[1] + 2, shape[0]))
        x, y = wf.asarray(a), wf.asarray(b)
        one = wf.exp(x.T) * 2.0 + x.T
        two = x.T - y[2:].T * 3.0
        source = wf.kernel_source(two)
        if min(shape) > 1:
            assert f"tile1[{edge}][{edge} + 1]" in source and "tile1[tj][ti]" in source
            assert f"[{2 * edge}][{2 * edge} + 1]" in wf.kernel_source(one)
        np.testing.assert_allclose(one.to_numpy(), np.exp(a.T) * 2.0 + a.T, rtol=1e-14,
                                   atol=1e-14)
        # (a GPU compiler fuses the multiply and the subtract: one rounding, not two)
        np.testing.assert_allclose(two.to_numpy(), a.T - b[2:].T * 3.0, rtol=1e-15,
                                   atol=1e-15)
    finally:
        memo.MEMO.clear()


def test_tiles_over_the_private_budget_leave_the_walk_reading_straight(real_device,
                                                                         monkeypatch):
    from dataclasses import replace

    from weft import memo, tuning

    monkeypatch.setattr(real_device, "traits",
                        replace(real_device.traits, walks_elements=True, tiles_transposes=True,
                                per_thread=1, vector_width=1))
    monkeypatch.setattr(tuning, "PRIVATE_TILE_BYTES", 16 * 17 * 8 - 1)  # not one tile of 16
    memo.MEMO.clear()
    try:
        a = np.random.default_rng(5).standard_normal((70, 40))
        y = wf.asarray(a).T * 2.0
        source = wf.kernel_source(y)
        assert "tile0" not in source and "gid < end" in source
        np.testing.assert_array_equal(y.to_numpy(), a.T * 2.0)
    finally:
        memo.MEMO.clear()


def test_cpus_find_rows_without_a_division(reference):
    x, row = wf.asarray(np.ones((300, 7))), wf.asarray(np.ones(7))
    cpu = Traits(is_cpu=True, walks_elements=True, reciprocal_rows=True)
    (kernel,) = compile(_outputs(x * row), Target(OPENCL, cpu)).kernels
    source = kernel.source(OPENCL)
    assert kernel.variant.reciprocal_rows and "(1.0 / (double)cols)" in source
    assert "gid / " not in source
    (plain,) = compile(_outputs(x * row), Target(OPENCL, Traits())).kernels
    assert not plain.variant.reciprocal_rows and "gid / (uint)cols" in plain.source(OPENCL)


@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (65537, 17), (17, 65537), (1 << 20, 3),
                                   (3, 1 << 20), (4097, 4095)])
def test_rows_found_by_reciprocal_are_exact(real_device, monkeypatch, shape):
    """Forced on any device: every element's row and column, at every multiple of the row
    length too, as NumPy's broadcasting has them (exact: no arithmetic on the values)."""
    from dataclasses import replace

    from weft import memo

    monkeypatch.setattr(real_device, "traits",
                        replace(real_device.traits, reciprocal_rows=True))
    memo.MEMO.clear()
    try:
        rng = np.random.default_rng(shape[1])
        a, r, c = (rng.standard_normal(s) for s in (shape, shape[1], (shape[0], 1)))
        # Sums only: a GPU compiler may fuse a multiply and an add into one rounding.
        got = (wf.asarray(a) + wf.asarray(r) + wf.asarray(c)).to_numpy()
        np.testing.assert_array_equal(got, a + r + c)
        rows = (wf.row_index(shape) * shape[1] + wf.col_index(shape)).to_numpy()
        np.testing.assert_array_equal(rows, np.arange(shape[0] * shape[1]).reshape(shape))
    finally:
        memo.MEMO.clear()


def test_cpus_reduce_columns_by_row_chunks_or_in_bands(reference):
    x = wf.asarray(np.ones((5000, 300)))
    cpu = Traits(is_cpu=True, column_band=64, reduction_groups=4)
    first, combine = compile(_outputs(x.sum(axis=0)), Target(OPENCL, cpu)).kernels
    assert first.variant.row_chunks and first.groups > 1  # a work-group per split of rows
    source = first.source(OPENCL)
    # Four rows at a time, each in a block of its own, then one update of the partial row.
    assert all(f"const long i = i0 + {r};" in source for r in range(4))
    assert "acc0[j] = (acc0[j] + ((row0_0 + row0_1) + (row0_2 + row0_3)));" in source
    assert "acc0[j] = (acc0[j] + v0);" in source  # the last rows, one at a time
    assert combine.variant.band == 64 and combine.combines  # the few splits: one band walk
    (unsplit,) = compile(_outputs(x[:100].sum(axis=0)), Target(OPENCL, cpu)).kernels
    assert unsplit.variant.band == 64 and "acc0[u] = (acc0[u] + " in unsplit.source(OPENCL)
    # A structure's ranges: whole rows too, each element testing it (masked loads inside
    # the operand beat a walk down each column clamped to its range: 2048^2 float64 tril
    # column sums 17.1 -> 2.3 ms on 2 Zen 4 cores, NumPy 11.3).
    triangle = compile(_outputs(wf.tril(x[:300]).sum(axis=0)), Target(OPENCL, cpu)).kernels
    assert triangle[0].variant.row_chunks
    assert "(w0_0 + w0_i * i + w0_j * j) <= 0" in triangle[0].source(OPENCL)


def test_cpus_reduce_rows_in_bands(reference):
    x = wf.asarray(np.ones((3, 100_000)))
    cpu = Traits(is_cpu=True, row_band=16, reduction_groups=4)
    first, combine = compile(_outputs(x.sum(axis=1)), Target(OPENCL, cpu)).kernels
    assert first.variant.band == 16 and combine.combines and first.groups > 1
    source = first.source(OPENCL)
    # One 64-bit position per column of the band, each adding into its own accumulator.
    assert all(f"const long gid_{c} = gid0 + {c};" in source for c in range(16))
    assert all(f"acc0_{c} = (acc0_{c} + v0_{c});" in source for c in range(16))
    assert "((acc0_0 + acc0_1) + (acc0_2 + acc0_3))" in source
    # A body calling a helper function keeps the band as a loop, which the compiler
    # vectorizes where it does not vectorize the copies.
    looped = compile(_outputs(wf.log1p_exp(x).sum(axis=1)), Target(OPENCL, cpu)).kernels[0]
    text = looped.source(OPENCL)
    assert "acc0[u] = (acc0[u] + v1);" in text and "acc0[0] = (acc0[0] + v1);" in text
    assert "acc0_1" not in text
    # And one calling a CPU dialect's own function whose copies do not vectorize (lgamma:
    # 16 inlined copies built in 12 s and ran 4x slower than the loop); exp's copies do.
    on_cpu = Target(OPENCL_CPU, cpu)
    text = compile(_outputs(wf.lgamma(x).sum(axis=1)), on_cpu).kernels[0].source(OPENCL_CPU)
    assert "acc0[u] = (acc0[u] + " in text and "acc0_1" not in text
    text = compile(_outputs(wf.exp(x).sum(axis=1)), on_cpu).kernels[0].source(OPENCL_CPU)
    assert "acc0_15 = (acc0_15 + " in text
    # So does a body reading across rows (a column of a matrix, strided along the band).
    strided = wf.asarray(np.ones((1000, 10))) @ wf.asarray(np.ones(10))
    looped = compile(_outputs(strided.sum()), Target(OPENCL, cpu)).kernels[0].source(OPENCL)
    assert "acc0[u] = (acc0[u] + " in looped and "acc0_1" not in looped
    (lower,) = compile(_outputs(wf.tril(x[:, :3]).sum(axis=1)), Target(OPENCL, cpu)).kernels
    assert lower.variant.band == 16 and "if (end > i + 1) end = i + 1;" in lower.source(OPENCL)


@pytest.mark.parametrize("axis", [0, 1, None])
# (1, 1) and (130, 64), an exact band, under WEFT_TEST_PROFILE=large: each shape compiles a
# dozen kernels on every device.
@pytest.mark.parametrize("shape", [(3, 65), (1000, 129), (4100, 7)] + (
    [(1, 1), (130, 64)] if os.environ.get("WEFT_TEST_PROFILE") == "large" else []))
def test_banded_reductions(real_device, monkeypatch, shape, axis):
    """Forced on any device: every reduction kind, a fused check that reports its element,
    a fused element-wise output, partial bands and splits with their combining pass."""
    from dataclasses import replace

    from weft import memo

    monkeypatch.setattr(real_device, "traits",
                        replace(real_device.traits, column_band=64, row_band=16,
                                reduction_groups=8))
    memo.MEMO.clear()
    try:
        rng = np.random.default_rng(sum(shape))
        a = rng.standard_normal(shape)
        x = wf.asarray(a)
        np.testing.assert_allclose(x.sum(axis=axis).to_numpy(), a.sum(axis=axis), rtol=1e-12,
                                   atol=1e-12)
        np.testing.assert_allclose(wf.mean(wf.exp(x), axis=axis).to_numpy(),
                                   np.exp(a).mean(axis=axis), rtol=1e-12)
        np.testing.assert_array_equal(x.max(axis=axis).to_numpy(), a.max(axis=axis))
        np.testing.assert_array_equal((x > 1.0).any(axis=axis).to_numpy(),
                                      (a > 1.0).any(axis=axis))
        ints = (a * 10).astype(np.int32)
        np.testing.assert_array_equal(wf.asarray(ints).sum(axis=axis).to_numpy(),
                                      ints.sum(axis=axis))
        doubled, sums = wf.eval(x * 2.0, x.sum(axis=axis))
        np.testing.assert_array_equal(doubled.to_numpy(), a * 2.0)
        np.testing.assert_allclose(sums.to_numpy(), a.sum(axis=axis), rtol=1e-12, atol=1e-12)
        bad = a.copy()
        bad[shape[0] - 1, shape[1] - 1] = np.nan
        checked = wf.check(wf.asarray(bad), lambda v: ~wf.isnan(v), "no NaN please")
        with pytest.raises(ValueError, match=r"no NaN please"):
            checked.sum(axis=axis).to_numpy()
    finally:
        memo.MEMO.clear()


def test_zero_d_outputs_ride_in_a_small_elementwise_kernel(reference, real_device):
    """A 0-d output beside a small element-wise one is written by the same kernel (each
    work-item the same value), after the reductions both read."""
    a = np.arange(12.0).reshape(3, 4)
    x = wf.asarray(a)
    total = x.sum()
    outputs = _outputs(wf.exp(total) + x[0, :3], total * 2.0 + 1.0)
    kernels = compile(outputs, Target(OPENCL, Traits())).kernels
    assert [k.ir.skeleton for k in kernels if not k.combines][-1] == "elementwise"
    assert sum(k.ir.skeleton == "elementwise" for k in kernels) == 1
    with wf.device(real_device):
        y = wf.asarray(a)
        s = y.sum()
        vector, scalar = wf.eval(wf.exp(s / 100.0) + y[0, :3], s * 2.0 + 1.0)
        np.testing.assert_allclose(vector.to_numpy(), np.exp(a.sum() / 100) + a[0, :3])
        assert scalar.shape == () and float(scalar) == a.sum() * 2 + 1
        # A 0-d destination the other outputs read is written by a kernel of its own.
        v, t = wf.asarray(np.arange(3.0)), wf.asarray(np.float64(5.0))
        wf.assign((v, t), (v + t, t * 2))
        assert v.tolist() == [5.0, 6.0, 7.0] and float(t) == 10.0
    v, t = wf.asarray(np.arange(3.0)), wf.asarray(np.float64(5.0))
    aliased = [((v + t)._node, v._node), ((t * 2)._node, t._node)]
    assert sum(k.ir.skeleton == "elementwise"
               for k in compile(aliased, Target(OPENCL, Traits())).kernels) == 2


def test_a_small_banded_reduction_is_not_split():
    from weft.variants import REDUCE_COLS, band_layout, reduction_layout

    assert band_layout(1000, 10, 64, 4).splits == 1
    assert band_layout(4096, 4096, 64, 4).splits > 1
    layout = reduction_layout(REDUCE_COLS, 1000, 10, 4, Traits(column_band=64), 8, True, True)
    assert layout.splits == 1 and layout.groups == 1
