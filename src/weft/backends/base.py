"""The protocol every backend implements. Nothing outside backends/ imports a backend module;
devices.py finds them by name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from ..dialect import Dialect
from ..ir import KernelIR
from ..storage import Storage
from ..target import Traits


def thread_group_counter(backend: Any, device: Any) -> Storage:
    """The calling thread's count of finished work-groups on ``device`` (``ir.GROUP_COUNTER``,
    kept in the handle's thread-local state next to the thread's queue or stream): uploaded as
    zero once, and reset to zero by the last group of every launch that uses it, so the
    launches of one queue, which run in order, can share it."""
    local = device.handle._local
    counter = getattr(local, "counter", None)
    if counter is None:
        counter = local.counter = backend.upload(device, np.zeros(1, dtype=np.int32))
    return counter


class GenericBound:
    """A launch made ready to repeat through the backend's general ``launch`` (backends
    with nothing to set up once, such as the reference interpreter): each call fills the
    holes of a copy of the arguments."""

    __slots__ = ("backend", "device", "program", "ir", "args", "holes", "n", "groups")
    queue = None  # the general launch orders and records its own work

    def __init__(self, backend: Any, device: Any, program: Any, ir: KernelIR, args: list[Any],
                 holes: tuple[int, ...], n: int, groups: int | None) -> None:
        self.backend, self.device, self.program, self.ir = backend, device, program, ir
        self.args, self.holes, self.n, self.groups = list(args), holes, n, groups

    def fire(self, values: tuple[Any, ...], reads: list[Storage], writes: list[Storage]
             ) -> None:
        """Launch with the holes set to ``values`` (the backend orders and records it)."""
        args = self.args.copy()
        for k, v in zip(self.holes, values):
            args[k] = v
        self.backend.launch(self.device, self.program, self.ir, args, self.n, writes, reads,
                            self.groups)

    def source(self, name: str, values: list[str]) -> tuple[list[str], dict[str, Any]]:
        """A replay runner's lines: ``fire`` with the holes' expressions; the launch orders
        and records itself (``event`` None: nothing for the runner to record)."""
        return ([f"{name}.fire(({', '.join(values)},), reads, writes)", "event = None"],
                {name: self})


class DeviceHandle(Protocol):
    """What a backend knows about one of its devices."""

    name: str
    supports_fp64: bool


class Backend(Protocol):
    kind: str  # "opencl", "cuda" or "reference"
    dialect: Dialect | None  # None: the backend interprets kernel IR directly

    def dialect_of(self, device: Any) -> Dialect | None:
        """The dialect kernels for ``device`` are written in (``dialect``, or a variant of it
        for a kind of device: OpenCL's for CPUs computes exp and log itself)."""

    def discover(self) -> list[DeviceHandle]:
        """The devices this backend can use (empty when its library or driver is missing)."""

    def allocate(self, device: Any, dtype: Any, size: int) -> Storage:
        """A new uninitialized buffer of ``size`` elements; ``MemoryError`` naming the size."""

    def allocator(self, device: Any, dtype: Any, size: int) -> Callable[[], Storage]:
        """``allocate(device, dtype, size)`` for the calling thread, as a function of no
        arguments with what it can look up once looked up (a replay's runner allocates
        the same results on every call)."""

    def read_back_allocator(self, device: Any, dtype: Any, size: int) -> Callable[[], Storage]:
        """``allocator`` for results the host is likely to read (a replay's one-element
        results): where the backend can, in memory the host reads without a command."""

    def upload(self, device: Any, data: np.ndarray) -> Storage:
        """A new buffer holding ``data`` (C-contiguous, already of a weft dtype)."""

    def adopt_host(self, device: Any, data: np.ndarray) -> Storage | None:
        """A buffer over ``data``'s own memory (C-contiguous, of a weft dtype, which the
        caller gives up: a host library's result), where the device computes in host memory;
        None where ``upload`` must copy it."""

    def download(self, *storages: Storage) -> list[np.ndarray]:
        """Each whole buffer as a new flat NumPy array (the caller's own), read after one
        wait for their pending writes (all on one device). The copies go on the calling
        thread's queue, after all it queued there before, and return when done: that work
        has finished too."""

    def map_for_reading(self, storage: Storage) -> tuple[np.ndarray, Callable[[], None]] | None:
        """Where the host can read ``storage`` in place (a CPU device's memory, mapped): its
        elements as a flat NumPy array once its pending writes are done, and how to give it
        back (before anything writes it again); None where it must be copied (a GPU's)."""

    def read_element(self, storage: Storage, offset: int) -> Any:
        """Element ``offset`` of ``storage`` as a NumPy scalar, read as ``download`` reads
        (after its pending writes, on the calling thread's queue, which has then drained up
        to the read): a value a loop reads every step, so the shortest way there."""

    def report_flag(self, device: Any) -> tuple[Storage, np.ndarray | None]:
        """A one-int32 buffer, zero, that checked kernels set when a check fails
        (``ir.ERROR_SEEN``), and a NumPy view of it where the host reads it without a
        transfer (None: the flag is only written, and reports are read by ``download``)."""

    def fingerprint(self, device: Any) -> str:
        """Device, driver and compiler identity, for the disk cache key."""

    def build_options(self, device: Any, ir: KernelIR) -> list[str]:
        """The compiler's options for ``ir``'s kernel (part of the disk cache key)."""

    def compile(self, device: Any, source: str, name: str, options: list[str],
                keep_binary: bool = True) -> tuple[Any, bytes | None]:
        """Build ``source``; return (program, binary to store on disk or None: always None
        unless ``keep_binary``)."""

    def load_binary(self, device: Any, binary: bytes, name: str, options: list[str]) -> Any:
        """A program from a binary ``compile`` returned earlier; raises if it is unusable."""

    def from_ir(self, device: Any, ir: KernelIR) -> Any:
        """A program straight from IR (backends without a dialect)."""

    def traits(self, device: Any) -> Traits:
        """What ``device`` prefers for launches (``target.Traits``), asked once per device."""

    def resident_groups(self, device: Any, program: Callable[[], Any]) -> int:
        """Work-groups of the reduction skeleton's size that the device runs at once with
        the kernel ``program()`` builds (0: unknown, and ``program`` is not called)."""

    def launch(self, device: Any, program: Any, ir: KernelIR, args: list[Any], n: int,
               outputs: list[Storage], inputs: list[Storage], groups: int | None = None
               ) -> None:
        """Enqueue ``program`` (built from ``ir``; ``args`` in the order of its parameters)
        over ``n`` elements (element-wise) or ``groups`` work-groups of the reduction
        skeleton's size, recording events on the storages."""

    def bind(self, device: Any, program: Any, ir: KernelIR, args: list[Any],
             holes: tuple[int, ...], n: int, groups: int | None = None,
             after: Sequence[Any] = ()) -> Any:
        """``program``'s launch with ``args`` made ready to repeat on the calling thread
        (replay.py): an object with the ``queue`` it launches on and a method
        ``source(name, values)`` giving the lines of a generated runner that fill the
        positions ``holes`` with the expressions ``values``, launch after the events or
        marks in the runner's ``waits`` and name the launch's ``event``, with the globals
        those lines read (``GenericBound`` for a backend with nothing to prepare).
        ``after``: the bound launches of the replay's earlier steps."""

    def plan_graph(self, device: Any, bounds: list[Any],
                   read_back: list[tuple[str, Any]] = ()) -> Any | None:
        """A replay's launches ``bounds`` (``bind``'s, in order) as one unit the driver
        launches at once, where the backend has one (CUDA graphs): an object whose
        ``source(step_names)`` gives a runner's opening and closing lines and their globals,
        the steps' lines then coming from each bound's ``graph_source``. None: each launch
        goes on its own (``source``). ``read_back``: the one-element results (their names
        in the runner and dtypes) the unit may also copy to the host for a later read."""

    def synchronize(self, device: Any) -> None:
        """Wait for all work the calling thread queued on ``device``."""

    def is_ready(self, storage: Storage) -> bool:
        """Whether every write to ``storage`` has finished (never blocks)."""

    def release(self, device: Any, storage: Storage) -> None:
        """Called when ``storage`` dies, before its buffer returns to the pool."""
