"""Lowering: one kernel's outputs (expression roots and their destinations) → kernel IR
(ir.py), plus the runtime arguments (sizes, offsets, strides, scalar values) in parameter
order.

Every node is lowered in a *context*: the affine map from the kernel's element ``(i, j)`` to
the node's own element (indexing.py), and a guard, the boolean that says whether the element is
needed at all. Views compose into the map, so a transpose or block of an expression costs
nothing but index arithmetic at its leaves; structure restrictions and concatenations add to
the guard, and a guarded load reads nothing outside it.

Value numbering gives CSE: a statement whose (operation, arguments) was already emitted reuses
the earlier variable, so ``t = a / b; t * t`` divides once per element.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from . import dtypes as dt
from . import expr as ex
from . import structure as st
from .dtypes import DType
from .expr import Node
from .indexing import IDENTITY, AffineMap, as_2d, broadcast_map, padded_strides
from .ir import (
    ELEMENTWISE,
    ERROR_BUFFER,
    ERROR_OFFSET,
    ERROR_SEEN,
    FLAT,
    GROUP_COUNTER,
    ROW_VECTOR,
    ROWWISE,
    SCALAR_ACCESS,
    STRIDED,
    TRANSPOSED,
    Accumulate,
    AffineIndex,
    AffinePredicate,
    Apply,
    BufferParam,
    Cast,
    Check,
    ErrorInfo,
    Gather,
    IndexParam,
    KernelIR,
    Load,
    Param,
    ReadIndex,
    ReadScalar,
    ScalarParam,
    Scatter,
    Select,
    Statement,
    Store,
)
from .ops import INTERSECTION, identity


class Arguments(list):
    """A launch's arguments in parameter order, with the scalar leaf each scalar argument
    came from (``leaves``: position -> leaf). Remembered plans find a scalar's source through
    it: the value object alone cannot say, as NumPy's bool scalars are singletons and one
    NumPy scalar may feed two leaves."""

    __slots__ = ("leaves",)

    def __init__(self) -> None:
        super().__init__()
        self.leaves: dict[int, Node] = {}


@dataclass(frozen=True)
class Ctx:
    """Where a node is evaluated: kernel element -> node element, and whether it is needed."""

    map: AffineMap
    guard: str | None



_IDENTITY_DIFFERENCE = st.difference_coefficients(IDENTITY)

# A node's lowering: yields the (node, context) of each argument it needs, is sent each
# argument's variable, and returns its own (``_Lowering.drive``).
Lowering = Generator[tuple[Node, Ctx], str, str]


class _Lowering:
    def __init__(self, grid: tuple[int, ...]) -> None:
        self.grid2 = as_2d(grid)
        self.ndim = len(grid)
        self.buffers: dict[int, int] = {}  # id(storage) -> index into buffer_params
        self.buffer_params: list[list[Any]] = []  # [name, dtype, read, written, storage]
        self.scalar_params: list[tuple[ScalarParam, Any, Node | None]] = []
        self.index_params: list[tuple[IndexParam, int]] = []
        self.views: dict[tuple, str] = {}
        self.body: list[Statement] = []
        self.numbering: dict[tuple, str] = {}
        self.vars_of: dict[tuple, str] = {}
        self.errors: list[ErrorInfo] = []
        self.count = 0
        self.visited = "general"  # the structure a reduction's walk is clamped to

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

    def scalar(self, value: Any, dtype: DType, leaf: Node | None = None) -> str:
        """A scalar parameter holding ``value``, read from the scalar ``leaf`` (None: a value
        of the kernel's own, such as a mean's scale)."""
        param = ScalarParam(f"s{len(self.scalar_params)}", dtype)
        kind = dtype.numpy.type
        self.scalar_params.append((param, value if type(value) is kind else kind(value), leaf))
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
        if ki == 0 and kj == 1:
            # A row vector broadcast down the rows: unit steps along the row, which a CPU's
            # compiler vectorizes and a GPU's row walk reads with vector loads.
            return ROW_VECTOR, self.params((ROW_VECTOR, id(storage), off), ("off",), (off,))
        if kj == 0:
            # One element per row (a column broadcast along the rows): no column term, so a
            # walk along a row reads it once (a CPU's column bands hoist it from their loop).
            return ROWWISE, self.params((ROWWISE, id(storage), off, ki), ("off", "s0"),
                                        (off, ki))
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

    def visits_only(self, structure: str, m: AffineMap) -> bool:
        """Whether every element the kernel visits lies inside ``structure`` seen through
        ``m``: a reduction whose walk is clamped to its operand's structure (``visited``,
        the IR's range structure) needs no test of it per element (the test made PoCL's
        loads conditional: a tril sum read at half the rate of a plain one)."""
        return (self.visited != "general"
                and st.difference_coefficients(m) == _IDENTITY_DIFFERENCE
                and st.intersection(self.visited, structure) == self.visited)

    def both(self, a: str | None, b: str | None) -> str | None:
        if a is None or b is None:
            return a or b
        return self.emit(("map", "logical_and", a, b),
                         lambda v: Apply(v, dt.bool_, "logical_and", dt.bool_, (a, b)))

    def select(self, cond: str, value: str, dtype: DType) -> str:
        return self.emit(("select", cond, value), lambda v: Select(v, dtype, cond, value))

    # Nodes -----------------------------------------------------------------------------

    # Each ``lower_<kind>`` returns its variable, or is a generator that yields the
    # ``(node, ctx)`` of each argument it needs and is sent that argument's variable. The
    # driver keeps the pending generators on a list, so an expression of any depth (a loop
    # that built ``e = e + 1`` thousands of times) lowers without deep Python recursion.

    def node(self, node: Node, ctx: Ctx) -> str:
        """The variable holding ``node``'s element in ``ctx``, lowering what it needs."""
        return self.drive(self.request(node, ctx))

    @staticmethod
    def request(node: Node, ctx: Ctx) -> Generator[tuple[Node, Ctx], str, str]:
        return (yield node, ctx)

    def child(self, ctx: Ctx, parent: Node, child: Node) -> tuple[Node, Ctx]:
        """The request for an argument, broadcast to its parent's shape through the map."""
        m = broadcast_map(child.shape, parent.shape)
        return child, (ctx if m is IDENTITY else Ctx(ctx.map.then(m), ctx.guard))

    def drive(self, work: Generator[tuple[Node, Ctx], str, Any]) -> Any:
        """Run ``work`` to its end, lowering each node it asks for (once per context)."""
        pending: list[tuple[Generator[tuple[Node, Ctx], str, Any], tuple | None]] = [
            (work, None)]
        sent: Any = None
        while True:
            generator, key = pending[-1]
            try:
                node, ctx = generator.send(sent)
            except StopIteration as done:
                pending.pop()
                sent = done.value
                if key is not None:
                    self.vars_of[key] = sent
                if not pending:
                    return sent
                continue
            key = (id(node), ctx)
            sent = self.vars_of.get(key)
            if sent is None:
                lowered = getattr(self, f"lower_{node.kind}")(node, ctx)
                if isinstance(lowered, str):
                    self.vars_of[key] = sent = lowered
                else:
                    pending.append((lowered, key))  # started by sending None

    def lower_buffer(self, node: Node, ctx: Ctx) -> str:
        buf = self.buffer(node.attrs.storage, read=True, written=False)
        access, prefix = self.leaf_access(node, ctx.map)
        guard = ctx.guard
        if node.structure != "general":
            guard = self.both(guard, self.structure_predicate(node.structure, ctx.map))
        return self.emit(("load", buf, access, prefix, guard),
                         lambda v: Load(v, node.dtype, buf, access, prefix, guard))

    def lower_scalar(self, node: Node, ctx: Ctx) -> str:
        param = self.scalar(node.attrs, node.dtype, node)
        var = self.fresh()
        self.body.append(ReadScalar(var, node.dtype, param))
        return var

    def lower_index(self, node: Node, ctx: Ctx) -> str:
        coef = ctx.map.row() if node.attrs == "row" else ctx.map.col()
        return self.coordinate(coef, node.dtype)

    def lower_broadcast(self, node: Node, ctx: Ctx) -> Lowering:
        return (yield self.child(ctx, node, node.args[0]))

    def lower_cast(self, node: Node, ctx: Ctx) -> Lowering:
        arg = yield node.args[0], ctx
        return self.emit(("cast", node.dtype, arg), lambda v: Cast(v, node.dtype, arg))

    def lower_map(self, node: Node, ctx: Ctx) -> Lowering:
        found = []
        for a in node.args:
            found.append((yield self.child(ctx, node, a)))
        args = tuple(found)
        compute = node.attrs
        var = self.emit(("map", node.op.name, node.dtype, compute, args),
                        lambda v: Apply(v, node.dtype, node.op.name, compute, args))
        if (node.op.zeros == INTERSECTION and node.structure != "general"
                and not self.visits_only(node.structure, ctx.map)):
            # Zero outside by definition, even where the operands would give 0 * inf.
            var = self.select(self.structure_predicate(node.structure, ctx.map), var,
                              node.dtype)
        return var

    def lower_view(self, node: Node, ctx: Ctx) -> Lowering:
        return (yield node.args[0], Ctx(ctx.map.then(node.attrs), ctx.guard))

    def lower_restrict(self, node: Node, ctx: Ctx) -> Lowering:
        if self.visits_only(node.attrs, ctx.map):
            return (yield node.args[0], ctx)
        inside = self.structure_predicate(node.attrs, ctx.map)
        value = yield node.args[0], Ctx(ctx.map, self.both(ctx.guard, inside))
        return self.select(inside, value, node.dtype)

    def lower_concat(self, node: Node, ctx: Ctx) -> Lowering:
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
            value = yield self.child(Ctx(m, self.both(ctx.guard, inside)), node, part)
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

    def gather_indexes(self, node: Node, ctx: Ctx
                       ) -> Generator[tuple[Node, Ctx], str, tuple[str | None, str | None]]:
        spec: ex.Gather = node.attrs
        arrays = iter(node.args[1:])
        found: list[str | None] = []
        for part in (spec.rows, spec.cols):
            if part == "array":
                found.append((yield self.child(ctx, node, next(arrays))))
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

    def lower_gather(self, node: Node, ctx: Ctx) -> Lowering:
        source = node.args[0]
        row, col = yield from self.gather_indexes(node, ctx)
        buf = self.buffer(source.attrs.storage, read=True, written=False)
        prefix = self.source_view(source)
        error = -1  # trusted: no check, no error entry
        if not node.attrs.trusted:
            self.errors.append(ErrorInfo("index", "", source.shape))
            error = len(self.errors) - 1
        var = self.fresh()
        self.body.append(Gather(var, node.dtype, buf, prefix, row, col, ctx.guard, error))
        return var

    def lower_check(self, node: Node, ctx: Ctx) -> Lowering:
        value = yield node.args[0], ctx
        ok = yield self.child(ctx, node, node.args[1])
        key = ("check", id(node), ok, value)
        if key not in self.numbering:
            self.numbering[key] = value
            self.errors.append(ErrorInfo("check", node.attrs, node.shape, node.dtype))
            row = self.coordinate(ctx.map.row())
            col = self.coordinate(ctx.map.col())
            self.body.append(Check(ok, ctx.guard, value, row, col, node.dtype,
                                   len(self.errors) - 1))
        return value

    def lower_reduce(self, node: Node, ctx: Ctx) -> Lowering:
        """A reduction the scheduler left in line (``schedule.inline_reductions``: a row of
        at most a few elements; every other one is computed into memory before): the row's
        elements lowered one by one where the value is needed, and combined in order."""
        red = node.attrs
        _, cols = as_2d(node.args[0].shape)
        out_rows, out_cols = as_2d(node.shape)
        acc = node.dtype
        total = None
        for c in range(cols):
            # The result's element -> column c of its row (a 1-d result's row is its j).
            row_of = (AffineMap(0, 0, 1, c, 0, 0) if out_rows == 1 and out_cols > 1
                      else AffineMap(0, 1, 0, c, 0, 0))
            term = yield node.args[0], Ctx(ctx.map.then(row_of), ctx.guard)
            if node.args[0].dtype is not acc:
                term = self.emit(("cast", acc, term), lambda v, a=term: Cast(v, acc, a))
            if total is None:
                total = term
            else:
                args = (total, term)
                total = self.emit(("map", red.op, acc, acc, args),
                                  lambda v, a=args: Apply(v, acc, red.op, acc, a))
        if total is None:  # an empty row: the identity
            total = self.scalar(identity(red.op, acc), acc)
            var = self.fresh()
            self.body.append(ReadScalar(var, acc, total))
            total = var
        if red.scale is not None:
            scale = self.fresh()
            self.body.append(ReadScalar(scale, acc, self.scalar(red.scale, acc)))
            args = (total, scale)
            total = self.emit(("map", "multiply", acc, acc, args),
                              lambda v: Apply(v, acc, "multiply", acc, args))
        return total

    # Destinations ----------------------------------------------------------------------

    def store(self, dest: Node, var: str, when: str | None = None) -> Statement:
        if dest.kind == ex.GATHER:
            ctx = Ctx(IDENTITY, None)
            row, col = self.drive(self.gather_indexes(dest, ctx))
            buf = self.buffer(dest.args[0].attrs.storage, read=False, written=True)
            prefix = self.source_view(dest.args[0])
            self.errors.append(ErrorInfo("index", "", dest.args[0].shape))
            return Scatter(buf, var, prefix, row, col, len(self.errors) - 1, self.fresh(),
                           dest.attrs.accumulate)
        buf = self.buffer(dest.attrs.storage, read=False, written=True)
        access, prefix = self.leaf_access(dest, IDENTITY)
        return Store(buf, var, access, prefix, when)

    def outputs(self, outputs: list[tuple[Node, Node]]) -> None:
        """Statements computing and storing each ``(expression, destination)`` of the grid."""
        values: list[str] = []
        conditions: list[str | None] = []
        for root, dest in outputs:
            kept = _keeps_destination(root, dest)
            if kept is None:
                values.append(self.node(root, self.root_context(root)))
                conditions.append(None)
            else:  # where(c, v, dest) into dest: store v where c holds, without reading dest
                condition, value = kept
                # v's loads are not guarded by c: on the H100 the wait for the mask before
                # the loads cost more than the reads that long unselected runs would save
                # (docs/masks.md).
                conditions.append(self.node(condition, Ctx(IDENTITY, None)))
                values.append(self.node(value, self.root_context(value)))
        # Every output is loaded before any is stored: outputs may overwrite each other's
        # inputs.
        for (_, dest), var, when in zip(outputs, values, conditions):
            self.body.append(self.store(dest, var, when))

    def epilogue(self, outputs: list[tuple[Node, Node]]
                 ) -> tuple[tuple[Statement, ...], list[tuple[IndexParam, int]]]:
        """A small element-wise step's statements over its own grid, sharing this kernel's
        parameters and error table (``KernelIR.epilogue``), and its grid's parameters."""
        grid = outputs[0][1].shape
        kept = (self.body, self.numbering, self.vars_of, self.grid2, self.ndim, self.visited)
        # Values of the kernel's own grid are not the epilogue's: its statements start anew.
        self.body, self.numbering, self.vars_of = [], {}, {}
        self.grid2, self.ndim, self.visited = as_2d(grid), len(grid), "general"
        self.outputs(outputs)
        statements = tuple(self.body)
        extra = [(IndexParam("epilogue_n"), math.prod(grid)),
                 (IndexParam("epilogue_cols"), self.grid2[1])]
        self.body, self.numbering, self.vars_of, self.grid2, self.ndim, self.visited = kept
        return statements, extra

    def root_context(self, root: Node) -> Ctx:
        if root.structure == "general":
            return Ctx(IDENTITY, None)
        return Ctx(IDENTITY, self.structure_predicate(root.structure, IDENTITY))

    def finish(self, skeleton: str, extra: list[tuple[IndexParam, int]],
               reductions: tuple[Accumulate, ...] = (), range_structure: str = "general",
               counter: bool = False) -> tuple[KernelIR, Arguments, list[ErrorInfo]]:
        params: list[Param] = []
        args = Arguments()
        for name, dtype, read, written, storage in self.buffer_params:
            params.append(BufferParam(name, dtype, read, written))
            args.append(storage)
        checked = bool(self.errors)
        if checked:
            params.append(BufferParam(ERROR_BUFFER, dt.int64, False, True))
            params.append(IndexParam(ERROR_OFFSET))
            params.append(BufferParam(ERROR_SEEN, dt.int32, False, True))
            # realize supplies the error buffer, the record's place and the failure flag
            args += [None, None, None]
        if counter:
            params.append(BufferParam(GROUP_COUNTER, dt.int32, False, True))
            args.append(None)  # realize supplies the launching stream's counter
        for param, value, leaf in self.scalar_params:
            if leaf is not None:
                args.leaves[len(args)] = leaf
            params.append(param)
            args.append(value)
        for param, value in [*self.index_params, *extra]:
            params.append(param)
            args.append(value)
        ir = KernelIR(skeleton, self.ndim, tuple(params), tuple(self.body), reductions,
                      range_structure, checked)
        return ir, args, self.errors


def lower(outputs: list[tuple[Node, Node]]) -> tuple[KernelIR, Arguments, list[ErrorInfo]]:
    """Lower ``[(expression, destination), ...]`` (one common shape) to IR + arguments.

    A destination is a buffer leaf or a gather node over one (a scatter). The arguments are, in
    parameter order: storages for buffers (None for the error buffer), NumPy scalars for scalar
    parameters, Python ints for index parameters, then the element count and the row length.
    """
    grid = outputs[0][1].shape
    lw = _Lowering(grid)
    lw.outputs(outputs)
    return lw.finish(ELEMENTWISE, [(IndexParam("n"), math.prod(grid)),
                                   (IndexParam("cols"), lw.grid2[1])])


def _keeps_destination(root: Node, dest: Node) -> tuple[Node, Node] | None:
    """(condition, value) when ``root`` is ``where(condition, value, dest's own elements)``
    and ``dest`` is a buffer leaf: a masked write in place, which need not read ``dest``."""
    if dest.kind != ex.BUFFER or root.kind != ex.MAP or root.op.name != "where":
        return None
    condition, value, old = root.args
    if old.kind != ex.BUFFER or old.dtype is not dest.dtype or value.dtype is not dest.dtype:
        return None
    if old.shape != dest.shape or not old.attrs.same_elements(dest.attrs, dest.shape):
        return None
    return condition, value


__all__ = ["Arguments", "Ctx", "lower"]
