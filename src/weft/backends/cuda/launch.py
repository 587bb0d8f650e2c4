"""How a CUDA kernel launches: the module function and its argument layout, the marks that
order work across streams, and launches bound once per thread for replays (``_Bound``). Every
launch is the driver's ``cuLaunchKernel`` with one parameter block: a pointer per buffer,
then the struct of the rest (``driver.py``).
"""

from __future__ import annotations

import struct
import threading
from typing import Any

import numpy as np

from ...dialect import ArgumentLayout
from ...dtypes import DType
from ...skeletons.reduce import WORK_GROUP
from . import driver


class _Mark:
    """A point in one stream's work. Its event is recorded on first need: later work on the
    stream is then waited for too, which is conservative and always correct."""

    __slots__ = ("stream", "_event")

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self._event: Any = None

    def event(self) -> Any:
        if self._event is None:
            import cupy

            event = cupy.cuda.Event(block=False, disable_timing=True)
            event.record(self.stream)
            self._event = event
        return self._event


class _Kernel:
    __slots__ = ("function", "name", "layout", "resident")

    def __init__(self, module: driver.Module, name: str) -> None:
        self.function = module.function(name)  # it keeps the module loaded
        self.name = name
        self.layout: _Layout | None = None  # made at the first launch, from the kernel's IR
        self.resident = 0  # blocks of WORK_GROUP threads per SM, once asked


class _Layout(ArgumentLayout):
    """How a kernel's arguments travel: buffers as pointers, the rest packed into the one
    struct the CUDA dialect declares (``dialect.argument_struct``), all in one block whose
    parts' addresses are ``cuLaunchKernel``'s parameter array. Converting each argument
    apart cost about 0.5 us apiece on the GPU machine; the struct makes a launch of a
    30-argument kernel 11 us faster there (docs/tuning-notes.md, 9)."""

    __slots__ = ("struct_at", "words", "offsets")

    def __init__(self, params: tuple[Any, ...]) -> None:
        super().__init__(params)
        self.struct_at = 8 * len(self.buffers)
        self.words = -(-(self.struct_at + max(self.size, 1)) // 8)
        self.offsets = np.array([8 * k for k in range(len(self.buffers))] + [self.struct_at],
                                dtype=np.uint64)

    def block(self) -> tuple[np.ndarray, np.ndarray]:
        """A new parameter block and the array of its parts' addresses."""
        memory = np.zeros(self.words, dtype=np.uint64)
        return memory, self.offsets + np.uint64(memory.ctypes.data)

    def fill(self, memory: np.ndarray, args: list[Any]) -> None:
        """``args`` written into the block ``memory``."""
        for j, k in enumerate(self.buffers):
            memory[j] = args[k].buffer.mem.ptr
        struct.pack_into(self.fmt, memory, self.struct_at, *self.fields(args))


class _Bound:
    """One launch made ready to repeat on the calling thread (``Backend.bind``): its
    parameters laid out once in a block of its own (a pointer per buffer, then the struct of
    the rest), with the address of each in ``cuLaunchKernel``'s parameter array. A call
    writes its holes' pointers into the block (and, where a scalar hole changes, the
    struct) and launches with the driver call: CuPy's per-argument conversion costs 2.6 us
    more per launch on the H100 host (../shared/design/fast-path.md 3.2). The driver copies
    the parameters at the launch, so the next call may rewrite them. ``source`` writes that
    call as lines of a replay's generated runner."""

    __slots__ = ("h", "queue", "kernel", "function", "stream_handle", "grid", "block",
                 "layout", "memory", "params", "pointers", "pointer_holes", "scalar_holes",
                 "fields")

    def __init__(self, h: Any, program: _Kernel, ir: Any, args: list[Any],
                 holes: tuple[int, ...], n: int, groups: int | None, block: int) -> None:
        layout = program.layout
        if layout is None:
            layout = program.layout = _Layout(ir.params)
        self.h = h
        self.queue = h.stream()
        self.kernel = program.name
        self.function = program.function.handle
        self.stream_handle = driver.stream_handle(self.queue.ptr)
        if groups is None:
            self.block, self.grid = block, (n + block - 1) // block
        else:
            self.block, self.grid = WORK_GROUP, groups
        self.layout = layout
        self.memory, self.params = layout.block()
        self.pointers = self.memory[:len(layout.buffers)]  # a view: writes land in the block
        slot = layout.slot
        self.pointer_holes = tuple((j, slot[k]) for j, k in enumerate(holes) if k in slot)
        for k, j in slot.items():
            if k not in holes:
                self.pointers[j] = args[k].buffer.mem.ptr
        field = {k: j for j, k in enumerate(layout.scalars)}
        self.scalar_holes = tuple((j, field[k]) for j, k in enumerate(holes) if k in field)
        self.fields = layout.fields([0 if k in holes else a for k, a in enumerate(args)])
        struct.pack_into(layout.fmt, self.memory, layout.struct_at, *self.fields)

    def source(self, name: str, values: list[str]) -> tuple[list[str], dict[str, Any]]:
        """Lines that write the holes' expressions ``values`` (in hole order), make the
        stream wait for the marks in ``waits``, launch, and name the launch's ``event``; and
        the globals they read, each prefixed by ``name``."""
        # ``name`` itself keeps the block and the parameter array, whose address a line
        # holds as a number, alive as long as the runner.
        names = {name: self, f"{name}_pointers": self.pointers, f"{name}_stream": self.queue,
                 f"{name}_launch": driver.launcher(), f"{name}_function": self.function,
                 f"{name}_stream_handle": self.stream_handle,
                 f"{name}_failed": driver.launch_failed, f"{name}_mark": _Mark,
                 f"{name}_active": self.h.active}
        lines = [f"{name}_pointers[{slot}] = {values[j]}.buffer.mem.ptr"
                 for j, slot in self.pointer_holes]
        lines += self._scalar_lines(name, values, names)
        launch = [f"status = {name}_launch({name}_function, {self.grid}, 1, 1, {self.block}, "
                  f"1, 1, 0, {name}_stream_handle, {self.params.ctypes.data}, 0)[0]",
                  "if status:",
                  f"    {name}_failed(status, {self.kernel!r})"]
        waits = [f"for mark in waits: {name}_stream.wait_event(mark.event())"]
        if self.h.only:  # the process's only device is always current
            lines += ["if waits:", f"    {waits[0]}", *launch]
        else:
            lines += [f"with {name}_active():", "    if waits:", f"        {waits[0]}",
                      *(f"    {line}" for line in launch)]
        lines.append(f"event = {name}_mark({name}_stream)")
        return lines, names

    def _scalar_lines(self, name: str, values: list[str], names: dict[str, Any]) -> list[str]:
        """Lines that write the scalar holes into the struct and pack it into the block
        (none without scalar holes), their globals added to ``names``."""
        if not self.scalar_holes:
            return []
        layout = self.layout
        names.update({f"{name}_fields": self.fields, f"{name}_memory": self.memory,
                      f"{name}_pack": struct.Struct(layout.fmt).pack_into})
        lines = [f"{name}_fields[{k}] = "
                 + (f"int({values[j]})" if k in layout.bools else values[j])
                 for j, k in self.scalar_holes]
        return [*lines, f"{name}_pack({name}_memory, {layout.struct_at}, *{name}_fields)"]

    def graph_source(self, name: str, values: list[str]) -> tuple[list[str], dict[str, Any]]:
        """``source`` for a launch that is node ``{name}_node`` of the runner's plan graph
        (``PlanGraph``): the lines write the holes, wait, and copy the block into the node
        only where it changed since the node's last copy."""
        names = {name: self, f"{name}_pointers": self.pointers, f"{name}_stream": self.queue,
                 f"{name}_last": [0] * len(self.pointer_holes)}
        lines = ["dirty = False"]
        for n, (j, slot) in enumerate(self.pointer_holes):
            lines += [f"p = {values[j]}.buffer.mem.ptr",
                      f"if {name}_last[{n}] != p:",
                      f"    {name}_last[{n}] = {name}_pointers[{slot}] = p",
                      "    dirty = True"]
        if self.scalar_holes:  # always copied: a comparison would miss 0.0 against -0.0
            lines += [*self._scalar_lines(name, values, names), "dirty = True"]
        lines += ["if waits:", f"    for mark in waits: {name}_stream.wait_event(mark.event())",
                  "if dirty:",
                  f"    status = GRAPH_SET(GRAPH_EXEC, {name}_node, {name}_node_params)[0]",
                  "    if status:",
                  "        GRAPH_FAILED(status, 'cuGraphExecKernelNodeSetParams')"]
        return lines, names


# Copies a one-element result into page-locked host memory through that memory's device
# address: a kernel node, since a graph's memcpy node to host memory took about 2 us more of
# the device's time per launch on the H200 (docs/tuning-notes.md, 44).
HOST_COPY_KERNEL = "weft_host_copy"
HOST_COPY_SOURCE = f"""extern "C" __global__ void {HOST_COPY_KERNEL}(
    const unsigned char* __restrict__ source, unsigned char* __restrict__ destination,
    const int nbytes)
{{
    for (int k = threadIdx.x; k < nbytes; k += blockDim.x) destination[k] = source[k];
}}
"""


class HostCopy:
    """Where each launch of a plan's graph ends by copying a one-element result to
    page-locked host memory (``value``): reading the result after its launch is then a
    wait for the stream, without a copy of its own (a memcpy call and its round trip
    through the copy engine: an MCMC loop's ``float(lp(theta))``). The copy holds the value
    of the storage whose last write is ``entry``, for the thread ``owner`` that launches
    the graph on ``stream``."""

    __slots__ = ("graph", "node", "node_params", "memory", "params", "source", "entry",
                 "owner", "stream", "value")

    def __init__(self, source: int, destination: int, nbytes: int, stream: Any,
                 value: np.ndarray) -> None:
        self.memory = np.array([source, destination, nbytes], dtype=np.uint64)
        self.params = np.array([0, 8, 16], dtype=np.uint64) + np.uint64(self.memory.ctypes.data)
        self.graph: driver.Graph | None = None  # and its node, once the graph is made
        self.node: Any = None
        self.node_params: Any = None
        self.source = source
        self.entry: Any = None
        self.owner = threading.get_ident()
        self.stream = stream
        self.value = value

    def retarget(self, source: int) -> None:
        """Copy from the device address ``source`` from the next launch on."""
        self.memory[0] = self.source = source
        set_params, _ = driver.graph_calls()
        status = set_params(self.graph.exec, self.node, self.node_params)[0]
        if status:
            driver.graph_failed(status, "cuGraphExecKernelNodeSetParams")

    def read(self, storage: Any) -> Any:
        """``storage``'s value (a NumPy scalar) where this copy holds it and the calling
        thread launched it; None otherwise."""
        if self.entry is not storage.write or threading.get_ident() != self.owner:
            return None
        self.stream.synchronize()
        return self.value[0]


class PlanGraph:
    """A replay's launches on the calling thread as one CUDA graph (``driver.Graph``): a
    call copies a kernel's parameter block into its node only where a hole changed since
    the last call (results and temporaries from the free lists, and inputs that are the
    same arrays, keep their addresses from call to call), then launches the whole graph
    with one driver call. One kernel launched alone cost about 4 us of driver time on the
    H100 host, a graph launch about 2 and a node's copy about 1
    (../shared/design/fast-path.md, 6.3). The results named in ``read_back`` (one element
    each) are copied to host memory by ``copy_function`` at the end of every launch
    (``HostCopy``)."""

    __slots__ = ("h", "bounds", "graph", "stream_handle", "read_back", "host_copies",
                 "_memory")

    def __init__(self, h: Any, bounds: list[_Bound], read_back: list[tuple[str, DType]] = (),
                 copy_function: Any = None) -> None:
        self.h = h
        self.bounds = bounds
        self.read_back = [name for name, _ in read_back]
        stream = bounds[0].queue
        slot = 16  # each value in a slot of its own, aligned for any dtype
        with h.active():
            pinned = h.cupy.cuda.alloc_pinned_memory(slot * max(len(read_back), 1))
            mapped = h.cupy.cuda.runtime.pointerGetAttributes(pinned.ptr).devicePointer
            scratch = h.cupy.cuda.alloc(slot)  # copied from until a launch names its result
            self.host_copies = [
                HostCopy(scratch.ptr, mapped + k * slot, dtype.itemsize, stream,
                         np.frombuffer(pinned, dtype.numpy, 1, k * slot))
                for k, (_, dtype) in enumerate(read_back)]
            launches = [(b.function, b.grid, b.block, int(b.params.ctypes.data))
                        for b in bounds]
            launches += [(copy_function, 1, 32, int(c.params.ctypes.data))
                         for c in self.host_copies]
            self.graph = driver.Graph(launches)
        self._memory = (pinned, scratch)
        for copy, node, params in zip(self.host_copies, self.graph.nodes[len(bounds):],
                                      self.graph.node_params[len(bounds):]):
            copy.graph, copy.node, copy.node_params = self.graph, node, params
        self.stream_handle = bounds[0].stream_handle

    def source(self, names_of_steps: list[str]) -> tuple[list[str], list[str], dict[str, Any]]:
        """The lines that begin a runner's plan (its ``event``), the lines that end it (the
        host copies' sources, then the graph's launch), and the globals of both and of the
        steps' ``graph_source`` lines, whose names are ``names_of_steps``."""
        graph = self.graph
        set_params, launch = driver.graph_calls()
        names: dict[str, Any] = {
            "GRAPH": self, "GRAPH_EXEC": graph.exec, "GRAPH_SET": set_params,
            "GRAPH_LAUNCH": launch, "GRAPH_FAILED": driver.graph_failed,
            "GRAPH_STREAM": self.bounds[0].queue, "GRAPH_STREAM_HANDLE": self.stream_handle,
            "GRAPH_MARK": _Mark}
        for name, node, params in zip(names_of_steps, graph.nodes, graph.node_params):
            names[f"{name}_node"] = node
            names[f"{name}_node_params"] = params
        begin = ["event = GRAPH_MARK(GRAPH_STREAM)"]
        end = []
        for k, (result, copy) in enumerate(zip(self.read_back, self.host_copies)):
            names[f"HOST_COPY{k}"] = copy
            end += [f"p = {result}.buffer.mem.ptr",
                    f"if HOST_COPY{k}.source != p:",
                    f"    HOST_COPY{k}.retarget(p)",
                    f"HOST_COPY{k}.entry = {result}.write",
                    f"{result}.host_copy = HOST_COPY{k}"]
        end += ["status = GRAPH_LAUNCH(GRAPH_EXEC, GRAPH_STREAM_HANDLE)[0]",
                "if status:",
                "    GRAPH_FAILED(status, 'cuGraphLaunch')"]
        return begin, end, names


def _wait(stream: Any, marks: list[_Mark]) -> None:
    for mark in marks:
        stream.wait_event(mark.event())
