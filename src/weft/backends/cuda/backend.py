"""The CUDA backend: CuPy for memory, streams and events; NVRTC and the driver (through
``cuda-bindings``, ``driver.py``) for compiling, loading and launching kernels.

One non-blocking stream per host thread and device. Memory comes from CuPy's default memory
pool (NumBirch's pooled device memory), which hands a freed block back only to the stream that
allocated it, so work stays ordered without waiting. Ordering across streams uses *marks*: a
kernel records which stream wrote or read a buffer, and a CUDA event is recorded only when
another stream (or the host) has to wait for it. That keeps a launch to a few microseconds.
"""

from __future__ import annotations

import contextlib
import os
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ... import dtypes as dt
from ...skeletons.reduce import WORK_GROUP
from ...storage import ALIGNMENT, Storage, events_before_launch, record_launch
from ...target import LARGE_GRID, Traits, vector_widths
from ...tuning import rows_tuning
from ..base import thread_group_counter
from . import driver
from .dialect import CUDA
from .launch import (
    HOST_COPY_KERNEL,
    HOST_COPY_SOURCE,
    PlanGraph,
    _Bound,
    _Kernel,
    _Layout,
    _Mark,
    _wait,
)

_BLOCK = 256
# Downloads of several buffers go through page-locked memory up to this total (bytes).
_STAGED_BYTES = 1 << 20
# One buffer of up to this many bytes is read through the thread's page-locked block.
_SMALL_READ = 256
# Bytes of parameters a kernel takes on every CUDA release and GPU (schedule.fused keeps
# kernels within it).
CUDA_PARAMETER_BYTES = 4096


_CURRENT = contextlib.nullcontext()  # reusable: entering it does nothing


class _Buffer:
    """Device memory: a pooled block (``owner`` None) or memory another library owns."""

    __slots__ = ("mem", "stream", "owner", "ordered", "home")

    def __init__(self, mem: Any, stream: Any, owner: Any = None, ordered: bool = False,
                 home: list | None = None) -> None:
        self.mem = mem  # cupy.cuda.MemoryPointer
        self.stream = stream  # the allocating stream: the pool gives the block back to it
        self.owner = owner  # keeps foreign memory alive (a CuPy array over it)
        # The owner's memory came from CuPy's pool on ``stream`` (weft's own library calls):
        # it goes back to that stream like a pooled block, with no wait on the host.
        self.ordered = ordered
        self.home = home  # a small block's free list on its stream, where it goes back

# Small blocks go back to a free list of their stream and size instead of CuPy's pool:
# taking one skips CuPy's allocation inside ``with stream``, about 2 of the 4 us an
# allocation cost on the H100 host (../shared/design/fast-path.md 3.2). A thread's lists
# hold at most _FREE_HELD bytes, which CuPy's ``free_all_blocks`` does not reach.
_FREE_BYTES = 1 << 16
_FREE_HELD = 16 << 20


class CUDADevice:
    """One CUDA device and, per host thread, its stream."""

    def __init__(self, cupy: Any, index: int, only: bool = False) -> None:
        runtime = cupy.cuda.runtime
        props = runtime.getDeviceProperties(index)
        name = props["name"]
        self.cupy = cupy
        self.index = index
        self.name = (name.decode() if isinstance(name, bytes) else str(name)).strip()
        self.supports_fp64 = True
        self.is_cpu = False
        self.compute_units = int(props["multiProcessorCount"])
        self.capability = int(props["major"]) * 10 + int(props["minor"])
        self.max_alloc = int(props["totalGlobalMem"])
        # The process's only device is always the current one: no runtime call to ask.
        self.only = only
        self._local = threading.local()
        self.free_held = [0]  # bytes the threads' free lists hold (``free_list``)
        # Every thread's stream, for the life of the process: a stream CuPy destroys in its
        # finalizer could otherwise be destroyed by the cyclic garbage collector before the
        # finalizers of storages in the same garbage, which order their release on it (a
        # segfault seen on the H200 in an event recorded on a destroyed stream).
        self.streams: list[Any] = []

    def active(self) -> Any:
        """A context that makes this device current (free when it already is)."""
        if self.only or self.cupy.cuda.runtime.getDevice() == self.index:
            return _CURRENT
        return self.cupy.cuda.Device(self.index)

    def small_staging(self) -> tuple[Any, np.ndarray]:
        """The calling thread's page-locked block for small reads, and its bytes as NumPy."""
        staging = getattr(self._local, "staging", None)
        if staging is None:
            with self.active():
                block = self.cupy.cuda.alloc_pinned_memory(_SMALL_READ)
            staging = self._local.staging = (block, np.frombuffer(block, np.uint8,
                                                                  _SMALL_READ))
        return staging

    def free_list(self, nbytes: int) -> list:
        """The calling thread's free list of blocks of ``nbytes`` on its stream (each
        block's ``home``, where it goes back)."""
        local = self._local
        lists = getattr(local, "free", None)
        if lists is None:
            lists = local.free = {}
        home = lists.get(nbytes)
        if home is None:
            home = lists[nbytes] = []
        return home

    def existing_stream(self) -> Any:
        """The calling thread's stream, or None where it has queued nothing."""
        return getattr(self._local, "stream", None)

    def stream(self) -> Any:
        s = getattr(self._local, "stream", None)
        if s is None:
            with self.active():
                s = self.cupy.cuda.Stream(non_blocking=True)
            self._local.stream = s
            self.streams.append(s)  # (list.append is atomic: threads may race here)
        return s


class CUDABackend:
    kind = "cuda"
    dialect = CUDA

    def __init__(self) -> None:
        self._cupy: Any = None
        self._arch_cache: dict[int, int] = {}
        # Launch tuning (the `tune` suite of benchmarks/run.py measures elements per thread;
        # see docs/tuning-notes.md).
        self.per_thread_override = int(os.environ.get("WEFT_CUDA_PER_THREAD", "0"))
        self.block = int(os.environ.get("WEFT_CUDA_BLOCK", str(_BLOCK)))
        self.vector_override = int(os.environ.get("WEFT_CUDA_VECTOR", "0"))
        # Rows reductions read 16 bytes at a time; WEFT_CUDA_ROWS_VECTOR=0 reads elements.
        self.rows_vector = int(os.environ.get("WEFT_CUDA_ROWS_VECTOR", "16"))
        # Reductions over one segment finish in their last block (one launch, not two);
        # WEFT_CUDA_LAST_GROUP=0 gives the two-launch form, for comparison.
        self.last_group = os.environ.get("WEFT_CUDA_LAST_GROUP", "1") != "0"

    def _import(self) -> Any:
        if self._cupy is None:
            import cupy

            self._cupy = cupy
        return self._cupy

    def discover(self) -> list[CUDADevice]:
        try:
            cupy = self._import()
            count = cupy.cuda.runtime.getDeviceCount()
        except Exception:  # noqa: BLE001 - no CuPy, no driver or no GPU: no CUDA devices
            return []
        if not count:
            return []
        try:
            driver.nvrtc_version()
        except Exception as e:  # noqa: BLE001 - said aloud: the GPU is there but unusable
            warnings.warn(f"CuPy sees {count} GPU(s) but NVRTC cannot be loaded through "
                          f"cuda-bindings ({e}); weft will not use CUDA devices. Install "
                          "weft's CUDA extra for your CUDA version (e.g. pip install "
                          "'weft-arrays[cuda12]')", RuntimeWarning, stacklevel=2)
            return []
        return [CUDADevice(cupy, i, only=count == 1) for i in range(count)]

    # Memory ---------------------------------------------------------------------------

    def allocate(self, device: Any, dtype: Any, size: int) -> Storage:
        h = device.handle
        cupy = h.cupy
        nbytes = max(size, 1) * dtype.itemsize
        stream = h.stream()
        home = None
        if nbytes <= _FREE_BYTES:
            home = h.free_list(nbytes)
            if home:
                mem = home.pop()
                h.free_held[0] -= mem.mem.size
                return Storage(device, _Buffer(mem, stream, home=home), dtype, size)
        try:
            with h.active(), stream:
                mem = cupy.get_default_memory_pool().malloc(nbytes)
        except cupy.cuda.memory.OutOfMemoryError as e:
            raise MemoryError(
                f"out of device memory allocating {nbytes} bytes on {device} ({h.name})"
            ) from e
        return Storage(device, _Buffer(mem, stream, home=home), dtype, size)

    def allocator(self, device: Any, dtype: Any, size: int) -> Callable[[], Storage]:
        """``allocate`` with the calling thread's stream and free list looked up once."""
        h = device.handle
        nbytes = max(size, 1) * dtype.itemsize
        if nbytes > _FREE_BYTES:
            return lambda: self.allocate(device, dtype, size)
        home, stream, held = h.free_list(nbytes), h.stream(), h.free_held

        def allocate() -> Storage:
            if home:
                mem = home.pop()
                held[0] -= mem.mem.size
                return Storage(device, _Buffer(mem, stream, home=home), dtype, size)
            return self.allocate(device, dtype, size)
        return allocate

    def read_back_allocator(self, device: Any, dtype: Any, size: int) -> Callable[[], Storage]:
        """``allocator``: a graph's host copies read one-element results (``HostCopy``)."""
        return self.allocator(device, dtype, size)

    def upload(self, device: Any, data: np.ndarray) -> Storage:
        from ...dtypes import from_numpy_dtype

        storage = self.allocate(device, from_numpy_dtype(data.dtype), data.size)
        if data.size:
            h = device.handle
            runtime = h.cupy.cuda.runtime
            stream = h.stream()
            # From pageable memory the call returns once ``data`` is staged: it may go away.
            with h.active():
                runtime.memcpyAsync(storage.buffer.mem.ptr, data.ctypes.data, data.nbytes,
                                    runtime.memcpyHostToDevice, stream.ptr)
            storage.record_write(_Mark(stream), stream)
        return storage

    def adopt_host(self, device: Any, data: np.ndarray) -> Storage | None:
        return None  # device memory: uploaded

    def download(self, *storages: Storage) -> list[np.ndarray]:
        outs = [np.empty(s.size, dtype=s.dtype.numpy) for s in storages]
        live = [(s, out) for s, out in zip(storages, outs) if s.size]
        if not live:
            return outs
        h = live[0][0].device.handle
        runtime = h.cupy.cuda.runtime
        stream = h.stream()
        to_host = runtime.memcpyDeviceToHost
        with h.active():
            _wait(stream, events_before_launch([s for s, _ in live], (), stream))
            spans = [-(-out.nbytes // ALIGNMENT) * ALIGNMENT for _, out in live]
            if len(live) == 1 and spans[0] <= _SMALL_READ:
                # A value an MCMC loop reads each step: through the thread's page-locked
                # staging block, one copy and one wait (pageable memory costs a staging copy
                # of the driver's own; ../shared/design/fast-path.md 6.5).
                (s, out), = live
                staging, view = h.small_staging()
                runtime.memcpyAsync(staging.ptr, s.buffer.mem.ptr, out.nbytes, to_host,
                                    stream.ptr)
                stream.synchronize()
                out[:] = view[:out.nbytes].view(out.dtype)
                return outs
            if len(live) == 1 or sum(spans) > _STAGED_BYTES:
                # Into pageable memory each copy returns when done: the waits add up.
                for s, out in live:
                    runtime.memcpyAsync(out.ctypes.data, s.buffer.mem.ptr, out.nbytes, to_host,
                                        stream.ptr)
                stream.synchronize()
                return outs
            # Small reads after one wait (a value and its check records): page-locked copies
            # are queued together, so the host waits once.
            staging = h.cupy.cuda.alloc_pinned_memory(sum(spans))
            starts = np.cumsum([0, *spans[:-1]]).tolist()
            for (s, out), at in zip(live, starts):
                runtime.memcpyAsync(staging.ptr + at, s.buffer.mem.ptr, out.nbytes, to_host,
                                    stream.ptr)
            stream.synchronize()
            for (_, out), at in zip(live, starts):
                out[:] = np.frombuffer(staging, out.dtype, out.size, at)
        return outs

    def map_for_reading(self, storage: Storage) -> None:
        return None  # device memory: copied

    def read_element(self, storage: Storage, offset: int) -> Any:
        """Through the thread's page-locked staging block: one copy, one wait (an MCMC
        loop's ``float(lp(theta))``; ../shared/design/fast-path.md 6.5)."""
        copy = storage.host_copy
        if copy is not None and offset == 0:
            value = copy.read(storage)  # copied by the graph that wrote it
            if value is not None:
                return value
        h = storage.device.handle
        stream = h.stream()
        write = storage.write
        itemsize = storage.dtype.itemsize
        with h.active():
            if write is not None and write[1] is not stream:
                _wait(stream, events_before_launch((storage,), (), stream))
            staging, view = h.small_staging()
            h.cupy.cuda.runtime.memcpyAsync(
                staging.ptr, storage.buffer.mem.ptr + offset * itemsize, itemsize,
                h.cupy.cuda.runtime.memcpyDeviceToHost, stream.ptr)
            stream.synchronize()
        return view[:itemsize].view(storage.dtype.numpy)[0]

    def report_flag(self, device: Any) -> tuple[Storage, np.ndarray | None]:
        """Page-locked host memory, which kernels write through its device address: a
        drained stream whose flag is clear needs no copy of its records, and a copy after the
        device went idle costs far more than the wait (H100 machines, a 4 KiB read after the
        device idled 73-133 us against 19-36 for the wait alone; docs/tuning-notes.md, 23)."""
        h = device.handle
        cupy = h.cupy
        with h.active():
            pinned = cupy.cuda.alloc_pinned_memory(4)
            host = np.frombuffer(pinned, np.int32, 1)
            host[0] = 0
            address = cupy.cuda.runtime.pointerGetAttributes(pinned.ptr).devicePointer
            mem = cupy.cuda.MemoryPointer(
                cupy.cuda.UnownedMemory(address, 4, pinned, device_id=h.index), 0)
        # Owned by the page-locked block; never ordered by events (ir.buffer_roles skips it).
        return Storage(device, _Buffer(mem, None, owner=pinned), dt.int32, 1), host

    def release(self, device: Any, storage: Storage) -> None:
        buffer = storage.buffer
        if buffer.owner is not None and not buffer.ordered:
            # Foreign memory goes back to its owner, which knows nothing of our streams.
            for mark in storage.events_before_write(None):
                mark.event().synchronize()
            return
        stream = buffer.stream
        write, reads = storage.write, storage.reads
        if not ((write is None or write[1] is stream) and (not reads or (
                len(reads) == 1 and id(stream) in reads))):
            foreign = storage.events_before_write(stream)
            if foreign:
                # The block is reused only on its stream: make that stream wait, not the host.
                _wait(stream, foreign)
        # (Otherwise only its own stream used it: that orders the block's next user.)
        home = buffer.home
        if home is not None:
            held = device.handle.free_held
            nbytes = buffer.mem.mem.size
            if held[0] + nbytes <= _FREE_HELD:
                held[0] += nbytes
                home.append(buffer.mem)

    # Sharing memory with CuPy, torch, JAX ----------------------------------------------

    def adopt(self, device: Any, obj: Any, ordered: bool = False, dtype: Any = None
              ) -> tuple[Storage, tuple[int, ...], int, tuple[int, ...]]:
        """Wrap a CUDA array (``__cuda_array_interface__`` or DLPack) without copying.

        Returns the storage, the shape, the element offset and the element strides. The
        producer's pending work is ordered before ours by the protocols' stream handshake.
        ``ordered``: ``obj`` is a CuPy array allocated on this thread's weft stream (a cuBLAS
        or cuSOLVER result of weft's own linear algebra), so releasing it needs no host wait.
        ``dtype``: the weft dtype asked for, converted to on the device (a copy) when the
        array has another; without it, an array of a type weft does not hold is refused.
        """
        from ...dtypes import from_numpy_dtype

        h = device.handle
        cupy = h.cupy
        # The stream the producer's pending work is on, as the producer reports it in the
        # caller's context (inside weft's stream, CuPy would name weft's). cupy.asarray takes
        # a CuPy array as it is, without that wait: weft's stream must make it.
        producer = None
        if not ordered and hasattr(obj, "__cuda_array_interface__"):
            producer = obj.__cuda_array_interface__.get("stream")
        with h.active(), h.stream():
            if hasattr(obj, "__cuda_array_interface__"):
                arr = cupy.asarray(obj)
            else:
                arr = cupy.from_dlpack(obj)
            if producer and producer != h.stream().ptr:
                done = cupy.cuda.Event(disable_timing=True)
                driver.record_event(done.ptr, producer)
                h.stream().wait_event(done)
        if arr.device.id != h.index:
            with h.active():
                arr = cupy.array(arr, copy=True)  # peer copy to this device
        if dtype is None:
            dtype = from_numpy_dtype(arr.dtype)
        if dtype.numpy != arr.dtype:  # converted as asked, so copied
            with h.active(), h.stream():
                arr = arr.astype(dtype.numpy)
        item = arr.itemsize
        if any(s % item for s in arr.strides) or arr.data.ptr % item:
            with h.active(), h.stream():
                arr = arr.copy()
        strides = tuple(s // item for s in arr.strides)
        # The buffer starts at the lowest element the array reaches, or the ALIGNMENT
        # boundary below it (inside the same allocation, whose start is aligned).
        low = sum(st * (n - 1) for st, n in zip(strides, arr.shape) if st < 0 and n)
        high = sum(st * (n - 1) for st, n in zip(strides, arr.shape) if st > 0 and n)
        start = arr.data.ptr + low * item
        pad = (start % ALIGNMENT) // item if arr.size else 0
        span = (high - low + 1 + pad) if arr.size else 0
        mem = arr.data + (low - pad) * item
        stream = h.stream()
        storage = Storage(device, _Buffer(mem, stream, owner=arr, ordered=ordered), dtype, span)
        return storage, tuple(arr.shape), pad - low, strides

    def foreign_view(self, storage: Storage, shape: tuple[int, ...], offset: int,
                     strides: tuple[int, ...]) -> Any:
        """A CuPy array over the same memory, after every pending write has finished."""
        h = storage.device.handle
        cupy = h.cupy
        for mark in storage.events_before_read(None):
            mark.event().synchronize()
        item = storage.dtype.itemsize
        mem = storage.buffer.mem + offset * item
        with h.active():
            return cupy.ndarray(shape, dtype=storage.dtype.numpy, memptr=mem,
                                strides=tuple(s * item for s in strides))

    def pending_stream(self, storage: Storage) -> int | None:
        """The stream a consumer must wait on before reading ``storage`` (None: nothing)."""
        w = storage.write
        if w is None:
            return None
        mark = w[0]
        return None if mark.event().done else int(mark.stream.ptr)

    # Programs ---------------------------------------------------------------------------

    def _arch(self, device: Any) -> int:
        """The newest architecture NVRTC supports that does not exceed the device's."""
        h = device.handle
        arch = self._arch_cache.get(h.capability)
        if arch is None:
            supported = driver.supported_architectures()
            fitting = [a for a in supported if a <= h.capability]
            arch = max(fitting) if fitting else h.capability
            self._arch_cache[h.capability] = arch
        return arch

    def fingerprint(self, device: Any) -> str:
        h = device.handle
        runtime = h.cupy.cuda.runtime
        return "|".join([
            "cuda", h.name, f"sm_{h.capability}", f"driver {runtime.driverGetVersion()}",
            "nvrtc {}.{}".format(*driver.nvrtc_version()),
        ])

    def build_options(self, device: Any, ir: Any) -> list[str]:
        return [f"--gpu-architecture=sm_{self._arch(device)}", "--std=c++17"]

    def compile(self, device: Any, source: str, name: str, options: list[str],
                keep_binary: bool = True) -> tuple[_Kernel, bytes | None]:
        cubin = driver.compile_cubin(source, name, options)
        return self.load_binary(device, cubin, name, options), cubin if keep_binary else None

    def load_binary(self, device: Any, binary: bytes, name: str, options: list[str]
                    ) -> _Kernel:
        with device.handle.active():
            # The driver loads into the current context, which the runtime makes only when
            # first needed: a process's first kernel may come before any allocation.
            device.handle.cupy.cuda.runtime.free(0)
            return _Kernel(driver.Module(binary), name)

    def from_ir(self, device: Any, ir: Any) -> Any:  # pragma: no cover - dialect backend
        raise NotImplementedError

    def dialect_of(self, device: Any) -> Any:
        return self.dialect

    def traits(self, device: Any) -> Traits:
        """Large grids take four elements per thread, in vector loads where aligned: 4-byte
        loads need them to reach the bandwidth (docs/tuning-notes.md, 6), and each thread then
        has loads in flight (``WEFT_CUDA_VECTOR=1`` turns vector loads off); small grids one
        per thread, where latency decides. Rows walks load 16 bytes at a time: a float64 row
        walked one element per load stays about 5% under the bandwidth (docs/tuning-notes.md, 11). A
        column read is one memory transaction per element without a tile. Reductions aim for
        enough resident blocks to fill every SM, and the last block to finish a split one
        combines it (CUDA's documented fence-and-count pattern) unless
        ``WEFT_CUDA_LAST_GROUP=0``. A kernel's parameters stay within the 4 KB every CUDA
        release takes (12.1 and later take 32 KB on Volta and newer)."""
        units = device.handle.compute_units
        rows = rows_tuning(device.kind, device.name)
        return Traits(
            compute_units=units,
            vector_width=self.vector_override or 4,
            vector_from=0 if self.vector_override else LARGE_GRID,
            per_thread=self.per_thread_override or 4,
            per_thread_from=0 if self.per_thread_override else LARGE_GRID,
            rows_vector_widths=vector_widths(self.rows_vector),
            tiles_transposes=True,
            reduction_groups=units * 8,
            last_group=self.last_group,
            rows_lane_bytes=rows.lane_bytes,
            rows_fixed=rows.fixed,
            parameter_bytes=CUDA_PARAMETER_BYTES)

    def resident_groups(self, device: Any, program: Callable[[], _Kernel]) -> int:
        """Blocks the SMs hold at once, from the kernel's registers and shared memory (the
        occupancy calculator): a float64 density's rows kernel of 126 registers fits two
        blocks of 256 threads per SM, one of 130 only one."""
        kernel = program()
        if not kernel.resident:
            h = device.handle
            with h.active():
                kernel.resident = kernel.function.resident_blocks(WORK_GROUP)
        return kernel.resident * device.handle.compute_units

    def launch(self, device: Any, program: _Kernel, ir: Any, args: list[Any], n: int,
               outputs: list[Storage], inputs: list[Storage], groups: int | None = None
               ) -> None:
        h = device.handle
        stream = h.stream()
        layout = program.layout
        if layout is None:
            layout = program.layout = _Layout(ir.params)
        memory, params = layout.block()
        layout.fill(memory, args)
        if groups is None:
            block = self.block
            grid = (n + block - 1) // block
        else:
            block, grid = WORK_GROUP, groups
        waits = events_before_launch(inputs, outputs, stream)
        with h.active():
            if waits:
                _wait(stream, waits)
            driver.launch(program.function, grid, block, stream.ptr, params.ctypes.data,
                          program.name)
        record_launch(inputs, outputs, _Mark(stream), stream)

    def bind(self, device: Any, program: _Kernel, ir: Any, args: list[Any],
             holes: tuple[int, ...], n: int, groups: int | None = None,
             after: Any = ()) -> _Bound:
        """``program``'s launch with ``args`` made ready to repeat on the calling thread,
        each call filling the positions ``holes`` (``_Bound``)."""
        return _Bound(device.handle, program, ir, args, holes, n, groups, self.block)

    def plan_graph(self, device: Any, bounds: list[_Bound],
                   read_back: list[tuple[str, Any]] = ()) -> PlanGraph | None:
        """A replay's launches ``bounds`` (bound on the calling thread) as one CUDA graph
        (``PlanGraph``) where the process has one device (the graph's context is always
        current then) and they share one stream; None otherwise. The graph also copies
        each one-element result of ``read_back`` (its name in the runner, its dtype) to
        page-locked host memory, where ``read_element`` finds it."""
        h = device.handle
        if not h.only or not bounds or any(b.queue is not bounds[0].queue for b in bounds):
            return None
        copy = None
        if read_back:
            from ...cache import CACHE

            copy = CACHE.source_program(device, HOST_COPY_SOURCE, HOST_COPY_KERNEL).function
        return PlanGraph(h, bounds, read_back, copy and copy.handle)

    def group_counter(self, device: Any) -> Storage:
        """The calling thread's stream's count of finished blocks (``thread_group_counter``)."""
        return thread_group_counter(self, device)

    def synchronize(self, device: Any) -> None:
        s = device.handle.existing_stream()
        if s is not None:  # a stream that was never made holds no work
            s.synchronize()

    def is_ready(self, storage: Storage) -> bool:
        w = storage.write
        return w is None or bool(w[0].event().done)
