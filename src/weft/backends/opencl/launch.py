"""How an OpenCL kernel launches: a built program's kernel object per host thread, its
arguments' layout (buffers, then one packed struct), and launches bound once per thread for
replays (``_Bound``), whose holes a generated runner fills.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ...dialect import ArgumentLayout
from ...skeletons.reduce import WORK_GROUP
from . import occupancy


class _Kernel:
    """A built program and, per host thread, its kernel object (kernel arguments are state)."""

    def __init__(self, program: Any, name: str, device: Any,
                 resources: occupancy.Resources | None = None,
                 quick_build: Callable[[], Any] | None = None,
                 build: Callable[[], Any] | None = None) -> None:
        self._program = program  # or None, and ``build`` makes it at the first launch
        self._build = build
        self._device = device
        self._group_size: int | None = None
        self.name = name
        self.resources = resources  # registers and shared memory, where the driver reports them
        self._local = threading.local()
        self._layout: _Layout | None = None  # from the kernel's parameters, at its first launch
        # The kernel built for PoCL's companion device (companion.py), at its first small
        # launch.
        self._quick_build = quick_build
        self._quick: _Kernel | None = None
        self._lock = threading.Lock()

    @property
    def program(self) -> Any:
        """The built program (built now, at its first use, where it was left to it)."""
        if self._program is None:
            with self._lock:
                if self._program is None:
                    assert self._build is not None
                    self._program = self._build()
        return self._program

    @property
    def group_size(self) -> int:
        """The work-group size the kernel asks for (reqd_work_group_size: an element walk's
        groups of one work-item); 0 where it asks for none."""
        if self._group_size is None:
            import pyopencl as cl

            self._group_size = int(cl.Kernel(self.program, self.name).get_work_group_info(
                cl.kernel_work_group_info.COMPILE_WORK_GROUP_SIZE, self._device)[0])
        return self._group_size

    def quick(self, companion: Any) -> _Kernel:
        """The kernel built for the ``companion`` device, the same arguments' layout."""
        with self._lock:
            if self._quick is None:
                assert self._quick_build is not None, "a kernel built with no companion"
                quick = _Kernel(self._quick_build(), self.name, companion)
                quick._layout = self._layout
                self._quick = quick
            return self._quick

    def launch_shape(self, n: int, groups: int | None, local_size: int
                     ) -> tuple[tuple[int], tuple[int]]:
        """The global and local sizes of a launch over ``n`` elements (one work-item each,
        in groups of ``local_size``) or of ``groups`` work-groups of the size the kernel asks
        for, else of the reduction skeleton's."""
        if groups is None:
            return ((n + local_size - 1) // local_size * local_size,), (local_size,)
        size = self.group_size or WORK_GROUP
        return (groups * size,), (size,)

    def bind(self, cl: Any, params: tuple[Any, ...], args: list[Any]) -> tuple[Any, list[Any]]:
        """This thread's kernel object and ``args`` as it takes them (``_Layout``). The
        object is told its arguments' types once: PyOpenCL then sets them all in one
        precompiled call."""
        layout = self._layout
        if layout is None:
            layout = self._layout = _Layout(params)
        k = getattr(self._local, "kernel", None)
        if k is None:
            k = self._local.kernel = cl.Kernel(self.program, self.name)
            k.set_scalar_arg_dtypes(layout.dtypes)
        return k, layout.values(args)


class _Layout(ArgumentLayout):
    """How a kernel's arguments reach PyOpenCL: each buffer's storage as its memory object,
    then every other argument packed into the one struct the dialect declares
    (``dialect.argument_struct``: C's layout, a bool as its byte), set as raw bytes. On PoCL
    each argument set costs a few hundred ns: a density's 24 arguments took 6-9 us a call,
    its 5 buffers and one struct about 1.5."""

    __slots__ = ("pack", "dtypes")

    def __init__(self, params: tuple[Any, ...]) -> None:
        super().__init__(params)
        self.pack = struct.Struct(self.fmt).pack
        self.dtypes = [None] * len(self.buffers) + [np.dtype(f"V{self.size}")]

    def values(self, args: list[Any]) -> list[Any]:
        return [*(args[k].buffer.mem for k in self.buffers), self.pack(*self.fields(args))]


class _Bound:
    """One launch made ready to repeat on the calling thread (``Backend.bind``): a kernel
    object of its own whose arguments are set once (OpenCL arguments are state), so a call
    sets only its holes: a buffer one by one, and where a scalar hole changes, the struct
    packed again and every argument through the typed ``set_args`` (setting one struct
    alone costs PyOpenCL ten times as much). ``source`` writes that call as lines of a
    replay's generated runner."""

    __slots__ = ("kernel", "queue", "settle", "args", "layout", "fields", "buffer_holes",
                 "scalar_holes", "global_size", "local_size")

    def __init__(self, h: Any, program: _Kernel, ir: Any, args: list[Any],
                 holes: tuple[int, ...], n: int, groups: int | None, queue: Any) -> None:
        cl = h.cl
        layout = program._layout
        if layout is None:
            layout = program._layout = _Layout(ir.params)
        self.layout = layout
        self.kernel = cl.Kernel(program.program, program.name)
        self.kernel.set_scalar_arg_dtypes(layout.dtypes)
        self.queue = queue
        # On PoCL's companion device (companion.py): the thread's queue finishes and the host
        # waits for the other events first (``CLDevice.settled_quick_queue``).
        self.settle = h.queue().finish if queue.device != h.device else None
        field = {k: j for j, k in enumerate(layout.scalars)}
        self.buffer_holes = tuple((j, layout.slot[k]) for j, k in enumerate(holes)
                                  if k in layout.slot)
        self.scalar_holes = tuple((j, field[k]) for j, k in enumerate(holes) if k in field)
        known = [0 if k in holes else a for k, a in enumerate(args)]
        self.fields = layout.fields(known)
        # The constants once; a hole holds a null buffer until its call sets it.
        self.args = [None if k in holes else args[k].buffer.mem for k in layout.buffers]
        self.args.append(layout.pack(*self.fields))
        if not self.scalar_holes:
            self.kernel.set_args(*self.args)
        self.global_size, self.local_size = program.launch_shape(n, groups, h.local_size)

    def source(self, name: str, values: list[str]) -> tuple[list[str], dict[str, Any]]:
        """Lines that set the holes to the expressions ``values`` (storages and scalars, in
        hole order), enqueue after the events in ``waits`` and name the launch's ``event``;
        and the globals they read, each prefixed by ``name``."""
        import pyopencl as cl

        names = {name: self, f"{name}_kernel": self.kernel, f"{name}_queue": self.queue,
                 f"{name}_global": self.global_size, f"{name}_local": self.local_size,
                 f"{name}_enqueue": cl.enqueue_nd_range_kernel}
        lines = []
        if self.scalar_holes:
            names.update({f"{name}_args": self.args, f"{name}_fields": self.fields,
                          f"{name}_pack": self.layout.pack})
            for j, slot in self.buffer_holes:
                lines.append(f"{name}_args[{slot}] = {values[j]}.buffer.mem")
            for j, k in self.scalar_holes:
                value = f"int({values[j]})" if k in self.layout.bools else values[j]
                lines.append(f"{name}_fields[{k}] = {value}")
            lines += [f"{name}_args[-1] = {name}_pack(*{name}_fields)",
                      f"{name}_kernel.set_args(*{name}_args)"]
        else:
            lines += [f"{name}_kernel.set_arg({slot}, {values[j]}.buffer.mem)"
                      for j, slot in self.buffer_holes]
        names[f"{name}_out_of_memory"] = cl.MemoryError
        names[f"{name}_failed"] = self.out_of_memory
        if self.settle is not None:
            names[f"{name}_settle"], names[f"{name}_wait"] = self.settle, cl.wait_for_events
            lines += [f"{name}_settle()",
                      "if waits:", f"    {name}_wait(waits)", "    waits = None"]
        lines += ["try:",
                  f"    event = {name}_enqueue({name}_queue, {name}_kernel, {name}_global, "
                  f"{name}_local, None, waits)",
                  f"except {name}_out_of_memory as error:",
                  f"    {name}_failed(error)"]
        return lines, names

    def out_of_memory(self, error: Exception) -> None:
        raise MemoryError(f"out of device memory running {self.kernel.function_name} on "
                          f"{self.queue.device.name}") from error
