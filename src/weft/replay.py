"""Remembered evaluations, replayed: the one fast path behind traced functions
(``wf.function``), repeated lazy expressions (``memo``) and library functions' templates.

An evaluation compiled once (``compiler.Compiled``) is remembered as a ``Replay``: per
kernel, the program, the arguments that never change (sizes, offsets, launch settings,
constants) and the holes a call fills. A hole is an input (a buffer or a scalar value the
caller passes, a scalar through the conversions the expression made of it), a result, a
temporary, or the calling thread's error record. ``Replay.run`` launches it with a call's
inputs: per thread, each kernel is bound once (``Backend.bind``: its constant arguments set,
its parameter block laid out), so a call only allocates, fills holes, enqueues and records.

>>> import numpy as np, weft as wf
>>> x = wf.asarray(np.arange(3.0))
>>> [(x * 2).tolist() for _ in range(2)]  # the second call replays the first's kernel
[[0.0, 2.0, 4.0], [0.0, 2.0, 4.0]]
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from . import pending
from .cache import CACHE
from .compiler import Compiled, TemporaryBuffer
from .config import log
from .storage import Storage, events_before_launch
from .traced import note_activity
from .tuning import KEPT_TEMPORARY_BYTES

# Where a hole's value comes from.
INPUT = 0  # the caller's k-th input: a storage
SCALAR = 1  # the caller's k-th input: a scalar, converted through ``types``
RESULT = 2  # the k-th result
TEMP = 3  # the k-th temporary
ERROR_BUFFER, ERROR_OFFSET, ERROR_SEEN = 4, 5, 6  # the calling thread's error record


class UnreplayableError(Exception):
    """An argument whose source a replay cannot name (the evaluation is not remembered)."""


class Step:
    """One kernel of a replay: its program, constant arguments (None at holes), holes
    ``(position, kind, k, types)``, and which buffers it reads and writes (a hole's index
    among the holes, or a constant storage)."""

    __slots__ = ("ir", "variant", "program", "n", "groups", "errors", "args", "holes",
                 "getters", "read_holes", "read_constants", "write_holes", "write_constants",
                 "checked", "slab_hole")

    def __init__(self, kernel: Any, program: Any, args: list[Any],
                 holes: list[tuple[int, int, int, tuple]]) -> None:
        self.ir, self.variant, self.program = kernel.ir, kernel.variant, program
        self.n, self.groups, self.errors = kernel.n, kernel.groups, kernel.errors
        self.args, self.holes = args, tuple(holes)
        # Per hole, what a call reads: its kind, index and (scalars) the conversions.
        self.getters = tuple((kind, k, tuple(t.numpy.type for t in types))
                             for _, kind, k, types in holes)
        at = {h[0]: j for j, h in enumerate(holes)}
        read, written = kernel.ir.buffer_roles
        self.read_holes = tuple(at[k] for k in read if k in at)
        self.read_constants = tuple(args[k] for k in read if k not in at)
        self.write_holes = tuple(at[k] for k in written if k in at)
        self.write_constants = tuple(args[k] for k in written if k not in at)
        self.checked = kernel.ir.checked
        # The error buffer among the written holes: its reports are not the outputs' own.
        self.slab_hole = next((j for j, h in enumerate(holes) if h[1] == ERROR_BUFFER), None)

    def shape(self) -> tuple:
        """What two traces of one signature must share for their replays to be one."""
        constants = tuple(_constant_key(a) for a in self.args)
        holes = tuple((p, kind, k, tuple(t.name for t in types))
                      for p, kind, k, types in self.holes)
        return (self.ir, self.variant, self.n, self.groups, constants, holes)


class Replay:
    """A remembered evaluation on ``device``: results and temporaries to allocate
    (``(dtype, size)`` each), then ``steps`` to launch in order."""

    def __init__(self, device: Any, steps: list[Step], results: list[tuple[Any, int]],
                 temporaries: list[tuple[Any, int]]) -> None:
        self.device = device
        self.steps = steps
        self.results = results
        self.temporaries = temporaries
        self._runners: dict[int, Callable] = {}  # per thread
        self._lock = threading.Lock()

    @property
    def fingerprint(self) -> tuple:
        return tuple(step.shape() for step in self.steps)

    def run(self, inputs: list[Any], results: list[Storage] | None = None) -> list[Storage]:
        """Launch every step for a call's ``inputs`` (storages and scalar values, by the
        index the holes name) into ``results`` (new buffers when None); the results."""
        runner = self._runners.get(threading.get_ident())
        if runner is None:
            runner = self._runner()
        return runner(inputs, results)

    def _runner(self) -> Callable[[list[Any], list[Storage] | None], list[Storage]]:
        """The calling thread's runner (``runner``) taking a list of inputs."""
        body, names = self.runner_body(lambda k: f"inputs[{k}]", given_results=True)
        results = ", ".join(f"r{k}" for k in range(len(self.results)))
        runner = make_runner("run(inputs, results)", [*body, f"return [{results}]"], names,
                             f"replay {id(self):x}")
        with self._lock:
            self._runners[threading.get_ident()] = runner
        return runner

    def runner_body(self, read_input: Callable[[int], str], given_results: bool,
                    counts_activity: bool = True) -> tuple[list[str], dict[str, Any]]:
        """The lines of a runner on the calling thread, and the globals they read: straight
        -line Python generated from the steps, each bound once on this thread
        (``Backend.bind``: the thread's queue, kernel objects or parameter blocks, its group
        counter), every constant a global. A loop over holes and kinds cost as much as the
        launch itself (PoCL: 8 of 18 us per call). ``read_input(k)`` is the expression of
        input ``k``; the results end in ``r0``, ``r1``... (``results`` where given).
        ``counts_activity``: the run counts as an evaluation for a trace in progress (a
        traced function's own replay never runs inside a trace, so it need not)."""
        return _runner_source(self, read_input, given_results, counts_activity)


def make_runner(header: str, body: list[str], names: dict[str, Any], tag: str) -> Callable:
    """The function ``def {header}:`` with ``body``, its globals ``names``."""
    source = f"def {header}:\n" + "".join(f"    {line}\n" for line in body)
    if log.isEnabledFor(5):
        log.log(5, "%s runner:\n%s", tag, source)
    code = compile(source, f"<weft runner {tag}>", "exec")
    exec(code, names)  # noqa: S102 - generated from a replay's own steps
    # Out of its own globals: a function found in them would make a reference cycle, and
    # what a cycle holds (storages, streams) is finalized by the collector in any order.
    return names.pop(header[:header.index("(")])


def _bind(replay: Replay, step: Step, after: list[Any]) -> Any:
    """``step`` made ready on the calling thread, after the launches ``after``: its group
    counter is the thread's."""
    device = replay.device
    backend = device.backend
    args = step.args
    counter = step.ir.counter_position
    if counter is not None:
        args = args.copy()
        args[counter] = backend.group_counter(device)
    holes = tuple(h[0] for h in step.holes)
    return backend.bind(device, step.program, step.ir, args, holes, step.n, step.groups, after)


def _runner_source(replay: Replay, read_input: Callable[[int], str], given_results: bool,
                   counts_activity: bool) -> tuple[list[str], dict[str, Any]]:
    """``Replay.runner_body``."""
    names: dict[str, Any] = {
        "DEVICE": replay.device,
        "NOTE": note_activity, "STATS": CACHE.stats, "BEFORE": events_before_launch,
        "LAUNCHED": pending.launched}
    body: list[str] = []
    scalar_names: dict[tuple, str] = {}
    backend, device = replay.device.backend, replay.device
    for k, (dtype, size) in enumerate(replay.results):
        # A one-element result is likely read by the host (an MCMC loop's log density).
        make = backend.read_back_allocator if size == 1 else backend.allocator
        names[f"NEW_RESULT{k}"] = make(device, dtype, size)
    results = [f"r{k}" for k in range(len(replay.results))]
    allocations = [f"r{k} = NEW_RESULT{k}()" for k in range(len(replay.results))]
    fresh = set()  # storages no work has touched yet: nothing to wait for or clear
    if results and given_results:
        body += ["if results is None:", *(f"    {line}" for line in allocations),
                 "else:", f"    {', '.join(results)}, = results"]
    else:
        body += allocations
        fresh.update(results)  # new storages: no work to wait for, no reports to clear
    for k, (dtype, size) in enumerate(replay.temporaries):
        if max(size, 1) * dtype.itemsize <= KEPT_TEMPORARY_BYTES:
            # Made now and kept: the runner's calls are ordered like any work on a storage.
            # What the last call left in it is dead, and so are the reports it depended on
            # (a failed one would fail this call too).
            names[f"TEMP{k}"] = backend.allocator(device, dtype, size)()
            body += [f"t{k} = TEMP{k}", f"t{k}.checks = ()"]
        else:
            names[f"NEW_TEMP{k}"] = backend.allocator(device, dtype, size)
            body.append(f"t{k} = NEW_TEMP{k}()")
            fresh.add(f"t{k}")
    if counts_activity:
        body.append("NOTE()")
    inputs = sorted({k for step in replay.steps for kind, k, _ in step.getters
                     if kind == INPUT})
    body[:0] = [f"i{k} = {read_input(k)}" for k in inputs]
    bounds: list[Any] = []
    for step in replay.steps:
        bounds.append(_bind(replay, step, bounds.copy()))
    graph = backend.plan_graph(device, bounds, [(f"r{k}", dtype) for k, (dtype, size)
                                                in enumerate(replay.results) if size == 1])
    if graph is not None:
        begin, end, graph_names = graph.source([f"B{n}" for n in range(len(bounds))])
        body += begin
        names.update(graph_names)
    for n, (step, bound) in enumerate(zip(replay.steps, bounds)):
        queue = bound.queue
        body += ['STATS["hits"] += 1', 'STATS["launches"] += 1']
        if step.checked:
            names[f"ERRORS{n}"] = step.errors
            names["SLAB"] = pending.thread_slab(device)  # this thread's, as the runner
            body += [f"report{n} = SLAB.take(ERRORS{n})", f"slab{n} = report{n}.slab"]
        values = []
        for kind, k, convert in step.getters:
            if kind == INPUT:
                values.append(f"i{k}")
            elif kind == SCALAR:
                if (k, convert) not in scalar_names:
                    name = scalar_names[(k, convert)] = f"s{len(scalar_names)}"
                    expression = read_input(k)
                    # A float argument is already the float64 a launch packs.
                    for j, to_type in enumerate(() if convert == (np.float64,) else convert):
                        names[f"{name}_type{j}"] = to_type
                        expression = f"{name}_type{j}({expression})"
                    body.insert(len(inputs), f"{name} = {expression}")
                values.append(scalar_names[(k, convert)])
            elif kind == RESULT:
                values.append(f"r{k}")
            elif kind == TEMP:
                values.append(f"t{k}")
            else:
                values.append(f"slab{n}.buffer" if kind == ERROR_BUFFER else
                              f"report{n}.offset" if kind == ERROR_OFFSET else
                              f"slab{n}.seen")
        for j, constant in enumerate((*step.read_constants, *step.write_constants)):
            names[f"C{n}_{j}"] = constant
        reads = [values[j] for j in step.read_holes]
        reads += [f"C{n}_{j}" for j in range(len(step.read_constants))]
        writes = [values[j] for j in step.write_holes]
        writes += [f"C{n}_{len(step.read_constants) + j}"
                   for j in range(len(step.write_constants))]
        reads_tuple, writes_tuple = _tuple(reads), _tuple(writes)
        lines, bound_names = (bound.source(f"B{n}", values) if graph is None else
                              bound.graph_source(f"B{n}", values))
        names.update(bound_names)
        if queue is None:  # the backend's general launch orders and records itself
            body += [f"reads, writes = {reads_tuple}, {writes_tuple}", *lines]
        else:
            names[f"Q{n}"] = queue
            waits = [f"({x}.write is not None and {x}.write[1] is not Q{n})" for x in reads
                     if x not in fresh]
            waits += [f"{x}.reads or ({x}.write is not None and {x}.write[1] is not Q{n})"
                      for x in writes if x not in fresh]
            body.append("waits = None")
            if waits:
                body += [f"if {' or '.join(waits)}:",
                         f"    waits = BEFORE({reads_tuple}, {writes_tuple}, Q{n}) or None"]
            body += lines
            body.append(f"entry = (event, Q{n})")
            body += [f"{x}.reads[{id(queue)}] = entry" for x in reads]
            for x in writes:
                body += [f"{x}.write = entry", f"if {x}.reads:", f"    {x}.reads = {{}}"]
        if step.checked:
            slab = values[step.slab_hole]
            outputs = [x for x in writes if x != slab]
            checks = " or ".join(f"{x}.checks" for x in reads)
            if checks:
                body += [f"if {checks}:",
                         f"    LAUNCHED(report{n}, {reads_tuple}, {_tuple(outputs)})",
                         "else:"]
            indent = "    " if checks else ""
            # One tuple for all: a launch reading several of them merges them by identity
            # (``pending.launched``), once.
            body += [f"{indent}checks = (report{n},)"]
            body += [f"{indent}{x}.checks = checks" for x in outputs]
        else:
            checks = " or ".join(f"{x}.checks" for x in reads) or "False"
            body += [f"if {checks}:", f"    LAUNCHED(None, {reads_tuple}, {writes_tuple})"]
            clears = [x for x in writes if x not in fresh]
            if clears:
                body.append("else:")
                for x in clears:
                    body += [f"    if {x}.checks:", f"        {x}.checks = ()"]
        fresh.difference_update(writes)  # written here: ordered like any other now
    if graph is not None:
        body += end
    return body, names


def _tuple(items: list[str]) -> str:
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


Source = Callable[[Any, int, Any], tuple[int, int, tuple] | None]


def record(device: Any, compiled: Compiled, programs: list[Any], results: list[Storage],
           source: Source) -> Replay:
    """The replay of ``compiled`` (launched as ``programs`` into ``results``): each argument
    that is a result, a temporary, the error record or the group counter is a hole of its
    kind; ``source(kernel, position, argument)`` names the others' (``(INPUT, k, ())`` or
    ``(SCALAR, k, types)``), or None for a constant, or raises ``UnreplayableError``."""
    result_index = {id(s): k for k, s in enumerate(results)}
    temp_index = {id(t): k for k, t in enumerate(compiled.temporaries)}
    steps = []
    for kernel, program in zip(compiled.kernels, programs):
        ir = kernel.ir
        errors = ir.error_positions or ()
        special = dict(zip(errors, (ERROR_BUFFER, ERROR_OFFSET, ERROR_SEEN)))
        args: list[Any] = []
        holes: list[tuple[int, int, int, tuple]] = []
        for position, a in enumerate(kernel.arguments):
            hole: tuple[int, int, tuple] | None = None
            if position in special:
                hole = (special[position], 0, ())
            elif position == ir.counter_position:
                a = None  # the binding thread's own
            elif type(a) is TemporaryBuffer:
                hole = (TEMP, temp_index[id(a)], ())
            elif isinstance(a, Storage) and id(a) in result_index:
                hole = (RESULT, result_index[id(a)], ())
            else:
                hole = source(kernel, position, a)
                if hole is None and (type(a) is int or type(a) is bool):
                    a = np.int64(a)  # converted once, not per call
            args.append(None if hole else a)
            if hole:
                holes.append((position, *hole))
        steps.append(Step(kernel, program, args, holes))
    return Replay(device, steps, [(s.dtype, s.size) for s in results],
                  [(t.dtype, t.size) for t in compiled.temporaries])


def _constant_key(value: Any) -> Any:
    if isinstance(value, Storage):
        return ("captured", id(value))
    if isinstance(value, np.generic):
        return ("constant", value.dtype.str, value.tobytes())
    return ("constant", type(value), value)
