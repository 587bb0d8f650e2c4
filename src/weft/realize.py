"""Evaluation, the one entry point: outputs → ``compiler.compile`` (schedule, lower, launch
choices) → cache → launch.

A repeated evaluation of one output skips compiling: its compiled kernels are remembered by
the expression's structure (``memo``), and a later call replays them with the new leaves
(``replay``).
Kernels with bounds checks or fused checks report through a small error buffer that is read
back later, when a value that depends on it is observed (``pending``).
"""

from __future__ import annotations

from typing import Any

from . import config, memo, pending
from . import expr as ex
from .cache import CACHE
from .compiler import Compiled, TemporaryBuffer, compile
from .ir import ErrorInfo, KernelIR
from .replay import Replay
from .schedule import Output
from .storage import Storage
from .traced import note_activity


def new_leaf(device: Any, node_or_shape: Any, dtype: Any = None, structure: str = "general",
             read_back: bool = False) -> ex.Node:
    """A fresh buffer (uninitialized) on ``device`` and a row-major leaf over it;
    ``read_back``: one the host is likely to read (``Backend.read_back_allocator``)."""
    if isinstance(node_or_shape, ex.Node):
        shape, dtype = node_or_shape.shape, node_or_shape.dtype
        structure = node_or_shape.structure
    else:
        shape = node_or_shape
    size = 1
    for s in shape:
        size *= s
    backend = device.backend
    storage = (backend.read_back_allocator(device, dtype, size)() if read_back and size == 1
               else backend.allocate(device, dtype, size))
    return ex.buffer(storage, shape, structure=structure)


def launch(device: Any, ir: KernelIR, program: Any, args: list[Any], errors: list[ErrorInfo],
            n: int, groups: int | None) -> None:
    """Launch ``program`` (built from ``ir``). ``args`` is the launch's own list: the error
    record's and the group counter's places are filled in it."""
    report = None
    counter = ir.counter_position
    if ir.checked:
        report = pending.reserve(device, errors)
        at_buffer, at_offset, at_seen = ir.error_positions
        slab = report.slab
        args[at_buffer], args[at_offset], args[at_seen] = slab.buffer, report.offset, slab.seen
    if counter is not None:
        args[counter] = device.backend.group_counter(device)
    read, written = ir.buffer_roles
    inputs: list[Storage] = [args[k] for k in read]
    outputs: list[Storage] = [args[k] for k in written]
    if config.log.isEnabledFor(10):
        config.log.debug("launch %s on %s: n=%d, %d input(s), %d output(s)",
                         getattr(program, "name", "reference"), device, n, len(inputs),
                         len(outputs))
    device.backend.launch(device, program, ir, args, n, outputs, inputs, groups)
    CACHE.stats["launches"] += 1
    if report is not None:
        outputs = [s for s in outputs if s is not report.slab.buffer]
    pending.launched(report, inputs, outputs)


def run(device: Any, compiled: Compiled) -> list[Any]:
    """Allocate ``compiled``'s temporary buffers on ``device``, then fetch or build and
    launch its kernels in order; their programs."""
    storages = {id(t): device.backend.allocate(device, t.dtype, t.size)
                for t in compiled.temporaries}
    programs = []
    for kernel in compiled.kernels:
        program = CACHE.program(device, kernel.ir, kernel.variant)
        args = [storages[id(a)] if type(a) is TemporaryBuffer else a for a in kernel.arguments]
        launch(device, kernel.ir, program, args, kernel.errors, kernel.n, kernel.groups)
        programs.append(program)
    return programs


# Whole evaluations ----------------------------------------------------------------------


def execute(device: Any, outputs: list[Output]) -> None:
    """Compute every ``(expression, destination)`` pair on ``device`` with weft's kernels."""
    note_activity()
    if config.fuse_enabled() and all(dest.kind == ex.BUFFER for _, dest in outputs):
        if len(outputs) == 1:
            key, leaves = memo.signature(*outputs[0])
        else:
            key, leaves = memo.joint_signature(outputs)
        if key is not None:
            _execute_remembered(device, (device, key), leaves, outputs)
            return
    run(device, compile(outputs, device.target))


def replayed(device: Any, root: ex.Node) -> ex.Node | None:
    """``root`` evaluated into a new buffer by the replay its structure remembers, and the
    buffer's leaf; None where none is remembered (the caller evaluates the general way,
    which remembers one). The key is ``memo.signature``'s for a new buffer, made without
    allocating one first."""
    if not config.fuse_enabled():
        return None
    key, leaves = memo.signature_into_new(root)
    replay = memo.MEMO.get((device, key)) if key is not None else None
    if replay is None:
        return None
    note_activity()
    (storage,) = replay.run(memo.inputs(leaves))
    return ex.buffer(storage, root.shape, structure=root.structure)


def _execute_remembered(device: Any, key: tuple, leaves: list[ex.Node],
                        outputs: list[Output]) -> Replay | None:
    """Outputs with a structural key: replay what they compiled to before, or compile and
    run them and remember it. Returns the replay (None: not rememberable)."""
    dests = [dest.attrs.storage for _, dest in outputs]
    remembered = memo.MEMO.get(key)
    if remembered is not None:
        remembered.run(memo.inputs(leaves), dests)
        return remembered
    compiled = compile(outputs, device.target)
    programs = run(device, compiled)
    made = memo.record(device, compiled, programs, leaves, dests)
    if made is not None:
        memo.MEMO.put(key, made)
    return made


def execute_deferred(device: Any, deferred: Any) -> ex.Node | None:
    """Evaluate a template's expression into a new buffer, building none of its nodes when the
    template has a remembered plan on ``device`` (``templates.Deferred``); the new buffer's
    leaf, or None where the general path must run (not fusing, a whole-expression backend)."""
    if not config.fuse_enabled():
        return None
    note_activity()
    template = deferred.template
    dtype, shape, structure = template.result
    known = memo.MEMO.for_template(template, device)
    dest = new_leaf(device, shape, dtype, structure, read_back=True)  # a density's value
    if known is not None:
        known.run(deferred.plan_inputs(), [dest.attrs.storage])
        return dest
    root = deferred.expression()
    key, leaves = memo.signature(root, dest)  # a template's expression always has a key
    made = _execute_remembered(device, (device, key), leaves, [(root, dest)])
    if made is not None:  # a new buffer never aliases the leaves: one plan serves every call
        memo.MEMO.put_for_template(template, device, made)
    return dest


def sources(device: Any, outputs: list[Output]) -> str:
    """The source of every kernel evaluating ``outputs`` would run, less the passes combining
    a split reduction's partial results (unless one ends with the next step, its epilogue),
    without running them (the reference device shows its kernels' IR)."""
    target = device.target
    kernels = [k for k in compile(outputs, target).kernels if not k.combines or k.ir.epilogue]
    if target.dialect is None:
        return "\n".join(repr(k.ir) for k in kernels)
    return "\n".join(k.source(target.dialect, target.fp64) for k in kernels)
