"""Evaluation, the one entry point: outputs → schedule → per kernel: lower → cache → launch.

Reduction steps pick their walk here (rows, columns, or a flat run), split long walks so the
device has enough work-groups, and combine the partial results with a second small pass of the
same skeleton. Kernels with bounds checks or fused checks report through a small error buffer
that is read back later, when a value that depends on it is observed (``pending``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from . import config, memo, pending, schedule
from . import dtypes as dt
from . import expr as ex
from .cache import CACHE
from .dtypes import DType
from .indexing import as_2d, padded_strides, rows_start_aligned
from .ir import (
    FLAT,
    REDUCE_COLS,
    REDUCE_ROWS,
    BufferParam,
    ErrorInfo,
    IndexParam,
    KernelIR,
    ReduceLayout,
)
from .lower import lower, lower_reduction
from .ops import OPS
from .render import render
from .skeletons.elementwise import TILE
from .skeletons.reduce import VECTOR_ALIGN, WORK_GROUP, vector_unroll
from .storage import Storage


def new_leaf(device: Any, node_or_shape: Any, dtype: Any = None, structure: str = "general"
             ) -> ex.Node:
    """A fresh buffer (uninitialized) and a row-major leaf over it."""
    if isinstance(node_or_shape, ex.Node):
        shape, dtype = node_or_shape.shape, node_or_shape.dtype
        structure = node_or_shape.structure
    else:
        shape = node_or_shape
    size = 1
    for s in shape:
        size *= s
    storage = device.backend.allocate(device, dtype, size)
    rec = memo.current_recording()
    if rec is not None:
        rec.temporaries.append(storage)
    return ex.buffer(storage, shape, structure=structure)


def _check_fp64(device: Any, ir: KernelIR) -> None:
    if device.supports_fp64:
        return
    for item in (*ir.params, *ir.body, *ir.reductions):
        dtype = getattr(item, "dtype", None)
        if dtype is not None and dtype.name == "float64":
            raise TypeError(
                f"{device} ({device.name}) has no float64 support: use float32 "
                "(wf.set_default_real(wf.float32) or WEFT_REAL=float32)"
            )


def _launch(device: Any, ir: KernelIR, args: list[Any], errors: list[ErrorInfo], n: int,
            groups: int | None = None, program: Any = None) -> None:
    """Launch ``ir``'s kernel. ``args`` is the launch's own list: the error record's and the
    group counter's places are filled in it."""
    if program is None:
        _check_fp64(device, ir)
        program = CACHE.program(device, ir)
    rec = memo.current_recording()
    if rec is not None:
        rec.launches.append((ir, program, list(args), getattr(args, "leaves", {}), n, groups,
                             errors))
    report = None
    counter = ir.counter_position
    if ir.checked:
        report = pending.reserve(device, errors)
        at_buffer, at_offset, at_seen = ir.error_positions
        slab = report.slab
        args[at_buffer], args[at_offset], args[at_seen] = slab.buffer, report.offset, slab.seen
    if counter is not None:
        args[counter] = device.backend.group_counter(device)
    read, written = ir.buffer_roles
    inputs: list[Storage] = [args[k] for k in read]
    outputs: list[Storage] = [args[k] for k in written]
    if config.log.isEnabledFor(10):
        config.log.debug("launch %s on %s: n=%d, %d input(s), %d output(s)",
                         getattr(program, "name", "reference"), device, n, len(inputs),
                         len(outputs))
    device.backend.launch(device, program, ir, args, n, outputs, inputs, groups)
    if report is not None:
        outputs = [s for s in outputs if s is not report.slab.buffer]
    pending.launched(report, inputs, outputs)


def run_step(device: Any, step: schedule.Step) -> None:
    """Lower, fetch or build, and launch one step's kernel(s)."""
    if step.reductions:
        _run_reductions(device, step.reductions, step.elementwise)
        return
    ir, args, errors, groups = _prepare_elementwise(device, step.outputs)
    n = args[-2]
    if n:
        _launch(device, ir, args, errors, n, groups)


# An element-wise kernel or a rows reduction walking element by element whose grid, buffers
# and index arguments all stay at or under this many elements computes its indexes in 32 bits
# (``KernelIR.index32``): NVIDIA's OpenCL compiler spent a fifth of the narrow GLM's time on
# 64-bit index arithmetic (H100, benchmarks/NOTES.md, 13). The vector walk, whose columns
# are 32-bit already (``INT_COLUMNS``), measured 2-3% slower with the rest in 32 bits too (row
# dot products, both backends), and column reductions measured mixed (CUDA 2% slower, OpenCL
# 1.5% faster): both keep 64-bit indexes. The headroom keeps every intermediate index
# under 2^31: a split walk's chunk may reach past its row by up to one row, and a lane's
# unrolled steps by a few thousand elements.
INDEX32_LIMIT = 2**30 - 2**20


def fits_32_bits(ir: KernelIR, args: list[Any], n: int) -> bool:
    """Whether every index a launch of ``ir`` over ``n`` grid elements computes fits 32 bits.
    Each address a view yields is in its buffer, and each partial sum of an address (offset,
    then row, then column term) is another element's address, so bounding the buffers' sizes,
    the grid and the index arguments (offsets, strides, extents, index-map terms) bounds them
    all. A remembered plan keeps this choice for later calls with other buffers: the views'
    offsets and strides are in its key, so their addresses are the same ones."""
    if n > INDEX32_LIMIT:
        return False
    for param, value in zip(ir.params, args):
        if value is None:  # the error buffer, its record's offset, the group counter
            continue
        if isinstance(param, BufferParam):
            if value.size > INDEX32_LIMIT:
                return False
        elif isinstance(param, IndexParam) and abs(value) > INDEX32_LIMIT:
            return False
    return True


def _prepare_elementwise(device: Any, outputs: list[schedule.Output]
                         ) -> tuple[KernelIR, list[Any], list[ErrorInfo], int | None]:
    """An element-wise kernel and its launch: ``groups`` None means one thread per element."""
    ir, args, errors = lower(outputs)
    n = args[-2]
    ir = replace(ir, index32=fits_32_bits(ir, args, n))
    traits = device.traits
    if ir.ndim == 2 and ir.tileable_loads and traits.tiles_transposes:
        cols = args[-1]
        tiles = _ceil_div(n // cols, TILE) * _ceil_div(cols, TILE) if n else 0
        return replace(ir, tiled=True), args, errors, tiles
    width = traits.elementwise_vector_width(n)
    if width > 1 and ir.vectorizable:
        return replace(ir, vector=width), args, errors, _ceil_div(n, WORK_GROUP * width)
    per_thread = traits.elementwise_per_thread(n)
    if per_thread == 1:
        return ir, args, errors, None
    return replace(ir, per_thread=per_thread), args, errors, _ceil_div(n, WORK_GROUP * per_thread)


# Reductions -----------------------------------------------------------------------------


MIN_WALK = 32
# Elements a lane of a short full reduction walks at least while the reduction spreads over
# the compute units (reduce_layout). H100, device time of a float64 normal density of 10^5
# elements 12.0 -> 5.1 us, a sum of 10^5 4.0 -> 3.8 (benchmarks/NOTES.md, 15).
SHORT_WALK = 4
# A lane whose walk is shorter than this many unrolled steps loads its last, partial step's
# vectors together under guards (one at a time, each costs a memory latency, and they are much
# of a short walk: H100, 100000 x 5000 row dot products 1750 -> 1267 us with it). Longer walks
# keep the plain loop: the guarded step's registers slowed a three-array float64 density 20% on
# NVIDIA's OpenCL (benchmarks/NOTES.md, 12).
GUARDED_TAIL_STEPS = 4
# Rows shorter than this walk their columns with 32-bit indexes (fewer registers and address
# instructions per vector load).
INT_COLUMNS = 2**31 - 2 * WORK_GROUP * VECTOR_ALIGN * 8
# Bytes of its row a GPU lane walks at least: two unrolled steps of the vector walk (16 vectors
# of 16 bytes), so the loads of the lanes' last, partial step are not most of its time. Short
# rows keep up to MIN_LANES lanes while each walks SHORT_LANE_BYTES: fewer lanes spread a warp
# over more rows. H100, float64 row dot products of 5 * 10^8 elements (benchmarks/NOTES.md,
# 12), lanes chosen -> us (the old rule's lanes -> us): 5000 columns 128 -> 1267 (256 -> 1313);
# 1250: 32 -> 1288 (256 -> 1846); 500: 8 -> 1366 (256 -> 3199); 100: 8 -> 1341 (128 -> 7029);
# 64: 4 -> 1358 (64 -> 5615); 16: 1 -> 1582 (16 -> 5072).
LANE_BYTES = 256
SHORT_LANE_BYTES = 96
MIN_LANES = 8
# Lanes per row on CPUs, where a lane walks a contiguous run: few lanes mean many rows per
# work-group and a short tree. PoCL, 2 cores, float64 row sums of 100000 x 500: 193 ms with
# 256 lanes, 34 with 16, 23 with 4, 34 with 1 (4000 x 4000: 15.3 -> 7.6 ms).
CPU_LANES = 4


@dataclass(frozen=True)
class RowsTuning:
    """How a device's rows reductions are planned and compiled: ``lane_bytes``, the bytes of
    its row each GPU lane walks at least, and ``fixed``, whether the kernel takes its launch
    settings as constants (``fixed_settings``)."""

    lane_bytes: int = LANE_BYTES
    fixed: bool = True


# Devices measured apart, where the defaults are slower (benchmarks/NOTES.md, 18 and 20;
# float64 row dot products of 5 * 10^8 elements, one machine each, us). The H200 now takes
# the defaults: with fixed settings, 256 bytes a lane against its former 1024, 5000 columns
# 899.8 -> 878.8, 1250: 979.4 -> 884.6, 2000: 915.2 -> 885.5 (20000: 881.6 -> 891.1). The
# H100 keeps its settings as arguments: there the kernels take 96 registers (two groups per
# SM) where constants leave 72 (three), and the lower occupancy is faster, runtime -> fixed:
# 5000 columns 1260.0 -> 1273.5, 1250: 1264.1 -> 1279.1, 2000: 1276.3 -> 1284.6 (20000:
# 1292.5 -> 1283.0). NVIDIA's OpenCL on the same chip is assumed to follow (not measured).
_H100 = RowsTuning(fixed=False)
ROWS_TUNING_BY_DEVICE = {("cuda", "NVIDIA H100 80GB HBM3"): _H100,
                         ("opencl", "NVIDIA H100 80GB HBM3"): _H100}


def rows_tuning(device: Any) -> RowsTuning:
    """How rows reductions are planned and compiled on ``device``."""
    return ROWS_TUNING_BY_DEVICE.get((device.kind, device.name), RowsTuning())


def _pow2_at_least(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _pow2_at_most(n: int) -> int:
    p = 1
    while p * 2 <= n:
        p *= 2
    return p


def reduce_layout(mode: str, rows: int, cols: int, target_groups: int,
                   contiguous: bool = False, itemsize: int = 8,
                   compute_units: int = 0, lane_bytes: int = LANE_BYTES) -> ReduceLayout:
    """Lanes per team and splits of the reduced axis, for enough work-groups on the device.
    ``itemsize``: bytes per element of the reduced operand, which set how many lanes a row
    keeps busy; ``compute_units``: how many groups a short full reduction takes at least;
    ``lane_bytes``: how much of a row each GPU lane walks at least."""
    if mode == REDUCE_ROWS:
        segments, length = rows, cols
        lanes = min(WORK_GROUP, _pow2_at_least(max(cols, 1)))
        if contiguous:
            lanes = min(lanes, CPU_LANES)
        elif rows > 1:  # one row is split across work-groups of full teams instead
            row_bytes = cols * itemsize
            lanes = min(lanes, max(min(MIN_LANES, _pow2_at_most(row_bytes // SHORT_LANE_BYTES)),
                                   _pow2_at_most(row_bytes // lane_bytes)))
        per_group = WORK_GROUP // lanes
        base_groups = _ceil_div(rows, per_group)
    else:
        segments, length = cols, rows
        width = min(32, _pow2_at_least(max(cols, 1)))
        lanes = WORK_GROUP // width
        per_group = 1
        base_groups = _ceil_div(cols, width)
    splits = 1
    if length and base_groups < target_groups:
        wanted = _ceil_div(target_groups * (per_group if mode == REDUCE_ROWS else 1),
                           max(segments if mode == REDUCE_ROWS else base_groups, 1))
        # A team walks at least MIN_WALK elements per lane: shorter walks cost more in extra
        # passes and launches than they gain (the partials of a full reduction then fit one
        # team, so it takes two kernels, not three).
        splits = max(1, min(wanted, _ceil_div(length, lanes * MIN_WALK)))
        if segments == 1 and not contiguous:
            # A short full reduction still takes a group per compute unit (partials for one
            # team at most), its lanes walking SHORT_WALK elements or more: MIN_WALK would
            # leave most of a GPU idle while each lane waits on its loads in turn.
            groups = min(compute_units, WORK_GROUP)
            splits = max(splits, min(groups, _ceil_div(length, lanes * SHORT_WALK)))
    chunk = _ceil_div(length, splits) if length else 0
    if chunk:
        # Every team's walk starts on a vector boundary, whatever walk the launch picks.
        step = lanes * VECTOR_ALIGN
        chunk = _ceil_div(chunk, step) * step
        splits = _ceil_div(length, chunk)
    if mode == REDUCE_ROWS:
        groups = _ceil_div(rows * splits, per_group)
    else:
        groups = base_groups * splits
    return ReduceLayout(mode, rows, cols, lanes, splits, chunk, groups, int(contiguous))


def _flattenable(node: ex.Node, shape: tuple[int, ...]) -> bool:
    """Whether ``node`` can be walked as one contiguous run (every leaf row-major, same shape,
    nothing that needs its row and column)."""
    for n in ex.walk([node]):
        if n.kind == ex.BUFFER:
            if n.shape != shape or not n.attrs.is_contiguous(shape) or n.structure != "general":
                return False
            # The run is walked with the column stride, which contiguity does not fix for a
            # single column (a transposed row (1, n) has strides (1, n)).
            if _size(shape) > 1 and padded_strides(n.attrs.strides)[1] != 1:
                return False
        elif n.kind not in (ex.SCALAR, ex.MAP, ex.CAST):
            return False
        elif n.kind == ex.MAP and any(a.shape != shape and a.kind != ex.SCALAR for a in n.args):
            return False
    return True


def _skips_zeros(node: ex.Node) -> bool:
    return OPS[node.attrs.op].identity in ("zero", "false")


def _out_strides(dest: ex.Node, segments: int) -> tuple[int, int, int]:
    v = dest.attrs
    s0, s1 = padded_strides(v.strides)
    rows, _ = as_2d(dest.shape)
    seg = s0 if (rows == segments and segments != 1) else s1
    return (v.offset, seg, 0)


def _size(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape)) if shape else 1


def _prepare_reductions(device: Any, reductions: list[schedule.Output],
                        elementwise: list[schedule.Output], combining: bool = False
                        ) -> tuple | None:
    """The first kernel of a reduction step and the combining passes that follow it.
    ``combining``: the step combines a split reduction's partial results, which one
    work-group per segment reads in one pass (a split there would add a launch)."""
    operand_shape = reductions[0][0].args[0].shape
    axis = reductions[0][0].attrs.axis
    rows, cols = as_2d(operand_shape)
    if _size(reductions[0][1].shape) == 0:
        return None
    grid: tuple[int, ...] = operand_shape
    if axis == 1 or (axis is None and rows == 1):
        mode = REDUCE_ROWS
    elif axis == 0:
        mode = REDUCE_COLS
    elif not elementwise and all(_flattenable(r.args[0], operand_shape) for r, _ in reductions):
        mode, grid, rows, cols = REDUCE_ROWS, (rows * cols,), 1, rows * cols
    else:
        mode = REDUCE_ROWS if cols >= rows else REDUCE_COLS
    structures = {r.args[0].structure for r, _ in reductions}
    range_structure = "general"
    if (len(structures) == 1 and not elementwise and len(grid) == 2
            and all(_skips_zeros(r) for r, _ in reductions)):
        range_structure = structures.pop()
    itemsize = max(r.args[0].dtype.itemsize for r, _ in reductions)
    traits = device.traits

    def planned(target_groups: int) -> ReduceLayout:
        return reduce_layout(mode, rows, cols, target_groups,
                              traits.is_cpu, itemsize, traits.compute_units,
                              rows_tuning(device).lane_bytes)

    first = planned(1 if combining else traits.reduction_groups)
    rec = memo.current_recording()
    recorded = len(rec.temporaries) if rec is not None else 0
    prepared = _lower_reductions(device, reductions, elementwise, grid, range_structure, first)
    if first.splits_one_row:
        # One row split over work-groups: at most the groups the device holds at once. A
        # second wave starts only as the first ends, and its few groups then leave most of
        # the memory system idle (H100, narrow GLM 91.9 -> 89.0 us, a float64 normal density
        # of 4 * 10^6 42.0 -> 39.4: benchmarks/NOTES.md, 16). A replanned walk is longer, so
        # its kernel needs no more registers than the one asked about.
        wave = device.backend.resident_groups(
            device, lambda: CACHE.program(device, prepared[0]))
        second = planned(wave) if 0 < wave < first.groups else first
        if second != first:
            if rec is not None:
                del rec.temporaries[recorded:]  # the first layout's partials, never launched
            prepared = _lower_reductions(device, reductions, elementwise, grid,
                                         range_structure, second)
    return prepared


def _lower_reductions(device: Any, reductions: list[schedule.Output],
                      elementwise: list[schedule.Output], grid: tuple[int, ...],
                      range_structure: str, layout: ReduceLayout) -> tuple:
    """The first kernel of a reduction step under ``layout``, its launch arguments and the
    combining passes that follow it."""
    axis = reductions[0][0].attrs.axis
    mode, rows, cols = layout.mode, layout.rows, layout.cols
    final_pass = layout.splits == 1 and (axis is not None or rows == 1 and mode == REDUCE_ROWS)
    segments = rows if mode == REDUCE_ROWS else cols
    # One segment split across work-groups: where the dialect can, the last group to finish
    # combines the partial results, which saves a launch and its host time.
    last_group = (layout.splits_one_row and layout.lanes == WORK_GROUP
                  and _finishes_in_last_group(device))
    specs = []
    out_strides = []
    followups = []
    finals = []
    for root, dest in reductions:
        red: ex.Reduction = root.attrs
        acc: DType = root.dtype
        if red.op == "add" and acc.name == "float32" and device.supports_fp64:
            # float32 sums accumulate in float64 where the device has it (else Kahan, in
            # lowering): 1e-6 relative accuracy on 10^7 elements either way.
            acc = dt.float64
        if final_pass:
            specs.append((root.args[0], red.op, acc, dest, red.scale))
            out_strides.append(_out_strides(dest, segments))
            continue
        part_shape = (rows, layout.splits) if mode == REDUCE_ROWS else (layout.splits, cols)
        partial = new_leaf(device, part_shape, acc)
        out_strides.append((0, layout.splits, 1) if mode == REDUCE_ROWS else (0, 1, cols))
        if last_group:
            specs.append((root.args[0], red.op, acc, partial, red.scale))
            finals.append(dest)
            continue
        specs.append((root.args[0], red.op, acc, partial, None))
        combine = ex.reduce(partial, ex.Reduction(red.op, axis, red.scale), dest.shape, acc)
        followups.append((combine, dest))
    ir, args, errors = lower_reduction(grid, specs, elementwise, layout, range_structure,
                                       out_strides, finals or None)
    width, unroll = _rows_vector_walk(device, ir, args, layout)
    if width > 1:
        walk = min(layout.chunk, layout.cols) // (layout.lanes * width)  # vectors per lane
        ir = replace(ir, vector=width, unroll=unroll, int_columns=layout.cols < INT_COLUMNS,
                     guarded_tail=walk < GUARDED_TAIL_STEPS * unroll)
    elif layout.mode == REDUCE_ROWS:
        ir = replace(ir, index32=fits_32_bits(ir, args, layout.rows * layout.cols),
                     woven=layout.splits_one_row and not layout.contiguous)
    if layout.mode == REDUCE_ROWS and rows_tuning(device).fixed:
        ir = replace(ir, fixed=fixed_settings(layout))
    return ir, args, errors, layout, followups


def fixed_settings(layout: ReduceLayout) -> tuple[tuple[str, int], ...]:
    """The launch settings a rows kernel takes as constants: its team width, its walk kind
    and, where each row is one split, the split count. With them fixed the compiler folds
    the walk's steps, the team's start and its tree: H200, row dot products over 5000
    columns with 256 lanes 952 -> 885 us, with 128 lanes 972 -> 863 (benchmarks/NOTES.md,
    20). They take few values (lanes are powers of two up to the work-group), so an
    expression compiles few kernels over all sizes."""
    fixed = [("lanes", layout.lanes), ("contiguous", layout.contiguous)]
    if layout.splits == 1:
        fixed.append(("splits", 1))
    return tuple(fixed)


def rows_vector_width(device: Any, itemsize: int) -> int:
    """Elements per vector load when a rows reduction on ``device`` walks elements of
    ``itemsize`` bytes (1: element by element)."""
    return min(VECTOR_ALIGN, device.traits.rows_vector_width(itemsize))


def _rows_vector_walk(device: Any, ir: KernelIR, args: list[Any], layout: ReduceLayout
                      ) -> tuple[int, int]:
    """Elements per vector load for a rows reduction's walk (1: element by element) and
    vector steps per lane in flight. Every walked view must start each row on a vector
    boundary, which offsets, strides and the row length decide, as storages begin on 16-byte
    boundaries (storage.ALIGNMENT); a strided one must walk its row with unit stride. All of
    that is in the remembered plans' keys."""
    if layout.mode != REDUCE_ROWS or not ir.walked_loads:
        return 1, 1
    types = {p.name: p.dtype for p in ir.params if isinstance(p, BufferParam)}
    width = rows_vector_width(device, max(types[s.buffer].itemsize for s in ir.walked_loads))
    if width < 2 or layout.cols < width * layout.lanes:
        return 1, 1
    values = {p.name: a for p, a in zip(ir.params, args)}
    streamed = 0  # bytes per vector step from operands whose rows differ
    for s in ir.walked_loads:
        row_step, col_step = ((layout.cols, 1) if s.access == FLAT
                              else (values[f"{s.view}_s0"], values[f"{s.view}_s1"]))
        if not rows_start_aligned(values[f"{s.view}_off"], row_step, col_step, layout.rows,
                                  width):
            return 1, 1
        if row_step or layout.rows == 1:
            streamed += width * types[s.buffer].itemsize
    return width, vector_unroll(streamed)


def _finishes_in_last_group(device: Any) -> bool:
    dialect = device.backend.dialect
    return dialect is not None and bool(dialect.last_group_add) and device.traits.last_group


def _run_reductions(device: Any, reductions: list[schedule.Output],
                    elementwise: list[schedule.Output], combining: bool = False) -> None:
    prepared = _prepare_reductions(device, reductions, elementwise, combining)
    if prepared is None:
        return
    ir, args, errors, layout, followups = prepared
    if layout.groups:
        _launch(device, ir, args, errors, layout.rows * layout.cols, layout.groups)
    for combine, dest in followups:
        _run_reductions(device, [(combine, dest)], [], combining=True)


# Whole evaluations ----------------------------------------------------------------------


def steps(device: Any, outputs: list[schedule.Output]) -> list[schedule.Step]:
    temporary = lambda node: new_leaf(device, node)  # noqa: E731
    if config.fuse_enabled():
        return schedule.fused(outputs, temporary)
    return schedule.unfused(outputs, temporary)


def execute(device: Any, outputs: list[schedule.Output]) -> None:
    """Compute every ``(expression, destination)`` pair on ``device`` with weft's kernels."""
    if len(outputs) == 1 and outputs[0][1].kind == ex.BUFFER and config.fuse_enabled():
        root, dest = outputs[0]
        key, leaves = memo.signature(root, dest)
        if key is not None:
            _execute_remembered(device, (device, key), leaves, outputs)
            return
    for step in steps(device, outputs):
        run_step(device, step)


def _execute_remembered(device: Any, key: tuple, leaves: list[ex.Node],
                        outputs: list[schedule.Output]) -> memo.Plan | None:
    """One output with a structural key: run its remembered plan, or run the general path
    while recording it and remember the result. Returns the plan (None: not rememberable)."""
    dest = outputs[0][1].attrs.storage
    remembered = memo.MEMO.get(key)
    if remembered is not None:
        _run_plan(device, remembered, memo.inputs(leaves), dest)
        return remembered
    with memo.recording() as rec:
        for step in steps(device, outputs):
            run_step(device, step)
    made = memo.make_plan(rec, leaves, dest)
    if made is not None:
        memo.MEMO.put(key, made)
    return made


def _run_plan(device: Any, remembered: memo.Plan, inputs: list[Any], dest: Storage) -> None:
    temps = [device.backend.allocate(device, dtype, size)
             for dtype, size in remembered.temporaries]
    for launch in remembered.launches:
        CACHE.stats["hits"] += 1
        _launch(device, launch.ir, launch.arguments(inputs, dest, temps), launch.errors,
                launch.n, launch.groups, launch.program)


def execute_deferred(device: Any, deferred: Any) -> ex.Node | None:
    """Evaluate a template's expression into a new buffer, building none of its nodes when the
    template has a remembered plan on ``device`` (``templates.Deferred``); the new buffer's
    leaf, or None where the general path must run (not fusing, a whole-expression backend)."""
    if not config.fuse_enabled():
        return None
    template = deferred.template
    dtype, shape, structure = template.result
    known = memo.MEMO.for_template(template, device)
    dest = new_leaf(device, shape, dtype, structure)
    if known is not None:
        _run_plan(device, known, deferred.plan_inputs(), dest.attrs.storage)
        return dest
    root = deferred.expression()
    key, leaves = memo.signature(root, dest)  # a template's expression always has a key
    made = _execute_remembered(device, (device, key), leaves, [(root, dest)])
    if made is not None:  # a new buffer never aliases the leaves: one plan serves every call
        memo.MEMO.put_for_template(template, device, made)
    return dest


def sources(device: Any, outputs: list[schedule.Output]) -> str:
    """The source of every kernel evaluating ``outputs`` would run (first passes only for
    reductions), without running them."""
    texts = []
    dialect = device.backend.dialect
    for step in steps(device, outputs):
        if step.reductions:
            prepared = _prepare_reductions(device, step.reductions, step.elementwise)
            if prepared is None:
                continue
            ir = prepared[0]
        else:
            ir = _prepare_elementwise(device, step.outputs)[0]
        texts.append(repr(ir) if dialect is None else render(ir, dialect, device.supports_fp64)[0])
    return "\n".join(texts)
