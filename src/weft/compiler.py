"""Compiling: what to compute and a ``Target`` → the kernels that compute it, with no device.

``compile(outputs, target)`` schedules the outputs into steps, lowers each step to kernel IR
with its launch arguments, chooses each kernel's launch variant from the target's traits
(``variants``) and adds the combining passes of reductions split over work-groups. On CPUs a
small element-wise step after a reduction of one work-item becomes that kernel's epilogue
(``KernelIR.epilogue``): one launch, not two. Buffers
the evaluation needs besides its leaves and destinations (a reduction feeding more work, a
split reduction's partial results) are ``TemporaryBuffer`` placeholders, allocated by the
caller before the first launch (``realize``). Nothing here touches a device: the golden and
launch-choice tests call it with other traits, and the kernels' sources come from
``Kernel.source``.

>>> import numpy as np, weft as wf
>>> x = wf.asarray(np.ones(3), device="reference")
>>> y = x + 1
>>> out = TemporaryBuffer(y.dtype, 3)
>>> compiled = compile([(y._node, ex.buffer(out, y.shape))], Target(None, Traits()))
>>> len(compiled.kernels), compiled.kernels[0].n
(1, 3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import config, rowwalk, schedule, tuning, variants
from . import dtypes as dt
from . import expr as ex
from .dialect import Dialect
from .dtypes import DType
from .indexing import as_2d, padded_strides
from .ir import PLAIN, REDUCE_COLS, REDUCE_ROWS, ErrorInfo, KernelIR, ReduceLayout, Variant
from .lower import Arguments, lower
from .lower_accumulations import lower_reduction
from .ops import OPS
from .render import render
from .skeletons import row_walk as row_walk_skeleton
from .skeletons.reduce import WORK_GROUP
from .target import Traits


@dataclass(frozen=True)
class Target:
    """What compiling needs to know of a device: its C dialect (None: the reference
    interpreter runs the IR), its traits, whether it has float64, and how many work-groups
    of a given kernel it holds at once (``resident_groups``, None: unknown; a split
    reduction over one row then keeps its first layout). ``name`` is for messages."""

    dialect: Dialect | None
    traits: Traits
    fp64: bool = True
    resident_groups: Callable[[KernelIR, Variant], int] | None = None
    name: str = "this device"


class TemporaryBuffer:
    """A buffer an evaluation allocates for itself (``realize`` gives it storage before the
    first launch). It stands where a storage would in expression leaves and launch
    arguments: it has a dtype, a size in elements, and counts the leaves over it."""

    __slots__ = ("dtype", "size", "leaves", "__weakref__")

    def __init__(self, dtype: DType, size: int) -> None:
        self.dtype = dtype
        self.size = size
        self.leaves = 0

    def __repr__(self) -> str:
        return f"<temporary {self.dtype} x {self.size}>"


def temporary_leaf(shape: tuple[int, ...], dtype: DType, structure: str = "general"
                   ) -> ex.Node:
    """A row-major leaf over a new ``TemporaryBuffer`` of ``shape``."""
    return ex.buffer(TemporaryBuffer(dtype, _size(shape)), shape, structure=structure)


@dataclass
class Kernel:
    """One launch: the kernel's IR and variant, its arguments in parameter order (storages,
    ``TemporaryBuffer``s, scalars; None where the runtime supplies the error record and the
    group counter), what its error records mean, its grid (``n`` elements), its
    work-groups (None: one thread per element) and whether it combines the partial results
    of a reduction split over work-groups (a second, small pass)."""

    ir: KernelIR
    variant: Variant
    arguments: Arguments
    errors: list[ErrorInfo]
    n: int
    groups: int | None = None
    combines: bool = False

    def source(self, dialect: Dialect, fp64: bool = True) -> str:
        """The kernel's C source in ``dialect``."""
        return render(self.ir, dialect, fp64, self.variant)[0]


@dataclass
class Compiled:
    """Kernels to launch in order, and the temporary buffers they use (in order of first
    use)."""

    kernels: list[Kernel] = field(default_factory=list)
    temporaries: list[TemporaryBuffer] = field(default_factory=list)


def compile(outputs: list[schedule.Output], target: Target) -> Compiled:  # noqa: A001
    """The kernels that compute every ``(expression, destination)`` pair on ``target``."""
    compiled = Compiled()
    scheduled = steps(outputs, target.traits.parameter_bytes)
    if (config.fuse_enabled() and target.dialect is not None
            and (target.traits.is_cpu or target.dialect.shuffle_down)):
        scheduled = rowwalk.joined(scheduled, _walk_layout(target), target.fp64)
    joined = False  # the step was the epilogue of the kernel before
    for step, after in zip(scheduled, [*scheduled[1:], None]):
        if joined:
            joined = False
        elif isinstance(step, rowwalk.RowWalk):
            joined = _compile_walk(compiled.kernels, step, target, _epilogue(after, target))
        elif step.scans:
            from .scan_kernels import arg_kernels, scan_kernels

            for root, dest in step.scans:
                compiled.kernels += (
                    scan_kernels(root, dest, target.traits, target.fp64)
                    if root.kind == ex.SCAN else arg_kernels(root, dest, target.traits))
        elif step.reductions:
            joined = _compile_reductions(compiled.kernels, step.reductions, step.elementwise,
                                         target, epilogue=_epilogue(after, target))
        else:
            kernel = _compile_elementwise(step.outputs, target)
            if kernel.n:
                compiled.kernels.append(kernel)
    seen: set[int] = set()
    for kernel in compiled.kernels:
        _refuse_float64(kernel.ir, target)
        for a in kernel.arguments:
            if type(a) is TemporaryBuffer and id(a) not in seen:
                seen.add(id(a))
                compiled.temporaries.append(a)
    return compiled


def steps(outputs: list[schedule.Output], parameter_bytes: int = 0) -> list[schedule.Step]:
    """``outputs`` cut into kernels (``schedule``), intermediates in temporary buffers,
    each kernel's leaves within ``parameter_bytes`` of parameters (0: no limit)."""
    def temporary(node: ex.Node) -> ex.Node:
        return temporary_leaf(node.shape, node.dtype, node.structure)

    if config.fuse_enabled():
        return schedule.fused(outputs, temporary, parameter_bytes)
    return schedule.unfused(outputs, temporary)


def _walk_layout(target: Target) -> Callable[[int, int], ReduceLayout | None]:
    """How a row walk over (rows, cols) goes on ``target`` (None: as separate passes): on
    CPUs by row chunks, on GPUs by teams of lanes, one per split of the rows, each lane's
    columns in registers."""
    traits = target.traits

    def layout(rows: int, cols: int) -> ReduceLayout | None:
        if traits.is_cpu:
            if rows * cols <= tuning.BAND_SPLIT_ELEMENTS:
                # One work-item walks it all and writes the results: one launch, not two
                # or three (each 10-20 us on PoCL).
                return ReduceLayout(REDUCE_COLS, rows, cols, 1, 1, rows, 1, row_chunks=True)
            if cols < tuning.WALK_COLUMNS:
                return None
            return variants.row_chunks_layout(rows, cols, traits.reduction_groups)
        lanes = next((n for n in row_walk_skeleton.TEAM_LANES
                      if -(-cols // n) <= tuning.TEAM_LANE_COLUMNS), 0)
        if not lanes or cols < tuning.TEAM_WALK_COLUMNS:
            return None
        teams = max(traits.reduction_groups, 1) * (WORK_GROUP // lanes)
        if rows < tuning.TEAM_WALK_ROWS * teams:
            return None
        return _teams(rows, cols, teams, lanes)
    return layout


def _teams(rows: int, cols: int, teams: int, lanes: int) -> ReduceLayout:
    """A GPU row walk's layout: ``teams`` splits of the rows, teams of ``lanes`` lanes
    filling work-groups."""
    chunk = -(-rows // teams)
    splits = -(-rows // chunk)
    groups = -(-splits // (WORK_GROUP // lanes))
    return ReduceLayout(REDUCE_COLS, rows, cols, lanes, splits, chunk, groups)


def _compile_walk(kernels: list[Kernel], walk: rowwalk.RowWalk, target: Target,
                  epilogue: list[schedule.Output] | None = None) -> bool:
    """A row walk's kernel, then the passes adding its splits' partial results; whether it
    took ``epilogue`` (where it is one work-item writing its results itself)."""
    assert walk.lowered is not None
    ir, args, errors, followups = walk.lowered
    layout = walk.layout
    if epilogue and not followups and layout.groups == 1 and layout.lanes == 1:
        ir, args, errors, followups = rowwalk.lower_walk(walk, target.fp64, epilogue)
    variant = PLAIN
    if layout.lanes > 1:
        variant = Variant(fixed=(("lane_columns", rowwalk.lane_columns(layout)),
                                 ("team_lanes", layout.lanes)))
        # As many teams as the device holds at once: a second wave would leave most of the
        # memory system idle while its few teams finish (as for split rows reductions).
        wave = target.resident_groups(ir, variant) if target.resident_groups else 0
        if 0 < wave < layout.groups:
            walk.layout = layout = _teams(layout.rows, layout.cols,
                                          wave * (WORK_GROUP // layout.lanes), layout.lanes)
            ir, args, errors, followups = walk.lowered = rowwalk.lower_walk(walk, target.fp64)
    kernels.append(Kernel(ir, variant, args, errors, layout.rows * layout.cols, layout.groups))
    groups: dict[tuple, list[schedule.Output]] = {}
    for combine, dest in followups:
        groups.setdefault((combine.args[0].shape, combine.attrs.axis), []).append(
            (combine, dest))
    joined = bool(ir.epilogue)
    for k, group in enumerate(groups.values()):
        last = k == len(groups) - 1 and not joined
        joined |= _compile_reductions(kernels, group, [], target, combining=True,
                                      epilogue=epilogue if last else None)
    return joined


def _refuse_float64(ir: KernelIR, target: Target) -> None:
    if target.fp64:
        return
    for item in (*ir.params, *ir.body, *ir.reductions):
        dtype = getattr(item, "dtype", None)
        if dtype is not None and dtype.name == "float64":
            raise TypeError(
                f"{target.name} has no float64 support: use float32 "
                "(wf.set_default_real(wf.float32) or WEFT_REAL=float32)"
            )


def _compile_elementwise(outputs: list[schedule.Output], target: Target) -> Kernel:
    ir, args, errors = lower(outputs)
    variant, groups = variants.elementwise(ir, args, target.traits)
    return Kernel(ir, variant, args, errors, args[-2], groups)


# Reductions -----------------------------------------------------------------------------


def _size(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape)) if shape else 1


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


def _epilogue(step: schedule.Step | rowwalk.RowWalk | None, target: Target
              ) -> list[schedule.Output] | None:
    """The outputs of ``step`` where a CPU reduction kernel's one work-item could compute
    them after its own (``KernelIR.epilogue``): a small element-wise step storing into
    buffers. A launch on PoCL costs 10-20 us of host time against the few elements' work
    (docs/tuning-notes.md, 46)."""
    if (step is None or isinstance(step, rowwalk.RowWalk) or step.reductions or step.scans
            or not target.traits.is_cpu or target.dialect is None
            or not config.fuse_enabled()):  # unfused: one kernel per operation, as asked
        return None
    outputs = step.outputs
    if any(dest.kind != ex.BUFFER for _, dest in outputs):
        return None
    if not 0 < _size(outputs[0][1].shape) <= tuning.EPILOGUE_ELEMENTS:
        return None
    return outputs


def _compile_reductions(kernels: list[Kernel], reductions: list[schedule.Output],
                        elementwise: list[schedule.Output], target: Target,
                        combining: bool = False,
                        epilogue: list[schedule.Output] | None = None) -> bool:
    """A reduction step's kernels, appended to ``kernels``: the first pass, then the passes
    combining its partial results. ``combining``: this step combines a split reduction's
    partial results, which one work-group per segment reads in one pass (a split there
    would add a launch). ``epilogue``: the next step's outputs, which a first pass of one
    work-item computes after its own; whether it did."""
    first = reduction_kernel(reductions, elementwise, target, combining, epilogue)
    if first is None:
        return False
    kernel, layout, followups = first
    kernel.combines = combining
    if layout.groups:
        kernels.append(kernel)
    # The partial results of one shape and axis are combined together: one launch.
    groups: dict[tuple, list[schedule.Output]] = {}
    for combine, dest in followups:
        key = (combine.args[0].shape, combine.attrs.axis)
        groups.setdefault(key, []).append((combine, dest))
    joined = bool(layout.groups and kernel.ir.epilogue)
    for k, group in enumerate(groups.values()):
        # The last combining pass, a work-item per segment, may take the epilogue instead.
        last = k == len(groups) - 1 and not joined
        joined |= _compile_reductions(kernels, group, [], target, combining=True,
                                      epilogue=epilogue if last else None)
    return joined


def reduction_kernel(reductions: list[schedule.Output], elementwise: list[schedule.Output],
                     target: Target, combining: bool = False,
                     epilogue: list[schedule.Output] | None = None
                     ) -> tuple[Kernel, ReduceLayout, list[schedule.Output]] | None:
    """The first kernel of a reduction step, its layout and the combining passes that follow
    it (None: nothing to reduce into). ``epilogue``: outputs the kernel computes after its
    own where it is one work-item writing final results (a CPU rows band of one row)."""
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
    if mode == REDUCE_COLS and target.traits.column_band and target.fp64:
        # CPUs: a band or row chunks testing the structure per element (loads inside the
        # operand, masked) beat a walk down each column clamped to its range.
        range_structure = "general"
    itemsize = max(r.args[0].dtype.itemsize for r, _ in reductions)
    traits = target.traits

    def planned(target_groups: int) -> ReduceLayout:
        return variants.reduction_layout(mode, rows, cols, target_groups, traits, itemsize,
                                         range_structure == "general", target.fp64)

    first = planned(1 if combining else traits.reduction_groups)
    if not (first.mode == REDUCE_ROWS and first.band and first.rows * first.splits == 1):
        epilogue = None
    lowered = _lower_reductions(reductions, elementwise, grid, range_structure, first, target,
                                epilogue)
    if first.splits_one_row and target.resident_groups is not None:
        # One row split over work-groups: at most the groups the device holds at once. A
        # second wave starts only as the first ends, and its few groups then leave most of
        # the memory system idle (H100, narrow GLM 91.9 -> 89.0 us, a float64 normal density
        # of 4 * 10^6 42.0 -> 39.4: docs/tuning-notes.md, 16). A replanned walk is longer, so
        # its kernel needs no more registers than the one asked about.
        wave = target.resident_groups(lowered[0].ir, lowered[0].variant)
        second = planned(wave) if 0 < wave < first.groups else first
        if second != first:
            lowered = _lower_reductions(reductions, elementwise, grid, range_structure,
                                        second, target)
    return lowered


def _lower_reductions(reductions: list[schedule.Output], elementwise: list[schedule.Output],
                      grid: tuple[int, ...], range_structure: str, layout: ReduceLayout,
                      target: Target, epilogue: list[schedule.Output] | None = None
                      ) -> tuple[Kernel, ReduceLayout, list[schedule.Output]]:
    """The first kernel of a reduction step under ``layout`` and the combining passes that
    follow it."""
    axis = reductions[0][0].attrs.axis
    mode, rows, cols = layout.mode, layout.rows, layout.cols
    final_pass = layout.splits == 1 and (axis is not None or rows == 1 and mode == REDUCE_ROWS)
    segments = rows if mode == REDUCE_ROWS else cols
    # One segment split across work-groups: where the dialect can, the last group to finish
    # combines the partial results, which saves a launch and its host time.
    last_group = (layout.splits_one_row and layout.lanes == WORK_GROUP
                  and variants.finishes_in_last_group(target.dialect, target.traits))
    specs = []
    out_strides = []
    followups = []
    finals = []
    for root, dest in reductions:
        red: ex.Reduction = root.attrs
        acc: DType = root.dtype
        if red.op == "add" and acc.name == "float32" and target.fp64:
            # float32 sums accumulate in float64 where the device has it (else Kahan, in
            # lowering): 1e-6 relative accuracy on 10^7 elements either way.
            acc = dt.float64
        if final_pass:
            specs.append((root.args[0], red.op, acc, dest, red.scale))
            out_strides.append(_out_strides(dest, segments))
            continue
        part_shape = (rows, layout.splits) if mode == REDUCE_ROWS else (layout.splits, cols)
        partial = temporary_leaf(part_shape, acc)
        out_strides.append((0, layout.splits, 1) if mode == REDUCE_ROWS else (0, 1, cols))
        if last_group:
            specs.append((root.args[0], red.op, acc, partial, red.scale))
            finals.append(dest)
            continue
        specs.append((root.args[0], red.op, acc, partial, None))
        combine = ex.reduce(partial, ex.Reduction(red.op, axis, red.scale), dest.shape, acc)
        followups.append((combine, dest))
    if followups or finals:
        epilogue = None  # its inputs are complete only after the combining pass
    ir, args, errors = lower_reduction(grid, specs, elementwise, layout, range_structure,
                                       out_strides, finals or None, epilogue)
    variant = variants.reduction(ir, args, layout, target.traits)
    kernel = Kernel(ir, variant, args, errors, layout.rows * layout.cols, layout.groups)
    return kernel, layout, followups
