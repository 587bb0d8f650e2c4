"""How a CUDA kernel launches: the module function and its argument layout, the marks that
order work across streams, and launches bound once per thread for replays (``_Bound``).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from ...dialect import argument_struct
from ...ir import BufferParam
from ...skeletons.reduce import WORK_GROUP
from ...templates import picker


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
    __slots__ = ("module", "function", "name", "layout", "resident")

    def __init__(self, module: Any, name: str) -> None:
        self.module = module
        self.function = module.get_function(name)
        self.name = name
        self.layout: _Layout | None = None  # made at the first launch, from the kernel's IR
        self.resident = 0  # blocks of WORK_GROUP threads per SM, once asked


class _Layout:
    """How a kernel's arguments travel: buffers as pointers, the rest packed into the one
    struct the CUDA dialect declares (``dialect.argument_struct``). CuPy converts each
    argument separately, about 0.5 us apiece on the GPU machine; the struct makes a launch
    of a 30-argument kernel 11 us faster there (docs/tuning-notes.md, 9)."""

    __slots__ = ("buffers", "scalars", "bools", "pack")

    def __init__(self, params: tuple[Any, ...]) -> None:
        fmt, scalars, self.bools = argument_struct(params)
        buffers = [k for k, p in enumerate(params) if isinstance(p, BufferParam)]
        self.buffers = picker(tuple(buffers))
        self.scalars = picker(tuple(scalars))
        self.pack = struct.Struct(fmt).pack

    def values(self, args: list[Any]) -> tuple[Any, ...]:
        fields = self.scalars(args)
        if self.bools:
            fields = list(fields)
            for k in self.bools:
                fields[k] = int(fields[k])
        return (*[s.buffer.mem for s in self.buffers(args)], np.void(self.pack(*fields)))


class _Bound:
    """One launch made ready to repeat on the calling thread (``Backend.bind``): its
    parameters laid out once in a block of its own (a pointer per buffer, then the struct of
    the rest), with the address of each in ``cuLaunchKernel``'s parameter array. A call
    writes its holes' pointers into the block (and, where a scalar hole changes, the
    struct) and launches with the driver call: CuPy's per-argument conversion costs 2.6 us
    more per launch on the H100 host (../shared/design/fast-path.md 3.2). The driver copies
    the parameters at the launch, so the next call may rewrite them. ``source`` writes that
    call as lines of a replay's generated runner."""

    __slots__ = ("h", "queue", "function", "grid", "block", "memory", "pointers", "params_at",
                 "pointer_holes", "scalar_holes", "bool_fields", "fields", "struct_at",
                 "fmt", "params")

    def __init__(self, h: Any, program: _Kernel, ir: Any, args: list[Any],
                 holes: tuple[int, ...], n: int, groups: int | None, block: int) -> None:
        fmt, scalars, bools = argument_struct(ir.params)
        buffers = [k for k, p in enumerate(ir.params) if isinstance(p, BufferParam)]
        self.h = h
        self.queue = h.stream()
        self.function = program.function.ptr
        if groups is None:
            self.block, self.grid = block, (n + block - 1) // block
        else:
            self.block, self.grid = WORK_GROUP, groups
        self.fmt = fmt
        self.struct_at = 8 * len(buffers)
        size = struct.calcsize(fmt)
        self.memory = np.zeros(-(-(self.struct_at + max(size, 1)) // 8), dtype=np.uint64)
        self.pointers = self.memory[:len(buffers)]  # a view: writes land in the block
        base = self.memory.ctypes.data
        self.params = np.array([base + 8 * k for k in range(len(buffers))]
                               + [base + self.struct_at], dtype=np.uint64)
        self.params_at = self.params.ctypes.data
        slot = {k: j for j, k in enumerate(buffers)}
        self.pointer_holes = tuple((j, slot[k]) for j, k in enumerate(holes) if k in slot)
        for k, j in slot.items():
            if k not in holes:
                self.pointers[j] = args[k].buffer.mem.ptr
        field = {k: j for j, k in enumerate(scalars)}
        self.scalar_holes = tuple((j, field[k]) for j, k in enumerate(holes) if k in field)
        self.bool_fields = frozenset(bools)
        self.fields = [0 if k in holes else int(args[k]) if j in bools else args[k]
                       for j, k in enumerate(scalars)]
        struct.pack_into(fmt, self.memory, self.struct_at, *self.fields)

    def source(self, name: str, values: list[str]) -> tuple[list[str], dict[str, Any]]:
        """Lines that write the holes' expressions ``values`` (in hole order), make the
        stream wait for the marks in ``waits``, launch, and name the launch's ``event``; and
        the globals they read, each prefixed by ``name``."""
        # ``name`` itself keeps the block and the parameter array, whose addresses the
        # lines hold as numbers, alive as long as the runner.
        names = {name: self, f"{name}_pointers": self.pointers, f"{name}_stream": self.queue,
                 f"{name}_launch": self.h.cupy.cuda.driver.launchKernel,
                 f"{name}_mark": _Mark, f"{name}_active": self.h.active}
        lines = [f"{name}_pointers[{slot}] = {values[j]}.buffer.mem.ptr"
                 for j, slot in self.pointer_holes]
        if self.scalar_holes:
            names.update({f"{name}_fields": self.fields, f"{name}_memory": self.memory,
                          f"{name}_pack": struct.Struct(self.fmt).pack_into})
            for j, k in self.scalar_holes:
                value = f"int({values[j]})" if k in self.bool_fields else values[j]
                lines.append(f"{name}_fields[{k}] = {value}")
            lines.append(f"{name}_pack({name}_memory, {self.struct_at}, *{name}_fields)")
        launch = (f"{name}_launch({self.function}, {self.grid}, 1, 1, {self.block}, 1, 1, 0, "
                  f"{self.queue.ptr}, {self.params_at}, 0)")
        waits = [f"for mark in waits: {name}_stream.wait_event(mark.event())"]
        if self.h.only:  # the process's only device is always current
            lines += ["if waits:", f"    {waits[0]}", launch]
        else:
            lines += [f"with {name}_active():", "    if waits:", f"        {waits[0]}",
                      f"    {launch}"]
        lines.append(f"event = {name}_mark({name}_stream)")
        return lines, names


def _wait(stream: Any, marks: list[_Mark]) -> None:
    for mark in marks:
        stream.wait_event(mark.event())
