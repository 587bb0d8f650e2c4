"""Lowering of the accumulating kernels (lower.py's ``_Lowering`` over their grids): a
reduction's first pass, with the element-wise outputs it stores on the way and the small
step it may end with (``KernelIR.epilogue``), and a scan's pass.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .dtypes import DType
from .expr import Node
from .indexing import IDENTITY, as_2d, transpose_map
from .ir import (
    REDUCE_ROWS,
    SCAN,
    Accumulate,
    Cast,
    ErrorInfo,
    IndexParam,
    KernelIR,
    Param,
    ReduceLayout,
    Scan,
    Statement,
)
from .lower import Arguments, Ctx, _Lowering


def lower_reduction(
    grid: tuple[int, ...],
    reductions: list[tuple[Node, str, DType, Node, float | None]],
    elementwise: list[tuple[Node, Node]],
    layout: ReduceLayout,
    range_structure: str,
    out_strides: list[tuple[int, int, int]],
    finals: list[Node] | None = None,
    epilogue: list[tuple[Node, Node]] | None = None,
) -> tuple[KernelIR, Arguments, list[ErrorInfo]]:
    """A reduction kernel over the padded-2-D ``grid``.

    ``reductions`` are (operand, op name, accumulator dtype, output leaf, scale); every operand
    has the grid's shape. ``out_strides`` gives per reduction the output's (offset, segment
    stride, split stride). ``elementwise`` outputs over the same grid are stored on the way.
    ``finals``: one destination leaf per reduction when the output leaves hold one segment's
    partial results and the kernel's last work-group combines them into the destinations
    (the scale then applies there). ``epilogue``: the outputs of a small element-wise step
    that the kernel's one work-item computes after its own (``KernelIR.epilogue``).
    """
    lw = _Lowering(grid)
    lw.visited = range_structure
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
    for k, final in enumerate(finals or ()):
        fbuf = lw.buffer(final.attrs.storage, read=False, written=True)
        offset = final.attrs.offset
        fview = lw.params(("final", id(final.attrs.storage), offset), ("off",), (offset,))
        accs[k] = replace(accs[k], final_buffer=fbuf, final_view=fview)
    extra = [(IndexParam(name), value) for name, value in (
        ("rows", layout.rows), ("cols", layout.cols), ("lanes", layout.lanes),
        ("splits", layout.splits), ("chunk", layout.chunk))]
    if layout.mode == REDUCE_ROWS:
        extra.append((IndexParam("contiguous"), layout.contiguous))
    after: tuple[Statement, ...] = ()
    if epilogue:
        after, grid_params = lw.epilogue(epilogue)
        extra += grid_params
    ir, args, errors = lw.finish(layout.mode, extra, tuple(accs), range_structure,
                                 counter=bool(finals))
    return replace(ir, epilogue=after), args, errors


def lower_scan(operand: Node, axis: int, spec: Scan, named: list[tuple[Param, Any]]
               ) -> tuple[KernelIR, Arguments]:
    """A scan pass (skeletons/scan.py): ``operand``'s element lowered where the walk reaches
    it, in ``spec.dtype`` (the walk's element (i, j) is the j-th along its row i: the
    operand's (i, j), or (j, i) down its columns for ``axis`` 0), then the pass's own
    ``named`` parameters (destination, carries, layout) and their arguments, in order. An
    operand with checks or gathers is computed first (schedule.scan_steps): a pass has no
    error record."""
    rows, cols = as_2d(operand.shape)
    walk = operand.shape if axis == 1 else (cols, rows)
    lw = _Lowering(walk)
    var = lw.node(operand, Ctx(IDENTITY if axis == 1 else transpose_map(), None))
    if operand.dtype is not spec.dtype:
        var = lw.emit(("cast", spec.dtype, var), lambda v, a=var, t=spec.dtype: Cast(v, t, a))
    ir, args, errors = lw.finish(SCAN, [])
    if errors:
        raise AssertionError("a scan's operand with checks is computed before the scan")
    args += [value for _, value in named]
    return replace(ir, params=ir.params + tuple(p for p, _ in named),
                   scan=replace(spec, value=var)), args


__all__ = ["lower_reduction", "lower_scan"]
