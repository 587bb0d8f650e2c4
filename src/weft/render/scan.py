"""Rendering of the scan skeletons (skeletons/scan.py) into the renderer's frame (frame.py):
its parameters, the op table's text of the combining op, and the dialect's work-group
strings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ops import identity
from ..skeletons import scan
from ..skeletons.reduce import WORK_GROUP
from .text import c_literal, indent

if TYPE_CHECKING:
    from .frame import Renderer

# Lanes an arg-reduction's CPU walk keeps (skeletons.scan.ARG_LANES). 2 Xeon cores, 2^22
# elements, interleaved with NumPy's argmax (with pairs of value and position, before lanes
# kept blocks): 8 lanes 1.7-2.2x NumPy's time (float32), 16 1.2x, 32 1.4-1.6x; float64 near
# 1x with each.
ARG_LANES = 16


def render_scan(f: Renderer) -> str:
    """The source of the scan pass ``f.ir.scan`` launched as ``f.variant``."""
    spec = f.ir.scan
    assert spec is not None
    if spec.arg:
        return _render_arg(f)
    d = f.d
    slots = f.frame() | _tasks(f)
    t = f.ctype(spec.dtype)
    init = c_literal(identity(spec.op, spec.dtype), spec.dtype)  # where a scan starts
    statements = "".join(f.statement(s) for s in f.per_element)

    def combine(a: str, b: str) -> str:
        return f.apply(spec.op, spec.dtype, (a, b))

    storage = f.storage(f.types["part" if spec.totals else "dst"])
    carry_init = scan.CARRY_READ.format(carry="carries") if spec.carried else init
    common = dict(T=t, identity=init, value=spec.value, combine_acc=combine("acc", "x"),
                  carry_init=carry_init, index_t=f.index_t, local=d.local_qualifier,
                  barrier=d.barrier, local_id=d.local_id, wg=str(WORK_GROUP), part="part",
                  storage=storage)
    if f.variant.scan_per_thread and spec.totals:
        slots.update(common, body=indent(statements), combine_other=combine("mine", "other"))
        return f.finish(scan.TILED_TOTALS, slots)
    if f.variant.scan_per_thread:
        k = f.variant.scan_per_thread
        tile = dict(per_thread=str(k), wg=str(WORK_GROUP), T=t, identity=init,
                    index_t=f.index_t, combine_before_x=combine("before", "x"),
                    dst="dst", storage=storage)
        write = scan.WRITE_EXCLUSIVE if spec.exclusive else scan.WRITE_INCLUSIVE
        scanned = dict(T=t, identity=init, barrier=d.barrier, wg=str(WORK_GROUP),
                       combine_earlier=combine("earlier", "mine"))
        if d.shuffle_up:
            group_scan = scan.GROUP_SCAN_SHUFFLE.format(
                **scanned, warps=str(WORK_GROUP // 32),
                shuffle_mine=d.shuffle_up.format(value="mine", offset="o"),
                shuffle_one=d.shuffle_up.format(value="mine", offset="1"),
                combine_warp=combine("warp_before", "in_warp"))
        else:
            group_scan = scan.GROUP_SCAN_TREE.format(**scanned)
        slots.update(common, body=indent(statements, 3), tile=str(k * WORK_GROUP),
                     per_thread=str(k), group_scan=group_scan,
                     combine_before=combine("carry", "preceding"),
                     combine_carry=combine("carry", "tile_total"),
                     write_back=write.format(**tile), store=scan.TILE_STORE.format(**tile),
                     finish="")
        return f.finish(scan.TILED, slots)
    if spec.totals:
        emit = scan.STEP_TOTAL.format(combine_acc=common["combine_acc"])
        finish = scan.FINISH_TOTAL.format(part="part", storage=storage)
    else:
        step = scan.STEP_EXCLUSIVE if spec.exclusive else scan.STEP_INCLUSIVE
        emit = step.format(combine_acc=common["combine_acc"], dst="dst", storage=storage)
        finish = ""
    band = f.variant.scan_band
    if band:
        band_carry = (scan.BAND_CARRY_READ.format(carry="carries") if spec.carried
                      else init)
        band_finish = (scan.BAND_FINISH_TOTAL.format(part="part", storage=storage)
                       if spec.totals else "")
        slots.update(common, carry_init=band_carry, body=indent(statements, 3),
                     emit=indent(emit), band=str(band), band_finish=band_finish)
        return f.finish(scan.BANDS, slots)
    slots.update(common, body=indent(statements, 2), emit=emit, finish=finish)
    return f.finish(scan.SERIAL, slots)


def _render_arg(f: Renderer) -> str:
    """An arg-reduction's pass (``skeletons.scan.ARG_SERIAL`` or ``ARG_TILED``)."""
    spec = f.ir.scan
    assert spec is not None
    d = f.d
    slots = f.frame()
    t = f.ctype(spec.dtype)
    cmp = ">" if spec.op == "maximum" else "<"
    if spec.dtype.is_float:
        better = f"(!isnan(best) && (x {cmp} best || isnan(x)))"
        # The same without NaN tests: x replaces best unless x is no better (not greater for
        # max; NaN never is) or best is NaN already.
        replaces = f"(!(x {'<=' if cmp == '>' else '>='} best) && best == best)"
        take = (f"((!isnan(best) && (other {cmp} best || isnan(other))) || ((other == best"
                " || (isnan(other) && isnan(best))) && other_at < best_at))")
    else:
        better = replaces = f"(x {cmp} best)"
        take = f"(other {cmp} best || (other == best && other_at < best_at))"
    if spec.combining:
        statements, value, position = "", "part[i * cols + j]", "part_at[i * cols + j]"
    else:
        statements = "".join(f.statement(s) for s in f.per_element)
        value, position = spec.value, "(long)(i * cols + j)" if spec.flat else "(long)j"
    storage = f.storage(spec.dtype)
    emit = (scan.ARG_EMIT_PAIR.format(storage=storage) if spec.totals
            else scan.ARG_EMIT_POSITION)
    common = dict(T=t, identity=c_literal(identity(spec.op, spec.dtype), spec.dtype),
                  value=value, position=position, better=better, index_t=f.index_t,
                  emit_best=emit, keep_lane_best=scan.ARG_KEEP_LANE.format(
                      T=t, value=value, position=position, better=better))
    slots.update(_tasks(f))
    if f.variant.scan_per_thread:
        slots.update(common, body=indent(statements), take_other=take, wg=str(WORK_GROUP),
                     local=d.local_qualifier, barrier=d.barrier, local_id=d.local_id,
                     replaces=replaces)
        return f.finish(scan.ARG_TILED, slots)
    if f.variant.scan_band == 1 and not spec.combining:  # GPUs: a column per work-item
        slots.update(common, body=indent(statements, 3), replaces=replaces,
                     emit_best=indent(emit, 1))
        return f.finish(scan.ARG_COLUMN, slots)
    if f.variant.scan_band:
        slots.update(common, body=indent(statements, 3), band=str(f.variant.scan_band),
                     emit_best=indent(emit, 1))
        return f.finish(scan.ARG_BANDS, slots)
    if f.variant.scan_by_groups and not spec.combining:  # CPUs: lanes, which vectorize
        keep = scan.ARG_KEEP_BLOCK.format(T=t, value=value, replaces=replaces)
        slots.update(common, body=indent(statements, 3), tail_body=indent(statements, 2),
                     take_other=take, lanes=str(ARG_LANES), keep_block=keep,
                     keep_block_in_loop=indent(keep))
        return f.finish(scan.ARG_LANES, slots)
    slots.update(common, body=indent(statements, 2))
    return f.finish(scan.ARG_SERIAL, slots)


def _tasks(f: Renderer) -> dict[str, str]:
    """Where a pass's tasks lie (``task_span``) and, where work-items walk them, the loop
    over them (``task_loop``): a work-group's own task (tiles), a band of columns, or a
    row's split, taken a task per work-group (CPUs) or per work-item."""
    d, band = f.d, f.variant.scan_band
    if f.variant.scan_per_thread:
        span = scan.GROUP_TASK.format(index_t=f.index_t, group_id=d.group_id)
        return dict(task_span=indent(span), task_loop="")
    loop = scan.BY_GROUPS if f.variant.scan_by_groups else scan.BY_ITEMS
    task_loop = loop.format(local_id=d.local_id, group_id=d.group_id, index_t=f.index_t,
                            group_count=d.group_count, global_id=d.global_id,
                            wg=str(WORK_GROUP), tasks="bands * splits" if band else
                            "rows * splits")
    span = (scan.BAND_TASK.format(index_t=f.index_t, band=band) if band
            else scan.ROW_TASK.format(index_t=f.index_t))
    tasks = dict(task_span=indent(span, 2), task_loop=task_loop)
    if f.variant.scan_by_groups:  # the first work-item alone works
        tasks["kernel_qualifier"] = d.one_item_kernel_qualifier
    return tasks
