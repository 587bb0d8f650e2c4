"""The reference backend interprets kernel IR with NumPy, one whole-array step per statement.

It runs the same lowered IR as the device backends, with each op's NumPy reference from the op
table, so a disagreement with a device points at the renderer or the device, not at lowering.
Reductions are interpreted per (segment, split) with NumPy's ``reduceat``. Work runs at once;
events are never pending.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...ir import (
    ELEMENTWISE,
    ERROR_BUFFER,
    ERROR_OFFSET,
    ERROR_SEEN,
    FLAT,
    REDUCE_ROWS,
    ROW_VECTOR,
    ROWWISE,
    SCALAR_ACCESS,
    SCAN,
    TRANSPOSED,
    AffineIndex,
    AffinePredicate,
    Apply,
    Cast,
    Check,
    Gather,
    KernelIR,
    Load,
    ReadIndex,
    ReadScalar,
    Scatter,
    Select,
    Statement,
)
from ...ops import OPS, identity, reference
from ...storage import Storage
from ...target import Traits
from ..base import GenericBound

_UFUNCS = {"add": np.add, "multiply": np.multiply, "maximum": np.maximum,
           "minimum": np.minimum, "logical_or": np.logical_or, "logical_and": np.logical_and,
           "logaddexp": np.logaddexp, "fmax": np.fmax, "fmin": np.fmin}
_RANGES = {"lower": lambda i, j: j <= i, "upper": lambda i, j: i <= j,
           "diagonal": lambda i, j: i == j}


class _Handle:
    name = "NumPy reference interpreter"
    supports_fp64 = True


def _bits(value: Any) -> int:
    value = np.asarray(value)
    if value.dtype == np.float32:
        return int(value.view(np.int32))
    if value.dtype == np.float64:
        return int(value.view(np.int64))
    return int(value)


class _Run:
    """One interpretation of a kernel over the elements (i, j, gid) it visits."""

    def __init__(self, program: KernelIR, values: dict[str, Any], i: np.ndarray,
                 j: np.ndarray, gid: np.ndarray) -> None:
        self.p = program
        self.values = values
        self.i, self.j, self.gid = i, j, gid
        self.count = len(gid)
        self.env: dict[str, np.ndarray] = {}
        self.stores: list[tuple[np.ndarray, np.ndarray, np.ndarray, bool]] = []
        err = values.get(ERROR_BUFFER)
        if err is not None:
            off = values[ERROR_OFFSET]
            err = err.buffer[off:off + 8]  # this launch's record
            self.seen = values[ERROR_SEEN].buffer
        self.err = err

    def address(self, access: str, view: str) -> np.ndarray:
        off = self.values[f"{view}_off"]
        if access == FLAT:
            return off + self.gid
        if access == SCALAR_ACCESS:
            return np.full(self.count, off)
        if access == TRANSPOSED:
            return off + self.i + self.j * self.values[f"{view}_s1"]
        if access == ROWWISE:
            return off + self.i * self.values[f"{view}_s0"]
        if access == ROW_VECTOR:
            return off + self.j
        return off + self.i * self.values[f"{view}_s0"] + self.j * self.values[f"{view}_s1"]

    def affine(self, view: str) -> np.ndarray:
        v = self.values
        return v[f"{view}_0"] + v[f"{view}_i"] * self.i + v[f"{view}_j"] * self.j

    def report(self, failed: np.ndarray, error: int, a: np.ndarray, b: np.ndarray,
               values: np.ndarray | None) -> None:
        record = self.err
        if record[0] or not failed.any():
            return
        k = int(np.argmax(failed))
        record[:5] = (1, error, int(a[k]), int(b[k]),
                      0 if values is None else _bits(values[k]))
        self.seen[0] = 1

    def element(self, s: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        v = self.values
        zero = np.zeros(self.count, dtype=np.int64)
        raw_r = zero if s.row is None else self.env[s.row].astype(np.int64)
        raw_c = zero if s.col is None else self.env[s.col].astype(np.int64)
        rows, cols = v[f"{s.view}_rows"], v[f"{s.view}_cols"]
        r = np.where(raw_r < 0, raw_r + rows, raw_r)
        c = np.where(raw_c < 0, raw_c + cols, raw_c)
        ok = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
        where = v[f"{s.view}_off"] + r * v[f"{s.view}_s0"] + c * v[f"{s.view}_s1"]
        return raw_r, raw_c, ok, np.where(ok, where, 0)

    def guard(self, name: str | None) -> np.ndarray:
        return np.ones(self.count, dtype=bool) if name is None else self.env[name]

    def statement(self, s: Statement) -> None:
        env, values = self.env, self.values
        if isinstance(s, Load):
            data = values[s.buffer].buffer
            where = self.address(s.access, s.view)
            if s.guard is None:
                env[s.var] = data[where]
            else:
                g = env[s.guard]
                picked = data[np.where(g, where, 0)] if data.size else np.zeros(self.count)
                env[s.var] = np.where(g, picked, 0).astype(s.dtype.numpy)
        elif isinstance(s, ReadScalar):
            env[s.var] = np.full(self.count, values[s.param], dtype=s.dtype.numpy)
        elif isinstance(s, ReadIndex):
            axis = {"i": self.i, "j": self.j, "0": np.zeros(self.count, dtype=np.int64)}
            env[s.var] = axis[s.axis].astype(s.dtype.numpy)
        elif isinstance(s, AffineIndex):
            env[s.var] = self.affine(s.view).astype(s.dtype.numpy)
        elif isinstance(s, AffinePredicate):
            d = self.affine(s.view)
            env[s.var] = {"le0": lambda: d <= 0, "ge0": lambda: d >= 0, "eq0": lambda: d == 0,
                          "range": lambda: (d >= 0) & (d < values[f"{s.view}_n"])}[s.relation]()
        elif isinstance(s, Select):
            env[s.var] = np.where(env[s.cond], env[s.value], 0).astype(s.dtype.numpy)
        elif isinstance(s, Cast):
            with np.errstate(all="ignore"):
                env[s.var] = env[s.arg].astype(s.dtype.numpy)
        elif isinstance(s, Apply):
            env[s.var] = reference(OPS[s.op], [env[a] for a in s.args], s.dtype)
        elif isinstance(s, Gather):
            raw_r, raw_c, ok, where = self.element(s)
            g = self.guard(s.guard)
            if s.error >= 0:
                self.report(g & ~ok, s.error, raw_r, raw_c, None)
            data = values[s.buffer].buffer
            picked = data[where] if data.size else np.zeros(self.count, dtype=data.dtype)
            env[s.var] = np.where(g & ok, picked, 0).astype(s.dtype.numpy)
        elif isinstance(s, Check):
            failed = self.guard(s.guard) & ~env[s.ok].astype(bool)
            self.report(failed, s.error, env[s.row], env[s.col], env[s.value])
        elif isinstance(s, Scatter):
            raw_r, raw_c, ok, where = self.element(s)
            self.report(~ok, s.error, raw_r, raw_c, None)
            self.stores.append((values[s.buffer].buffer, where[ok], env[s.var][ok], s.add))
        else:
            where, value = self.address(s.access, s.view), env[s.var]
            if s.when is not None:
                chosen = env[s.when].astype(bool)
                where, value = where[chosen], value[chosen]
            self.stores.append((values[s.buffer].buffer, where, value, False))

    def run(self) -> None:
        for s in self.p.body:
            self.statement(s)
        if self.err is not None and self.err[0]:
            return  # a failed kernel's writes are never looked at
        # Stores land after every load, as in a kernel where each thread reads first.
        for target, where, value, add in self.stores:
            if add:
                np.add.at(target, where, value.astype(target.dtype))
            else:
                target[where] = value.astype(target.dtype)


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

    def allocator(self, device: Any, dtype: Any, size: int) -> Callable[[], Storage]:
        return lambda: self.allocate(device, dtype, size)

    def read_back_allocator(self, device: Any, dtype: Any, size: int) -> Callable[[], Storage]:
        """``allocator``: the host holds every buffer."""
        return self.allocator(device, dtype, size)

    def upload(self, device: Any, data: np.ndarray) -> Storage:
        from ...dtypes import from_numpy_dtype

        storage = self.allocate(device, from_numpy_dtype(data.dtype), data.size)
        storage.buffer[...] = data.reshape(-1)
        return storage

    def adopt_host(self, device: Any, data: np.ndarray) -> Storage | None:
        return None  # (upload's copy keeps the interpreter's buffers its own)

    def download(self, *storages: Storage) -> list[np.ndarray]:
        return [s.buffer.copy() for s in storages]

    def map_for_reading(self, storage: Storage) -> tuple[np.ndarray, Callable[[], None]]:
        return storage.buffer, lambda: None  # host memory already

    def read_element(self, storage: Storage, offset: int) -> Any:
        return storage.buffer[offset].copy()

    def report_flag(self, device: Any) -> tuple[Storage, np.ndarray | None]:
        """Host memory, as every buffer here: the flag's view is its buffer."""
        storage = self.upload(device, np.zeros(1, dtype=np.int32))
        return storage, storage.buffer

    def release(self, device: Any, storage: Storage) -> None:
        pass

    def fingerprint(self, device: Any) -> str:
        return "reference"

    def from_ir(self, device: Any, ir: KernelIR) -> KernelIR:
        return ir

    def dialect_of(self, device: Any) -> Any:
        return self.dialect

    def traits(self, device: Any) -> Traits:
        return Traits()  # one element at a time, reductions never split

    def resident_groups(self, device: Any, program: Any) -> int:
        return 0

    def bind(self, device: Any, program: KernelIR, ir: Any, args: list[Any],
             holes: tuple[int, ...], n: int, groups: int | None = None,
             after: Any = ()) -> GenericBound:
        return GenericBound(self, device, program, ir, args, holes, n, groups)

    def plan_graph(self, device: Any, bounds: list[Any],
                   read_back: list[tuple[str, Any]] = ()) -> None:
        """None: each launch of a replay is enqueued on its own."""
        return None

    def launch(self, device: Any, program: KernelIR, ir: Any, args: list[Any], n: int,
               outputs: list[Storage], inputs: list[Storage], groups: int | None = None
               ) -> None:
        values = {p.name: a for p, a in zip(program.params, args)}
        if program.skeleton == ELEMENTWISE:
            gid = np.arange(n, dtype=np.int64)
            if program.ndim == 2:
                i, j = gid // values["cols"], gid % values["cols"]
            else:
                i, j = np.zeros_like(gid), gid
            _Run(program, values, i, j, gid).run()
            return
        if program.skeleton == SCAN:
            _scan(program, values)
            return
        rows, cols = values["rows"], values["cols"]
        gid = np.arange(rows * cols, dtype=np.int64)
        i, j = gid // max(cols, 1), gid % max(cols, 1)
        inside = _RANGES.get(program.range_structure)
        if inside is not None:
            keep = inside(i, j)
            i, j, gid = i[keep], j[keep], gid[keep]
        run = _Run(program, values, i, j, gid)
        run.run()
        if run.err is not None and run.err[0]:
            return
        rows_mode = program.skeleton == REDUCE_ROWS
        segment, along = (i, j) if rows_mode else (j, i)
        segments = rows if rows_mode else cols
        splits, chunk = values["splits"], values["chunk"]
        split = along // chunk if chunk else np.zeros_like(along)
        key = segment * splits + split
        order = np.argsort(key, kind="stable")
        for acc in program.reductions:
            # Compensated float32 sums are as accurate as float64 ones: the oracle uses those.
            work = np.float64 if acc.compensated else acc.dtype.numpy
            data = run.env[acc.var][order].astype(work)
            out = np.full(segments * splits, identity(acc.op, acc.dtype), dtype=work)
            present, starts = np.unique(key[order], return_index=True)
            if len(present):
                with np.errstate(all="ignore"):
                    out[present] = _UFUNCS[acc.op].reduceat(data, starts)
            if acc.scale is not None:
                with np.errstate(all="ignore"):
                    out = out * values[acc.scale]
            seg_idx, split_idx = np.divmod(np.arange(segments * splits), splits)
            where = (values[f"{acc.view}_off"] + seg_idx * values[f"{acc.view}_seg"]
                     + split_idx * values[f"{acc.view}_split"])
            target = values[acc.buffer].buffer
            target[where] = out.astype(target.dtype)

    def synchronize(self, device: Any) -> None:
        pass

    def is_ready(self, storage: Storage) -> bool:
        return True


def _scan(program: KernelIR, values: dict[str, Any]) -> None:
    """A scan pass (``ir.Scan``): the body over the walk's elements, then each split of each
    row accumulated by NumPy's ufunc."""
    spec = program.scan
    assert spec is not None
    rows, cols, splits, chunk = (int(values[k]) for k in ("rows", "cols", "splits", "chunk"))
    gid = np.arange(rows * cols, dtype=np.int64)
    i, j = np.divmod(gid, max(cols, 1))
    if spec.arg:
        _arg(program, values, i, j, gid)
        return
    run = _Run(program, values, i, j, gid)
    run.run()
    work = spec.dtype.numpy
    x = np.broadcast_to(run.env[spec.value], gid.shape).astype(work).reshape(rows, cols)
    ufunc = _UFUNCS[spec.op]
    start = np.full((rows, splits), identity(spec.op, spec.dtype), dtype=work)
    if spec.carried:
        start = values["carries"].buffer[:rows * splits].reshape(rows, splits).astype(work)
    out = np.empty_like(x)
    totals = np.empty((rows, splits), dtype=work)
    with np.errstate(all="ignore"):
        for split in range(splits):
            part = slice(split * chunk, min((split + 1) * chunk, cols))
            running = ufunc.accumulate(np.concatenate([start[:, split:split + 1], x[:, part]],
                                                      axis=1), axis=1)
            totals[:, split] = running[:, -1]
            out[:, part] = running[:, :-1] if spec.exclusive else running[:, 1:]
    if spec.totals:
        values["part"].buffer[:rows * splits] = totals.reshape(-1)
        return
    where = values["dst_off"] + i * values["dst_s0"] + j * values["dst_s1"]
    target = values["dst"].buffer
    target[where] = out.reshape(-1).astype(target.dtype)


def _first_extreme(values: np.ndarray, op: str) -> int:
    """NumPy's argmax (argmin) of a 1-d block: the first NaN, else the first extreme."""
    nan = np.isnan(values) if values.dtype.kind == "f" else np.zeros(len(values), bool)
    if nan.any():
        return int(np.argmax(nan))
    return int(np.argmax(values) if op == "maximum" else np.argmin(values))


def _arg(program: KernelIR, values: dict[str, Any], i: np.ndarray, j: np.ndarray,
         gid: np.ndarray) -> None:
    """An arg-reduction's pass: each split's first extreme and its position, or (combining)
    each row's best of those pairs."""
    spec = program.scan
    assert spec is not None
    rows, cols, splits, chunk = (int(values[k]) for k in ("rows", "cols", "splits", "chunk"))
    if spec.combining:
        x = values["part"].buffer[:rows * cols].reshape(rows, cols)
        at = values["part_at"].buffer[:rows * cols].reshape(rows, cols)
    else:
        run = _Run(program, values, i, j, gid)
        run.run()
        x = np.broadcast_to(run.env[spec.value], gid.shape).astype(spec.dtype.numpy)
        x = x.reshape(rows, cols)
        at = (gid if spec.flat else j).reshape(rows, cols)
    best = np.empty((rows, splits), dtype=x.dtype)
    best_at = np.empty((rows, splits), dtype=np.int64)
    for row in range(rows):
        for split in range(splits):
            part = slice(split * chunk, min((split + 1) * chunk, cols))
            k = _first_extreme(x[row, part], spec.op)
            best[row, split], best_at[row, split] = x[row, part][k], at[row, part][k]
    if spec.totals:
        values["part"].buffer[:rows * splits] = best.reshape(-1)
        values["part_at"].buffer[:rows * splits] = best_at.reshape(-1)
        return
    where = values["dst_off"] + np.arange(rows) * values["dst_s0"]
    values["dst"].buffer[where] = best_at[:, 0]
