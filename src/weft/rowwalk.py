"""The row walk: a column reduction joined with the row reductions and per-row values it
reads, so that its operand's rows leave memory once (CPUs; CUDA, by teams of lanes).

A GLM's value and gradient is scheduled as three kernels over ``x`` (n × k): the row
reductions ``x @ beta`` into a temporary, the per-row work (the density's terms and the
derivative ``d``) into another, and the column reduction ``x.T @ d``. Each of the first and
last reads all of ``x``. ``joined`` turns such a run of steps into one ``RowWalk``: each
work-item walks a band of rows and, for each row, adds up its row totals, computes the row's
values from them (storing and summing what was asked), then adds the row's terms into its
band's row of partial column results while the row is still in cache. A combining pass adds
the bands, as for column reductions walked by row chunks (``variants.row_chunks_layout``).

The kernel's IR (``ir.ROW_WALK``) is the lowered body of all three, with ``RowTotal``
statements where a row's total becomes known; ``phases`` splits it into the walk's three
loops, by which variables change along a row. A run that cannot be walked this way (a value
needed per row that changes along it, a total of totals, a scatter) is left as it was.

>>> import numpy as np, weft as wf
>>> x = wf.asarray(np.ones((256, 600)))
>>> d = wf.exp(x @ wf.asarray(np.full(600, 0.01)))
>>> g = (x * d[:, None]).sum(axis=0)  # one walk over x's rows on a CPU, then the bands added
>>> bool(np.isclose(float(g[0]), 256 * np.exp(6.0)))
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from . import dtypes as dt
from . import expr as ex
from .dtypes import DType
from .expr import Node
from .indexing import IDENTITY, AffineMap, as_2d, padded_strides
from .ir import (
    FLAT,
    ROW_VECTOR,
    ROW_WALK,
    STRIDED,
    TRANSPOSED,
    Accumulate,
    AffineIndex,
    AffinePredicate,
    Apply,
    Cast,
    Check,
    ErrorInfo,
    Gather,
    IndexParam,
    KernelIR,
    Load,
    ReadIndex,
    ReadScalar,
    ReduceLayout,
    RowTotal,
    Scatter,
    Select,
    Statement,
    Store,
)
from .lower import Arguments, Ctx, _Lowering
from .schedule import Output, Step

# A walk's IR, its arguments, its error table and the combining passes after it.
Lowered = tuple[KernelIR, Arguments, list[ErrorInfo], list[Output]]

# Kernel element (i, j) -> element i of a per-row value: of a vector (n,), padded (1, n),
# or of a column (n, 1).
_ALONG_VECTOR = AffineMap(0, 0, 0, 0, 1, 0)
_ALONG_COLUMN = AffineMap(0, 1, 0, 0, 0, 0)


class NotWalkableError(Exception):
    """The steps cannot be walked as one: they stay as they were scheduled."""


@dataclass
class RowWalk:
    """One row-walk kernel over ``grid`` (n × k) under ``layout`` (row chunks on CPUs,
    teams on CUDA): the
    column reductions ``columns`` (axis 0 over the grid), the reductions ``sums`` of
    per-row values, and the per-row values ``per_row`` stored on the way; row reductions
    inside them are computed in the walk."""

    grid: tuple[int, int]
    layout: ReduceLayout
    columns: list[Output]
    sums: list[Output]
    per_row: list[Output]
    lowered: Lowered | None = None  # (set by ``joined``, which lowers it to know it can)

    @property
    def outputs(self) -> list[Output]:
        return [*self.columns, *self.sums, *self.per_row]


def per_row_map(shape: tuple[int, ...]) -> AffineMap:
    """The map from the walk's element (i, j) to element i of a per-row value of ``shape``."""
    return _ALONG_VECTOR if len(shape) == 1 else _ALONG_COLUMN


# Scheduling ---------------------------------------------------------------------------


LayoutFor = Callable[[int, int], "ReduceLayout | None"]


def joined(steps: list[Step], layout_for: LayoutFor, fp64: bool) -> list[Step | RowWalk]:
    """``steps`` with each column-reduction step that reads per-row values computed by
    earlier steps joined with them into a ``RowWalk`` where one can compute them all.
    ``layout_for(rows, cols)``: the walk's layout, or None where the grid is too small to
    split (then nothing is joined). Steps of per-row values that read what the joined steps
    write join too where they can (``_grown``)."""
    run = _Run(list(steps))
    c = 0
    while c < len(run.steps):
        found = _join_at(run, c, layout_for, fp64)
        if found is not None:
            members, walk = found
            kept = [s for k, s in enumerate(run.steps[:c]) if k not in members]
            after = [s for k, s in enumerate(run.steps[c + 1:], c + 1) if k not in members]
            run = _Run([*kept, walk, *after])
            c = len(kept)
        c += 1
    return run.steps


def _is_temporary(dest: Node) -> bool:
    from .compiler import TemporaryBuffer  # (compiler.py imports this module)

    return dest.kind == ex.BUFFER and type(dest.attrs.storage) is TemporaryBuffer


def _storages(nodes: list[Node]) -> set[int]:
    return {id(n.attrs.storage) for n in ex.walk(nodes) if n.kind == ex.BUFFER}


class _Run:
    """Scheduled steps, with the storages each one reads and writes, found once each (a
    step's reads walk its expressions, and a join asks for them step by step)."""

    def __init__(self, steps: list[Step | RowWalk]) -> None:
        self.steps = steps
        self._reads: dict[int, set[int]] = {}
        self._writes: dict[int, set[int]] = {}

    def reads(self, k: int) -> set[int]:
        found = self._reads.get(k)
        if found is None:
            found = self._reads[k] = _storages([r for r, _ in self.steps[k].outputs])
        return found

    def writes(self, k: int) -> set[int]:
        found = self._writes.get(k)
        if found is None:
            found = self._writes[k] = {
                id((dest if dest.kind == ex.BUFFER else dest.args[0]).attrs.storage)
                for _, dest in self.steps[k].outputs}
        return found


def _columns_step(step: Step | RowWalk) -> tuple[int, int] | None:
    """The operand shape of a step of column reductions only, over one 2-d shape."""
    if not isinstance(step, Step) or not step.outputs:
        return None
    shape = step.outputs[0][0].args[0].shape if step.outputs[0][0].args else ()
    if len(shape) != 2:
        return None
    for root, dest in step.outputs:
        if (root.kind != ex.REDUCE or root.attrs.axis != 0 or root.args[0].shape != shape
                or dest.kind != ex.BUFFER):
            return None
    return shape


def _per_row_shape(shape: tuple[int, ...], n: int) -> bool:
    return shape in ((n,), (n, 1))


def _member_kind(step: Step | RowWalk, grid: tuple[int, int]) -> str | None:
    """What ``step`` is to a walk over ``grid``: "rows" (row reductions over the grid),
    "values" (per-row values and their reductions) or None (neither)."""
    if not isinstance(step, Step) or not step.outputs or step.scans:
        return None
    n = grid[0]
    if all(r.kind == ex.REDUCE and r.attrs.axis == 1 and r.args[0].shape == grid
           and d.kind == ex.BUFFER for r, d in step.outputs):
        return "rows"
    for root, dest in step.outputs:
        if dest.kind != ex.BUFFER:
            return None
        if root.kind == ex.REDUCE:
            operand = root.args[0].shape
            if not _per_row_shape(operand, n) or (root.attrs.axis == 1 and len(operand) == 2):
                return None
            if math.prod(root.shape) != 1:
                return None
        elif not _per_row_shape(dest.shape, n):
            return None
    return "values"


def _join_at(run: _Run, c: int, layout_for: LayoutFor, fp64: bool
             ) -> tuple[set[int], RowWalk] | None:
    """The walk computing step ``c`` with the steps it joins, and their positions."""
    steps = run.steps
    grid = _columns_step(steps[c])
    if grid is None:
        return None
    layout = layout_for(*grid)
    if layout is None:
        return None
    writers: dict[int, int] = {}
    for k in range(c):
        for _, dest in steps[k].outputs:
            if _is_temporary(dest):
                writers[id(dest.attrs.storage)] = k
    # First every step the column terms depend on, with the steps of per-row values that
    # read what those write (a density's sum beside its gradient, written by hand), which
    # would otherwise pin them in place; where that group cannot be walked, what can move.
    candidates = [_grown(run, c, grid, _members(run, c, grid, writers, None)),
                  _members(run, c, grid, writers, _apart)]
    for members in candidates:
        if not members or not all(_apart(run, k, c, members) for k in members):
            continue
        try:
            walk = _walk(run, c, members, grid, layout)
            walk.lowered = lower_walk(walk, fp64)
        except NotWalkableError:
            continue
        return set(members), walk
    return None


def _members(run: _Run, c: int, grid: tuple[int, int],
             writers: dict[int, int], movable) -> dict[int, str]:
    """The steps that write the temporaries step ``c`` reads, and those theirs read, that
    a walk can compute (and, with ``movable``, that can move to ``c``), by kind."""
    members: dict[int, str] = {}
    frontier = [t for t in run.reads(c) if t in writers]
    rejected: set[int] = set()
    while frontier:
        k = writers[frontier.pop()]
        if k in members or k in rejected:
            continue
        kind = _member_kind(run.steps[k], grid)
        if kind is None or (movable is not None and not movable(run, k, c, members)):
            rejected.add(k)
            continue
        members[k] = kind
        frontier += [t for t in run.reads(k) if t in writers]
    return members


def _grown(run: _Run, c: int, grid: tuple[int, int],
           members: dict[int, str]) -> dict[int, str]:
    """``members`` with the steps of per-row values that read what they write: before
    ``c``, and after it where they can move back to ``c`` (a density's sum requested after
    its gradient)."""
    grown = bool(members)
    while grown:
        grown = False
        written = set().union(*(run.writes(k) for k in members))
        for k in range(len(run.steps)):
            if (k != c and k not in members and run.reads(k) & written
                    and _member_kind(run.steps[k], grid) == "values"
                    and (k < c or _apart(run, k, c, members))):
                members[k] = "values"
                grown = True
    return members


def _apart(run: _Run, k: int, c: int, members: dict[int, str]) -> bool:
    """Whether step ``k`` can move to ``c``'s place: no step between them, outside the
    group, touches what it writes or writes what it reads (from after ``c``: nor ``c``)."""
    writes, reads = run.writes(k), run.reads(k)
    for s in range(k + 1, c) if k < c else range(c, k):
        if s in members:
            continue
        other_writes = run.writes(s)
        if writes & (run.reads(s) | other_writes) or reads & other_writes:
            return False
    return True


def _walk(run: _Run, c: int, members: dict[int, str],
          grid: tuple[int, int], layout: ReduceLayout) -> RowWalk:
    """The walk computing step ``c`` and ``members``, their temporaries replaced by the
    expressions that wrote them where only the group reads them."""
    steps = run.steps
    outside: set[int] = set()
    for k in range(len(steps)):
        if k != c and k not in members:
            outside |= run.reads(k)
    sources: dict[int, tuple[Node, Node]] = {}
    sums: list[Output] = []
    per_row: list[Output] = []
    for k in sorted(members):
        for root, dest in steps[k].outputs:
            (ready,) = _replaced([root], sources)
            if ready.kind == ex.REDUCE and members[k] == "values":
                sums.append((ready, dest))
                continue
            if _is_temporary(dest):
                sources[id(dest.attrs.storage)] = (ready, dest)
                if id(dest.attrs.storage) not in outside:
                    continue
            if not _per_row_shape(dest.shape, grid[0]):
                raise NotWalkableError
            per_row.append((ready, dest))
    columns = [(_replaced([root], sources)[0], dest) for root, dest in steps[c].outputs]
    # What the members wrote and the walk still reads (a sum feeding the column terms, a
    # requested per-row value read back) would be read before the walk writes it.
    written = set().union(*(run.writes(k) for k in members))
    if written & _storages([root for root, _ in (*columns, *sums, *per_row)]):
        raise NotWalkableError
    return RowWalk(grid, layout, columns, sums, per_row)


def _replaced(roots: list[Node], sources: dict[int, tuple[Node, Node]]) -> list[Node]:
    """``roots`` reading the expressions in ``sources`` where they read their temporaries."""
    swap: dict[int, Node] = {}
    for node in ex.walk(roots):
        if node.kind == ex.BUFFER and id(node.attrs.storage) in sources:
            swap[id(node)] = _as_leaf(node, *sources[id(node.attrs.storage)])
    return ex.substitute(roots, swap) if swap else roots


def _as_leaf(leaf: Node, root: Node, dest: Node) -> Node:
    """``root`` (written to ``dest``) seen through ``leaf``'s view of the same buffer."""
    if leaf.shape == dest.shape and leaf.attrs.same_elements(dest.attrs, dest.shape):
        return root
    if (leaf.structure != "general" or dest.attrs.offset != 0
            or not dest.attrs.is_contiguous(dest.shape) or as_2d(dest.shape)[0] != 1):
        raise NotWalkableError
    s0, s1 = padded_strides(leaf.attrs.strides)
    # dest (a vector, padded (1, n)) holds element (0, p) at p.
    return ex.view(root, leaf.shape, AffineMap(0, 0, 0, leaf.attrs.offset, s0, s1))


# Lowering ----------------------------------------------------------------------------


class _WalkLowering(_Lowering):
    """Lowering into a walk: a row reduction over the walk's grid, where its row is the
    walk's row, becomes a ``RowTotal`` of its operand's elements along the row."""

    def __init__(self, grid: tuple[int, int], fp64: bool) -> None:
        super().__init__(grid)
        self.shape = grid
        self.fp64 = fp64

    def lower_reduce(self, node: Node, ctx: Ctx):
        red = node.attrs
        operand = node.args[0]
        if operand.shape != self.shape or red.axis != 1:
            return (yield from super().lower_reduce(node, ctx))
        out_rows, _ = as_2d(node.shape)
        along = ctx.map.col() if out_rows == 1 else ctx.map.row()
        across = ctx.map.row() if out_rows == 1 else ctx.map.col()
        if along != (0, 1, 0) or across != (0, 0, 0) or ctx.guard is not None:
            raise NotWalkableError  # not the walk's own row
        acc: DType = node.dtype
        if red.op == "add" and acc.name == "float32":
            if not self.fp64:
                raise NotWalkableError  # (a compensated total is not written for walks)
            acc = dt.float64
        term = yield operand, Ctx(IDENTITY, None)
        if operand.dtype is not acc:
            term = self.emit(("cast", acc, term), lambda v, a=term: Cast(v, acc, a))
        total = self.fresh()
        self.body.append(RowTotal(total, acc, red.op, term))
        if red.scale is not None:
            scale = self.scalar(red.scale, acc)
            scale_var = self.fresh()
            self.body.append(ReadScalar(scale_var, acc, scale))
            args = (total, scale_var)
            total = self.emit(("map", "multiply", acc, acc, args),
                              lambda v: Apply(v, acc, "multiply", acc, args))
        if acc is not node.dtype:
            total = self.emit(("cast", node.dtype, total),
                              lambda v, a=total: Cast(v, node.dtype, a))
        return total


def lower_walk(walk: RowWalk, fp64: bool, epilogue: list[Output] | None = None) -> Lowered:
    """The walk's kernel IR, arguments and error table, and the passes combining its
    bands' partial results (``NotWalkableError`` where it cannot be walked); ``epilogue``:
    a small step's outputs its one work-item computes after (``KernelIR.epilogue``)."""
    layout = walk.layout
    lw = _WalkLowering(walk.grid, fp64)
    accs: list[tuple[str, Node, Node, str]] = []
    for root, dest in walk.columns:
        accs.append((lw.node(root.args[0], Ctx(IDENTITY, None)), root, dest, "columns"))
    for root, dest in walk.sums:
        operand = root.args[0]
        accs.append((lw.node(operand, Ctx(per_row_map(operand.shape), None)), root, dest,
                     "rows"))
    stores = [(lw.node(root, Ctx(per_row_map(dest.shape), None)), dest)
              for root, dest in walk.per_row]
    for var, dest in stores:
        buf = lw.buffer(dest.attrs.storage, read=False, written=True)
        access, prefix = lw.leaf_access(dest, per_row_map(dest.shape))
        lw.body.append(Store(buf, var, access, prefix))
    reductions = []
    followups: list[Output] = []
    for var, root, dest, kind in accs:
        red: ex.Reduction = root.attrs
        acc: DType = root.dtype
        if red.op == "add" and acc.name == "float32":
            if not fp64:
                raise NotWalkableError
            acc = dt.float64
        if root.args[0].dtype is not acc:
            var = lw.emit(("cast", acc, var), lambda v, a=var, t=acc: Cast(v, t, a))
        width = walk.grid[1] if kind == "columns" else 1
        offset = _direct_offset(lw, layout, dest, acc, red, kind)
        if offset is None:
            partial = _partial(layout.splits, width, acc)
            followups.append((ex.reduce(partial, ex.Reduction(
                red.op, 0 if width > 1 else None, red.scale), dest.shape, acc), dest))
            written, offset, split = partial.attrs.storage, 0, width
        else:  # one split: the walk writes the result itself, and no pass follows
            written, split = dest.attrs.storage, 0
        buf = lw.buffer(written, read=False, written=True)
        prefix = lw.params(("out", id(written), offset, 1, split),
                           ("off", "seg", "split"), (offset, 1, split))
        reductions.append(Accumulate(var, acc, red.op, False, buf, prefix, None, walk=kind))
    extra = [(IndexParam(name), value) for name, value in (
        ("rows", layout.rows), ("cols", layout.cols), ("splits", layout.splits),
        ("chunk", layout.chunk))]
    if layout.lanes > 1:  # a GPU's team: each lane's columns, compiled in
        extra += [(IndexParam("lane_columns"), lane_columns(layout)),
                  (IndexParam("team_lanes"), layout.lanes)]
    after: tuple[Statement, ...] = ()
    if epilogue:
        after, grid_params = lw.epilogue(epilogue)
        extra += grid_params
    ir, args, errors = lw.finish(ROW_WALK, extra, tuple(reductions))
    phases(ir)  # refuses what the walk cannot order
    return replace(ir, epilogue=after), args, errors, followups


def _direct_offset(lw: _WalkLowering, layout: ReduceLayout, dest: Node, acc: DType,
                   red: ex.Reduction, kind: str) -> int | None:
    """Where a CPU walk of one split writes result ``dest`` itself (its first element's
    offset), or None where its splits' partial results need a pass: a scaled result
    (a mean), column results kept in a wider type than theirs (float32 sums), a
    destination the walk also reads, or one whose columns are not adjacent."""
    view = dest.attrs
    if (layout.splits != 1 or layout.lanes != 1 or red.scale is not None
            or (kind == "columns" and dest.dtype is not acc)):
        return None
    read = lw.buffers.get(id(view.storage))
    if read is not None and lw.buffer_params[read][2]:
        return None
    if kind == "columns" and dest.shape[-1] > 1 and padded_strides(view.strides)[1] != 1:
        return None
    return view.offset


def lane_columns(layout: ReduceLayout) -> int:
    """The columns each lane of a GPU's walk owns (``layout.lanes`` lanes a team)."""
    return -(-layout.cols // layout.lanes)


def _partial(splits: int, width: int, dtype: DType) -> Node:
    from .compiler import temporary_leaf

    return temporary_leaf((splits, width) if width > 1 else (splits,), dtype)


# Phases ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phases:
    """A walk's body split by where it runs: ``row_loop`` along each row for its totals,
    ``per_row`` once per row after them, ``column_loop`` along the row again for the
    column results; ``exports``: the per-row variables the column loop reads."""

    row_loop: tuple[Statement, ...]
    per_row: tuple[Statement, ...]
    column_loop: tuple[Statement, ...]
    exports: tuple[tuple[str, DType], ...]


_ALONG_ACCESSES = (FLAT, STRIDED, TRANSPOSED, ROW_VECTOR)


def reads_of(s: Statement) -> tuple[str, ...]:
    """The variables statement ``s`` reads."""
    if isinstance(s, Load):
        return (s.guard,) if s.guard else ()
    if isinstance(s, Apply):
        return s.args
    if isinstance(s, Cast):
        return (s.arg,)
    if isinstance(s, Select):
        return (s.cond, s.value)
    if isinstance(s, Gather):
        return tuple(v for v in (s.row, s.col, s.guard) if v)
    if isinstance(s, Check):
        return tuple(v for v in (s.ok, s.guard, s.value, s.row, s.col) if v)
    if isinstance(s, Store):
        return tuple(v for v in (s.var, s.when) if v)
    return ()


def phases(ir: KernelIR) -> Phases:
    """``ir``'s body split into the walk's phases (``NotWalkableError`` where a per-row value
    changes along the row, or a row total needs another)."""
    once = ir.invariants
    along: set[str] = set()
    made: dict[str, Statement] = {}
    for s in ir.body:
        if isinstance(s, Scatter):
            raise NotWalkableError
        var = getattr(s, "var", None)
        changes = (isinstance(s, Load) and s.access in _ALONG_ACCESSES
                   or isinstance(s, ReadIndex) and s.axis == "j"
                   or isinstance(s, (AffineIndex, AffinePredicate))
                   or any(a in along for a in reads_of(s)))
        if isinstance(s, (Store, Check)):
            continue
        if changes:
            along.add(var)
        made[var] = s

    def closure(targets: list[str], stop: set[str]) -> set[str]:
        found: set[str] = set()
        stack = [t for t in targets if t not in once and t not in stop]
        while stack:
            var = stack.pop()
            if var in found:
                continue
            found.add(var)
            s = made[var]
            if isinstance(s, RowTotal):
                continue
            stack += [a for a in reads_of(s) if a not in once and a not in stop]
        return found

    totals = [s for s in ir.body if isinstance(s, RowTotal)]
    in_rows = closure([t.operand for t in totals], set())
    if any(isinstance(made[v], RowTotal) for v in in_rows):
        raise NotWalkableError  # a total of totals
    columns = [r for r in ir.reductions if r.walk == "columns"]
    row_level = set(made) - along
    in_columns = closure([r.var for r in columns], row_level)
    checks: dict[str, list[Statement]] = {"rows": [], "per_row": [], "columns": []}
    row_targets = [r.var for r in ir.reductions if r.walk == "rows"]
    imported = {r.var for r in columns if r.var in row_level}
    imported |= {a for v in in_columns for a in reads_of(made[v]) if a in row_level}
    for s in ir.body:
        reads = [a for a in reads_of(s) if a not in once]
        if isinstance(s, Store):
            row_targets += reads
        elif isinstance(s, Check):
            if all(a in row_level for a in reads):
                checks["per_row"].append(s)
                row_targets += reads
            elif all(a in in_columns or a in row_level for a in reads):
                checks["columns"].append(s)
                imported |= {a for a in reads if a in row_level}
            elif all(a in in_rows for a in reads):
                checks["rows"].append(s)
            else:
                raise NotWalkableError
    exports = sorted(imported - set(once), key=lambda v: int(v[1:]))
    row_targets += exports
    if any(r.walk == "rows" and r.var in along for r in ir.reductions):
        raise NotWalkableError
    in_per_row = closure(row_targets, set())
    if in_per_row & along:
        raise NotWalkableError  # a per-row value that changes along the row

    def ordered(chosen: set[str], kind: str) -> tuple[Statement, ...]:
        picked = [s for s in ir.body if getattr(s, "var", None) in chosen
                  and not isinstance(s, Store)
                  or s in checks[kind] or kind == "per_row" and isinstance(s, Store)]
        return tuple(picked)

    dtypes = {getattr(s, "var", None): s.dtype for s in ir.body if hasattr(s, "dtype")}
    return Phases(ordered(in_rows, "rows"), ordered(in_per_row, "per_row"),
                  ordered(in_columns, "columns"),
                  tuple((v, dtypes[v]) for v in exports))


__all__ = ["NotWalkableError", "Phases", "RowWalk", "joined", "lane_columns", "lower_walk",
           "per_row_map", "phases"]
