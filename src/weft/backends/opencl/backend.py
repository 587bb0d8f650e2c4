"""The OpenCL backend: PyOpenCL contexts, a queue and a memory pool per host thread, events.

PoCL, installed from PyPI with pocl-binary-distribution, is found by PyOpenCL's ICD loader
without any system package, so the CPU always has a device.
"""

from __future__ import annotations

import logging
import os
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ... import dtypes as dt
from ... import tuning
from ...cache import announced_build
from ...config import log
from ...skeletons.reduce import WORK_GROUP
from ...storage import Storage, events_before_launch, record_launch
from ...target import Traits, vector_widths
from ...tuning import rows_tuning
from ..base import thread_group_counter
from . import companion, declarations, occupancy, pocl_builds
from .device import HOST_READ_BYTES, HOST_READ_KEPT, CLDevice, _Buffer
from .dialect import OPENCL, OPENCL_CPU
from .launch import _Bound, _Kernel

# A host array a CPU device's buffer adopts is aligned for the widest load its kernels make
# (rows walks: four 4-byte elements); NumPy aligns its allocations to 16 bytes, and PoCL
# computes in such an array in place (a 2^22 sort 64 -> 59 ms, NumPy's 58).
_HOST_ALIGN = 16
_SMALL_UPLOAD = 1 << 20  # bytes a CPU device's upload copies into a buffer of its own

# The last-group finish of split reductions (``Dialect.last_group_add``) uses OpenCL C 3.0's
# device-scope acquire-release atomics, so its kernels are built as OpenCL C 3.0.
_LAST_GROUP_STD = "-cl-std=CL3.0"
# A device-scope fence in NVIDIA's PTX, where the device does not claim the capability but its
# compiler emits the fence (PTX's memory model then promises the ordering).
_PTX_DEVICE_FENCE = re.compile(
    r"\b(membar\.(gl|sys)|fence\.(sc|acq_rel)\.(gpu|sys)|atom\.acq_rel\.(gpu|sys))\b")
_PROBE = """\
__kernel void weft_probe(volatile __global int* counter, __global int* out) {
    out[0] = atomic_fetch_add_explicit((volatile __global atomic_int*)counter, 1,
                                       memory_order_acq_rel, memory_scope_device);
}
"""


def _raise_if_out_of_memory(cl: Any, error: Exception, nbytes: int, device: Any) -> None:
    """``MemoryError`` in weft's words where ``error`` says an allocation failed."""
    text = str(error)
    if (isinstance(error, cl.MemoryError) or "MEM_OBJECT_ALLOCATION_FAILURE" in text
            or "OUT_OF_RESOURCES" in text):
        raise MemoryError(f"out of device memory allocating {nbytes} bytes on {device}"
                          ) from error


class OpenCLBackend:
    kind = "opencl"
    dialect = OPENCL

    def __init__(self) -> None:
        self._cl: Any = None

    def _import(self) -> Any:
        if self._cl is None:
            import pyopencl

            self._cl = pyopencl
        return self._cl

    def discover(self) -> list[CLDevice]:
        from ...pocl_cache import claim

        claim()  # before PoCL starts: its cache goes inside weft's, within weft's bound
        companion.claim()
        try:
            cl = self._import()
            platforms = cl.get_platforms()
        except Exception:  # noqa: BLE001 - no ICD or no library: this backend has no devices
            return []
        found = []
        for platform in platforms:
            try:
                devices = platform.get_devices()
            except Exception:  # noqa: BLE001 - a platform without usable devices
                continue
            devices, basic = companion.split(devices)
            found.extend(CLDevice(cl, d, basic if companion.is_main(d.name) else None)
                         for d in devices)
        # GPUs first, then the rest in platform order: the default device is the first.
        found.sort(key=lambda d: d.is_cpu)
        return found

    # Memory ---------------------------------------------------------------------------

    def allocate(self, device: Any, dtype: Any, size: int) -> Storage:
        h = device.handle
        nbytes = max(size, 1) * dtype.itemsize
        if nbytes > h.max_alloc:
            raise MemoryError(
                f"cannot allocate {nbytes} bytes on {device}: the device allows at most "
                f"{h.max_alloc} bytes in one buffer"
            )
        cl = h.cl
        queue, pool = h.queue_and_pool()
        try:
            mem = pool.allocate(nbytes)
        except cl.Error as e:
            _raise_if_out_of_memory(cl, e, nbytes, device)
            raise
        return Storage(device, _Buffer(mem, queue), dtype, size)

    def allocator(self, device: Any, dtype: Any, size: int) -> Callable[[], Storage]:
        """``allocate`` with the calling thread's queue and pool looked up once."""
        nbytes = max(size, 1) * dtype.itemsize
        if nbytes > device.handle.max_alloc:
            return lambda: self.allocate(device, dtype, size)  # raises as allocate does
        queue, pool = device.handle.queue_and_pool()
        take, failure = pool.allocate, device.handle.cl.Error

        def allocate() -> Storage:
            try:
                return Storage(device, _Buffer(take(nbytes), queue), dtype, size)
            except failure:  # out of memory: allocate says so in weft's words
                return self.allocate(device, dtype, size)
        return allocate

    def read_back_allocator(self, device: Any, dtype: Any, size: int) -> Callable[[], Storage]:
        """One-element results in blocks the host reads in place, where the device shares
        fine-grained memory with the host (PoCL's CPU device): reading one after its kernel
        then costs no command (a blocking read through the companion took 11-14 us of the
        read loop's 20 on PoCL; docs/tuning-notes.md, 47)."""
        h = device.handle
        if not h.fine_grained_svm or max(size, 1) * dtype.itemsize > HOST_READ_BYTES:
            return self.allocator(device, dtype, size)
        queue, home, numpy_dtype = h.queue(), h.host_read_blocks(), dtype.numpy

        def allocate() -> Storage:
            mem, block = home.pop() if home else h.host_read_block()
            host = block.view(numpy_dtype)
            return Storage(device, _Buffer(mem, queue, host, home, block), dtype, size)
        return allocate

    def upload(self, device: Any, data: np.ndarray) -> Storage:
        from ...dtypes import from_numpy_dtype

        dtype = from_numpy_dtype(data.dtype)
        h = device.handle
        if h.is_cpu and 0 < data.nbytes <= _SMALL_UPLOAD:
            # A buffer made holding a copy of the data (its own, outside the pool): 1.5 us
            # for 8 KB on PoCL and 57 for 2 MB, where a copy queued into a pooled buffer took
            # 80-140. Nothing is pending on it afterwards. Larger data goes to the pool:
            # fresh memory of 32 MB, faulted in page by page, took 26-29 ms against 4-5.
            cl = h.cl
            try:
                mem = cl.Buffer(h.context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                hostbuf=data)
            except cl.Error as e:
                _raise_if_out_of_memory(cl, e, data.nbytes, device)
                raise
            return Storage(device, _Buffer(mem, h.queue()), dtype, data.size)
        storage = self.allocate(device, dtype, data.size)
        if data.size:
            q = h.queue()
            event = h.cl.enqueue_copy(q, storage.buffer.mem, data, is_blocking=False)
            storage.record_write(event, q)
        return storage

    def adopt_host(self, device: Any, data: np.ndarray) -> Storage | None:
        """On a CPU device, a buffer over the array's memory (``USE_HOST_PTR``): a host
        library's result (a sort, a partition, a factor) becomes a weft array without the
        copy ``upload`` makes, 3-5 ms per 32 MB on PoCL. The buffer holds the array."""
        h = device.handle
        if (not h.is_cpu or not data.nbytes or not data.flags.c_contiguous
                or data.ctypes.data % _HOST_ALIGN):
            return None
        from ...dtypes import from_numpy_dtype

        cl = h.cl
        try:
            mem = cl.Buffer(h.context, cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR,
                            hostbuf=data)
        except cl.Error as e:
            _raise_if_out_of_memory(cl, e, data.nbytes, device)
            raise
        return Storage(device, _Buffer(mem, h.queue(), block=data), from_numpy_dtype(data.dtype),
                       data.size)

    def download(self, *storages: Storage) -> list[np.ndarray]:
        outs = [np.empty(s.size, dtype=s.dtype.numpy) for s in storages]
        live = [(s, out) for s, out in zip(storages, outs) if s.size]
        if live:
            h = live[0][0].device.handle
            q, waits = h.reading_queue([s for s, _ in live])
            # Blocking reads, one after another: on NVIDIA's OpenCL (H100), reads queued
            # without blocking and then waited for made an observation 40-60 us slower.
            for s, out in live:
                h.cl.enqueue_copy(q, out, s.buffer.mem, wait_for=waits, is_blocking=True)
                waits = None
        return outs

    def map_for_reading(self, storage: Storage) -> tuple[np.ndarray, Callable[[], None]] | None:
        """On a CPU device a mapping costs nothing, where a copy of 32 MB costs 25-70 ms on
        PoCL (the host's LAPACK reading a 20000 x 200 operand)."""
        h = storage.device.handle
        if not h.is_cpu or not storage.size:
            return None
        cl = h.cl
        q, waits = h.reading_queue((storage,))  # (a map is a command as a read is)
        flat, _ = cl.enqueue_map_buffer(q, storage.buffer.mem, cl.map_flags.READ, 0,
                                        (storage.size,), storage.dtype.numpy, wait_for=waits,
                                        is_blocking=True)
        mapping = flat.base
        return flat, lambda: mapping.release(q)

    def read_element(self, storage: Storage, offset: int) -> Any:
        """One blocking copy of the element into a new one-element array; or, for a block
        the host reads in place whose writes have finished, that element."""
        h = storage.device.handle
        host = storage.buffer.host
        if host is not None and h.settled_quick_queue((storage,)) is not None:
            return host[offset]
        out = np.empty(1, dtype=storage.dtype.numpy)
        q, waits = h.reading_queue((storage,))
        h.cl.enqueue_copy(q, out, storage.buffer.mem, src_offset=offset * out.itemsize,
                          wait_for=waits, is_blocking=True)
        return out[0]

    def report_flag(self, device: Any) -> tuple[Storage, np.ndarray | None]:
        """Where the device shares fine-grained memory with the host (PoCL's CPU device),
        the flag lives there: once the queue has drained the host reads it in place, so an
        observation waits once instead of copying the records after the value (PoCL: each
        blocking copy costs a wake-up, 50-60 us). Elsewhere device memory the host does not
        see: reading it would cost what reading the records costs, so it is only written."""
        h = device.handle
        if h.fine_grained_svm:
            cl = h.cl
            host = cl.svm_empty(h.context, cl.svm_mem_flags.READ_WRITE
                                | cl.svm_mem_flags.SVM_FINE_GRAIN_BUFFER, (1,), np.int32)
            host[0] = 0
            # Handed to kernels as a buffer over the same memory (OpenCL 2.0 lets a buffer
            # use an SVM allocation as its storage): PyOpenCL sets an SVM argument among
            # others 4.4 us slower than a buffer (PoCL, each checked launch). Never ordered by
            # events (ir.buffer_roles skips the flag); the host writes it only while the
            # queue is drained.
            flags = cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR
            mem = cl.Buffer(h.context, flags, hostbuf=host)
            return Storage(device, _Buffer(mem, None), dt.int32, 1), host
        return self.upload(device, np.zeros(1, dtype=np.int32)), None

    def release(self, device: Any, storage: Storage) -> None:
        buffer = storage.buffer
        queue = buffer.queue
        write, reads = storage.write, storage.reads
        if not ((write is None or write[1] is queue) and (not reads or (
                len(reads) == 1 and id(queue) in reads))):
            # Used by other queues than the pool's own, which orders the block's next user.
            foreign = storage.events_before_write(queue)
            if foreign:
                device.handle.cl.wait_for_events(foreign)
        if buffer.home is not None and len(buffer.home) < HOST_READ_KEPT:
            buffer.home.append((buffer.mem, buffer.block))
        elif buffer.block is not None:  # host memory: kept while commands still use it
            using = storage.events_before_write(None)
            if using:
                device.handle.keep_until_complete(using, buffer.block)

    # Programs ---------------------------------------------------------------------------

    def fingerprint(self, device: Any) -> str:
        d = device.handle.device
        return "|".join([
            "opencl", device.handle.platform, d.platform.version, d.name, d.version,
            d.driver_version,
        ])

    def build_options(self, device: Any, ir: Any) -> list[str]:
        """OpenCL C 3.0 for the last-group finish; on NVIDIA, reduction kernels' register
        counts in the build log (``occupancy``)."""
        options = [_LAST_GROUP_STD] if ir.counter_position is not None else []
        if device.handle.sm is not None and ir.reductions:
            options.append(occupancy.VERBOSE)
        return options

    def compile(self, device: Any, source: str, name: str, options: list[str],
                keep_binary: bool = True) -> tuple[_Kernel, bytes | None]:
        h = device.handle
        if h.companion is not None and pocl_builds.leaves_binaries_to_pocl(device):
            # Nothing built yet: the kernel's first launch on each of the two devices builds
            # for it (most kernels a test or a small model runs are small: one build each).
            return (self._lazy_kernel(device, source, name, options),
                    pocl_builds.source_record(source) if keep_binary else None)
        verbose = occupancy.VERBOSE in options
        program = self._build(device, source + occupancy.unique_entry() if verbose else source,
                              options)
        used = None
        if verbose:
            log = program.get_build_info(h.device, h.cl.program_build_info.LOG)
            used = occupancy.resources(log, name)
        kernel = _Kernel(program, name, h.device, used,
                         self._quick_build(device, source, name, options))
        if not keep_binary:  # (PoCL compiles generic work-group functions for a binary)
            return kernel, None
        if pocl_builds.leaves_binaries_to_pocl(device):
            return kernel, pocl_builds.source_record(source)
        binaries = program.get_info(h.cl.program_info.BINARIES)
        binary = occupancy.pack(bytes(binaries[0]), used) if binaries else None
        return kernel, binary

    def _quick_build(self, device: Any, source: str, name: str, options: list[str]
                     ) -> Callable[[], Any] | None:
        """How to build ``source`` for the companion device, when a small launch first
        needs it (None where there is none)."""
        basic = device.handle.companion
        if basic is None:
            return None
        return lambda: announced_build(name, f"{device} (small launches)", source,
                                       lambda: self._build(device, source, options, basic))

    def _lazy_kernel(self, device: Any, source: str, name: str, options: list[str]
                     ) -> _Kernel:
        """``source``'s kernel, built for the device at its first large launch."""
        return _Kernel(None, name, device.handle.device, None,
                       self._quick_build(device, source, name, options),
                       build=lambda: announced_build(
                           name, device, source, lambda: self._build(device, source, options)))

    def _build(self, device: Any, source: str, options: list[str], on: Any = None) -> Any:
        """``source`` built for ``device`` (or for its companion, ``on``)."""
        h = device.handle
        on = on or h.device
        lean = declarations.lean_source(source) if pocl_builds.builds_lean(device) else None
        if lean is None:
            if h.lean_builds and log.isEnabledFor(logging.DEBUG):
                log.debug("build with the whole OpenCL C header: the kernel calls %s",
                          sorted(declarations.called_builtins(source)[1]))
            return self._build_program(h, source, options, on)
        try:
            return self._build_program(h, lean, [*options, declarations.BUILD_OPTION], on)
        except h.cl.Error as lean_error:
            # The error again from the source as weft saves it (its line numbers); a kernel
            # that builds with the whole header shows a gap in the declarations.
            self._build_program(h, source, options, on)
            raise RuntimeError("the kernel builds with the whole OpenCL C header but not with "
                               "weft's declarations (backends/opencl/declarations.py): "
                               f"{lean_error}") from lean_error

    @staticmethod
    def _build_program(h: Any, source: str, options: list[str], on: Any) -> Any:
        cl = h.cl
        program = cl.Program(h.context, source)
        with warnings.catch_warnings():
            # Drivers (NVIDIA's among them) print informational build logs for good kernels;
            # PyOpenCL turns any log into a warning. A failed build still raises.
            warnings.simplefilter("ignore", cl.CompilerWarning)
            # PyOpenCL's own source cache is off (cache_dir=False): weft keeps its own. Only
            # for the one device: the companion's build waits for a small launch.
            program.build(options=options, devices=[on], cache_dir=False)
        return program

    def load_binary(self, device: Any, binary: bytes, name: str, options: list[str]
                    ) -> _Kernel:
        h = device.handle
        source = pocl_builds.recorded_source(binary)
        if source is not None:  # PoCL's own cache has it built
            if h.companion is not None:
                return self._lazy_kernel(device, source, name, options)
            return _Kernel(self._build(device, source, options), name, h.device, None)
        binary, used = occupancy.unpack(binary)
        program = h.cl.Program(h.context, [h.device], [binary])
        program.build(options=options)
        kernel = _Kernel(program, name, h.device, used)  # fails now if the binary is unusable
        return kernel

    def from_ir(self, device: Any, ir: Any) -> Any:  # pragma: no cover - dialect backend
        raise NotImplementedError

    def dialect_of(self, device: Any) -> Any:
        """OpenCL C; on CPUs with weft's own exp and log (PoCL does not inline its library on
        every host, and a call stops its vectorizer)."""
        return OPENCL_CPU if device.handle.is_cpu else OPENCL

    def traits(self, device: Any) -> Traits:
        """GPUs as CUDA: four elements per thread on large grids, in vector loads where
        aligned (4-byte loads need them to reach the bandwidth), rows walks 16 bytes per load,
        reductions aiming for eight groups per compute unit. On CPUs one element per
        work-item, as PoCL vectorizes across work-items itself; rows walks four 4-byte
        elements per load and 8-byte ones one at a time, PoCL's own vectorization of a lane's
        run doing better with them (docs/tuning-notes.md, 11); two groups per compute unit.
        Both tile transposes: on GPUs a column read is one transaction per element without a
        tile, on PoCL a tile keeps the column reads in cache (3x on exp(A.T) + A)."""
        h = device.handle
        cpu = bool(h.is_cpu)
        rows = rows_tuning(device.kind, device.name)
        return Traits(
            is_cpu=cpu,
            compute_units=h.compute_units,
            vector_width=1 if cpu else 4,
            per_thread=1 if cpu else 4,
            rows_vector_widths=((1, 4), (4, 4), (8, 1)) if cpu else vector_widths(16),
            tiles_transposes=True,
            reduction_groups=h.compute_units * (2 if cpu else 8),
            last_group=self._finishes_in_last_group(device),
            walks_elements=cpu,
            reciprocal_rows=cpu,
            column_band=64 if cpu else 0,
            row_band=16 if cpu else 0,
            rows_lane_bytes=rows.lane_bytes,
            rows_fixed=rows.fixed,
            parameter_bytes=h.parameter_bytes)

    def resident_groups(self, device: Any, program: Callable[[], _Kernel]) -> int:
        """Work-groups the device holds at once: on NVIDIA, from the kernel's registers and
        shared memory (``occupancy``); elsewhere OpenCL reports nothing, so 0 (unknown)."""
        h = device.handle
        if h.sm is None:
            return 0
        used = program().resources
        if used is None:
            return 0
        return occupancy.groups_per_sm(h.sm, used, WORK_GROUP) * h.compute_units

    def launch(self, device: Any, program: _Kernel, ir: Any, args: list[Any], n: int,
               outputs: list[Storage], inputs: list[Storage], groups: int | None = None
               ) -> None:
        h = device.handle
        cl = h.cl
        q = h.settled_quick_queue(inputs, outputs) if self._is_quick(h, n) else None
        if q is not None:
            program = program.quick(h.companion)
            self._count_on_companion(device, ir, args)
            wait = None
        else:
            q = h.queue()
            wait = events_before_launch(inputs, outputs, q)
        kernel, values = program.bind(cl, ir.params, args)
        global_size, local = program.launch_shape(n, groups, h.local_size)
        try:
            event = kernel(q, global_size, local, *values, wait_for=wait or None)
        except cl.MemoryError as e:
            raise MemoryError(f"out of device memory running {program.name} on {device}") from e
        record_launch(inputs, outputs, event, q)

    def bind(self, device: Any, program: _Kernel, ir: Any, args: list[Any],
             holes: tuple[int, ...], n: int, groups: int | None = None,
             after: Any = ()) -> _Bound:
        """``program``'s launch with ``args`` made ready to repeat on the calling thread,
        each call filling the positions ``holes`` (``_Bound``). A small launch after a large
        one of its replay stays on the thread's queue: on the companion it would wait for
        the large one on the host, a wake-up more per call (a sum of 65536 doubles, whose
        second pass is small, read back: 160 -> 210-430 us)."""
        h = device.handle
        if self._is_quick(h, n) and all(b.settle is not None for b in after):
            args = list(args)
            self._count_on_companion(device, ir, args)
            return _Bound(h, program.quick(h.companion), ir, args, holes, n, groups,
                          h.quick_queue())
        return _Bound(h, program, ir, args, holes, n, groups, h.queue())

    @staticmethod
    def _is_quick(h: Any, n: int) -> bool:
        """Whether a launch over ``n`` elements runs on the companion device."""
        return h.companion is not None and n <= tuning.QUICK_ELEMENTS

    def _count_on_companion(self, device: Any, ir: Any, args: list[Any]) -> None:
        """A companion launch's group counter: the thread's own for that queue (a counter is
        shared only by launches that run in order)."""
        if ir.counter_position is not None:
            local = device.handle._local
            counter = getattr(local, "quick_counter", None)
            if counter is None:
                counter = local.quick_counter = self.upload(device, np.zeros(1, np.int32))
            args[ir.counter_position] = counter

    def plan_graph(self, device: Any, bounds: list[Any],
                   read_back: list[tuple[str, Any]] = ()) -> None:
        """None: each launch of a replay is enqueued on its own."""
        return None

    def _finishes_in_last_group(self, device: Any) -> bool:
        """Whether a reduction split over work-groups may be finished by its last group (one
        launch, not two): where the device has OpenCL C 3.0 and device-scope acquire-release
        atomics. NVIDIA's devices claim only work-group scope, but their compiler emits a
        device-scope fence for them, which a one-off probe build checks in the PTX.
        ``WEFT_OPENCL_LAST_GROUP=0`` keeps two launches, for comparison."""
        h = device.handle
        if h.last_group is None:
            h.last_group = (os.environ.get("WEFT_OPENCL_LAST_GROUP", "1") != "0"
                            and self._device_scope_atomics(device))
        return h.last_group

    def _device_scope_atomics(self, device: Any) -> bool:
        h = device.handle
        cl = h.cl
        try:
            versions = [v.version >> 22 for v in h.device.opencl_c_all_versions]
            claimed = int(h.device.atomic_memory_capabilities)
        except (AttributeError, cl.Error):  # an OpenCL 1.x or 2.x platform
            return False
        if 3 not in versions:
            return False
        caps = cl.device_atomic_capabilities
        needed = caps.ORDER_ACQ_REL | caps.SCOPE_DEVICE
        if claimed & needed == needed:
            return True
        try:
            program = self._build(device, _PROBE, [_LAST_GROUP_STD])
        except cl.Error:
            return False
        binaries = program.get_info(cl.program_info.BINARIES)
        text = bytes(binaries[0]).decode("ascii", "replace") if binaries else ""
        return bool(_PTX_DEVICE_FENCE.search(text))

    def group_counter(self, device: Any) -> Storage:
        """The calling thread's queue's count of finished work-groups
        (``thread_group_counter``)."""
        return thread_group_counter(self, device)

    def synchronize(self, device: Any) -> None:
        q = device.handle.existing_queue()
        if q is not None:  # a queue that was never made holds no work
            q.finish()
        # (the companion's queue holds none: its commands have run when enqueued)

    def is_ready(self, storage: Storage) -> bool:
        w = storage.write
        if w is None or w[0] is None:
            return True
        cl = storage.device.handle.cl
        return w[0].command_execution_status == cl.command_execution_status.COMPLETE
