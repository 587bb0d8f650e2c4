"""Immutable expression nodes: the lazy graph behind every weft Array.

A node is a leaf (a device buffer seen through a view, a runtime scalar, a row/column index) or
an operation over other nodes (an op-table entry, a cast, a broadcast). Sizes, offsets and
scalar values live in nodes but never reach cache keys: lowering turns them into kernel
arguments. Equal subtrees are found by value numbering during lowering, so CSE holds whether
or not two equal subtrees are the same Python object.

Buffer leaves count the live nodes that read them (``parents``): a write into an array's own
buffer is done in place only when no lazy expression can still read the old contents
(copy-on-write, see array.py).
"""

from __future__ import annotations

from typing import Any

from .dtypes import DType
from .ops import Op

Shape = tuple[int, ...]

BUFFER = "buffer"
SCALAR = "scalar"
INDEX = "index"
MAP = "map"
CAST = "cast"
BROADCAST = "broadcast"


class Node:
    """One vertex of the expression DAG. Treat as immutable."""

    __slots__ = ("kind", "op", "args", "dtype", "shape", "attrs", "parents", "__weakref__")

    def __init__(
        self,
        kind: str,
        dtype: DType,
        shape: Shape,
        args: tuple[Node, ...] = (),
        op: Op | None = None,
        attrs: Any = None,
    ) -> None:
        self.kind = kind
        self.op = op
        self.args = args
        self.dtype = dtype
        self.shape = shape
        self.attrs = attrs
        self.parents = 0
        for a in args:
            if a.kind == BUFFER:
                a.parents += 1

    def __del__(self) -> None:
        for a in self.args:
            if a.kind == BUFFER:
                a.parents -= 1
        if self.kind == BUFFER:
            self.attrs.storage.leaves -= 1

    def __repr__(self) -> str:
        label = self.op.name if self.op is not None else self.kind
        return f"Node({label}, {self.dtype}, {self.shape})"


class View:
    """Where a buffer leaf's elements lie: an element offset and per-dimension strides."""

    __slots__ = ("storage", "offset", "strides")

    def __init__(self, storage: Any, offset: int, strides: tuple[int, ...]) -> None:
        self.storage = storage
        self.offset = offset
        self.strides = strides

    def is_contiguous(self, shape: Shape) -> bool:
        expected = 1
        for size, stride in zip(reversed(shape), reversed(self.strides)):
            if size != 1 and stride != expected:
                return False
            expected *= size
        return True


def contiguous_strides(shape: Shape) -> tuple[int, ...]:
    strides = []
    step = 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def buffer(storage: Any, shape: Shape, offset: int = 0, strides: tuple[int, ...] | None = None
           ) -> Node:
    """A leaf reading ``storage`` (row-major unless ``strides`` are given, in elements)."""
    storage.leaves += 1
    view = View(storage, offset, contiguous_strides(shape) if strides is None else strides)
    return Node(BUFFER, storage.dtype, shape, attrs=view)


def scalar(value: Any, dtype: DType) -> Node:
    """A 0-d runtime scalar: its value is a kernel argument, not part of the kernel."""
    return Node(SCALAR, dtype, (), attrs=dtype.numpy.type(value))


def index(axis: str, shape: Shape, dtype: DType) -> Node:
    """The row (``axis="row"``) or column index of each element of ``shape``."""
    return Node(INDEX, dtype, shape, attrs=axis)


def cast(node: Node, dtype: DType) -> Node:
    if node.dtype is dtype:
        return node
    if node.kind == SCALAR:
        return scalar(node.attrs, dtype)
    return Node(CAST, dtype, node.shape, (node,))


def broadcast(node: Node, shape: Shape) -> Node:
    if node.shape == shape:
        return node
    return Node(BROADCAST, node.dtype, shape, (node,))


def apply(op: Op, args: tuple[Node, ...], dtype: DType, compute: DType, shape: Shape) -> Node:
    """``op`` over ``args`` (already in their computation dtypes); ``compute`` fills ``{T}``."""
    return Node(MAP, dtype, shape, args, op=op, attrs=compute)


def broadcast_shapes(name: str, *shapes: Shape) -> Shape:
    """NumPy broadcasting of up to 2-D shapes; ``ValueError`` naming ``name`` and the shapes."""
    ndim = max(len(s) for s in shapes)
    result = []
    for axis in range(-ndim, 0):
        size = 1
        for s in shapes:
            if len(s) >= -axis:
                d = s[axis]
                if d != 1:
                    if size not in (1, d):
                        listed = " ".join(str(tuple(x)) for x in shapes)
                        raise ValueError(
                            f"{name}: operands could not be broadcast together with shapes "
                            f"{listed}"
                        )
                    size = d
        result.append(size)
    return tuple(result)


def walk(roots: list[Node]) -> list[Node]:
    """Every node reachable from ``roots``, children before parents, each once."""
    seen: set[int] = set()
    order: list[Node] = []
    stack: list[tuple[Node, bool]] = [(r, False) for r in reversed(roots)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        for a in reversed(node.args):
            if id(a) not in seen:
                stack.append((a, False))
    return order
