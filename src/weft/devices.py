"""Devices: discovery across backends, the default device, and the current device.

The current device is, in order: the innermost ``with wf.device(...)`` of the calling thread,
the one given to ``wf.set_device``, ``WEFT_DEVICE``, and the default (a CUDA GPU if CuPy sees
one, else an OpenCL GPU, else the OpenCL CPU device that PoCL provides).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
from collections.abc import Iterator
from typing import Any

from .cache import CACHE
from .compiler import Target

_BACKEND_MODULES = {
    "cuda": "weft.backends.cuda",
    "opencl": "weft.backends.opencl",
    "reference": "weft.backends.reference",
}
_LISTED_KINDS = ("cuda", "opencl")  # the reference interpreter is selectable, never default


class Device:
    """One device of one backend, e.g. ``opencl:0``.

    >>> import weft as wf
    >>> str(wf.devices()[0]).split(":")[0] in ("cuda", "opencl")
    True
    """

    def __init__(self, kind: str, index: int, backend: Any, handle: Any,
                 evaluator: Any = None) -> None:
        self.kind = kind
        self.index = index
        self.backend = backend
        self.handle = handle
        self.name: str = handle.name
        # A callable (device, [(expression, destination), ...]) that computes whole
        # evaluations itself, above weft's kernels (weft.dask's Dask graphs); None: weft's
        # own compiling and launching (realize).
        self.evaluator = evaluator
        self._traits: Any = None

    @property
    def traits(self) -> Any:
        """What the device prefers (``target.Traits``), asked of its backend once."""
        if self._traits is None:
            self._traits = self.backend.traits(self)
        return self._traits

    @traits.setter
    def traits(self, traits: Any) -> None:
        # For tuning runs and tests that try other launch choices. Remembered evaluations and
        # traces keep the kernels they were compiled with: forget them, so the new traits
        # apply.
        from .function import forget_traces
        from .memo import MEMO

        self._traits = traits
        MEMO.clear()
        forget_traces()

    @property
    def target(self) -> Any:
        """What compiling for this device needs (``compiler.Target``): its dialect, traits,
        float64 support and occupancy (asked of the backend for a given kernel)."""
        def resident_groups(ir: Any, variant: Any) -> int:
            return self.backend.resident_groups(self, lambda: CACHE.program(self, ir, variant))

        return Target(self.backend.dialect_of(self), self.traits, self.supports_fp64,
                      resident_groups, f"{self} ({self.name})")

    @property
    def supports_fp64(self) -> bool:
        return bool(self.handle.supports_fp64)

    def __str__(self) -> str:
        return f"{self.kind}:{self.index}"

    def __repr__(self) -> str:
        return f"<wf.Device {self} {self.name!r}>"


_lock = threading.Lock()
_found: dict[str, list[Device]] = {}
_chosen: Device | None = None
class _DeviceStack(threading.local):
    """The calling thread's ``with wf.device(...)`` blocks, innermost last (a class default,
    so a thread that opened none reads it without an exception)."""

    stack: tuple[Device, ...] | list[Device] = ()


_local = _DeviceStack()


class _ForkedBackend:
    """A forked child's stand-in for a backend its parent had started. OpenCL drivers (PoCL
    included) and CUDA keep threads and device state that a fork does not copy: the child's
    first transfer would wait forever, and so would a context made anew in the child. So
    every use raises, naming the remedy."""

    def __init__(self, device: str) -> None:
        self._device = device

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(
            f"weft used {self._device} in this process's parent before it forked, and "
            f"OpenCL and CUDA devices do not survive a fork. Start worker processes with "
            f"multiprocessing's 'spawn' or 'forkserver' method "
            f"(multiprocessing.get_context('spawn')), or use weft only in the workers. "
            f"The 'reference' device still works here.")


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.Lock()  # another thread of the parent may have held it at the fork
    for kind, found in _found.items():
        if kind != "reference":
            for d in found:
                d.backend = _ForkedBackend(str(d))


os.register_at_fork(after_in_child=_after_fork_in_child)


def _backend(kind: str) -> Any:
    module = importlib.import_module(_BACKEND_MODULES[kind])
    return getattr(module, "BACKEND", None)


def _devices_of(kind: str) -> list[Device]:
    with _lock:
        if kind not in _found:
            backend = _backend(kind)
            handles = backend.discover() if backend is not None else []
            _found[kind] = [Device(kind, i, backend, h) for i, h in enumerate(handles)]
        return _found[kind]


def devices() -> list[Device]:
    """Every CUDA and OpenCL device weft can use, the default first within each kind.

    >>> import weft as wf
    >>> len(wf.devices()) >= 1
    True
    """
    return [d for kind in _LISTED_KINDS for d in _devices_of(kind)]


def _default() -> Device:
    cuda = _devices_of("cuda")
    if cuda:
        return cuda[0]
    opencl = _devices_of("opencl")
    if opencl:
        return opencl[0]  # GPUs sort before CPUs
    raise RuntimeError(
        "weft found no device. On Linux x86-64, `pip install pocl-binary-distribution` gives "
        "a CPU device; elsewhere install an OpenCL driver for your CPU or GPU (macOS has "
        "Apple's; on Linux ARM, pocl from the system's packages), or CuPy for an NVIDIA GPU "
        "(pip install 'weft[cuda]'). wf.set_device('reference') runs the NumPy interpreter, "
        "correct but slow (docs/platforms.md)."
    )


def get_device(spec: Any) -> Device:
    """A ``Device`` from a Device, ``"opencl:1"``, ``"cuda"`` (index 0) or ``"reference"``.

    >>> import weft as wf
    >>> wf.get_device("reference").kind
    'reference'
    """
    if isinstance(spec, Device):
        return spec
    if not isinstance(spec, str):
        raise TypeError(f"a device is a wf.Device or a string like 'opencl:0', not {spec!r}")
    kind, _, idx = spec.strip().partition(":")
    if kind not in _BACKEND_MODULES:
        raise ValueError(f"unknown device kind {kind!r} in {spec!r}: use cuda, opencl or reference")
    try:
        index = int(idx) if idx else 0
    except ValueError:
        raise ValueError(f"bad device index in {spec!r}") from None
    found = _devices_of(kind)
    if not 0 <= index < len(found):
        raise ValueError(f"no device {kind}:{index}: {len(found)} {kind} device(s) found")
    return found[index]


def current_device() -> Device:
    """The device new arrays and evaluations use in the calling thread.

    >>> import weft as wf
    >>> wf.current_device() in wf.devices() + [wf.get_device("reference")]
    True
    """
    stack = _local.stack
    if stack:
        return stack[-1]
    global _chosen
    if _chosen is None:
        env = os.environ.get("WEFT_DEVICE")
        chosen = get_device(env) if env else _default()
        with _lock:
            if _chosen is None:
                _chosen = chosen
    return _chosen


def set_device(spec: Any) -> None:
    """Make ``spec`` the current device of every thread without a ``with wf.device``.

    >>> import weft as wf
    >>> wf.set_device(wf.devices()[0])
    """
    global _chosen
    _chosen = get_device(spec)


@contextlib.contextmanager
def device(spec: Any) -> Iterator[Device]:
    """Use ``spec`` as the current device of this thread inside the block.

    >>> import weft as wf
    >>> with wf.device("reference") as d:
    ...     str(d)
    'reference:0'
    """
    d = get_device(spec)
    stack = _local.stack
    if not isinstance(stack, list):
        stack = _local.stack = []
    stack.append(d)
    try:
        yield d
    finally:
        stack.pop()
