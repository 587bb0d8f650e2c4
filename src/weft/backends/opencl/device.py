"""An OpenCL device as weft holds it: its context (with PoCL's companion device where there is
one, companion.py), and per host thread a queue, a memory pool and the companion's queue."""

from __future__ import annotations

import threading
import warnings
from typing import Any

import numpy as np

from ...storage import events_before_launch
from . import occupancy

_LOCAL_SIZE = 256


# Bytes of a block the host reads in place (``CLDevice.host_read_block``): any one element.
HOST_READ_BYTES = 16
# Free blocks a thread keeps for its next results (more go back to the driver).
HOST_READ_KEPT = 1024


class _Buffer:
    """A pooled OpenCL buffer and the queue (thread) whose pool it came from; or a block the
    host reads in place (``host``: its memory as NumPy; ``home``: the thread's free list it
    goes back to, with ``block``, the memory's own array)."""

    __slots__ = ("mem", "queue", "host", "home", "block")

    def __init__(self, mem: Any, queue: Any, host: Any = None, home: list | None = None,
                 block: Any = None) -> None:
        self.mem = mem
        self.queue = queue
        self.host = host
        self.home = home
        self.block = block


class CLDevice:
    """One OpenCL device with its context and per-thread queues and pools."""

    def __init__(self, cl: Any, device: Any, companion: Any = None) -> None:
        self.cl = cl
        self.device = device
        self.companion = companion  # PoCL's basic device, for small launches (companion.py)
        self.name = device.name.strip()
        self.platform = device.platform.name.strip()
        self.supports_fp64 = bool(device.double_fp_config)
        self.is_cpu = bool(device.type & cl.device_type.CPU)
        self.max_alloc = int(device.max_mem_alloc_size)
        self.local_size = min(_LOCAL_SIZE, int(device.max_work_group_size))
        self.compute_units = int(device.max_compute_units)
        self.parameter_bytes = int(device.max_parameter_size)
        self.sm = None if self.is_cpu else occupancy.device_sm(device)  # NVIDIA's limits
        self.context = cl.Context([device] if companion is None else [device, companion])
        # Memory host and device share, coherent at every synchronization (OpenCL 2.0's
        # fine-grained buffer SVM): PoCL's CPU device has it; NVIDIA's driver does not.
        self.fine_grained_svm = _fine_grained_svm(cl, device)
        self._local = threading.local()
        self._held: list[tuple[list[Any], Any]] = []  # (``keep_until_complete``)
        self._held_lock = threading.Lock()
        self.last_group: bool | None = None  # decided at the first split reduction
        self.lean_builds: bool | None = None  # decided at the first build (pocl_builds)

    def queue(self) -> Any:
        q = getattr(self._local, "queue", None)
        if q is None:
            q = self._start_thread()[0]
        return q

    def queue_and_pool(self) -> tuple[Any, Any]:
        """The calling thread's queue and memory pool (one thread-local lookup)."""
        local = self._local
        try:
            return local.queue, local.pool
        except AttributeError:
            return self._start_thread()

    def _start_thread(self) -> tuple[Any, Any]:
        from pyopencl.tools import DeferredAllocator, ImmediateAllocator, MemoryPool

        q = self.cl.CommandQueue(self.context, self.device)
        if self.is_cpu:
            # A CPU device's buffers are host memory its driver makes at first use: making
            # each one at once (the immediate allocator queues a migration for it) took
            # 90-125 us a new buffer on PoCL, against 1 us deferred (a request past the
            # device's largest buffer is still refused at once, by ``allocate``).
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "Memory pools expect non-deferred",
                                        UserWarning)
                pool = MemoryPool(DeferredAllocator(self.context))
        else:
            pool = MemoryPool(ImmediateAllocator(q))
        self._local.queue, self._local.pool = q, pool
        return q, pool

    def keep_until_complete(self, events: list[Any], held: Any) -> None:
        """Hold ``held`` (host memory under a buffer: an adopted array, an SVM block) until
        ``events`` have completed: OpenCL keeps a buffer alive for the commands that use it,
        not the host memory under it. What earlier calls held is let go once done."""
        running = [e for e in events if e.command_execution_status > 0]
        with self._held_lock:
            self._held = [(e, h) for e, h in self._held
                          if any(x.command_execution_status > 0 for x in e)]
            if running:
                self._held.append((running, held))

    def host_read_blocks(self) -> list[tuple[Any, Any]]:
        """The calling thread's free blocks the host reads in place (``host_read_block``)."""
        blocks = getattr(self._local, "host_read", None)
        if blocks is None:
            blocks = self._local.host_read = []
        return blocks

    def host_read_block(self) -> tuple[Any, Any]:
        """A buffer of ``HOST_READ_BYTES`` over fine-grained SVM, and that memory as a NumPy
        array: once a kernel that wrote it has finished, the host reads it in place (as the
        failure flag, ``OpenCLBackend.report_flag``)."""
        cl = self.cl
        block = cl.svm_empty(self.context, cl.svm_mem_flags.READ_WRITE
                             | cl.svm_mem_flags.SVM_FINE_GRAIN_BUFFER, (HOST_READ_BYTES,),
                             np.uint8)
        mem = cl.Buffer(self.context, cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR,
                        hostbuf=block)
        return mem, block

    def existing_queue(self) -> Any:
        """The calling thread's queue, or None where it has queued nothing."""
        return getattr(self._local, "queue", None)

    def quick_queue(self) -> Any:
        """The calling thread's queue on the companion device (``companion``), whose
        commands have run when enqueued; None where there is no companion."""
        if self.companion is None:
            return None
        q = getattr(self._local, "quick", None)
        if q is None:
            q = self._local.quick = self.cl.CommandQueue(self.context, self.companion)
        return q

    def settled_quick_queue(self, reads: Any, writes: Any = ()) -> Any:
        """The quick queue for a command reading ``reads`` and writing ``writes``, once
        everything the thread queued has finished; None where there is no companion, or
        where the command would wait for work still running (the thread's own queue then
        orders it without waking the host: a sum of 65536 doubles read back took 160 us
        so, 210-430 through the companion). The thread's queue finishes first because the
        pool hands a block back to the thread as soon as its last user is queued, and a
        companion command, unlike the queue's next one, would not wait for that user; a
        read then also speaks for every report, as a blocking read on the queue does."""
        quick = self.quick_queue()
        if quick is None:
            return None
        complete = self.cl.command_execution_status.COMPLETE
        if any(e.command_execution_status != complete
               for e in events_before_launch(reads, writes, quick)):
            return None
        main = self.existing_queue()
        if main is not None:
            main.finish()
        return quick

    def reading_queue(self, storages: Any) -> tuple[Any, list[Any] | None]:
        """The queue a read of ``storages`` back to the host goes to (the companion's where
        ``settled_quick_queue`` allows, else the thread's) and the events it waits for."""
        quick = self.settled_quick_queue(storages)
        if quick is not None:
            return quick, None
        q = self.queue()
        return q, events_before_launch(storages, (), q) or None


def _fine_grained_svm(cl: Any, device: Any) -> bool:
    try:
        capabilities = device.svm_capabilities
    except Exception:  # noqa: BLE001 - an OpenCL 1.2 driver has no SVM query
        return False
    return bool(capabilities & cl.device_svm_capabilities.FINE_GRAIN_BUFFER)
