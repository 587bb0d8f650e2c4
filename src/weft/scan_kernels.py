"""A scan's kernels: the passes that compute a ``SCAN`` node (the running ``op`` along an
axis of a buffer's 2-D view: the kernels walk rows, so a scan down the columns walks the
transposed views) into its destination, with their layout chosen from the
device's traits. The skeletons are in skeletons/scan.py.

A row is cut into splits so the device has enough tasks (a task: one split of one row). One
split per row is one pass. Several take three: each split's total, the carries (the totals'
exclusive scan along each row, itself a one-split scan of the rows of totals), then each
split's running values from its carry. Each element is read twice and written once, whatever
the row length: a work-efficient scan. Rows on CPUs are walked element after element, a task
per work-group; on GPUs a work-group scans a tile at a time in its local memory, or, for
rows shorter than ``SERIAL_COLS``, each work-item walks a whole row.

>>> import weft as wf
>>> scan_layout(1, 1 << 20, 4, wf.target.Traits(is_cpu=True, reduction_groups=4))
ScanLayout(splits=4, chunk=262144, per_thread=0, by_groups=True, groups=4)
"""

from __future__ import annotations

from dataclasses import dataclass

from . import dtypes as dt
from . import expr as ex
from .compiler import Kernel, TemporaryBuffer
from .dtypes import DType
from .indexing import as_2d, padded_strides
from .ir import SCAN, BufferParam, IndexParam, KernelIR, Scan, Variant
from .lower import Arguments
from .skeletons.reduce import WORK_GROUP
from .target import Traits

# Elements a CPU task walks at least: shorter splits cost more in launch and carries than
# they gain in cores.
MIN_CPU_SPLIT = 1 << 14
# GPU rows at most this long are walked by one work-item each: a work-group's tile would
# be mostly empty.
SERIAL_COLS = 64


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class ScanLayout:
    """How a scan of ``rows`` x ``cols`` is cut and launched: ``splits`` of ``chunk``
    elements per row; ``per_thread`` elements per thread of a work-group's tile (0: a
    work-item walks a task alone); ``by_groups``: a work-group's first work-item alone
    walks (CPUs); ``groups``: work-groups launched."""

    splits: int
    chunk: int
    per_thread: int
    by_groups: bool
    groups: int


def scan_layout(rows: int, cols: int, itemsize: int, traits: Traits) -> ScanLayout:
    """The layout of a scan of ``rows`` rows of ``cols`` elements of ``itemsize`` bytes on a
    device of ``traits``."""
    target = max(traits.reduction_groups, 1)
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
    per_thread = 16 if itemsize <= 4 else 8
    tile = per_thread * WORK_GROUP
    splits = 1 if rows >= target else min(ceil_div(target, rows), ceil_div(cols, tile))
    chunk = ceil_div(ceil_div(cols, splits), tile) * tile
    splits = ceil_div(cols, chunk)
    return ScanLayout(splits, chunk, per_thread, False, rows * splits)


def _view_args(leaf: ex.Node, axis: int) -> list[int]:
    """A view's offset and strides as the kernel walks it: along rows, its transpose for a
    scan down the columns."""
    view = leaf.attrs
    s0, s1 = padded_strides(view.strides)
    return [view.offset, s0, s1] if axis == 1 else [view.offset, s1, s0]


def _pass(spec: Scan, src: tuple[DType, object, list[int]], out: tuple[object, list[int]],
          carry: TemporaryBuffer | None, rows: int, cols: int, layout: ScanLayout,
          out_dtype: DType) -> Kernel:
    """One pass's kernel: its IR (parameters by kind), variant and arguments."""
    src_dtype, src_storage, src_view = src
    params: list = [BufferParam("src", src_dtype, True, False),
                    IndexParam("src_off"), IndexParam("src_s0"), IndexParam("src_s1")]
    args = Arguments()
    args += [src_storage, *src_view]
    storage, view = out
    if spec.totals:
        params.append(BufferParam("part", out_dtype, False, True))
        args.append(storage)
    else:
        params += [BufferParam("dst", out_dtype, False, True), IndexParam("dst_off"),
                   IndexParam("dst_s0"), IndexParam("dst_s1")]
        args += [storage, *view]
    if carry is not None:
        params.append(BufferParam("carries", spec.dtype, True, False))
        args.append(carry)
    params += [IndexParam(name) for name in ("rows", "cols", "splits", "chunk")]
    args += [rows, cols, layout.splits, layout.chunk]
    ir = KernelIR(SCAN, 2, tuple(params), (), scan=spec)
    variant = Variant(scan_per_thread=layout.per_thread, scan_by_groups=layout.by_groups)
    return Kernel(ir, variant, args, [], rows * cols, layout.groups)


def scan_kernels(root: ex.Node, dest: ex.Node, traits: Traits, fp64: bool) -> list[Kernel]:
    """The kernels computing the ``SCAN`` node ``root`` (over a buffer leaf) into the buffer
    leaf ``dest`` on a device of ``traits`` (``fp64``: it has float64)."""
    (leaf,) = root.args
    (op, axis), dtype = root.attrs, root.dtype
    if op == "add" and dtype.name == "float32" and fp64:
        dtype = dt.float64  # as the reductions' sums: the running sums of 10^7 elements to 1e-7
    rows, cols = as_2d(root.shape)
    if axis == 0:
        rows, cols = cols, rows
    if rows * cols == 0:
        return []
    layout = scan_layout(rows, cols, dtype.itemsize, traits)
    src = (leaf.dtype, leaf.attrs.storage, _view_args(leaf, axis))
    out = (dest.attrs.storage, _view_args(dest, axis))
    if layout.splits == 1:
        return [_pass(Scan(op, dtype), src, out, None, rows, cols, layout, dest.dtype)]
    totals = TemporaryBuffer(dtype, rows * layout.splits)
    carries = TemporaryBuffer(dtype, rows * layout.splits)
    along = scan_layout(rows, layout.splits, dtype.itemsize, traits)
    along = ScanLayout(1, layout.splits, along.per_thread, along.by_groups,
                       along.groups if along.splits == 1 else rows)
    row_major = [0, layout.splits, 1]
    return [_pass(Scan(op, dtype, totals=True), src, (totals, []), None, rows, cols, layout,
                  dtype),
            _pass(Scan(op, dtype, exclusive=True), (dtype, totals, row_major),
                  (carries, row_major), None, rows, layout.splits, along, dtype),
            _pass(Scan(op, dtype, carried=True), src, out, carries, rows, cols, layout,
                  dest.dtype)]
