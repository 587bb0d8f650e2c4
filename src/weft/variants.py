"""Launch choices: how a kernel's IR is run on a device (32-bit indexes, vector loads,
several elements per thread, tiles, a reduction's lanes and splits, settings fixed in the
source), each decided from the kernel's IR and arguments, the device's traits
(``target.Traits``) and the measured constants of ``tuning.py``.

>>> import weft as wf
>>> wf.variants.reduce_layout("reduce_rows", 1000, 8, 64).lanes  # rows of 8: a lane each
1
"""

from __future__ import annotations

import operator
from dataclasses import replace
from typing import Any

from . import tuning
from .indexing import rows_start_aligned
from .ir import (
    FLAT,
    REDUCE_COLS,
    REDUCE_ROWS,
    ROW_VECTOR,
    BufferParam,
    IndexParam,
    KernelIR,
    ReduceLayout,
    Variant,
)
from .skeletons.elementwise import TILE
from .skeletons.reduce import VECTOR_ALIGN, WORK_GROUP, vector_unroll
from .target import Traits


def fits_32_bits(ir: KernelIR, args: list[Any], n: int) -> bool:
    """Whether every index a launch of ``ir`` over ``n`` grid elements computes fits 32 bits.
    Each address a view yields is in its buffer, and each partial sum of an address (offset,
    then row, then column term) is another element's address, so bounding the buffers' sizes,
    the grid and the index arguments (offsets, strides, extents, index-map terms) bounds them
    all. A remembered plan keeps this choice for later calls with other buffers: the views'
    offsets and strides are in its key, so their addresses are the same ones."""
    if n > tuning.INDEX32_LIMIT:
        return False
    for param, value in zip(ir.params, args):
        if value is None:  # the error buffer, its record's offset, the group counter
            continue
        if isinstance(param, BufferParam):
            if value.size > tuning.INDEX32_LIMIT:
                return False
        elif isinstance(param, IndexParam) and abs(value) > tuning.INDEX32_LIMIT:
            return False
    return True


def elementwise(ir: KernelIR, args: list[Any], traits: Traits) -> tuple[Variant, int | None]:
    """An element-wise kernel's variant on a device of ``traits``, and the work-groups to
    launch (None: one thread per element)."""
    n = args[-2]
    variant = Variant(index32=fits_32_bits(ir, args, n))
    tiling = ir.ndim == 2 and ir.tileable_loads and traits.tiles_transposes
    edge = (private_tile_edge(ir) if traits.walks_elements else TILE) if tiling else 0
    if edge:
        cols = args[-1]
        tiles = ceil_div(n // cols, edge) * ceil_div(cols, edge) if n else 0
        if traits.walks_elements:
            return replace(variant, tiled=True, walk=True, tile_edge=edge), tiles
        return replace(variant, tiled=True), tiles
    width = traits.elementwise_vector_width(n)
    if width > 1 and ir.vectorizable:
        return replace(variant, vector=width), ceil_div(n, WORK_GROUP * width)
    per_thread = traits.elementwise_per_thread(n)
    if per_thread > 1:
        return replace(variant, per_thread=per_thread), ceil_div(n, WORK_GROUP * per_thread)
    reciprocal = traits.reciprocal_rows and variant.index32 and ir.ndim == 2
    if traits.walks_elements:
        groups = min(ceil_div(n, tuning.ELEMENT_RUN),
                     tuning.ELEMENT_GROUPS_PER_UNIT * max(1, traits.compute_units))
        return replace(variant, walk=True, reciprocal_rows=reciprocal), max(1, groups)
    return replace(variant, reciprocal_rows=reciprocal), None


def private_tile_edge(ir: KernelIR) -> int:
    """The block edge of a CPU's tiled element walk: the largest of ``TILE_WALK_EDGES`` whose
    private tiles, one per transposed load, fit ``PRIVATE_TILE_BYTES`` together; 0 where none
    does (so many transposed operands that the walk reads them straight instead).

    >>> import weft as wf
    >>> from weft import compiler
    >>> a = wf.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> out = wf.realize.new_leaf(a.device, a._node)
    >>> (kernel,) = compiler.compile([((a.T + a)._node, out)], a.device.target).kernels
    >>> private_tile_edge(kernel.ir)  # one float64 tile of 128 x 129
    128
    """
    per_element = sum(load.dtype.itemsize for load in ir.tileable_loads)
    return next((edge for edge in tuning.TILE_WALK_EDGES
                 if edge * (edge + 1) * per_element <= tuning.PRIVATE_TILE_BYTES), 0)


def reduction(ir: KernelIR, args: list[Any], layout: ReduceLayout, traits: Traits) -> Variant:
    """A reduction kernel's variant under ``layout``: a rows walk loads vectors where every
    walked row starts on a vector boundary, else walks element by element (in 32-bit indexes
    where they fit, its splits woven along one row); settings fixed in the source where the
    device measured faster with them (``Traits.rows_fixed``)."""
    if layout.row_chunks:  # (partial rows, contiguous: compiler._lower_reductions)
        return Variant(row_chunks=True)
    if layout.band:  # CPUs; rows in 32-bit indexes where they fit, as element walks do
        rows = layout.mode == REDUCE_ROWS
        variant = Variant(band=layout.band,
                          index32=rows and fits_32_bits(ir, args, layout.rows * layout.cols))
        if rows and layout.splits == 1 and layout.cols <= tuning.NARROW_ROWS:
            # A few columns per row as constants: the walk unrolls, no loop is left inside a
            # work-item, and PoCL vectorizes across rows (a logistic model's x @ beta over
            # 10^6 x 10 on 2 Zen 4 cores: 11.3 -> 6.2 ms; NumPy 8.4).
            variant = replace(variant, fixed=(("cols", layout.cols), ("splits", 1),
                                              ("chunk", layout.chunk)))
        return variant
    width, unroll = rows_vector_walk(traits, ir, args, layout)
    variant = Variant()
    if width > 1:
        walk = min(layout.chunk, layout.cols) // (layout.lanes * width)  # vectors per lane
        variant = Variant(vector=width, unroll=unroll,
                          int_columns=layout.cols < tuning.INT_COLUMNS,
                          guarded_tail=walk < tuning.GUARDED_TAIL_STEPS * unroll)
    elif layout.mode == REDUCE_ROWS:
        variant = Variant(index32=fits_32_bits(ir, args, layout.rows * layout.cols),
                          woven=layout.splits_one_row and not layout.contiguous)
    if layout.mode == REDUCE_ROWS and traits.rows_fixed:
        variant = replace(variant, fixed=fixed_settings(layout))
    return variant


def _pow2_at_least(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _pow2_at_most(n: int) -> int:
    p = 1
    while p * 2 <= n:
        p *= 2
    return p


def reduce_layout(mode: str, rows: int, cols: int, target_groups: int,
                   contiguous: bool = False, itemsize: int = 8,
                   compute_units: int = 0, lane_bytes: int = tuning.LANE_BYTES) -> ReduceLayout:
    """Lanes per team and splits of the reduced axis, for enough work-groups on the device.
    ``itemsize``: bytes per element of the reduced operand, which set how many lanes a row
    keeps busy; ``compute_units``: how many groups a short full reduction takes at least;
    ``lane_bytes``: how much of a row each GPU lane walks at least."""
    if mode == REDUCE_ROWS:
        segments, length = rows, cols
        lanes = min(WORK_GROUP, _pow2_at_least(max(cols, 1)))
        if contiguous:
            lanes = min(lanes, tuning.CPU_LANES)
        elif rows > 1:  # one row is split across work-groups of full teams instead
            row_bytes = cols * itemsize
            short = _pow2_at_most(row_bytes // tuning.SHORT_LANE_BYTES)
            lanes = min(lanes, max(min(tuning.MIN_LANES, short),
                                   _pow2_at_most(row_bytes // lane_bytes)))
        per_group = WORK_GROUP // lanes
        base_groups = ceil_div(rows, per_group)
    else:
        segments, length = cols, rows
        width = min(32, _pow2_at_least(max(cols, 1)))
        lanes = WORK_GROUP // width
        per_group = 1
        base_groups = ceil_div(cols, width)
    splits = 1
    if length and base_groups < target_groups:
        wanted = ceil_div(target_groups * (per_group if mode == REDUCE_ROWS else 1),
                          max(segments if mode == REDUCE_ROWS else base_groups, 1))
        # A team walks at least MIN_WALK elements per lane: shorter walks cost more in extra
        # passes and launches than they gain (the partials of a full reduction then fit one
        # team, so it takes two kernels, not three).
        # On GPUs, where segments are several, every split's lanes walk that far: a walk
        # split short of it leaves a second pass (no last group finishes several segments)
        # whose launch costs more than the split saves (H200, traced calls: column sums
        # of 1000 x 10 and 500 x 64 15.7 -> 12.7 us on CUDA, 24.5 -> 14.7 on NVIDIA's
        # OpenCL; a GLM's value and gradient over 1000 x 10 43.2 -> 38.5 and 58.6 -> 47.9).
        whole = not contiguous and segments > 1
        most = (operator.floordiv if whole else ceil_div)(length, lanes * tuning.MIN_WALK)
        splits = max(1, min(wanted, most))
        if segments == 1 and not contiguous:
            # A short full reduction still takes a group per compute unit (partials for one
            # team at most), its lanes walking SHORT_WALK elements or more: MIN_WALK would
            # leave most of a GPU idle while each lane waits on its loads in turn.
            groups = min(compute_units, WORK_GROUP)
            splits = max(splits, min(groups, ceil_div(length, lanes * tuning.SHORT_WALK)))
    chunk = ceil_div(length, splits) if length else 0
    if chunk:
        # Every team's walk starts on a vector boundary, whatever walk the launch picks.
        step = lanes * VECTOR_ALIGN
        chunk = ceil_div(chunk, step) * step
        splits = ceil_div(length, chunk)
    if mode == REDUCE_ROWS:
        groups = ceil_div(rows * splits, per_group)
    else:
        groups = base_groups * splits
    return ReduceLayout(mode, rows, cols, lanes, splits, chunk, groups, int(contiguous))


def reduction_layout(mode: str, rows: int, cols: int, target_groups: int, traits: Traits,
                     itemsize: int, general: bool, fp64: bool) -> ReduceLayout:
    """How a reduction walks its operand on a device of ``traits``: in bands where the
    device asks for them (CPUs) and float32 sums accumulate in float64 (``fp64``; compensated
    ones keep teams), column bands only over an operand with no structure (``general``: a
    structure's ranges differ by column), by row chunks where the rows split
    (``row_chunks_layout``); else teams of lanes (``reduce_layout``).

    >>> reduction_layout(REDUCE_COLS, 4096, 4096, 4, Traits(column_band=64), 8, True,
    ...                  True).row_chunks
    True
    >>> reduction_layout(REDUCE_COLS, 64, 4096, 4, Traits(column_band=64), 8, True,
    ...                  True).band
    64
    """
    if mode == REDUCE_COLS and traits.column_band and general and fp64:
        chunks = row_chunks_layout(rows, cols, target_groups)
        return chunks or band_layout(rows, cols, traits.column_band, target_groups)
    if mode == REDUCE_ROWS and traits.row_band and fp64:
        return row_band_layout(rows, cols, traits.row_band, target_groups)
    return reduce_layout(mode, rows, cols, target_groups, traits.is_cpu, itemsize,
                         traits.compute_units, traits.rows_lane_bytes)


def row_chunks_layout(rows: int, cols: int, target_groups: int) -> ReduceLayout | None:
    """A columns reduction walked by whole rows: one work-group per split of the rows, each
    adding its rows into its own row of partial results (a second pass adds the splits), as
    numba's loops do. Each row streams from memory in order; a band walks down its columns
    a row apart, a new page per row, which no prefetcher follows (4096^2 float64 column
    sums 9.5 -> 6.5 ms on 2 Zen 4 cores, float32 8.2 -> 4.3; NumPy 11.0 and 5.0, numba 6.7
    and 3.1). None where a split would be
    too short or a partial row would leave the cache (``tuning.CHUNK_COLUMNS``).

    >>> row_chunks_layout(4096, 4096, 2).splits
    8
    """
    if (target_groups < 2 or rows * cols <= tuning.BAND_SPLIT_ELEMENTS
            or rows < 2 * tuning.BAND_ROWS or cols > tuning.CHUNK_COLUMNS):
        return None
    splits = min(rows // tuning.BAND_ROWS, tuning.CHUNKS_PER_GROUP * target_groups)
    chunk = ceil_div(rows, splits)
    splits = ceil_div(rows, chunk)
    return ReduceLayout(REDUCE_COLS, rows, cols, 1, splits, chunk, splits, 0, 0,
                        row_chunks=True)


def band_layout(rows: int, cols: int, band: int, target_groups: int) -> ReduceLayout:
    """A columns reduction walked by bands of ``band`` contiguous columns, one work-item per
    (band, split) (``Traits.column_band``): its rows split until there are work-items for
    ``target_groups`` work-groups, as each work-group runs on one core, while every split
    keeps ``tuning.BAND_ROWS`` rows or more.

    >>> band_layout(4096, 4096, 64, 4).splits, band_layout(4096, 4096, 64, 4).groups
    (16, 4)
    """
    bands = ceil_div(cols, band)
    # At most ``target_groups`` work-groups: one more, mostly empty, group left one core
    # three of five on two cores (5000 x 5000 float64 column sums 18.0 -> 14.8 ms).
    wanted = max(1, WORK_GROUP * max(target_groups, 1) // max(bands, 1))
    split = target_groups > 1 and rows * cols > tuning.BAND_SPLIT_ELEMENTS
    splits = max(1, min(wanted, rows // tuning.BAND_ROWS)) if split else 1
    chunk = ceil_div(rows, splits) if rows else 0
    splits = ceil_div(rows, chunk) if chunk else 1
    groups = ceil_div(bands * splits, WORK_GROUP)  # no rows: the identity, written
    return ReduceLayout(REDUCE_COLS, rows, cols, 1, splits, chunk, groups, 0, band)


def row_band_layout(rows: int, cols: int, band: int, target_groups: int) -> ReduceLayout:
    """A rows reduction walked in bands of ``band`` columns, one work-item per (row, split)
    (``Traits.row_band``): each row split until there are work-items for ``target_groups``
    work-groups, every split keeping ``tuning.BAND_ROWS * band`` columns or more.

    >>> row_band_layout(1, 1 << 24, 16, 4).splits
    1024
    """
    wanted = max(1, WORK_GROUP * max(target_groups, 1) // max(rows, 1))
    split = target_groups > 1 and rows * cols > tuning.BAND_SPLIT_ELEMENTS
    splits = max(1, min(wanted, cols // (tuning.BAND_ROWS * band))) if split else 1
    chunk = ceil_div(cols, splits) if cols else 0
    chunk = ceil_div(chunk, band) * band  # every split but the last walks whole bands
    splits = ceil_div(cols, chunk) if chunk else 1
    groups = ceil_div(rows * splits, WORK_GROUP)  # no columns: the identity, written
    return ReduceLayout(REDUCE_ROWS, rows, cols, 1, splits, chunk, groups, 0, band)


def fixed_settings(layout: ReduceLayout) -> tuple[tuple[str, int], ...]:
    """The launch settings a rows kernel takes as constants: its team width, its walk kind
    and, where each row is one split, the split count. With them fixed the compiler folds
    the walk's steps, the team's start and its tree: H200, row dot products over 5000
    columns with 256 lanes 952 -> 885 us, with 128 lanes 972 -> 863 (docs/tuning-notes.md,
    20). They take few values (lanes are powers of two up to the work-group), so an
    expression compiles few kernels over all sizes."""
    fixed = [("lanes", layout.lanes), ("contiguous", layout.contiguous)]
    if layout.splits == 1:
        fixed.append(("splits", 1))
    return tuple(fixed)


def rows_vector_width(traits: Traits, itemsize: int) -> int:
    """Elements per vector load when a rows reduction on a device of ``traits`` walks
    elements of ``itemsize`` bytes (1: element by element)."""
    return min(VECTOR_ALIGN, traits.rows_vector_width(itemsize))


def rows_vector_walk(traits: Traits, ir: KernelIR, args: list[Any], layout: ReduceLayout
                     ) -> tuple[int, int]:
    """Elements per vector load for a rows reduction's walk (1: element by element) and
    vector steps per lane in flight. Every walked view must start each row on a vector
    boundary, which offsets, strides and the row length decide, as storages begin on 16-byte
    boundaries (storage.ALIGNMENT); a strided one must walk its row with unit stride. All of
    that is in the remembered plans' keys."""
    if layout.mode != REDUCE_ROWS or not ir.walked_loads:
        return 1, 1
    types = {p.name: p.dtype for p in ir.params if isinstance(p, BufferParam)}
    width = rows_vector_width(traits, max(types[s.buffer].itemsize for s in ir.walked_loads))
    if width < 2 or layout.cols < width * layout.lanes:
        return 1, 1
    values = {p.name: a for p, a in zip(ir.params, args)}
    streamed = 0  # bytes per vector step from operands whose rows differ
    for s in ir.walked_loads:
        if s.access in (FLAT, ROW_VECTOR):
            row_step, col_step = (layout.cols if s.access == FLAT else 0), 1
        else:
            row_step, col_step = values[f"{s.view}_s0"], values[f"{s.view}_s1"]
        if not rows_start_aligned(values[f"{s.view}_off"], row_step, col_step, layout.rows,
                                  width):
            return 1, 1
        if row_step or layout.rows == 1:
            streamed += width * types[s.buffer].itemsize
    return width, vector_unroll(streamed)


def finishes_in_last_group(dialect: Any, traits: Traits) -> bool:
    """Whether a reduction split over work-groups is finished by its last group (one
    launch), not by a second one: the device's traits allow it and ``dialect`` (None: the
    reference interpreter) can count finished groups."""
    return dialect is not None and bool(dialect.last_group_add) and traits.last_group
