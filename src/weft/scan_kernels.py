"""A scan's kernels: the passes that compute a ``SCAN`` node (the running ``op`` along an
axis of its operand: the kernels walk rows, so a scan down the columns walks the transposed
views) into its destination, with their layout chosen from the device's traits. Each pass
computes the operand's elements where it reads them (lower_accumulations.lower_scan). The
skeletons are in skeletons/scan.py.

A row is cut into splits so the device has enough tasks (a task: one split of one row). One
split per row is one pass. Several take three: each split's total, the carries (the totals'
exclusive scan along each row, itself a one-split scan of the rows of totals), then each
split's running values from its carry. Each element is read twice and written once, whatever
the row length: a work-efficient scan. Rows on CPUs are walked element after element, a task
per work-group; on GPUs a work-group scans a tile at a time in its local memory, or, for
rows shorter than ``SERIAL_COLS``, each work-item walks a whole row.

>>> import weft as wf
>>> scan_layout(1, 1 << 20, 4, wf.target.Traits(is_cpu=True, reduction_groups=4))
ScanLayout(splits=4, chunk=262144, per_thread=0, by_groups=True, groups=4, band=0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import dtypes as dt
from . import expr as ex
from .compiler import Kernel, TemporaryBuffer
from .dtypes import DType
from .indexing import as_2d, padded_strides
from .ir import SCAN, BufferParam, IndexParam, KernelIR, Scan, Variant
from .lower import Arguments
from .lower_accumulations import lower_scan
from .skeletons.reduce import WORK_GROUP
from .target import Traits
from .variants import ceil_div

# Elements a CPU task walks at least: shorter splits cost more in launch and carries than
# they gain in cores.
MIN_CPU_SPLIT = 1 << 14
# GPU rows at most this long are walked by one work-item each: a work-group's tile would
# be mostly empty.
SERIAL_COLS = 64


@dataclass(frozen=True)
class ScanLayout:
    """How a scan of ``rows`` x ``cols`` is cut and launched: ``splits`` of ``chunk``
    elements per row; ``per_thread`` elements per thread of a work-group's tile (0: a
    work-item walks a task alone); ``by_groups``: a work-group's first work-item alone
    walks (CPUs); ``groups``: work-groups launched; ``band``: down columns, the adjacent
    columns a work-item walks together (0: along rows)."""

    splits: int
    chunk: int
    per_thread: int
    by_groups: bool
    groups: int
    band: int = 0


def scan_layout(rows: int, cols: int, itemsize: int, traits: Traits,
                down_columns: bool = False) -> ScanLayout:
    """The layout of a scan of ``rows`` rows of ``cols`` elements of ``itemsize`` bytes on a
    device of ``traits``; ``down_columns``: the walk's rows are adjacent in memory and its
    elements far apart (a scan along axis 0 of a row-major array), so a work-item walks a
    band of them together."""
    target = max(traits.reduction_groups, 1)
    if down_columns and rows > 1:
        return _band_layout(rows, cols, itemsize, traits, target)
    if traits.is_cpu or not traits.reduction_groups:
        splits = 1
        if rows < target:
            splits = max(1, min(ceil_div(target, rows), cols // MIN_CPU_SPLIT))
        chunk = ceil_div(cols, splits)
        splits = ceil_div(cols, chunk) if cols else 1
        tasks = rows * splits
        if traits.is_cpu:
            return ScanLayout(splits, chunk, 0, True, max(1, min(tasks, 4 * target)))
        return ScanLayout(splits, chunk, 0, False, max(1, ceil_div(tasks, WORK_GROUP)))
    if cols <= SERIAL_COLS:
        return ScanLayout(1, cols, 0, False, max(1, ceil_div(rows, WORK_GROUP)))
    # H200 (results/gpu-NVIDIA-H200/scan-tiles.txt): a float32 vector fastest with 16 per
    # thread (0.36 ms; 4: 0.38, 32: 0.40), float64 rows with 4 (0.12 ms; 8: 0.14, 16: 0.18).
    per_thread = 16 if itemsize <= 4 else 4
    tile = per_thread * WORK_GROUP
    splits = 1 if rows >= target else min(ceil_div(target, rows), ceil_div(cols, tile))
    chunk = ceil_div(ceil_div(cols, splits), tile) * tile
    splits = ceil_div(cols, chunk)
    return ScanLayout(splits, chunk, per_thread, False, rows * splits)


def _band_layout(rows: int, cols: int, itemsize: int, traits: Traits, target: int
                 ) -> ScanLayout:
    """``scan_layout`` down columns: bands of 64 bytes of columns per work-item on CPUs (two
    32-byte vectors), one column per work-item on GPUs."""
    if traits.is_cpu:
        band = 16 if itemsize <= 4 else 8
        bands = ceil_div(rows, band)
        splits = 1 if bands >= target else max(1, min(ceil_div(target, bands),
                                                      cols * band // MIN_CPU_SPLIT))
        chunk = ceil_div(cols, splits)
        splits = ceil_div(cols, chunk)
        return ScanLayout(splits, chunk, 0, True, max(1, min(bands * splits, 4 * target)),
                          band)
    # GPUs: a column per work-item, a work-group's worth for each group the device aims
    # for (H200, 8192^2 float32: argmax down columns 0.52 -> 0.28 ms, cumsum 0.98 -> 0.57
    # against a quarter of that; four times more gained nothing: scan-columns.txt).
    wanted = target * WORK_GROUP
    splits = max(1, min(ceil_div(wanted, rows), cols // SERIAL_COLS))
    chunk = ceil_div(cols, splits)
    splits = ceil_div(cols, chunk)
    return ScanLayout(splits, chunk, 0, False, max(1, ceil_div(rows * splits, WORK_GROUP)), 1)


def _view(leaf: ex.Node, axis: int) -> list[int]:
    """A destination's offset and strides as the walk meets its elements: along rows, or
    transposed for a scan down the columns."""
    view = leaf.attrs
    s0, s1 = padded_strides(view.strides)
    return [view.offset, s0, s1] if axis == 1 else [view.offset, s1, s0]


def _pass(spec: Scan, operand: ex.Node, axis: int, out: tuple[DType, object, list[int]],
          carries: TemporaryBuffer | None, layout: ScanLayout) -> Kernel:
    """One pass's kernel: the operand lowered into its IR, then its own parameters (the
    totals' ``part`` or the destination ``dst`` and its view, the ``carries``, the layout)."""
    rows, cols = as_2d(operand.shape)
    if axis == 0:
        rows, cols = cols, rows
    out_dtype, storage, view = out
    if spec.totals:
        named: list = [(BufferParam("part", out_dtype, False, True), storage)]
    else:
        named = [(BufferParam("dst", out_dtype, False, True), storage),
                 *((IndexParam(f"dst_{k}"), v) for k, v in zip(("off", "s0", "s1"), view))]
    if carries is not None:
        named.append((BufferParam("carries", spec.dtype, True, False), carries))
    named += [(IndexParam(name), value) for name, value in (
        ("rows", rows), ("cols", cols), ("splits", layout.splits), ("chunk", layout.chunk))]
    ir, args = lower_scan(operand, axis, spec, named)
    variant = Variant(scan_per_thread=layout.per_thread, scan_by_groups=layout.by_groups,
                      scan_band=layout.band)
    return Kernel(ir, variant, args, [], rows * cols, layout.groups)


def scan_kernels(root: ex.Node, dest: ex.Node, traits: Traits, fp64: bool) -> list[Kernel]:
    """The kernels computing the ``SCAN`` node ``root`` into the buffer leaf ``dest`` on a
    device of ``traits`` (``fp64``: it has float64); the operand is computed where each pass
    reads it."""
    (operand,) = root.args
    (op, axis), dtype = root.attrs, root.dtype
    if op == "add" and dtype.name == "float32" and fp64:
        dtype = dt.float64  # as the reductions' sums: the running sums of 10^7 elements to 1e-7
    rows, cols = as_2d(root.shape)
    if axis == 0:
        rows, cols = cols, rows
    if rows * cols == 0:
        return []
    view = _view(dest, axis)
    down_columns = view[1] == 1 and view[2] != 1  # adjacent walks, far-apart steps
    layout = scan_layout(rows, cols, dtype.itemsize, traits, down_columns)
    out = (dest.dtype, dest.attrs.storage, view)
    if layout.splits == 1:
        return [_pass(Scan(op, dtype), operand, axis, out, None, layout)]
    totals = TemporaryBuffer(dtype, rows * layout.splits)
    carries = TemporaryBuffer(dtype, rows * layout.splits)
    along = scan_layout(rows, layout.splits, dtype.itemsize, traits)
    along = ScanLayout(1, layout.splits, along.per_thread, along.by_groups,
                       along.groups if along.splits == 1 else rows)
    totals_leaf = ex.buffer(totals, (rows, layout.splits))
    return [_pass(Scan(op, dtype, totals=True), operand, axis, (dtype, totals, []), None,
                  layout),
            _pass(Scan(op, dtype, exclusive=True), totals_leaf, 1,
                  (dtype, carries, [0, layout.splits, 1]), None, along),
            _pass(Scan(op, dtype, carried=True), operand, axis, out, carries, layout)]


def arg_kernels(root: ex.Node, dest: ex.Node, traits: Traits) -> list[Kernel]:
    """The kernels computing the ``ARG`` node ``root`` into the buffer leaf ``dest``. The
    walk is along rows (axis 1, or the whole operand, row by row, with flat positions) or
    down columns (axis 0, in bands of columns). One pass where each result is one task's;
    else each task's best value and position, then a pass combining each result's pairs."""
    (operand,) = root.args
    op, axis = root.attrs
    rows, cols = as_2d(operand.shape)
    if rows * cols == 0:
        return []
    walk_axis = 0 if axis == 0 else 1
    if axis == 0:
        rows, cols = cols, rows
    dtype = operand.dtype
    spec = Scan(op, dtype, arg=True, flat=axis is None and rows > 1)  # (a row: its own)
    layout = scan_layout(rows, cols, dtype.itemsize, traits, down_columns=axis == 0)
    step = next((st for n, st in zip(dest.shape, dest.attrs.strides) if n > 1), 0)
    out = [(BufferParam("dst", dest.dtype, False, True), dest.attrs.storage),
           (IndexParam("dst_off"), dest.attrs.offset), (IndexParam("dst_s0"), step)]

    def walk(walk_rows: int, walk_cols: int, splits: int, chunk: int) -> list:
        return [(IndexParam(n), v) for n, v in (("rows", walk_rows), ("cols", walk_cols),
                                                ("splits", splits), ("chunk", chunk))]

    variant = Variant(scan_per_thread=layout.per_thread, scan_by_groups=layout.by_groups,
                      scan_band=layout.band)
    if layout.splits == 1 and (axis is not None or rows == 1):
        ir, args = lower_scan(operand, walk_axis, spec, [*out, *walk(rows, cols, 1, cols)])
        return [Kernel(ir, variant, args, [], rows * cols, layout.groups)]
    parts = rows * layout.splits
    values, positions = TemporaryBuffer(dtype, parts), TemporaryBuffer(dt.int64, parts)
    partials = [(BufferParam("part", dtype, False, True), values),
                (BufferParam("part_at", dt.int64, False, True), positions)]
    ir, args = lower_scan(operand, walk_axis, replace(spec, totals=True),
                          [*partials, *walk(rows, cols, layout.splits, layout.chunk)])
    first = Kernel(ir, variant, args, [], rows * cols, layout.groups)
    # The combining pass walks each result's pairs (all of them for the whole operand).
    pair_rows, pair_cols = (1, parts) if axis is None else (rows, layout.splits)
    along = scan_layout(pair_rows, pair_cols, dtype.itemsize, traits)
    reads = [(BufferParam("part", dtype, True, False), values),
             (BufferParam("part_at", dt.int64, True, False), positions)]
    named = [*reads, *out, *walk(pair_rows, pair_cols, 1, pair_cols)]
    combine = KernelIR(SCAN, 2, tuple(p for p, _ in named), (),
                       scan=replace(spec, combining=True))
    combine_args = Arguments()
    combine_args += [v for _, v in named]
    groups = pair_rows if along.per_thread else along.groups
    return [first, Kernel(combine, Variant(scan_per_thread=along.per_thread and 1,
                                           scan_by_groups=along.by_groups),
                          combine_args, [], parts, groups)]
