"""Rendering of the row walk (``ir.ROW_WALK``, rowwalk.py) into the renderer's frame: the
body split by ``rowwalk.phases``, each phase written once per row of a block
(``skeletons.row_walk``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir import Check, RowTotal, Store
from ..ops import identity
from ..rowwalk import phases
from ..skeletons import reduce
from ..skeletons import row_walk as sk
from .lanes import in_lane, lane_owned
from .text import c_literal, indent

if TYPE_CHECKING:
    from .frame import Renderer


def _parts(f: Renderer) -> tuple:
    """The walk's phases, its row totals (and each one's number by its variable), and its
    column results and sums with their positions among the reductions."""
    totals = [s for s in f.ir.body if isinstance(s, RowTotal)]
    reductions = list(enumerate(f.ir.reductions))
    return (phases(f.ir), totals, {t.var: k for k, t in enumerate(totals)},
            [(k, r) for k, r in reductions if r.walk == "columns"],
            [(k, r) for k, r in reductions if r.walk == "rows"])


def render_row_walk(f: Renderer) -> str:
    """The walk's source: row totals, per-row values, column terms, for blocks of rows."""
    slots = f.frame()
    walk, totals, number, columns, sums = _parts(f)
    acc_init = sum_writes = ""
    for k, r in columns:
        acc_init += sk.COLUMN_ACC_INIT.format(
            global_ptr=f.d.global_ptr, T=f.storage(f.types[r.buffer]), k=k, buffer=r.buffer,
            out=r.view, index_t=f.index_t, identity=c_literal(identity(r.op, r.dtype), r.dtype))
    for k, r in sums:
        acc_init += sk.SUM_INIT.format(T=f.ctype(r.dtype), k=k,
                                       identity=c_literal(identity(r.op, r.dtype), r.dtype))
        sum_writes += sk.SUM_WRITE.format(buffer=r.buffer, out=r.view, k=k,
                                          storage=f.storage(f.types[r.buffer]))

    def tree(op: str, dtype, terms: list[str]) -> str:
        while len(terms) > 1:  # a balanced tree
            pairs = [f.apply(op, dtype, (a, b)) for a, b in zip(terms[::2], terms[1::2])]
            terms = pairs + (terms[-1:] if len(terms) % 2 else [])
        return terms[0]

    def row_totals(rows: int) -> str:
        """The rows' totals, ``COLUMNS_AT_ONCE`` columns a step into separate accumulators,
        the last columns into the first, then each row's combined."""
        columns = sk.COLUMNS_AT_ONCE
        body = indent("".join(f.statement(s) for s in walk.row_loop), 2)
        init = copies = tail = combined = ""
        for r in range(rows):
            for u in range(columns):
                init += "".join(sk.TOTAL_INIT.format(
                    T=f.ctype(t.dtype), t=number[t.var], r=r, u=u,
                    identity=c_literal(identity(t.op, t.dtype), t.dtype)) for t in totals)
                copy = sk.ROW_COPY.format(index_t=f.index_t, r=r, u=u, body=body, adds="".join(
                    sk.TOTAL_ADD.format(t=number[t.var], r=r, u=u, combine=f.apply(
                        t.op, t.dtype, (f"total{number[t.var]}_{r}_{u}", t.operand)))
                    for t in totals))
                copies += copy
                if u == 0:
                    tail += copy.replace("j0 + 0", "j0")
            combined += "".join(sk.TOTAL.format(
                T=f.ctype(t.dtype), t=number[t.var], r=r, combine=tree(
                    t.op, t.dtype, [f"total{number[t.var]}_{r}_{u}" for u in range(columns)]))
                for t in totals)
        return init + sk.ROW_LOOP.format(index_t=f.index_t, columns_at_once=columns,
                                         copies=copies, tail=tail, totals=combined)

    owned = lane_owned(walk.per_row, f.ir.invariants) | {"i"}

    def per_row(rows: int) -> str:
        """The rows' own values, statement by statement for every row of the block (copies
        side by side, which the compiler's SLP vectorizer joins), then their stores, checks,
        sums and what the column loop reads."""
        values = stores = reports = ""
        for s in walk.per_row:
            for r in range(rows):
                f.row = f"i_{r}"
                lane = in_lane(s, r, owned)
                if isinstance(s, RowTotal):
                    values += sk.TOTAL_READ.format(T=f.ctype(s.dtype), var=lane.var,
                                                   t=number[s.var], r=r)
                elif isinstance(s, Store):
                    stores += indent(f.statement(lane))
                elif isinstance(s, Check):
                    reports += indent(f.statement(lane))
                else:
                    values += indent(f.statement(lane))
        f.row = "i"
        rows_of = "".join(sk.ROW_OF.format(index_t=f.index_t, r=r) for r in range(rows))
        added = "".join(sk.SUM_ADD.format(k=k, combine=f.apply(
            s.op, s.dtype, (f"sum{k}", in_lane(s, r, owned).var))) for k, s in sums
            for r in range(rows))
        exports = "".join(sk.EXPORT.format(m=m, r=r, var=f"{var}_{r}" if var in owned else var)
                          for r in range(rows) for m, (var, _) in enumerate(walk.exports))
        return sk.PER_ROW.format(rows_of=rows_of, body=values + stores + reports,
                                 sums=added, exports=exports)

    def block(rows: int) -> str:
        text = ""
        if totals:
            text += row_totals(rows)
        for r in range(rows):
            text += "".join(sk.EXPORT_DECL.format(T=f.ctype(dtype), m=m, r=r)
                            for m, (_, dtype) in enumerate(walk.exports))
        text += per_row(rows)
        values = copies = ""
        for r in range(rows):
            values += "".join(sk.COLUMN_VALUE.format(T=f.ctype(c.dtype), k=k, r=r)
                              for k, c in columns)
            imports = "".join(sk.IMPORT.format(T=f.ctype(dtype), var=var, m=m, r=r)
                              for m, (var, dtype) in enumerate(walk.exports))
            body = indent("".join(f.statement(s) for s in walk.column_loop), 2)
            keeps = "".join(sk.KEEP.format(k=k, r=r, var=c.var) for k, c in columns)
            copies += sk.COLUMN_COPY.format(index_t=f.index_t, r=r, imports=imports,
                                            body=body, keeps=keeps)
        adds = ""
        for k, c in columns:
            terms = tree(c.op, c.dtype, [f"term{k}_{r}" for r in range(rows)])
            adds += sk.COLUMN_ADD.format(k=k, combine=f.apply(c.op, c.dtype,
                                                              (f"acc{k}[j]", terms)))
        text += sk.COLUMN_LOOP.format(index_t=f.index_t, values=values, copies=copies,
                                      adds=adds)
        return indent(text)

    slots.update(kernel_qualifier=f.d.one_item_kernel_qualifier, local_id=f.d.local_id,
                 group_id=f.d.group_id, acc_init=acc_init, rows_at_once=str(sk.ROWS_AT_ONCE),
                 block=block(sk.ROWS_AT_ONCE), single=block(1).replace("i0 + 0", "i0"),
                 sum_writes=sum_writes, epilogue=f.epilogue_loop())
    return f.finish(sk.ROW_WALK, slots)


def render_row_walk_team(f: Renderer) -> str:
    """The walk on GPUs (``skeletons.row_walk.ROW_WALK_TEAM``): a team of lanes per split
    of the rows, lane ``lane`` owning the columns ``lane + c * team_lanes``."""
    slots = f.frame()
    walk, totals, number, columns, sums = _parts(f)
    fixed = dict(f.variant.fixed)
    lane_columns, team_lanes = fixed["lane_columns"], fixed["team_lanes"]
    teams, warps = reduce.WORK_GROUP // team_lanes, team_lanes // 32

    def init(op: str, dtype) -> str:
        return c_literal(identity(op, dtype), dtype)

    local_decls = acc_init = writes = ""
    for t in totals:
        local_decls += sk.TEAM_LOCAL.format(local=f.d.local_qualifier, T=f.ctype(t.dtype),
                                            t=number[t.var], teams=teams, warps=warps)
    for k, r in columns:
        for c in range(lane_columns):
            acc_init += sk.TEAM_ACC_INIT.format(T=f.ctype(r.dtype), k=k, c=c,
                                                identity=init(r.op, r.dtype))
            writes += sk.TEAM_WRITE.format(index_t=f.index_t, c=c, team_lanes=team_lanes,
                                           buffer=r.buffer,
                                           out=r.view, storage=f.storage(f.types[r.buffer]),
                                           k=k)
    for k, r in sums:
        acc_init += sk.TEAM_SUM_INIT.format(T=f.ctype(r.dtype), k=k, identity=init(r.op, r.dtype))
        writes += sk.TEAM_SUM_WRITE.format(buffer=r.buffer, out=r.view, k=k,
                                           storage=f.storage(f.types[r.buffer]))
    # A lane's copy ``c`` of a statement names its own variables (``v3_c``, ``j_c``): the
    # column terms reuse the row loop's values (its loads of the row) from registers.
    owned = lane_owned((*walk.row_loop, *walk.column_loop), f.ir.invariants, walk=True)
    kept = {s.var for s in walk.row_loop if hasattr(s, "var")}

    def copy(statements, c: int, skip: set[str]) -> str:
        f.col, f.grid = f"j_{c}", f"gid_{c}"
        text = "".join(f.statement(in_lane(s, c, owned)) for s in statements
                       if getattr(s, "var", None) not in skip)
        f.col, f.grid = "j", "gid"
        return text

    def positions(c: int) -> str:
        return sk.TEAM_POSITION.format(index_t=f.index_t, c=c, team_lanes=team_lanes)

    row_totals = ""
    if totals:
        row_totals = "".join(sk.TEAM_LANE_TOTAL.format(T=f.ctype(t.dtype), t=number[t.var],
                                                       identity=init(t.op, t.dtype))
                             for t in totals)
        for c in range(lane_columns):
            row_totals += positions(c) + indent(copy(walk.row_loop, c, set()))
            row_totals += "".join(sk.TEAM_LANE_ADD.format(c=c, t=number[t.var], combine=f.apply(
                t.op, t.dtype, (f"part{number[t.var]}", in_lane(t, c, owned).operand)))
                for t in totals)
        shuffles = spills = reads = ""
        for t in totals:
            n, ct = number[t.var], f.ctype(t.dtype)
            shuffles += sk.TEAM_SHUFFLE.format(T=ct, t=n, combine=f.apply(
                t.op, t.dtype, (f"part{n}", "other")), shuffled=f.d.shuffle_down.format(
                    value=f"part{n}", offset="o", width="32"))
            spills += sk.TEAM_SPILL.format(t=n)
            reads += sk.TEAM_READ.format(T=ct, t=n)
            reads += "".join(sk.TEAM_READ_MORE.format(t=n, combine=f.apply(
                t.op, t.dtype, (f"total{n}", f"red{n}[half + {w}]"))) for w in range(1, warps))
        row_totals += sk.TEAM_TOTALS.format(shuffles=shuffles, spills=spills, warps=warps,
                                            barrier=f.d.barrier, reads=reads)
    per_row = lane_zero = ""
    for s in walk.per_row:
        if isinstance(s, RowTotal):
            per_row += indent(sk.TEAM_TOTAL_AS.format(T=f.ctype(s.dtype), var=s.var,
                                                      t=number[s.var]))
        elif isinstance(s, (Store, Check)):
            lane_zero += indent(f.statement(s), 2)
        else:
            per_row += indent(f.statement(s), 2)
    lane_zero += "".join(sk.TEAM_SUM_ADD.format(k=k, combine=f.apply(
        r.op, r.dtype, (f"sum{k}", r.var))) for k, r in sums)
    if lane_zero:
        per_row += indent(sk.TEAM_LANE_ZERO.format(body=lane_zero))
    column_terms = ""
    for c in range(lane_columns):
        column_terms += "" if totals else indent(positions(c))
        column_terms += indent(copy(walk.column_loop, c, kept), 2)
        column_terms += "".join(sk.TEAM_ACC_ADD.format(k=k, c=c, combine=f.apply(
            r.op, r.dtype, (f"acc{k}_{c}", in_lane(r, c, owned).var))) for k, r in columns)
    slots.update(local_decls=local_decls, local_id=f.d.local_id, group_id=f.d.group_id,
                 team_lanes=str(team_lanes), teams=str(teams), acc_init=acc_init,
                 row_totals=row_totals, per_row=per_row, column_terms=column_terms,
                 writes=writes)
    return f.finish(sk.ROW_WALK_TEAM, slots)
