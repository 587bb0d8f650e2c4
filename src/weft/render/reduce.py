"""Rendering of the reduction skeletons (rows and columns): accumulators, the work-group
tree or warp shuffles, the last group's finish, and the rows' vector walk, into the frame of
the renderer in frame.py, whose statements and op text it uses."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .. import dtypes as dt
from ..dtypes import DType
from ..ir import (
    FLAT,
    GROUP_COUNTER,
    REDUCE_ROWS,
    ROW_VECTOR,
    ROWWISE,
    SCALAR_ACCESS,
    Apply,
    Gather,
    Load,
)
from ..ops import OPS, identity
from ..skeletons import checks, reduce, reduce_twice
from ..skeletons.own_math import COPYABLE
from .lanes import in_lane, lane_owned
from .text import ERROR_RECORD, c_literal, dedent, indent

if TYPE_CHECKING:
    from ..ir import Accumulate
    from .frame import Renderer

# Loads whose address steps by one column along a row, or stays (a band's copies vectorize).
_ALONG_THE_ROW = frozenset({FLAT, ROW_VECTOR, ROWWISE, SCALAR_ACCESS})


def _calls_uncopyable_own_math(op: str, own: frozenset[str]) -> bool:
    """Whether ``op``'s C calls one of the dialect's own functions that a row band's copies
    keep from vectorizing (those not in ``own_math.COPYABLE``)."""
    names = own - COPYABLE
    templates = [*OPS[op].c.values(), *(t for d in OPS[op].dialect_c.values()
                                         for t in d.values())]
    return any(re.search(rf"\b{name}\(", t) for name in names for t in templates)


# The per-result slots of the rows and columns skeletons (``Reductions.result_lines``).
_RESULT_SLOTS = ("local_decls", "acc_init", "shuffles", "spills", "gathers", "finals",
                 "tree_start", "combines", "stores")


class Reductions:
    """A reduction kernel's text, written into the renderer's frame ``f`` (its dialect, IR,
    variant, statements and op text)."""

    def __init__(self, frame: Renderer) -> None:
        self.f = frame

    def local_read(self, k: int, dtype: DType, index: str) -> str:
        return self.f.to_bool_if(dtype, f"red{k}[{index}]")

    def render_reduction(self) -> str:
        slots = self.f.frame()
        self.f.remember_errors = self.f.ir.checked
        statements = "".join(self.f.statement(s) for s in self.f.per_element)
        if self.f.variant.row_chunks:
            return self.render_row_chunks(slots, statements)
        if self.f.variant.band:
            return self.render_band(slots, statements)
        body = indent(statements + self.remembered_failures())
        mode = self.f.ir.skeleton
        shuffle = bool(self.f.d.shuffle_down) and mode == REDUCE_ROWS
        lines = dict.fromkeys(_RESULT_SLOTS, "")
        for k, r in enumerate(self.f.ir.reductions):
            for slot, text in self.result_lines(k, r, shuffle).items():
                lines[slot] += text
        acc_init, stores = lines["acc_init"], lines["stores"]
        accumulate = self.accumulations()
        report = ""
        if self.f.ir.checked:
            acc_init = checks.REMEMBERED_DECL.format(index_t=self.f.d.index_t) + acc_init
            report = checks.REPORT_REMEMBERED.format(claim=self.f.d.claim.format(ERROR_RECORD))
        if shuffle:
            tree = reduce.TREE_SHUFFLE.format(
                shuffles=lines["shuffles"], spills=lines["spills"], barrier=self.f.d.barrier,
                index_t=self.f.index_t, gathers=lines["gathers"], finals=lines["finals"])
        else:
            tree = lines["tree_start"] + reduce.TREE.format(
                barrier=self.f.d.barrier, index_t=self.f.index_t, combines=lines["combines"])
        finish = self.last_group_finish(tree)
        tree = report + tree
        segments = "rows" if mode == REDUCE_ROWS else "cols"
        unroll = self.f.unroll()
        template = reduce.REDUCE_ROWS if mode == REDUCE_ROWS else reduce.REDUCE_COLS
        if self.f.variant.vector > 1:
            unroll = self.f.variant.unroll
            template = reduce.REDUCE_ROWS_VECTOR
            slots.update(self.vector_slots(unroll))
        split_span = reduce.SPLIT_WOVEN if self.f.variant.woven else reduce.SPLIT_CHUNK
        slots.update(
            split_span=split_span.format(index_t=self.f.index_t),
            lane_step=reduce.WOVEN_LANE_STEP if self.f.variant.woven else reduce.LANE_STEP,
            local_decls=lines["local_decls"], local_id=self.f.d.local_id,
            group_id=self.f.d.group_id, wg=str(reduce.WORK_GROUP),
            range=reduce.RANGES.get((mode, self.f.ir.range_structure), ""),
            acc_init=acc_init, body=body, accumulate=accumulate, tree=tree,
            unroll=str(unroll), unroll_less_one=str(unroll - 1),
            unrolled_body=indent(body), unrolled_accumulate=indent(accumulate),
            write=reduce.WRITE.format(segments=segments, stores=stores), finish=finish)
        return self.f.finish(template, slots)

    def result_lines(self, k: int, r: Accumulate, shuffle: bool) -> dict[str, str]:
        """Reduction ``k``'s lines in each per-result slot of the rows and columns skeletons:
        its work-group array, accumulator, the team's combining (warp shuffles or the
        work-group tree) and the store of its result."""
        t, storage = self.f.ctype(r.dtype), self.f.storage(r.dtype)
        init = c_literal(identity(r.op, r.dtype), r.dtype)
        acc_init = reduce.ACC_INIT_COMPENSATED if r.compensated else reduce.ACC_INIT
        lines = {"local_decls": reduce.LOCAL_DECL.format(
                     local=self.f.d.local_qualifier, storage=storage, k=k, wg=reduce.WORK_GROUP),
                 "acc_init": acc_init.format(T=t, k=k, identity=init)}
        if shuffle:
            lane_value = f"(int)acc{k}" if r.dtype.name == "bool" else f"acc{k}"
            combine = self.f.apply(r.op, r.dtype, (f"acc{k}", f"other{k}"))
            lines["shuffles"] = reduce.SHUFFLE.format(
                T=t, k=k, combine=combine, shuffled=self.f.d.shuffle_down.format(
                    value=lane_value, offset="o", width="shuffle_width"))
            lines["spills"] = reduce.SPILL.format(k=k, storage=storage)
            lines["gathers"] = reduce.GATHER.format(
                T=t, k=k, combine=combine, read=self.local_read(k, r.dtype, "(lid >> 5) + w"))
            lines["finals"] = reduce.FINAL.format(k=k, storage=storage)
        else:
            lines["tree_start"] = reduce.TREE_START.format(k=k, storage=storage)
            lines["combines"] = reduce.TREE_COMBINE.format(
                T=t, k=k, storage=storage, read_a=self.local_read(k, r.dtype, "lid"),
                read_b=self.local_read(k, r.dtype, "lid + s * partner_step"),
                combine=self.f.apply(r.op, r.dtype, (f"lhs{k}", f"rhs{k}")))
        value = self.local_read(k, r.dtype, "lid")
        if r.scale is not None and r.final_buffer is None:  # else the last group scales
            value = f"{value} * {r.scale}"
        lines["stores"] = reduce.WRITE_ONE.format(
            buffer=r.buffer, out=r.view, storage=self.f.storage(self.f.types[r.buffer]),
            value=value)
        return lines

    def render_band(self, slots: dict[str, str], statements: str) -> str:
        """A reduction in bands (CPUs): columns (``reduce.REDUCE_COLS_BAND``), accumulators
        per column of the band, written by the work-item that owns them; rows
        (``reduce.REDUCE_ROWS_BAND``), one copy of the body and one accumulator per position
        of the band (``band_lanes``), combined at the end of the work-item's part of its row.
        Fused checks only note, in the walk, whether any failed (a running or, which
        vectorizes); a work-item that saw one walks its part again to remember the first
        failure (``reduce.BAND_RECHECK_*``)."""
        band = self.f.variant.band
        rows = self.f.ir.skeleton == REDUCE_ROWS
        failed = " || ".join(f"({c})" for c, _ in self.f.remembered)
        body = indent(statements)
        if failed:
            body += indent(reduce.BAND_FAILED.format(failed=failed))
        looped = rows and not (len(self.f.ir.reductions) == 1 and self.band_as_copies())
        acc_init = accumulate = loop_accumulate = stores = report = totals = acc_reset = ""
        for k, r in enumerate(self.f.ir.reductions):
            if r.compensated or r.final_buffer is not None:
                raise AssertionError("banded reductions accumulate plainly, in one pass")
            t, init = self.f.ctype(r.dtype), c_literal(identity(r.op, r.dtype), r.dtype)
            value = f"total{k}" if rows else f"acc{k}[u]"
            if rows and not looped:
                acc_init += "".join(reduce.BAND_LANE_ACC_INIT.format(T=t, k=k, c=c,
                                                                     identity=init)
                                    for c in range(band))
                acc_reset += "".join(f"        acc{k}_{c} = {init};\n" for c in range(band))
                totals += reduce.BAND_LANE_TOTAL.format(T=t, k=k, tree=self.lane_tree(
                    r, [f"acc{k}_{c}" for c in range(band)]))
            else:
                acc_init += reduce.BAND_ACC_INIT.format(T=t, k=k, band=band, identity=init)
                acc_reset += f"        for (int u = 0; u < {band}; ++u) acc{k}[u] = {init};\n"
                loop_accumulate += reduce.BAND_ACCUMULATE.format(
                    k=k, combine=self.f.apply(r.op, r.dtype, (f"acc{k}[u]", r.var)))
                totals += reduce.BAND_TOTAL.format(
                    T=t, k=k, band=band,
                    combine=self.f.apply(r.op, r.dtype, (f"total{k}", f"acc{k}[u]")))
            if rows:
                first = f"acc{k}[0]" if looped else f"acc{k}_0"
                accumulate += reduce.BAND_TAIL_ACCUMULATE.format(
                    acc=first, combine=self.f.apply(r.op, r.dtype, (first, r.var)))
            if r.scale is not None:
                value = f"{value} * {r.scale}"
            stores += reduce.WRITE_ONE.format(buffer=r.buffer, out=r.view,
                                              storage=self.f.storage(self.f.types[r.buffer]),
                                              value=value)
        recheck = indent(statements + self.remembered_failures(), 2 if rows else 3)
        if self.f.ir.checked:
            acc_init = (checks.REMEMBERED_DECL.format(index_t=self.f.d.index_t)
                        + reduce.BAND_FAILED_DECL + acc_init)
            report = checks.REPORT_REMEMBERED.format(claim=self.f.d.claim.format(ERROR_RECORD))
            again = reduce.BAND_RECHECK_ROWS if rows else reduce.BAND_RECHECK_COLS
            report = again.format(index_t=self.f.index_t, body=recheck) + report
        if rows:
            lanes = (reduce.BAND_LOOP.format(band=band, index_t=self.f.index_t,
                                             body=indent(body), accumulate=loop_accumulate)
                     if looped else self.band_lanes(band))
            slots.update(band=str(band), global_id=self.f.d.global_id, acc_init=acc_init,
                         epilogue=self.f.epilogue_loop(), lanes=lanes, tail_body=body,
                         tail_accumulate=accumulate, totals=totals, report=report,
                         stores=dedent(stores),
                         range=reduce.RANGES.get((REDUCE_ROWS, self.f.ir.range_structure), ""))
            twice = self.f.walked_twice(body, checks_only_noted=True)
            if twice:
                if self.f.ir.checked:
                    acc_reset += "        failed = 0;\n"  # noted again by the second walk
                slots.update(self.f.trig_macros(twice), acc_reset=acc_reset,
                             lanes_twice=indent(lanes), tail_body_twice=indent(body),
                             tail_accumulate_twice=indent(accumulate))
                return self.f.finish(reduce_twice.REDUCE_ROWS_BAND_TWICE, slots)
            return self.f.finish(reduce.REDUCE_ROWS_BAND, slots)
        slots.update(band=str(band), global_id=self.f.d.global_id, acc_init=acc_init,
                     body=indent(body, 2), accumulate=indent(loop_accumulate), report=report,
                     stores=stores)
        twice = self.f.walked_twice(body, checks_only_noted=True)
        if not twice:
            return self.f.finish(reduce.REDUCE_COLS_BAND, slots)
        if self.f.ir.checked:
            acc_reset += "        failed = 0;\n"  # noted again by the second walk
        slots.update(self.f.trig_macros(twice), acc_reset=acc_reset,
                     body_twice=indent(body, 3), accumulate_twice=indent(loop_accumulate, 2))
        return self.f.finish(reduce_twice.REDUCE_COLS_BAND_TWICE, slots)

    def band_as_copies(self) -> bool:
        """Whether a rows band is written out as copies of the body (``band_lanes``): where
        the body reads only along its row (every load's address steps by one column, or
        stays) and calls none of weft's helper functions (``Op.helpers``: special
        functions, random draws) and of the dialect's own functions only those whose
        copies vectorize (``own_math.COPYABLE``). Else the compiler vectorizes the loop and
        not the copies (a logistic log likelihood over 10^6 x 10, whose ``x @ beta`` reads
        x's columns 10 apart: 13.1 ms looped, 20.0 as copies; a sum of 2^20 lgammas 50 ms
        as copies, 12 looped). Only for one reduction: with two or more, the copies'
        interleaved accumulators were left scalar, while the loop vectorizes (10^7 float64,
        two sums of (x - m) / s terms in one kernel: 21 ms as copies, 5.4 looped; one: 4.6
        as copies)."""
        for s in self.f.per_element:
            if isinstance(s, Gather) or (isinstance(s, Apply) and (
                    OPS[s.op].helpers or _calls_uncopyable_own_math(s.op, self.f.d.own_math))):
                return False
            if isinstance(s, Load) and s.access not in _ALONG_THE_ROW:
                return False
        return True

    def band_lanes(self, band: int) -> str:
        """A rows band's body, once per column ``c`` of the band (``lanes.in_lane``: its
        own ``j_c``, ``gid_c`` and variables), each adding into its own accumulators, then
        one running or of every copy's failed checks."""
        owned = lane_owned(self.f.per_element, self.f.ir.invariants, walk=True)
        wide = self.f.ctype(dt.int64)
        text, row_start, failed = "", "", []
        for c in range(band):
            self.f.col, self.f.grid = f"j_{c}", f"gid_{c}"
            self.f.remembered = []
            lane = indent("".join(self.f.statement(in_lane(s, c, owned))
                                  for s in self.f.per_element))
            failed += [condition for condition, _ in self.f.remembered]
            names = {v: f"{v}_{c}" for v in owned}
            for k, r in enumerate(self.f.ir.reductions):
                lane += indent(reduce.BAND_LANE_ACCUMULATE.format(k=k, c=c, combine=self.f.apply(
                    r.op, r.dtype, (f"acc{k}_{c}", names.get(r.var, r.var)))))
            if re.search(rf"\bgid_{c}\b", lane):
                lane = reduce.BAND_POSITION.format(wide=wide, c=c) + lane
                row_start = reduce.BAND_ROW_START.format(wide=wide)
            if re.search(rf"\bj_{c}\b", lane):
                lane = reduce.BAND_COLUMN.format(wide=wide, c=c) + lane
            text += lane
        self.f.col, self.f.grid = "j", "gid"
        text = row_start + text
        self.f.remembered = []
        if failed:
            # A bitwise or: a logical one branches per condition, and branches do not vectorize.
            text += indent(reduce.BAND_FAILED.format(failed=" | ".join(
                f"({c})" for c in failed)))
        return text

    def lane_tree(self, r: Accumulate, values: list[str]) -> str:
        """``values`` combined pairwise by ``r``'s op: one expression, a balanced tree."""
        while len(values) > 1:
            pairs = [self.f.apply(r.op, r.dtype, (a, b)) for a, b in zip(values[::2],
                                                                          values[1::2])]
            values = pairs + (values[-1:] if len(values) % 2 else [])
        return values[0]

    def render_row_chunks(self, slots: dict[str, str], statements: str) -> str:
        """A columns reduction by row chunks (CPUs, ``reduce.REDUCE_COLS_CHUNKS``): each
        result accumulates in place in its split's row of partial results, which the
        combining pass adds up (so no scale here: the combining pass applies it). Fused
        checks as in bands: a running or, and a second walk where one failed."""
        body = indent(statements, 2)
        if self.f.remembered:
            failed = " || ".join(f"({c})" for c, _ in self.f.remembered)
            body += indent(reduce.BAND_FAILED.format(failed=failed), 2)
        acc_init = accumulate = report = ""
        for k, r in enumerate(self.f.ir.reductions):
            if r.compensated or r.final_buffer is not None or r.scale is not None:
                raise AssertionError("row chunks accumulate partial results plainly")
            acc_init += reduce.CHUNK_ACC_INIT.format(
                global_ptr=self.f.d.global_ptr, T=self.f.storage(self.f.types[r.buffer]),
                k=k, buffer=r.buffer, out=r.view,
                index_t=self.f.index_t, identity=c_literal(identity(r.op, r.dtype), r.dtype))
            accumulate += reduce.CHUNK_ACCUMULATE.format(
                k=k, combine=self.f.apply(r.op, r.dtype, (f"acc{k}[j]", r.var)))
        if self.f.ir.checked:
            acc_init = (checks.REMEMBERED_DECL.format(index_t=self.f.d.index_t)
                        + reduce.BAND_FAILED_DECL + acc_init)
            recheck = indent(statements + self.remembered_failures(), 3)
            report = (reduce.CHUNK_RECHECK.format(index_t=self.f.index_t, body=recheck)
                      + checks.REPORT_REMEMBERED.format(
                          claim=self.f.d.claim.format(ERROR_RECORD)))
        rows = self.chunk_rows(body)
        slots.update(local_id=self.f.d.local_id, group_id=self.f.d.group_id,
                     acc_init=acc_init, body=body, accumulate=accumulate, scale="",
                     report=report, **rows,
                     kernel_qualifier=self.f.d.one_item_kernel_qualifier)
        twice = self.f.walked_twice(body, checks_only_noted=True)
        if not twice:
            return self.f.finish(reduce.REDUCE_COLS_CHUNKS, slots)
        acc_reset = "".join(
            reduce.CHUNK_ACC_RESET.format(index_t=self.f.index_t, k=k, identity=c_literal(
                identity(r.op, r.dtype), r.dtype))
            for k, r in enumerate(self.f.ir.reductions))
        if self.f.ir.checked:
            acc_reset += "        failed = 0;\n"  # noted again by the second walk
        slots.update(self.f.trig_macros(twice), acc_reset=acc_reset,
                     body_twice=indent(body), accumulate_twice=indent(accumulate),
                     **{f"{name}_twice": indent(rows[name])
                        for name in ("row_values", "row_copies", "combined")})
        return self.f.finish(reduce_twice.REDUCE_COLS_CHUNKS_TWICE, slots)

    def chunk_rows(self, body: str) -> dict[str, str]:
        """``reduce.REDUCE_COLS_CHUNKS``'s rows taken ``CHUNK_ROWS`` at a time: the body
        once per row, each copy in a block of its own keeping its values, and one
        accumulation of their combination per result."""
        rows = reduce.CHUNK_ROWS
        values = copies = combined = ""
        for k, r in enumerate(self.f.ir.reductions):
            t = self.f.ctype(r.dtype)
            values += "".join(reduce.CHUNK_ROW_VALUE.format(T=t, k=k, r=row)
                              for row in range(rows))
            together = self.lane_tree(r, [f"row{k}_{row}" for row in range(rows)])
            combined += reduce.CHUNK_ACCUMULATE.format(
                k=k, combine=self.f.apply(r.op, r.dtype, (f"acc{k}[j]", together)))
        for row in range(rows):
            keep = "".join(reduce.CHUNK_KEEP.format(k=k, r=row, var=r.var)
                           for k, r in enumerate(self.f.ir.reductions))
            copies += reduce.CHUNK_ROW_COPY.format(index_t=self.f.index_t, r=row,
                                                   body=indent(body), keep=keep)
        return dict(rows_at_once=str(rows), row_values=values, row_copies=copies,
                    combined=combined)

    def remembered_failures(self) -> str:
        """The failures one element's statements remembered, behind one test of whether any
        of its checks failed (``checks.REMEMBER_ANY``); "" if it has none. A single one needs
        no outer test: its own tests its condition."""
        remembered, self.f.remembered = self.f.remembered, []
        if not remembered:
            return ""
        if len(remembered) == 1:
            return remembered[0][1]
        failed = " || ".join(f"({condition})" for condition, _ in remembered)
        remembers = indent("".join(text for _, text in remembered))
        return checks.REMEMBER_ANY.format(failed=failed, remembers=remembers)

    def last_group_finish(self, tree: str) -> str:
        """``reduce.FINISH``: the last work-group to end combines the partial results of the
        reductions that have a final buffer, with the work-group ``tree``; "" if none has."""
        acc_reset = loads = combines = stores = ""
        for k, r in enumerate(self.f.ir.reductions):
            if r.final_buffer is None:
                continue
            t, init = self.f.ctype(r.dtype), c_literal(identity(r.op, r.dtype), r.dtype)
            acc_reset += reduce.ACC_RESET.format(k=k, identity=init)
            for b in range(reduce.FINISH_LOADS):
                p = f"(p + {b * reduce.WORK_GROUP})" if b else "p"
                partial = self.f.to_bool_if(r.dtype, reduce.PARTIAL.format(
                    global_ptr=self.f.d.global_ptr, p=p, buffer=r.buffer, view=r.view,
                    storage=self.f.storage(self.f.types[r.buffer])))
                loads += reduce.LOAD_PARTIAL.format(T=t, k=k, b=b, p=p, read=partial,
                                                    identity=init)
                combines += reduce.COMBINE_PARTIAL.format(
                    k=k, combine=self.f.apply(r.op, r.dtype, (f"acc{k}", f"other{k}_{b}")))
            final = self.local_read(k, r.dtype, "0")
            if r.scale is not None:
                final = f"{final} * {r.scale}"
            stores += reduce.FINAL_STORE.format(
                buffer=r.final_buffer, view=r.final_view,
                storage=self.f.storage(self.f.types[r.final_buffer]), value=final)
        if not stores:
            return ""
        return reduce.FINISH.format(
            local=self.f.d.local_qualifier, barrier=self.f.d.barrier,
            fence=f"    {self.f.d.global_fence};\n" if self.f.d.global_fence else "",
            global_barrier=self.f.d.global_barrier, index_t=self.f.index_t,
            counted=self.f.d.last_group_add.format(GROUP_COUNTER),
            group_count=self.f.d.group_count, acc_reset=acc_reset, wg=reduce.WORK_GROUP,
            loads=reduce.FINISH_LOADS, gathers=loads + combines, tree=indent(tree),
            stores=stores, counter=GROUP_COUNTER)

    def vector_slots(self, unroll: int) -> dict[str, str]:
        """``reduce.REDUCE_ROWS_VECTOR``'s own slots: the vector walk and its last vectors
        (``GUARDED_TAIL`` or ``SINGLE_TAIL``)."""
        decls, bases, loads, vector_body = self.vector_walk(unroll)
        column_t = "int" if self.f.variant.int_columns else self.f.index_t
        if self.f.variant.guarded_tail:
            tail = reduce.GUARDED_TAIL.format(
                unroll_less_one=unroll - 1, column_t=column_t, index_t=self.f.index_t,
                loads=indent(loads, 3), body=indent(vector_body, 2))
        else:
            tail = reduce.SINGLE_TAIL.format(column_t=column_t, index_t=self.f.index_t,
                                             loads=indent(loads), body=vector_body)
        return dict(width=str(self.f.variant.vector), vector_decls=decls, row_bases=bases,
                    column_t=column_t, unrolled_vector_loads=indent(loads, 2),
                    unrolled_vector_body=indent(vector_body), vector_tail=tail)

    def vector_walk(self, unroll: int) -> tuple[str, str, str, str]:
        """A rows reduction's vector walk: the declarations of each walked operand's vectors
        and of its row's start, the loads of vector ``u``, and the work on it: every other
        statement and the accumulation once per element."""
        width = self.f.variant.vector
        decls = bases = loads = text = ""
        for m, s in enumerate(self.f.ir.walked_loads):
            vtype = self.f.vector_type(self.f.types[s.buffer], width)
            decls += reduce.VECTOR_DECL.format(vtype=vtype, m=m, unroll=unroll)
            bases += reduce.ROW_BASE.format(
                index_t=self.f.index_t, m=m, view=s.view,
                row={FLAT: " + i * cols", ROW_VECTOR: ""}.get(s.access, f" + i * {s.view}_s0"))
            loads += reduce.VECTOR_WALK_LOAD.format(m=m, global_ptr=self.f.d.global_ptr,
                                                    vtype=vtype, buffer=s.buffer)
        walked = {s.var: m for m, s in enumerate(self.f.ir.walked_loads)}
        owned = lane_owned(self.f.per_element, self.f.ir.invariants, walk=True)
        remembered: list[list[tuple[str, str]]] = [[] for _ in range(width)]
        for s in self.f.per_element:
            if isinstance(s, Load) and s.var in walked:
                text += self.f.vector_elements(s, f"q{walked[s.var]}[u]", width)
                continue
            for c in range(width):  # each element's copy, naming its own column and position
                self.f.col, self.f.grid = f"j_{c}", f"gid_{c}"
                self.f.remembered = remembered[c]
                text += self.f.statement(in_lane(s, c, owned))
        self.f.col, self.f.grid = "j", "gid"
        for c in range(width):  # each element's failures, after all of its statements
            self.f.remembered = remembered[c]
            text += self.remembered_failures()
        # The elements' columns and positions, where a statement needs them.
        positions = "".join(reduce.VECTOR_ELEMENT.format(index_t=self.f.index_t, c=c)
                            for c in range(width) if re.search(rf"\b(j|gid)_{c}\b", text))
        text = indent(positions + text)
        text += "".join(self.accumulations({v: f"{v}_{c}" for v in owned})
                        for c in range(width))
        return decls, bases, loads, text

    def accumulations(self, names: dict[str, str] | None = None) -> str:
        """Each reduction's accumulation of its element's value (``names``: a vector lane's
        names for the values, ``lanes.in_lane``)."""
        text = ""
        for k, r in enumerate(self.f.ir.reductions):
            var = (names or {}).get(r.var, r.var)
            if r.compensated:
                text += reduce.ACCUMULATE_COMPENSATED.format(T=self.f.ctype(r.dtype), k=k,
                                                             var=var)
            else:
                text += reduce.ACCUMULATE.format(
                    k=k, combine=self.f.apply(r.op, r.dtype, (f"acc{k}", var)))
        return text
