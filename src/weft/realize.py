"""Evaluation, the one entry point: outputs → schedule → per kernel: lower → cache → launch."""

from __future__ import annotations

from typing import Any

from . import config, schedule
from . import expr as ex
from .cache import CACHE
from .lower import BufferParam, KernelIR, lower
from .render import render
from .storage import Storage


def new_leaf(device: Any, node_or_shape: Any, dtype: Any = None) -> ex.Node:
    """A fresh buffer (uninitialized) and a row-major leaf over it."""
    if isinstance(node_or_shape, ex.Node):
        shape, dtype = node_or_shape.shape, node_or_shape.dtype
    else:
        shape = node_or_shape
    size = 1
    for s in shape:
        size *= s
    storage = device.backend.allocate(device, dtype, size)
    return ex.buffer(storage, shape)


def _check_fp64(device: Any, ir: KernelIR) -> None:
    if device.supports_fp64:
        return
    for item in (*ir.params, *ir.body):
        dtype = getattr(item, "dtype", None)
        if dtype is not None and dtype.name == "float64":
            raise TypeError(
                f"{device} ({device.name}) has no float64 support: use float32 "
                "(wf.set_default_real(wf.float32) or WEFT_REAL=float32)"
            )


def run_step(device: Any, step: schedule.Step) -> None:
    """Lower, fetch or build, and launch one kernel."""
    ir, args = lower(step.outputs)
    n = args[-2]
    if n == 0:
        return
    _check_fp64(device, ir)
    program = CACHE.program(device, ir)
    inputs: list[Storage] = []
    outputs: list[Storage] = []
    for param, arg in zip(ir.params, args):
        if isinstance(param, BufferParam):
            if param.read:
                inputs.append(arg)
            if param.written:
                outputs.append(arg)
    if config.log.isEnabledFor(10):
        config.log.debug("launch %s on %s: n=%d, %d input(s), %d output(s)",
                         getattr(program, "name", "reference"), device, n, len(inputs),
                         len(outputs))
    device.backend.launch(device, program, args, n, outputs, inputs)


def plan(device: Any, outputs: list[schedule.Output]) -> list[schedule.Step]:
    if config.fuse_enabled():
        return schedule.fused(outputs)
    return schedule.unfused(outputs, lambda node: new_leaf(device, node))


def execute(device: Any, outputs: list[schedule.Output]) -> None:
    """Compute every ``(expression, destination leaf)`` pair on ``device``."""
    for step in plan(device, outputs):
        run_step(device, step)


def sources(device: Any, outputs: list[schedule.Output]) -> str:
    """The source of every kernel evaluating ``outputs`` would run, without running them."""
    texts = []
    dialect = device.backend.dialect
    for step in plan(device, outputs):
        ir, _ = lower(step.outputs)
        if dialect is None:
            texts.append(repr(ir))
        else:
            texts.append(render(ir, dialect)[0])
    return "\n".join(texts)
