"""Kernel IR: the dialect-neutral, purely structural description of one kernel.

Parameters by kind and dtype, and a list of statements (loads with an access pattern, op
applications, casts, stores). It holds no size, offset or scalar value, so a ``KernelIR`` is
the in-memory cache key together with its ``Variant`` (the launch choices: vector width,
unroll, 32-bit indexes, bands, ``fixed`` settings); those values travel as the kernel's
runtime arguments, in parameter order. lower.py builds it, variants.py chooses its Variant,
render/ turns both into source, the reference backend interprets it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from . import dtypes as dt
from .dtypes import DType

FLAT = "flat"  # address = offset + gid (the element's row-major position in the grid)
SCALAR_ACCESS = "scalar"  # one element broadcast everywhere
STRIDED = "strided"  # offset + i * s0 + j * s1
TRANSPOSED = "transposed"  # offset + i + j * s1: down a column (GPUs tile these loads)
ROWWISE = "rowwise"  # offset + i * s0: one element per row, the same along it (broadcast)
ROW_VECTOR = "row_vector"  # offset + j: one row, the same in every row (a broadcast vector)

VECTOR_DTYPES = ("float32", "int32", "uint32", "bool")  # loaded four at a time where aligned

ELEMENTWISE = "elementwise"
REDUCE_ROWS = "reduce_rows"  # one result per row (or per row and split)
REDUCE_COLS = "reduce_cols"  # one result per column (or per column and split)
SCAN = "scan"  # running combinations along rows (``Scan``): a pass of scan.py's plan
# Each work-item walks a band of rows: per row, its row totals, then the values computed from
# them, then its terms of the column reductions, from the same row in cache (rowwalk.py).
ROW_WALK = "row_walk"


@dataclass(frozen=True)
class BufferParam:
    name: str
    dtype: DType
    read: bool
    written: bool


@dataclass(frozen=True)
class ScalarParam:
    name: str
    dtype: DType


@dataclass(frozen=True)
class IndexParam:
    """An integer kernel argument: a size, a view's offset or stride, a launch setting."""

    name: str


@dataclass(frozen=True)
class Load:
    var: str
    dtype: DType
    buffer: str
    access: str
    view: str  # prefix of the view's index parameters
    guard: str | None = None  # read only where true, else 0


@dataclass(frozen=True)
class ReadScalar:
    var: str
    dtype: DType
    param: str


@dataclass(frozen=True)
class ReadIndex:
    var: str
    dtype: DType
    axis: str  # "i", "j" or "0"


@dataclass(frozen=True)
class AffineIndex:
    """``view_0 + view_i * i + view_j * j`` as ``dtype``."""

    var: str
    dtype: DType
    view: str


@dataclass(frozen=True)
class AffinePredicate:
    """A bool over ``d = view_0 + view_i * i + view_j * j``: ``d <= 0`` (le0), ``d >= 0``
    (ge0), ``d == 0`` (eq0) or ``0 <= d < view_n`` (range)."""

    var: str
    relation: str
    view: str
    dtype: DType = dt.bool_


@dataclass(frozen=True)
class Apply:
    var: str
    dtype: DType  # result
    op: str
    compute: DType  # computation dtype (the arguments' dtype)
    args: tuple[str, ...]


@dataclass(frozen=True)
class Cast:
    var: str
    dtype: DType
    arg: str


@dataclass(frozen=True)
class Select:
    """``cond ? value : 0``."""

    var: str
    dtype: DType
    cond: str
    value: str


@dataclass(frozen=True)
class Gather:
    """Element ``(row, col)`` of a buffer through its view, indexes checked against the view's
    extent (``view_rows``, ``view_cols``); negative indexes count from the end, as NumPy."""

    var: str
    dtype: DType
    buffer: str
    view: str
    row: str | None  # None: row 0
    col: str | None
    guard: str | None
    error: int  # position in the kernel's error table; -1: trusted, not checked


@dataclass(frozen=True)
class Check:
    """Report error ``error`` with the element's position and value where ``ok`` is false."""

    ok: str
    guard: str | None
    value: str
    row: str
    col: str
    dtype: DType
    error: int


@dataclass(frozen=True)
class Store:
    buffer: str
    var: str
    access: str
    view: str
    when: str | None = None  # a bool variable: store only where it holds (masked writes)


@dataclass(frozen=True)
class Scatter:
    """Store ``var`` at the element of ``buffer``'s view picked by the ``row``/``col`` index
    variables; ``name`` prefixes the scatter's own index variables (the stored value may be
    a gather's, whose index variables already use its name)."""

    buffer: str
    var: str
    view: str
    row: str | None
    col: str | None
    error: int
    name: str
    add: bool = False  # add to the element (atomically): duplicate indexes sum


@dataclass(frozen=True)
class RowTotal:
    """A row walk's total of the row (``ROW_WALK``): the variable ``operand`` of each
    element along the row combined by op-table ``op`` in ``dtype``; ``var`` holds it where
    the row's own values are computed."""

    var: str
    dtype: DType
    op: str
    operand: str


@dataclass(frozen=True)
class Accumulate:
    """Reduce ``var`` with op-table ``op`` into result ``index`` of a reduction kernel."""

    var: str
    dtype: DType
    op: str
    compensated: bool  # Kahan summation (float32 sums)
    buffer: str
    view: str  # out address: view_off + segment * view_seg + split * view_split
    scale: str | None  # scalar parameter multiplying the final value
    # Set when the kernel's last work-group combines the partial results in ``buffer`` into
    # the final value itself (one segment): that value's buffer and view (``{final_view}_off``).
    final_buffer: str | None = None
    final_view: str | None = None
    # A row walk's result: "columns" (one per column of the walked rows) or "rows" (the
    # rows' values combined into one).
    walk: str = ""


@dataclass(frozen=True)
class Scan:
    """A scan kernel's pass (skeletons/scan.py): the elements of each (row, split) of the
    walk, each the body's variable ``value``, combined with op-table ``op`` in ``dtype``.
    ``totals``: only each split's total, into ``part``; else every element's running value
    into ``dst``, from the split's carry (``carried``: read from ``carries``, else the
    identity), before the element (``exclusive``) or after."""

    op: str
    dtype: DType
    totals: bool = False
    exclusive: bool = False
    carried: bool = False
    value: str = ""
    # An arg-reduction's pass (``expr.ARG``): each task's first extreme element's position
    # (``totals``: with its value, into ``part`` and ``part_at``; else the position into
    # ``dst``); ``combining``: the walk reads the first pass's pairs, not ``value``.
    arg: bool = False
    combining: bool = False
    flat: bool = False  # an arg-reduction's positions in the whole operand, row-major


Statement = (Load | ReadScalar | ReadIndex | AffineIndex | AffinePredicate | Apply | Cast | Select
             | Gather | Check | Store | Scatter | RowTotal)
Param = BufferParam | ScalarParam | IndexParam

ERROR_BUFFER = "err"
ERROR_OFFSET = "err_off"  # where in the error buffer this launch's record lies
# One int a failing check sets besides its record: where the backend keeps it in memory the host
# reads without a transfer, a drained queue with the flag clear needs no copy of the records
# (``pending.Slab.read_drained``). Supplied at launch; not ordered like data (only ever set).
ERROR_SEEN = "err_seen"
# A reduction finished by its last work-group counts finished groups here: one int per stream,
# zero between launches (the last group resets it), supplied at launch like the error buffer.
GROUP_COUNTER = "done_groups"


@dataclass(frozen=True)
class Variant:
    """How a kernel's IR is launched and written: the launch choices (``variants.py``),
    decided from the IR, its arguments and the device's traits. Kernels of one IR and
    different variants are different programs."""

    per_thread: int = 1  # element-wise: elements each thread computes
    tiled: bool = False  # element-wise: transposed loads go through a tile
    # Element-wise: consecutive elements per thread; rows reductions: elements per vector
    # load of the walked operands.
    vector: int = 1
    unroll: int = 1  # rows reductions' vector walk: vector steps per lane in flight
    int_columns: bool = False  # the vector walk's column indexes fit 32 bits
    guarded_tail: bool = False  # the vector walk's last partial step loads together
    woven: bool = False  # one row's splits walk it together, element by element
    band: int = 0  # columns reductions: contiguous columns per work-item (ReduceLayout.band)
    # Columns reductions on CPUs: one work-group per split of the rows, walking whole rows
    # into the split's row of partial results in memory (ReduceLayout.row_chunks).
    row_chunks: bool = False
    # Element-wise on CPUs: each work-item walks a run of consecutive elements; tiled, a
    # ``tile_edge`` square block, its transposed loads staged in private tiles.
    walk: bool = False
    tile_edge: int = 0
    # Element-wise over 2-d grids with 32-bit indexes: an element's row from a multiply by
    # the reciprocal of the row length, corrected by one, instead of a division.
    reciprocal_rows: bool = False
    # Every index of the launch (grid positions, view offsets and strides, buffer sizes) fits
    # in 32 bits with room to spare: the kernel computes its indexes in int.
    index32: bool = False
    # Scans: elements per thread of a work-group's tile (GPUs; 0: each work-item walks its
    # split alone), and whether a work-group's first work-item alone walks (CPUs: a
    # work-group runs on one core, so a split per group spreads the splits over the cores).
    scan_per_thread: int = 0
    scan_by_groups: bool = False
    # Scans down columns: each work-item walks this many adjacent columns together, row by
    # row (0: a work-item or a work-group walks one row of the walk).
    scan_band: int = 0
    # Launch settings written into the source as constants, (parameter name, value) pairs:
    # rows reductions' team width, walk kind and a row that is one split. Their arguments
    # still travel, so every kernel of a skeleton has one layout.
    fixed: tuple[tuple[str, int], ...] = ()


PLAIN = Variant()  # no launch choices: one element per thread, 64-bit indexes


@dataclass(frozen=True)
class KernelIR:
    """A structural description of one kernel, hashable: with its ``Variant``, the memory
    cache key."""

    skeleton: str  # ELEMENTWISE, REDUCE_ROWS, REDUCE_COLS, SCAN or ROW_WALK
    ndim: int  # of the element grid: 0/1 need no row/column split, 2 does
    params: tuple[Param, ...]
    body: tuple[Statement, ...]
    reductions: tuple[Accumulate, ...] = ()
    range_structure: str = "general"  # reductions visit only this structure's elements
    checked: bool = False  # has an error buffer
    scan: Scan | None = None  # a SCAN kernel's pass
    # A one-work-item reduction's epilogue: the statements of a small element-wise step
    # after it, which the work-item runs for each of that step's elements once its own
    # results are stored (``epilogue_n`` and ``epilogue_cols`` give that step's grid).
    epilogue: tuple[Statement, ...] = ()

    @functools.cached_property
    def buffer_roles(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Argument positions of the buffers the kernel reads, and of those it writes: what a
        launch orders its work by, computed once per kernel."""
        buffers = [(k, p) for k, p in enumerate(self.params)
                   if isinstance(p, BufferParam) and p.name not in (GROUP_COUNTER, ERROR_SEEN)]
        return (tuple(k for k, p in buffers if p.read),
                tuple(k for k, p in buffers if p.written))

    @functools.cached_property
    def error_positions(self) -> tuple[int, int, int] | None:
        """Argument positions of the error buffer, the record's offset and the failure flag
        (checked kernels)."""
        names = [p.name for p in self.params]
        if ERROR_BUFFER not in names:
            return None
        return names.index(ERROR_BUFFER), names.index(ERROR_OFFSET), names.index(ERROR_SEEN)

    @functools.cached_property
    def counter_position(self) -> int | None:
        """Argument position of the group counter (reductions finished by their last group);
        the counter belongs to the launching stream, so it is not ordered like data."""
        for k, p in enumerate(self.params):
            if p.name == GROUP_COUNTER:
                return k
        return None

    @property
    def vectorizable(self) -> bool:
        """Whether vector loads can serve the kernel: it walks every buffer in grid order
        (flat) or reads one element of it; the flat ones hold 4-byte values or bools (a bool
        mask beside float32 values); nothing needs an error report or, on 2-d grids, the
        element's row and column. A 1-d grid's position, a trusted gather (a bit mask's
        word) and a masked store are computed per element."""
        dtypes = {p.name: p.dtype for p in self.params if isinstance(p, BufferParam)}
        flat = False
        for s in self.body:
            if isinstance(s, (Load, Store)):
                if s.access == FLAT:
                    if dtypes[s.buffer].name not in VECTOR_DTYPES:
                        return False
                    flat = True
                elif s.access != SCALAR_ACCESS or isinstance(s, Store) and s.when is not None:
                    return False
                if isinstance(s, Load) and s.guard is not None:
                    return False
            elif isinstance(s, ReadIndex) or isinstance(s, Gather) and s.error < 0:
                if self.ndim > 1 or isinstance(s, Gather) and s.guard is not None:
                    return False
            elif not isinstance(s, (ReadScalar, Apply, Cast, Select)):
                return False
        return flat and not self.checked

    @functools.cached_property
    def walked_loads(self) -> tuple[Load, ...]:
        """Rows reductions: the loads a vector walk reads ``vector`` elements at a time (flat,
        or strided with unit column stride, which the launch checks), or none where the kernel
        cannot take that walk: a triangular range, a guarded walked load, a gather or a
        scatter. Everything else runs once per element of the vector."""
        if self.skeleton != REDUCE_ROWS or self.range_structure != "general":
            return ()
        walked = []
        for s in self.body:
            if isinstance(s, (Gather, Scatter)):
                return ()
            if isinstance(s, Load) and s.access in (FLAT, STRIDED, ROW_VECTOR):
                if s.guard is not None:
                    return ()
                walked.append(s)
        return tuple(walked)

    @functools.cached_property
    def invariants(self) -> frozenset[str]:
        """Variables that are the same for every element: scalar arguments, one broadcast
        element of a buffer, and what ops and casts make of those alone. A kernel computes
        them once per thread, before its walk: NVRTC and NVIDIA's OpenCL compiler left a
        scalar's ``log`` and a division of two scalars inside the loop (H200, narrow GLM
        68.4 -> 57.8 us; docs/tuning-notes.md, 19)."""
        fixed: set[str] = set()
        for s in self.body:
            if isinstance(s, ReadScalar) or isinstance(s, ReadIndex) and s.axis == "0":
                fixed.add(s.var)
            elif isinstance(s, Load):
                if s.access == SCALAR_ACCESS and s.guard is None:
                    fixed.add(s.var)
            elif isinstance(s, Apply):
                if all(a in fixed for a in s.args):
                    fixed.add(s.var)
            elif isinstance(s, Cast):
                if s.arg in fixed:
                    fixed.add(s.var)
            elif isinstance(s, Select) and s.cond in fixed and s.value in fixed:
                fixed.add(s.var)
        return frozenset(fixed)

    @functools.cached_property
    def once_per_thread(self) -> tuple[tuple[Statement, ...], tuple[Statement, ...]]:
        """The body split in two: the statements computing an invariant (run once, before
        the walk) and the rest (run per element; stores stay here, even of a shared value)."""
        once: list[Statement] = []
        per_element: list[Statement] = []
        for s in self.body:
            shared = (getattr(s, "var", None) in self.invariants
                      and not isinstance(s, (Store, Scatter)))
            (once if shared else per_element).append(s)
        return tuple(once), tuple(per_element)

    @property
    def tileable_loads(self) -> list[Load]:
        """Loads that walk down columns and read unconditionally: a tile can stage them."""
        return [s for s in self.body
                if isinstance(s, Load) and s.access == TRANSPOSED and s.guard is None]

    @property
    def uses_rows(self) -> bool:
        return any(
            (isinstance(s, (Load, Store))
             and s.access in (STRIDED, TRANSPOSED, ROWWISE, ROW_VECTOR))
            or (isinstance(s, ReadIndex) and s.axis == "i")
            or isinstance(s, (AffineIndex, AffinePredicate, Gather, Scatter))
            for s in self.body
        )

    @property
    def op_names(self) -> list[str]:
        names = [s.op for s in self.body if isinstance(s, Apply)]
        names += [f"{r.op}_reduce" for r in self.reductions]
        return names + [s.op for s in self.epilogue if isinstance(s, Apply)]


@dataclass(frozen=True)
class ErrorInfo:
    """What the host needs to word an error the kernel reported."""

    kind: str  # "index" or "check"
    message: str
    shape: tuple[int, ...]  # the indexed or checked array's
    dtype: DType | None = None  # of a checked value


@dataclass(frozen=True)
class ReduceLayout:
    """How a reduction kernel walks its operand, chosen at launch: one team of ``lanes``
    threads per (segment, split). Only ``mode`` is in the cache key, and, where a device
    writes them into the source (``KernelIR.fixed``), a rows kernel's ``lanes``,
    ``contiguous`` and a single split."""

    mode: str  # REDUCE_ROWS or REDUCE_COLS
    rows: int
    cols: int
    lanes: int
    splits: int
    chunk: int
    groups: int
    contiguous: int = 0  # rows mode: each lane walks a contiguous run (CPUs)
    # Columns mode on CPUs: each work-item owns this many contiguous columns of one split,
    # in private accumulators (0: teams of lanes, as on GPUs).
    band: int = 0
    # Columns mode on CPUs: each work-group walks whole rows of one split into that split's
    # row of partial results (``Variant.row_chunks``).
    row_chunks: bool = False

    @property
    def splits_one_row(self) -> bool:
        """One row (a full reduction) split over work-groups."""
        return self.mode == REDUCE_ROWS and self.rows == 1 and self.splits > 1
