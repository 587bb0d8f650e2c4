"""Evaluation, the one entry point: outputs → schedule → per kernel: lower → launch choices
(``variants``) → cache → launch.

Reduction steps pick their walk here (rows, columns, or a flat run), allocate the partial
results of a walk split over work-groups (``variants.reduce_layout`` decides the split) and
combine them with a second small pass of the same skeleton. Kernels with bounds checks or
fused checks report through a small error buffer that is read back later, when a value that
depends on it is observed (``pending``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import config, memo, pending, schedule, variants
from . import dtypes as dt
from . import expr as ex
from .cache import CACHE
from .dtypes import DType
from .indexing import as_2d, padded_strides
from .ir import (
    PLAIN,
    REDUCE_COLS,
    REDUCE_ROWS,
    ErrorInfo,
    KernelIR,
    ReduceLayout,
    Variant,
)
from .lower import lower, lower_reduction
from .ops import OPS
from .render import render
from .skeletons.reduce import WORK_GROUP
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
            groups: int | None = None, program: Any = None, variant: Variant = PLAIN
            ) -> None:
    """Launch ``ir``'s kernel as ``variant`` (or ``program``, already built). ``args`` is the
    launch's own list: the error record's and the group counter's places are filled in it."""
    if program is None:
        _check_fp64(device, ir)
        program = CACHE.program(device, ir, variant)
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
    ir, variant, args, errors, groups = _prepare_elementwise(device, step.outputs)
    n = args[-2]
    if n:
        _launch(device, ir, args, errors, n, groups, variant=variant)


def _prepare_elementwise(device: Any, outputs: list[schedule.Output]
                         ) -> tuple[KernelIR, Variant, list[Any], list[ErrorInfo], int | None]:
    """An element-wise kernel, its variant and its launch: ``groups`` None means one thread
    per element."""
    ir, args, errors = lower(outputs)
    variant, groups = variants.elementwise(ir, args, device.traits)
    return ir, variant, args, errors, groups


# Reductions -----------------------------------------------------------------------------


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
        return variants.reduce_layout(mode, rows, cols, target_groups,
                              traits.is_cpu, itemsize, traits.compute_units,
                              traits.rows_lane_bytes)

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
            device, lambda: CACHE.program(device, prepared[0], prepared[1]))
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
    """The first kernel of a reduction step under ``layout``, its variant, its launch
    arguments and the combining passes that follow it."""
    axis = reductions[0][0].attrs.axis
    mode, rows, cols = layout.mode, layout.rows, layout.cols
    final_pass = layout.splits == 1 and (axis is not None or rows == 1 and mode == REDUCE_ROWS)
    segments = rows if mode == REDUCE_ROWS else cols
    # One segment split across work-groups: where the dialect can, the last group to finish
    # combines the partial results, which saves a launch and its host time.
    last_group = (layout.splits_one_row and layout.lanes == WORK_GROUP
                  and variants.finishes_in_last_group(device))
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
    variant = variants.reduction(ir, args, layout, device.traits)
    return ir, variant, args, errors, layout, followups


def _run_reductions(device: Any, reductions: list[schedule.Output],
                    elementwise: list[schedule.Output], combining: bool = False) -> None:
    prepared = _prepare_reductions(device, reductions, elementwise, combining)
    if prepared is None:
        return
    ir, variant, args, errors, layout, followups = prepared
    if layout.groups:
        _launch(device, ir, args, errors, layout.rows * layout.cols, layout.groups,
                variant=variant)
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
            ir, variant = prepared[0], prepared[1]
        else:
            ir, variant = _prepare_elementwise(device, step.outputs)[:2]
        texts.append(repr(ir) if dialect is None
                     else render(ir, dialect, device.supports_fp64, variant)[0])
    return "\n".join(texts)
