"""Lowering: one kernel's outputs (expression roots and their destinations) → kernel IR.

The IR is dialect-neutral and purely structural: parameters by kind and dtype, and a list of
statements (loads with an access pattern, op applications, casts, stores). It holds no size,
offset or scalar value, so the IR itself is the in-memory cache key; those values come back as
the kernel's runtime arguments, in parameter order.

Every node is lowered in a *context*: the affine map from the kernel's element ``(i, j)`` to
the node's own element (indexing.py), and a guard, the boolean that says whether the element is
needed at all. Views compose into the map, so a transpose or block of an expression costs
nothing but index arithmetic at its leaves; structure restrictions and concatenations add to
the guard, and a guarded load reads nothing outside it.

Value numbering gives CSE: a statement whose (operation, arguments) was already emitted reuses
the earlier variable, so ``t = a / b; t * t`` divides once per element.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from . import structure as st
from .dtypes import DType
from .expr import Node
from .indexing import IDENTITY, AffineMap, as_2d, broadcast_map, padded_strides
from .ops import INTERSECTION

FLAT = "flat"  # address = offset + gid (the element's row-major position in the grid)
SCALAR_ACCESS = "scalar"  # one element broadcast everywhere
STRIDED = "strided"  # offset + i * s0 + j * s1
TRANSPOSED = "transposed"  # offset + i + j * s1: down a column (GPUs tile these loads)

VECTOR_DTYPES = ("float32", "int32", "uint32")  # loaded four at a time where aligned

ELEMENTWISE = "elementwise"
REDUCE_ROWS = "reduce_rows"  # one result per row (or per row and split)
REDUCE_COLS = "reduce_cols"  # one result per column (or per column and split)


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
    error: int  # position in the kernel's error table


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


@dataclass(frozen=True)
class Scatter:
    buffer: str
    var: str
    view: str
    row: str | None
    col: str | None
    error: int


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


Statement = (Load | ReadScalar | ReadIndex | AffineIndex | AffinePredicate | Apply | Cast | Select
             | Gather | Check | Store | Scatter)
Param = BufferParam | ScalarParam | IndexParam

ERROR_BUFFER = "err"


@dataclass(frozen=True)
class KernelIR:
    """A structural description of one kernel; hashable, the memory cache key."""

    skeleton: str  # ELEMENTWISE, REDUCE_ROWS or REDUCE_COLS
    ndim: int  # of the element grid: 0/1 need no row/column split, 2 does
    params: tuple[Param, ...]
    body: tuple[Statement, ...]
    reductions: tuple[Accumulate, ...] = ()
    range_structure: str = "general"  # reductions visit only this structure's elements
    checked: bool = False  # has an error buffer
    per_thread: int = 1  # element-wise: elements each thread computes (a launch choice)
    tiled: bool = False  # element-wise: transposed loads go through a tile (a launch choice)
    vector: int = 1  # element-wise: consecutive elements per thread, vector loads (a launch choice)

    @property
    def vectorizable(self) -> bool:
        """Whether vector loads can serve the kernel: it walks every buffer in grid order
        (flat) or reads one element of it, the flat ones hold 4-byte values, and nothing needs
        the element's row, column or an error report."""
        dtypes = {p.name: p.dtype for p in self.params if isinstance(p, BufferParam)}
        flat = False
        for s in self.body:
            if isinstance(s, (Load, Store)):
                if s.access == FLAT:
                    if dtypes[s.buffer].name not in VECTOR_DTYPES:
                        return False
                    flat = True
                elif s.access != SCALAR_ACCESS:
                    return False
                if isinstance(s, Load) and s.guard is not None:
                    return False
            elif not isinstance(s, (ReadScalar, Apply, Cast, Select)):
                return False
        return flat and not self.checked

    @property
    def tileable_loads(self) -> list[Load]:
        """Loads that walk down columns and read unconditionally: a tile can stage them."""
        return [s for s in self.body
                if isinstance(s, Load) and s.access == TRANSPOSED and s.guard is None]

    @property
    def uses_rows(self) -> bool:
        return any(
            (isinstance(s, (Load, Store)) and s.access in (STRIDED, TRANSPOSED))
            or (isinstance(s, ReadIndex) and s.axis == "i")
            or isinstance(s, (AffineIndex, AffinePredicate, Gather, Scatter))
            for s in self.body
        )

    @property
    def op_names(self) -> list[str]:
        names = [s.op for s in self.body if isinstance(s, Apply)]
        return names + [f"{r.op}_reduce" for r in self.reductions]


@dataclass(frozen=True)
class Ctx:
    """Where a node is evaluated: kernel element -> node element, and whether it is needed."""

    map: AffineMap
    guard: str | None


@dataclass(frozen=True)
class ErrorInfo:
    """What the host needs to word an error the kernel reported."""

    kind: str  # "index" or "check"
    message: str
    shape: tuple[int, ...]  # the indexed or checked array's
    dtype: DType | None = None  # of a checked value


class _Lowering:
    def __init__(self, grid: tuple[int, ...]) -> None:
        self.grid2 = as_2d(grid)
        self.ndim = len(grid)
        self.buffers: dict[int, int] = {}  # id(storage) -> index into buffer_params
        self.buffer_params: list[list[Any]] = []  # [name, dtype, read, written, storage]
        self.scalar_params: list[tuple[ScalarParam, Any]] = []
        self.index_params: list[tuple[IndexParam, int]] = []
        self.views: dict[tuple, str] = {}
        self.body: list[Statement] = []
        self.numbering: dict[tuple, str] = {}
        self.vars_of: dict[tuple, str] = {}
        self.errors: list[ErrorInfo] = []
        self.count = 0

    def fresh(self) -> str:
        name = f"v{self.count}"
        self.count += 1
        return name

    def buffer(self, storage: Any, read: bool, written: bool) -> str:
        idx = self.buffers.get(id(storage))
        if idx is None:
            idx = len(self.buffer_params)
            self.buffers[id(storage)] = idx
            self.buffer_params.append([f"b{idx}", storage.dtype, False, False, storage])
        entry = self.buffer_params[idx]
        entry[2] |= read
        entry[3] |= written
        return entry[0]

    def params(self, key: tuple, suffixes: tuple[str, ...], values: tuple[int, ...]) -> str:
        """A prefix for a group of index parameters; equal groups share one."""
        prefix = self.views.get(key)
        if prefix is None:
            prefix = f"w{len(self.views)}"
            self.views[key] = prefix
            for suffix, value in zip(suffixes, values):
                self.index_params.append((IndexParam(f"{prefix}_{suffix}"), int(value)))
        return prefix

    def scalar(self, value: Any, dtype: DType) -> str:
        param = ScalarParam(f"s{len(self.scalar_params)}", dtype)
        # The node's own value object when it already has the type: memo.py finds it by identity.
        kind = dtype.numpy.type
        self.scalar_params.append((param, value if type(value) is kind else kind(value)))
        return param.name

    def access(self, off: int, ki: int, kj: int, storage: Any) -> tuple[str, str]:
        rows, cols = self.grid2
        if rows == 1:
            ki = 0
        if cols == 1:
            kj = 0
        if ki == 0 and kj == 0:
            return SCALAR_ACCESS, self.params((SCALAR_ACCESS, id(storage), off), ("off",), (off,))
        if (rows == 1 or ki == cols) and (cols == 1 or kj == 1):
            return FLAT, self.params((FLAT, id(storage), off), ("off",), (off,))
        if ki == 1 and kj not in (0, 1):
            return TRANSPOSED, self.params((TRANSPOSED, id(storage), off, kj), ("off", "s1"),
                                           (off, kj))
        return STRIDED, self.params((STRIDED, id(storage), off, ki, kj), ("off", "s0", "s1"),
                                    (off, ki, kj))

    def leaf_access(self, node: Node, m: AffineMap) -> tuple[str, str]:
        v = node.attrs
        off, ki, kj = m.fold(v.offset, padded_strides(v.strides))
        return self.access(off, ki, kj, v.storage)

    def emit(self, key: tuple, make) -> str:
        var = self.numbering.get(key)
        if var is None:
            var = self.fresh()
            self.body.append(make(var))
            self.numbering[key] = var
        return var

    # Index arithmetic ------------------------------------------------------------------

    def coordinate(self, coef: tuple[int, int, int], dtype: DType = dt.int64) -> str:
        """The affine ``k0 + ki * i + kj * j`` of the kernel's element as a variable."""
        k0, ki, kj = coef
        rows, cols = self.grid2
        ki, kj = (0 if rows == 1 else ki), (0 if cols == 1 else kj)
        simple = {(0, 1, 0): "i", (0, 0, 1): "j", (0, 0, 0): "0"}.get((k0, ki, kj))
        if simple is not None:
            return self.emit(("index", simple, dtype), lambda v: ReadIndex(v, dtype, simple))
        prefix = self.params(("affine", k0, ki, kj), ("0", "i", "j"), (k0, ki, kj))
        return self.emit(("affine", prefix, dtype), lambda v: AffineIndex(v, dtype, prefix))

    def predicate(self, relation: str, coef: tuple[int, int, int], bound: int = 0) -> str:
        k0, ki, kj = coef
        rows, cols = self.grid2
        ki, kj = (0 if rows == 1 else ki), (0 if cols == 1 else kj)
        if relation == "range":
            prefix = self.params(("range", k0, ki, kj, bound), ("0", "i", "j", "n"),
                                 (k0, ki, kj, bound))
        else:
            prefix = self.params(("affine", k0, ki, kj), ("0", "i", "j"), (k0, ki, kj))
        return self.emit(("pred", relation, prefix),
                         lambda v: AffinePredicate(v, relation, prefix))

    def structure_predicate(self, structure: str, m: AffineMap) -> str:
        return self.predicate(st.RELATION[structure], st.difference_coefficients(m))

    def both(self, a: str | None, b: str | None) -> str | None:
        if a is None or b is None:
            return a or b
        return self.emit(("map", "logical_and", a, b),
                         lambda v: Apply(v, dt.bool_, "logical_and", dt.bool_, (a, b)))

    def select(self, cond: str, value: str, dtype: DType) -> str:
        return self.emit(("select", cond, value), lambda v: Select(v, dtype, cond, value))

    # Nodes -----------------------------------------------------------------------------

    def child(self, ctx: Ctx, parent: Node, child: Node) -> str:
        """Lower an argument, broadcast to its parent's shape through the map."""
        m = broadcast_map(child.shape, parent.shape)
        return self.node(child, ctx if m is IDENTITY else Ctx(ctx.map.then(m), ctx.guard))

    def node(self, node: Node, ctx: Ctx) -> str:
        memo = (id(node), ctx)
        known = self.vars_of.get(memo)
        if known is not None:
            return known
        var = getattr(self, f"lower_{node.kind}")(node, ctx)
        self.vars_of[memo] = var
        return var

    def lower_buffer(self, node: Node, ctx: Ctx) -> str:
        buf = self.buffer(node.attrs.storage, read=True, written=False)
        access, prefix = self.leaf_access(node, ctx.map)
        guard = ctx.guard
        if node.structure != "general":
            guard = self.both(guard, self.structure_predicate(node.structure, ctx.map))
        return self.emit(("load", buf, access, prefix, guard),
                         lambda v: Load(v, node.dtype, buf, access, prefix, guard))

    def lower_scalar(self, node: Node, ctx: Ctx) -> str:
        param = self.scalar(node.attrs, node.dtype)
        var = self.fresh()
        self.body.append(ReadScalar(var, node.dtype, param))
        return var

    def lower_index(self, node: Node, ctx: Ctx) -> str:
        coef = ctx.map.row() if node.attrs == "row" else ctx.map.col()
        return self.coordinate(coef, node.dtype)

    def lower_broadcast(self, node: Node, ctx: Ctx) -> str:
        return self.child(ctx, node, node.args[0])

    def lower_cast(self, node: Node, ctx: Ctx) -> str:
        arg = self.node(node.args[0], ctx)
        return self.emit(("cast", node.dtype, arg), lambda v: Cast(v, node.dtype, arg))

    def lower_map(self, node: Node, ctx: Ctx) -> str:
        args = tuple(self.child(ctx, node, a) for a in node.args)
        compute = node.attrs
        var = self.emit(("map", node.op.name, node.dtype, compute, args),
                        lambda v: Apply(v, node.dtype, node.op.name, compute, args))
        if node.op.zeros == INTERSECTION and node.structure != "general":
            # Zero outside by definition, even where the operands would give 0 * inf.
            var = self.select(self.structure_predicate(node.structure, ctx.map), var,
                              node.dtype)
        return var

    def lower_view(self, node: Node, ctx: Ctx) -> str:
        return self.node(node.args[0], Ctx(ctx.map.then(node.attrs), ctx.guard))

    def lower_restrict(self, node: Node, ctx: Ctx) -> str:
        inside = self.structure_predicate(node.attrs, ctx.map)
        value = self.node(node.args[0], Ctx(ctx.map, self.both(ctx.guard, inside)))
        return self.select(inside, value, node.dtype)

    def lower_concat(self, node: Node, ctx: Ctx) -> str:
        axis = node.attrs
        coef = ctx.map.row() if axis == 0 else ctx.map.col()
        start = 0
        var: str | None = None
        for part in node.args:
            length = as_2d(part.shape)[axis]
            shifted = (coef[0] - start, coef[1], coef[2])
            inside = self.predicate("range", shifted, length)
            m = ctx.map.then(AffineMap(-start, 1, 0, 0, 0, 1) if axis == 0
                             else AffineMap(0, 1, 0, -start, 0, 1))
            value = self.child(Ctx(m, self.both(ctx.guard, inside)), node, part)
            if var is None:
                var = value
            else:
                prev = var
                var = self.emit(("map", "where", inside, value, prev),
                                lambda v, c=inside, a=value, b=prev: Apply(
                                    v, node.dtype, "where", node.dtype, (c, a, b)))
            start += length
        assert var is not None
        return var

    def gather_indexes(self, node: Node, ctx: Ctx) -> tuple[str | None, str | None]:
        spec: ex.Gather = node.attrs
        arrays = iter(node.args[1:])
        found: list[str | None] = []
        for part in (spec.rows, spec.cols):
            if part == "array":
                found.append(self.child(ctx, node, next(arrays)))
            else:
                k0, ki, kj = part
                m = ctx.map
                coef = (k0 + ki * m.r0 + kj * m.c0, ki * m.ri + kj * m.ci, ki * m.rj + kj * m.cj)
                found.append(None if coef == (0, 0, 0) else self.coordinate(coef))
        return found[0], found[1]

    def source_view(self, source: Node) -> str:
        v = source.attrs
        s0, s1 = padded_strides(v.strides)
        rows, cols = as_2d(source.shape)
        return self.params(("gather", id(v.storage), v.offset, s0, s1, rows, cols),
                           ("off", "s0", "s1", "rows", "cols"), (v.offset, s0, s1, rows, cols))

    def lower_gather(self, node: Node, ctx: Ctx) -> str:
        source = node.args[0]
        row, col = self.gather_indexes(node, ctx)
        buf = self.buffer(source.attrs.storage, read=True, written=False)
        prefix = self.source_view(source)
        self.errors.append(ErrorInfo("index", "", source.shape))
        error = len(self.errors) - 1
        var = self.fresh()
        self.body.append(Gather(var, node.dtype, buf, prefix, row, col, ctx.guard, error))
        return var

    def lower_check(self, node: Node, ctx: Ctx) -> str:
        value = self.node(node.args[0], ctx)
        ok = self.child(ctx, node, node.args[1])
        key = ("check", id(node), ok, value)
        if key not in self.numbering:
            self.numbering[key] = value
            self.errors.append(ErrorInfo("check", node.attrs, node.shape, node.dtype))
            row = self.coordinate(ctx.map.row())
            col = self.coordinate(ctx.map.col())
            self.body.append(Check(ok, ctx.guard, value, row, col, node.dtype,
                                   len(self.errors) - 1))
        return value

    def lower_reduce(self, node: Node, ctx: Ctx) -> str:  # pragma: no cover - scheduled out
        raise AssertionError("reductions are scheduled as their own kernels before lowering")

    # Destinations ----------------------------------------------------------------------

    def store(self, dest: Node, var: str) -> Statement:
        if dest.kind == ex.GATHER:
            ctx = Ctx(IDENTITY, None)
            row, col = self.gather_indexes(dest, ctx)
            buf = self.buffer(dest.args[0].attrs.storage, read=False, written=True)
            prefix = self.source_view(dest.args[0])
            self.errors.append(ErrorInfo("index", "", dest.args[0].shape))
            return Scatter(buf, var, prefix, row, col, len(self.errors) - 1)
        buf = self.buffer(dest.attrs.storage, read=False, written=True)
        access, prefix = self.leaf_access(dest, IDENTITY)
        return Store(buf, var, access, prefix)

    def root_context(self, root: Node) -> Ctx:
        if root.structure == "general":
            return Ctx(IDENTITY, None)
        return Ctx(IDENTITY, self.structure_predicate(root.structure, IDENTITY))

    def finish(self, skeleton: str, extra: list[tuple[IndexParam, int]],
               reductions: tuple[Accumulate, ...] = (), range_structure: str = "general"
               ) -> tuple[KernelIR, list[Any], list[ErrorInfo]]:
        params: list[Param] = []
        args: list[Any] = []
        for name, dtype, read, written, storage in self.buffer_params:
            params.append(BufferParam(name, dtype, read, written))
            args.append(storage)
        checked = bool(self.errors)
        if checked:
            params.append(BufferParam(ERROR_BUFFER, dt.int64, False, True))
            args.append(None)  # realize supplies the error buffer
        for param, value in self.scalar_params:
            params.append(param)
            args.append(value)
        for param, value in [*self.index_params, *extra]:
            params.append(param)
            args.append(value)
        ir = KernelIR(skeleton, self.ndim, tuple(params), tuple(self.body), reductions,
                      range_structure, checked)
        return ir, args, self.errors


def lower(outputs: list[tuple[Node, Node]]) -> tuple[KernelIR, list[Any], list[ErrorInfo]]:
    """Lower ``[(expression, destination), ...]`` (one common shape) to IR + arguments.

    A destination is a buffer leaf or a gather node over one (a scatter). The arguments are, in
    parameter order: storages for buffers (None for the error buffer), NumPy scalars for scalar
    parameters, Python ints for index parameters, then the element count and the row length.
    """
    grid = outputs[0][1].shape
    lw = _Lowering(grid)
    values = [lw.node(root, lw.root_context(root)) for root, _ in outputs]
    # Every output is loaded before any is stored: outputs may overwrite each other's inputs.
    for (_, dest), var in zip(outputs, values):
        lw.body.append(lw.store(dest, var))
    n = int(np.prod(grid)) if grid else 1
    return lw.finish(ELEMENTWISE, [(IndexParam("n"), n), (IndexParam("cols"), lw.grid2[1])])


@dataclass(frozen=True)
class ReducePlan:
    """How a reduction kernel walks its operand (chosen at launch, never in the cache key
    except ``mode``): one team of ``lanes`` threads per (segment, split)."""

    mode: str  # REDUCE_ROWS or REDUCE_COLS
    rows: int
    cols: int
    lanes: int
    splits: int
    chunk: int
    groups: int
    contiguous: int = 0  # rows mode: each lane walks a contiguous run (CPUs)


def lower_reduction(
    grid: tuple[int, ...],
    reductions: list[tuple[Node, str, DType, Node, float | None]],
    elementwise: list[tuple[Node, Node]],
    plan: ReducePlan,
    range_structure: str,
    out_strides: list[tuple[int, int, int]],
) -> tuple[KernelIR, list[Any], list[ErrorInfo]]:
    """A reduction kernel over the padded-2-D ``grid``.

    ``reductions`` are (operand, op name, accumulator dtype, output leaf, scale); every operand
    has the grid's shape. ``out_strides`` gives per reduction the output's (offset, segment
    stride, split stride). ``elementwise`` outputs over the same grid are stored on the way.
    """
    lw = _Lowering(grid)
    accs: list[Accumulate] = []
    values = [lw.node(root, Ctx(IDENTITY, None)) for root, *_ in reductions]
    ew_values = [lw.node(root, lw.root_context(root)) for root, _ in elementwise]
    for (_, dest), var in zip(elementwise, ew_values):
        lw.body.append(lw.store(dest, var))
    for (root, op, acc_dtype, out, scale), var, (off, seg, split) in zip(
            reductions, values, out_strides):
        buf = lw.buffer(out.attrs.storage, read=False, written=True)
        prefix = lw.params(("out", id(out.attrs.storage), off, seg, split),
                           ("off", "seg", "split"), (off, seg, split))
        scale_param = None if scale is None else lw.scalar(scale, acc_dtype)
        if root.dtype is not acc_dtype:
            var = lw.emit(("cast", acc_dtype, var), lambda v, a=var, t=acc_dtype: Cast(v, t, a))
        compensated = op == "add" and acc_dtype.name == "float32"
        accs.append(Accumulate(var, acc_dtype, op, compensated, buf, prefix, scale_param))
    extra = [(IndexParam(name), value) for name, value in (
        ("rows", plan.rows), ("cols", plan.cols), ("lanes", plan.lanes),
        ("splits", plan.splits), ("chunk", plan.chunk))]
    if plan.mode == REDUCE_ROWS:
        extra.append((IndexParam("contiguous"), plan.contiguous))
    return lw.finish(plan.mode, extra, tuple(accs), range_structure)
