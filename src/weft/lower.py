"""Lowering: one kernel's outputs (expression roots and their destinations) → kernel IR.

The IR is dialect-neutral and purely structural: parameters by kind and dtype, and a list of
statements (loads with an access pattern, op applications, casts, stores). It holds no size,
offset or scalar value, so the IR itself is the in-memory cache key; those values come back as
the kernel's runtime arguments, in parameter order.

Value numbering gives CSE: a statement whose (operation, arguments) was already emitted reuses
the earlier variable, so ``t = a / b; t * t`` divides once per element.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import expr as ex
from .dtypes import DType
from .expr import Node

FLAT = "flat"  # contiguous, same shape as the thread grid: element gid
SCALAR_ACCESS = "scalar"  # one element broadcast everywhere
STRIDED = "strided"  # offset + i * s0 + j * s1 (stride 0 on broadcast axes)


@dataclass(frozen=True)
class BufferParam:
    name: str
    dtype: DType
    read: bool
    written: bool


@dataclass(frozen=True)
class ScalarParam:
    name: str
    dtype: DType


@dataclass(frozen=True)
class IndexParam:
    """An integer kernel argument: element count, row length, a view's offset or stride."""

    name: str


@dataclass(frozen=True)
class Load:
    var: str
    dtype: DType
    buffer: str
    access: str
    view: str  # prefix of the view's index parameters


@dataclass(frozen=True)
class ReadScalar:
    var: str
    dtype: DType
    param: str


@dataclass(frozen=True)
class ReadIndex:
    var: str
    dtype: DType
    axis: str  # "i", "j" or "0"


@dataclass(frozen=True)
class Apply:
    var: str
    dtype: DType  # result
    op: str
    compute: DType  # computation dtype (the arguments' dtype)
    args: tuple[str, ...]


@dataclass(frozen=True)
class Cast:
    var: str
    dtype: DType
    arg: str


@dataclass(frozen=True)
class Store:
    buffer: str
    var: str
    access: str
    view: str


Statement = Load | ReadScalar | ReadIndex | Apply | Cast | Store
Param = BufferParam | ScalarParam | IndexParam


@dataclass(frozen=True)
class KernelIR:
    """A structural description of one element-wise kernel; hashable, the memory cache key."""

    skeleton: str
    ndim: int  # of the thread grid: 0/1 need no row/column split, 2 does
    params: tuple[Param, ...]
    body: tuple[Statement, ...]

    @property
    def uses_rows(self) -> bool:
        return any(
            (isinstance(s, (Load, Store)) and s.access == STRIDED)
            or (isinstance(s, ReadIndex) and s.axis == "i")
            for s in self.body
        )

    @property
    def op_names(self) -> list[str]:
        return [s.op for s in self.body if isinstance(s, Apply)]


def _as_2d(shape: tuple[int, ...]) -> tuple[int, int]:
    if len(shape) == 0:
        return (1, 1)
    if len(shape) == 1:
        return (1, shape[0])
    return (shape[0], shape[1])


class _Lowering:
    def __init__(self, thread_shape: tuple[int, ...]) -> None:
        self.thread_shape = thread_shape
        self.thread2 = _as_2d(thread_shape)
        self.buffers: dict[int, int] = {}  # id(storage) -> index into buffer_params
        self.buffer_params: list[list[Any]] = []  # [name, dtype, read, written, storage]
        self.scalar_params: list[tuple[ScalarParam, Any]] = []
        self.index_params: list[tuple[IndexParam, int]] = []
        self.views: dict[tuple, str] = {}
        self.body: list[Statement] = []
        self.numbering: dict[tuple, str] = {}
        self.vars_of: dict[int, str] = {}
        self.count = 0

    def fresh(self) -> str:
        name = f"v{self.count}"
        self.count += 1
        return name

    def buffer(self, storage: Any, read: bool, written: bool) -> str:
        idx = self.buffers.get(id(storage))
        if idx is None:
            idx = len(self.buffer_params)
            self.buffers[id(storage)] = idx
            self.buffer_params.append([f"b{idx}", storage.dtype, False, False, storage])
        entry = self.buffer_params[idx]
        entry[2] |= read
        entry[3] |= written
        return entry[0]

    def view(self, node: Node) -> tuple[str, str]:
        """The access pattern of buffer leaf ``node`` in this grid and its parameter prefix."""
        v = node.attrs
        shape2 = _as_2d(node.shape)
        strides = (0, 0, *v.strides)[-2:] if len(v.strides) < 2 else v.strides
        if node.shape == self.thread_shape and v.is_contiguous(node.shape):
            access, values = FLAT, (v.offset,)
        elif shape2 == (1, 1):
            access, values = SCALAR_ACCESS, (v.offset,)
        else:
            s0 = strides[0] if shape2[0] == self.thread2[0] and shape2[0] != 1 else 0
            s1 = strides[1] if shape2[1] == self.thread2[1] and shape2[1] != 1 else 0
            access, values = STRIDED, (v.offset, s0, s1)
        key = (access, id(v.storage), values)
        prefix = self.views.get(key)
        if prefix is None:
            prefix = f"w{len(self.views)}"
            self.views[key] = prefix
            suffixes = ("off",) if len(values) == 1 else ("off", "s0", "s1")
            for suffix, value in zip(suffixes, values):
                self.index_params.append((IndexParam(f"{prefix}_{suffix}"), value))
        return access, prefix

    def emit(self, key: tuple, make) -> str:
        var = self.numbering.get(key)
        if var is None:
            var = self.fresh()
            self.body.append(make(var))
            self.numbering[key] = var
        return var

    def node(self, node: Node) -> str:
        known = self.vars_of.get(id(node))
        if known is not None:
            return known
        kind = node.kind
        if kind == ex.BUFFER:
            buf = self.buffer(node.attrs.storage, read=True, written=False)
            access, prefix = self.view(node)
            var = self.emit(("load", buf, access, prefix),
                            lambda v: Load(v, node.dtype, buf, access, prefix))
        elif kind == ex.SCALAR:
            param = ScalarParam(f"s{len(self.scalar_params)}", node.dtype)
            self.scalar_params.append((param, node.attrs))
            var = self.fresh()
            self.body.append(ReadScalar(var, node.dtype, param.name))
        elif kind == ex.INDEX:
            shape2 = _as_2d(node.shape)
            if node.attrs == "row":
                axis = "i" if shape2[0] != 1 else "0"
            else:
                axis = "j" if shape2[1] != 1 else "0"
            var = self.emit(("index", axis, node.dtype),
                            lambda v: ReadIndex(v, node.dtype, axis))
        elif kind == ex.BROADCAST:
            var = self.node(node.args[0])  # leaves broadcast themselves through stride 0
        elif kind == ex.CAST:
            arg = self.node(node.args[0])
            var = self.emit(("cast", node.dtype, arg), lambda v: Cast(v, node.dtype, arg))
        elif kind == ex.MAP:
            args = tuple(self.node(a) for a in node.args)
            compute = node.attrs
            var = self.emit(("map", node.op.name, node.dtype, compute, args),
                            lambda v: Apply(v, node.dtype, node.op.name, compute, args))
        else:  # pragma: no cover - every kind is handled above
            raise AssertionError(f"unknown node kind {kind}")
        self.vars_of[id(node)] = var
        return var

    def store(self, dest: Node, var: str) -> None:
        buf = self.buffer(dest.attrs.storage, read=False, written=True)
        access, prefix = self.view(dest)
        self.body.append(Store(buf, var, access, prefix))


def lower(outputs: list[tuple[Node, Node]]) -> tuple[KernelIR, list[Any]]:
    """Lower ``[(expression, destination leaf), ...]`` (one common shape) to IR + arguments.

    The arguments are, in parameter order: storages for buffers, NumPy scalars for scalar
    parameters, Python ints for index parameters, then the element count and the row length.
    """
    thread_shape = outputs[0][1].shape
    lw = _Lowering(thread_shape)
    for root, dest in outputs:
        var = lw.node(root)
        lw.store(dest, var)
    params: list[Param] = []
    args: list[Any] = []
    for name, dtype, read, written, storage in lw.buffer_params:
        params.append(BufferParam(name, dtype, read, written))
        args.append(storage)
    for param, value in lw.scalar_params:
        params.append(param)
        args.append(value)
    for param, value in lw.index_params:
        params.append(param)
        args.append(value)
    n = int(np.prod(thread_shape)) if thread_shape else 1
    params.append(IndexParam("n"))
    args.append(n)
    params.append(IndexParam("cols"))
    args.append(_as_2d(thread_shape)[1])
    ir = KernelIR("elementwise", len(thread_shape), tuple(params), tuple(lw.body))
    return ir, args
