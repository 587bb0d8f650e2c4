"""The libraries that do weft's linear algebra (``linalg``): NumPy/SciPy's LAPACK on the host
for OpenCL devices and the reference device, cuBLAS and cuSOLVER through CuPy for CUDA
devices. Each takes weft arrays in its own form (``take``), computes, and gives the result
back as a weft array (``give``), inside ``on_stream()``.

>>> import weft as wf
>>> lib = library(wf.current_device())
>>> with lib.on_stream():
...     lib.give(lib.np.eye(2), wf.float64).tolist()
[[1.0, 0.0], [0.0, 1.0]]
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from . import pending
from .array import Array
from .creation import adopt, asarray
from .devices import Device
from .traced import note_activity


class Host:
    """NumPy/SciPy LAPACK on the host: OpenCL devices and the reference device."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.np: Any = np  # the array module the library works on (CuPy for _CuPy)
        self._copies: dict[int, np.ndarray] = {}  # storage id -> its host copy or mapping
        self._mapped: list[Callable[[], None]] = []  # how to give each mapping back

    @contextlib.contextmanager
    def on_stream(self) -> Any:
        """Where the library's calls must run: anywhere, on the host. Buffers mapped for
        them are given back at the end (before any kernel writes them again)."""
        try:
            yield
        finally:
            for release in self._mapped:
                release()
            self._mapped.clear()

    def take(self, x: Array, writable: bool = False) -> np.ndarray:
        """``x`` on the host, as a read-only view of its buffer's one copy: a transposed
        or strided view is not rearranged (BLAS reads it as it lies), and two operands over
        one buffer (``z.T @ z``) copy it once (PoCL, 20000 x 200 float64: the product of
        the pipeline case 60 -> about 25 ms). ``writable``: a view not marked read-only,
        for a NumPy routine that copies read-only input first (``bincount``: 3.6x its time
        over 4M int64); the caller never writes through it."""
        x.eval()
        view = x._node.attrs
        storage = view.storage
        flat = self._copies.get(id(storage))
        if flat is None:
            mapped = storage.device.backend.map_for_reading(storage)
            if mapped is None:
                flat = pending.observe(storage)
            else:  # read in place (a CPU device's memory): no copy
                flat, release = mapped
                self._mapped.append(release)
                note_activity()
                pending.settle([storage])
            self._copies[id(storage)] = flat
        writable = writable and flat.flags.writeable
        if not x.shape:
            found = flat[view.offset:view.offset + 1].reshape(())
            found.flags.writeable = writable
            return found
        if x.size == 0:
            return np.empty(x.shape, dtype=x.dtype.numpy)
        item = flat.itemsize
        return np.lib.stride_tricks.as_strided(
            flat[view.offset:], shape=x.shape, strides=tuple(s * item for s in view.strides),
            writeable=writable)

    def give(self, value: Any, dtype: dt.DType) -> Array:
        """The library's result as a weft array: adopted where the device computes in host
        memory (a CPU's: no copy) and the result's memory is the library's own, not a
        mapped operand's; else uploaded. An adopted array is marked read-only, so giving it
        again copies it."""
        array = np.asarray(value, dtype=dtype.numpy)
        if (array.ndim <= 2 and array.flags.writeable and array.flags.c_contiguous
                and not any(np.may_share_memory(array, m) for m in self._copies.values())):
            storage = self.device.backend.adopt_host(self.device, array)
            if storage is not None:
                array.flags.writeable = False
                return Array(ex.buffer(storage, array.shape), self.device)
        return asarray(array, device=self.device)

    def cholesky(self, s: np.ndarray) -> np.ndarray:
        try:
            return np.linalg.cholesky(s)
        except np.linalg.LinAlgError:
            return np.full_like(s, np.nan)

    def solve_triangular(self, a: np.ndarray, b: np.ndarray, lower: bool,
                         trans: int = 0) -> np.ndarray:
        from scipy.linalg import solve_triangular

        return solve_triangular(a, b, lower=lower, trans=trans, check_finite=False)

    def solve(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        try:
            return np.linalg.solve(a, b)
        except np.linalg.LinAlgError:
            return None

    def inv(self, a: np.ndarray) -> np.ndarray:
        try:
            return np.linalg.inv(a)
        except np.linalg.LinAlgError:
            return None

    def slogdet(self, a: np.ndarray) -> tuple[Any, Any]:
        return np.linalg.slogdet(a)

    def finite(self, value: Any) -> bool:
        return bool(np.isfinite(value).all())

    def nonzero_diagonal(self, a: np.ndarray) -> bool:
        return bool((np.diagonal(a) != 0).all())


class CuPy(Host):
    """cuBLAS and cuSOLVER through CuPy, on the calling thread's weft stream."""

    def __init__(self, device: Device) -> None:
        super().__init__(device)
        self.handle = device.handle
        self.np = self.handle.cupy

    def on_stream(self) -> Any:
        """This device, current, and weft's stream for the calling thread."""
        stack = contextlib.ExitStack()
        stack.enter_context(self.handle.active())
        stack.enter_context(self.handle.stream())
        return stack

    def take(self, x: Array, writable: bool = False) -> Any:
        return self.np.asarray(x)  # zero-copy through __cuda_array_interface__

    def give(self, value: Any, dtype: dt.DType) -> Array:
        # The result was allocated on weft's stream (on_stream): adopted as stream-ordered, so
        # dropping it later does not wait for the device.
        with self.on_stream():
            return adopt(self.np.asarray(value, dtype=dtype.numpy), self.device, ordered=True)

    def cholesky(self, s: Any) -> Any:
        # cuSOLVER reports failure in a status word, which CuPy checks only when asked.
        try:
            with self._raising():
                return self.np.linalg.cholesky(s)
        except np.linalg.LinAlgError:
            return self.np.full_like(s, np.nan)

    def solve_triangular(self, a: Any, b: Any, lower: bool, trans: int = 0) -> Any:
        from cupyx.scipy.linalg import solve_triangular

        return solve_triangular(a, b, lower=lower, trans=trans)

    def solve(self, a: Any, b: Any) -> Any:
        try:
            with self._raising():
                return self.np.linalg.solve(a, b)
        except np.linalg.LinAlgError:
            return None

    def inv(self, a: Any) -> Any:
        try:
            with self._raising():
                return self.np.linalg.inv(a)
        except np.linalg.LinAlgError:
            return None

    def _raising(self) -> Any:
        import cupyx

        return cupyx.errstate(linalg="raise")

    def slogdet(self, a: Any) -> tuple[Any, Any]:
        return self.np.linalg.slogdet(a)

    def finite(self, value: Any) -> bool:
        return bool(self.np.isfinite(value).all())

    def nonzero_diagonal(self, a: Any) -> bool:
        return bool((self.np.diagonal(a) != 0).all())


def library(device: Device) -> Host:
    """The library that does ``device``'s linear algebra."""
    return CuPy(device) if device.kind == "cuda" else Host(device)
