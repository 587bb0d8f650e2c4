"""The reference backend interprets kernel IR with NumPy, one whole-array step per statement.

It runs the same lowered IR as the device backends, with each op's NumPy reference from the op
table, so a disagreement with a device points at the renderer or the device, not at lowering.
Work runs at once; events are never pending.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import lower as lw
from ...ops import OPS, reference
from ...storage import Storage


class _Handle:
    name = "NumPy reference interpreter"
    supports_fp64 = True


class ReferenceBackend:
    kind = "reference"
    dialect = None

    def discover(self) -> list[_Handle]:
        return [_Handle()]

    def allocate(self, device: Any, dtype: Any, size: int) -> Storage:
        try:
            data = np.empty(size, dtype=dtype.numpy)
        except (MemoryError, ValueError) as e:
            raise MemoryError(f"cannot allocate {size * dtype.itemsize} bytes on {device}") from e
        return Storage(device, data, dtype, size)

    def upload(self, device: Any, data: np.ndarray) -> Storage:
        from ...dtypes import from_numpy_dtype

        storage = self.allocate(device, from_numpy_dtype(data.dtype), data.size)
        storage.buffer[...] = data.reshape(-1)
        return storage

    def download(self, storage: Storage) -> np.ndarray:
        return storage.buffer.copy()

    def release(self, device: Any, storage: Storage) -> None:
        pass

    def fingerprint(self, device: Any) -> str:
        return "reference"

    def from_ir(self, device: Any, ir: lw.KernelIR) -> lw.KernelIR:
        return ir

    def launch(self, device: Any, program: lw.KernelIR, args: list[Any], n: int,
               outputs: list[Storage], inputs: list[Storage]) -> None:
        values = {p.name: a for p, a in zip(program.params, args)}
        gid = np.arange(n, dtype=np.int64)
        cols = values["cols"]
        if program.ndim == 2:
            i, j = gid // cols, gid % cols
        else:
            i, j = np.zeros_like(gid), gid
        axis = {"i": i, "j": j, "0": np.zeros_like(gid)}
        env: dict[str, np.ndarray] = {}
        stores: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

        def address(access: str, view: str) -> np.ndarray:
            off = values[f"{view}_off"]
            if access == lw.FLAT:
                return off + gid
            if access == lw.SCALAR_ACCESS:
                return np.full(n, off)
            return off + i * values[f"{view}_s0"] + j * values[f"{view}_s1"]

        for s in program.body:
            if isinstance(s, lw.Load):
                env[s.var] = values[s.buffer].buffer[address(s.access, s.view)]
            elif isinstance(s, lw.ReadScalar):
                env[s.var] = np.full(n, values[s.param], dtype=s.dtype.numpy)
            elif isinstance(s, lw.ReadIndex):
                env[s.var] = axis[s.axis].astype(s.dtype.numpy)
            elif isinstance(s, lw.Cast):
                with np.errstate(all="ignore"):
                    env[s.var] = env[s.arg].astype(s.dtype.numpy)
            elif isinstance(s, lw.Apply):
                env[s.var] = reference(OPS[s.op], [env[a] for a in s.args], s.dtype)
            else:
                target = values[s.buffer].buffer
                stores.append((target, address(s.access, s.view), env[s.var]))
        # Stores land after every load, as in a kernel where each thread reads before it writes.
        for target, where, value in stores:
            target[where] = value.astype(target.dtype)

    def synchronize(self, device: Any) -> None:
        pass

    def is_ready(self, storage: Storage) -> bool:
        return True
