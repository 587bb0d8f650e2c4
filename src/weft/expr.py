"""Immutable expression nodes: the lazy graph behind every weft Array.

A node is a leaf (a device buffer seen through a view, a runtime scalar, a row/column index) or
an operation over other nodes: an op-table entry, a cast, a broadcast, an index map (block,
transpose, diagonal: see indexing.py), a structure restriction (tril/triu/diag), a reduction,
a gather by integer arrays, a concatenation or a fused check. Every node carries its matrix
structure (structure.py). Sizes, offsets and scalar values live in nodes but never reach cache
keys: lowering turns them into kernel arguments. Equal subtrees are found by value numbering
during lowering, so CSE holds whether or not two equal subtrees are the same Python object.

Buffer leaves count the live nodes that read them (``parents``): a write into an array's own
buffer is done in place only when no lazy expression can still read the old contents
(copy-on-write, see array.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import structure as st
from .dtypes import DType
from .indexing import IDENTITY, AffineMap, padded_strides, unpad_strides
from .ops import Op
from .traced import TRACED, plain

Shape = tuple[int, ...]

BUFFER = "buffer"
SCALAR = "scalar"
INDEX = "index"
MAP = "map"
CAST = "cast"
BROADCAST = "broadcast"
VIEW = "view"  # attrs: AffineMap from this node's elements to its argument's
RESTRICT = "restrict"  # attrs: structure; zero outside it
REDUCE = "reduce"  # attrs: Reduction
GATHER = "gather"  # args: (source leaf, index arrays...); attrs: Gather
CONCAT = "concat"  # attrs: axis of the padded 2-D shape (0 rows, 1 columns)
CHECK = "check"  # args: (value, predicate); attrs: message
# args: (values, index arrays...); attrs: Gather. Zeros of its shape, each value added at the
# element the gather spec picks (a gather's adjoint: duplicates add up).
SCATTER_ADD = "scatter_add"
# args: (operand,); attrs: (op, axis): the op-table op combining the elements along the
# padded 2-D operand's axis (1: along each row, 0: down each column) in order, its running
# values (a cumulative sum is ``add``), computed in the node's dtype.
SCAN = "scan"
# args: (operand,); attrs: (op, axis): the int64 position of the first largest ("maximum")
# or smallest ("minimum") element, or of the first NaN, along each row (axis 1) or column
# (0) of the padded 2-D operand, or in the whole of it (None, row-major).
ARG = "arg"


@dataclass(frozen=True)
class Reduction:
    """``op`` (an op-table binary op with an identity) over ``axis`` of the padded 2-D operand:
    1 within each row, 0 within each column, None over everything. ``scale`` multiplies the
    final value (``mean``)."""

    op: str
    axis: int | None
    scale: float | None = None


@dataclass(frozen=True)
class Gather:
    """Where a gather's rows and columns come from: ``"array"`` (the next index argument) or an
    affine (constant, i coefficient, j coefficient) of the result's element."""

    rows: str | tuple[int, int, int]
    cols: str | tuple[int, int, int]
    # In bounds and non-negative by construction (a bit mask's word of an element): a plain
    # load in the kernel, with no check, so the kernel needs no error read-back.
    trusted: bool = False
    # As a destination: add each value to the element (atomically), not store it.
    accumulate: bool = False


class Node:
    """One vertex of the expression DAG. Treat as immutable."""

    # Set only where they apply (read with getattr and a default): ``origin`` on scalar
    # leaves made from a traced scalar argument (its TracedFloat or TracedInt, the types its
    # value went through); ``sig`` on buffer leaves a traced function has signed.
    # ``tape``: how a leaf that a gradient must see through was made (tape.py), else None.
    # ``number``: the node's structure as one int (``structure_number``), None where a key
    # cannot hold it; ``leaves``: then the buffer and scalar leaves under it in tree order.
    # ``depth``: the longest path down to a leaf (leaves 0); ``owner``: on deep nodes only,
    # a weak reference to the Array made over it (carrying.py).
    __slots__ = ("kind", "op", "args", "dtype", "shape", "attrs", "parents", "structure",
                 "origin", "sig", "tape", "number", "leaves", "depth", "owner", "__weakref__")

    def __init__(
        self,
        kind: str,
        dtype: DType,
        shape: Shape,
        args: tuple[Node, ...] = (),
        op: Op | None = None,
        attrs: Any = None,
        structure: str = "general",
    ) -> None:
        self.kind = kind
        self.structure = structure
        self.op = op
        self.args = args
        self.dtype = dtype
        self.shape = shape
        self.attrs = attrs
        self.parents = 0
        self.tape = None
        self.depth = 0
        if kind is BUFFER:
            self.number = structure_number(
                (kind, dtype, shape, structure, attrs.offset, attrs.strides))
            self.leaves = None
            self.__class__ = _CountingNode  # it counts as a reader of its storage
            return
        if kind is SCALAR:
            self.number = _SCALAR_NUMBERS.get(dtype) or _scalar_number(dtype)
            self.leaves = None
            return
        # One pass over the arguments: count the buffers read, and number the structure
        # from the arguments' numbers, gathering the leaves in tree order (a cached
        # evaluation's key is then the number and the leaves' aliasing, with no walk of the
        # DAG). A shared subtree counts once per use, so the aliasing pattern tells sharing
        # from an equal copy; past LEAF_LIMIT leaves (deep sharing multiplies them) the
        # node is left to the walk.
        counts = False
        numbered = kind in NUMBERED
        parts = [kind, op.name if op is not None else None, attrs, dtype, shape, structure]
        leaves: tuple[Node, ...] = ()
        depth = 0
        for a in args:
            if a.depth > depth:
                depth = a.depth
            arg_kind = a.kind
            if arg_kind is BUFFER:
                a.parents += 1
                counts = True
                leaves += (a,)
            elif arg_kind is SCALAR:
                leaves += (a,)
            elif numbered:
                below = a.leaves
                if below is None:
                    numbered = False
                    continue
                leaves += below
            parts.append(a.number)
        self.depth = depth + 1
        if numbered and len(leaves) <= LEAF_LIMIT:
            self.number = structure_number(tuple(parts))
            self.leaves = leaves
        else:
            self.number = self.leaves = None
        if counts:
            # Only a node that counts something needs a finalizer to uncount it: most nodes
            # of an expression read no buffer directly, and a finalizer costs every drop.
            self.__class__ = _CountingNode

    def __repr__(self) -> str:
        label = self.op.name if self.op is not None else self.kind
        return f"Node({label}, {self.dtype}, {self.shape})"


# Structure numbers ------------------------------------------------------------------------

# Kinds whose attrs are plain hashable structure (no nodes, no values): a number holds them.
NUMBERED = frozenset({MAP, CAST, BROADCAST, VIEW, INDEX, RESTRICT, REDUCE, CHECK, CONCAT, SCAN,
                      ARG, GATHER})
LEAF_LIMIT = 64
_NUMBERS: dict[tuple, int] = {}
_NEXT_NUMBER = itertools.count(1)
_NUMBERS_LIMIT = 1 << 16
_SCALAR_NUMBERS: dict[DType, int] = {}


def structure_number(parts: tuple) -> int:
    """One int per distinct structure ``parts`` (a node's kind, op, attrs, dtype, shape,
    matrix structure and its arguments' numbers). Numbers are never reused: when the table
    is cleared (many distinct structures), a structure seen again takes a new number, so an
    old key can miss but never match the wrong structure."""
    number = _NUMBERS.get(parts)
    if number is None:
        if len(_NUMBERS) >= _NUMBERS_LIMIT:
            _NUMBERS.clear()
        number = _NUMBERS.setdefault(parts, next(_NEXT_NUMBER))
    return number


def _scalar_number(dtype: DType) -> int:
    number = _SCALAR_NUMBERS[dtype] = structure_number((SCALAR, dtype))
    return number


class _CountingNode(Node):
    """A buffer leaf (it counts as a reader of its storage) or a node reading one (it
    counts as a parent of the leaf): dropping it uncounts."""

    __slots__ = ()

    def __del__(self) -> None:
        # Never raises: a node that was never fully made (a failed __init__, or one the copy
        # and pickle machinery made without it) has counted nothing.
        try:
            args, kind = self.args, self.kind
        except AttributeError:
            return
        for a in args:
            if a.kind is BUFFER:
                a.parents -= 1
        if kind is BUFFER:
            self.attrs.storage.leaves -= 1


class View:
    """Where a buffer leaf's elements lie: an element offset and per-dimension strides."""

    __slots__ = ("storage", "offset", "strides")

    def __init__(self, storage: Any, offset: int, strides: tuple[int, ...]) -> None:
        self.storage = storage
        self.offset = offset
        self.strides = strides

    def same_elements(self, other: View, shape: Shape) -> bool:
        """Whether both views address the same elements in the same order."""
        if self.storage is not other.storage or self.offset != other.offset:
            return False
        return all(size == 1 or a == b for size, a, b in zip(shape, self.strides, other.strides))

    def is_contiguous(self, shape: Shape) -> bool:
        expected = 1
        for size, stride in zip(reversed(shape), reversed(self.strides)):
            if size != 1 and stride != expected:
                return False
            expected *= size
        return True


def contiguous_strides(shape: Shape) -> tuple[int, ...]:
    """Row-major strides, in elements, of ``shape`` (kept: every new buffer asks)."""
    strides = _CONTIGUOUS.get(shape)
    if strides is None:
        steps = []
        step = 1
        for size in reversed(shape):
            steps.append(step)
            step *= max(size, 1)
        if len(_CONTIGUOUS) >= 4096:
            _CONTIGUOUS.clear()
        strides = _CONTIGUOUS[shape] = tuple(reversed(steps))
    return strides


_CONTIGUOUS: dict[Shape, tuple[int, ...]] = {}


def buffer(storage: Any, shape: Shape, offset: int = 0, strides: tuple[int, ...] | None = None,
           structure: str = "general") -> Node:
    """A leaf reading ``storage`` (row-major unless ``strides`` are given, in elements)."""
    storage.leaves += 1
    view = View(storage, offset, contiguous_strides(shape) if strides is None else strides)
    return Node(BUFFER, storage.dtype, shape, attrs=view, structure=structure)


def scalar(value: Any, dtype: DType) -> Node:
    """A 0-d runtime scalar: its value is a kernel argument, not part of the kernel."""
    if type(value) in TRACED:
        node = Node(SCALAR, dtype, (), (), None, dtype.numpy.type(plain(value)))
        node.origin = (value, (dtype,))
        return node
    return Node(SCALAR, dtype, (), (), None, dtype.numpy.type(value))


_CONSTANTS: dict[tuple, Node] = {}
# A kept constant's leaf by its key, (value, type(value), dtype), for a non-zero value (a
# zero's key also tells its sign); None where ``constant`` must make it.
kept_constant = _CONSTANTS.get
_CONSTANTS_LIMIT = 4096


def constant(value: float | int | bool, dtype: DType) -> Node:
    """The scalar leaf of a plain Python number in ``dtype``, one node per number: the
    numbers written in a loop body or a density (``x * 0.5 + 1.0``) are the same every call,
    and making their leaves was a third of an operator's cost. Never mutate the node (tape,
    origin): a leaf that carries more is ``scalar``'s. Equal numbers are one leaf, so one
    kernel argument, which the key's aliasing pattern records."""
    key = (value, type(value), dtype)
    if value == 0 and type(value) is float:
        key = (value, float, dtype, str(value))  # 0.0 and -0.0 are equal keys
    node = _CONSTANTS.get(key)
    if node is None:
        node = scalar(value, dtype)
        if value == value:  # a NaN never finds its key again
            if len(_CONSTANTS) >= _CONSTANTS_LIMIT:
                _CONSTANTS.clear()
            _CONSTANTS[key] = node
    return node


def index(axis: str, shape: Shape, dtype: DType) -> Node:
    """The row (``axis="row"``) or column index of each element of ``shape``."""
    return Node(INDEX, dtype, shape, attrs=axis)


def cast(node: Node, dtype: DType) -> Node:
    if node.dtype is dtype:
        return node
    if node.kind == SCALAR:
        out = scalar(node.attrs, dtype)
        origin = getattr(node, "origin", None)
        if origin is not None:
            out.origin = (origin[0], (*origin[1], dtype))
        out.tape = node.tape
        return out
    return Node(CAST, dtype, node.shape, (node,), structure=node.structure)


def broadcast(node: Node, shape: Shape) -> Node:
    if node.shape == shape:
        return node
    return Node(BROADCAST, node.dtype, shape, (node,))


def _operand_structure(node: Node, shape: Shape) -> str:
    # A broadcast operand is general: its zeros no longer lie on a diagonal.
    return node.structure if node.shape == shape else "general"


def apply(op: Op, args: tuple[Node, ...], dtype: DType, compute: DType, shape: Shape) -> Node:
    """``op`` over ``args`` (already in their computation dtypes); ``compute`` fills ``{T}``."""
    structure = "general"
    if len(shape) == 2:
        structure = st.of_op(op.zeros, [_operand_structure(a, shape) for a in args])
    # Node.__init__'s work for a MAP, unrolled for one and two arguments: every operator of
    # a loop body or a density makes one (PoCL host: 1.05 -> 0.55 us a node). The parts and
    # leaves are the ones Node.__init__ makes, so both ways give one key.
    if len(args) == 2:
        a, b = args
        kind_a, kind_b = a.kind, b.kind
        counts = kind_a is BUFFER or kind_b is BUFFER
        leaves_a = (a,) if kind_a is BUFFER or kind_a is SCALAR else a.leaves
        leaves_b = (b,) if kind_b is BUFFER or kind_b is SCALAR else b.leaves
        if counts:
            if kind_a is BUFFER:
                a.parents += 1
            if kind_b is BUFFER:
                b.parents += 1
        leaves = None if leaves_a is None or leaves_b is None else leaves_a + leaves_b
        key = (MAP, op.name, compute, dtype, shape, structure, a.number, b.number)
        depth = a.depth if a.depth > b.depth else b.depth
    elif len(args) == 1:
        (a,) = args
        kind_a = a.kind
        counts = kind_a is BUFFER
        if counts:
            a.parents += 1
            leaves = (a,)
        else:
            leaves = (a,) if kind_a is SCALAR else a.leaves
        key = (MAP, op.name, compute, dtype, shape, structure, a.number)
        depth = a.depth
    else:
        return Node(MAP, dtype, shape, args, op, compute, structure)
    node = _new_node(_CountingNode if counts else Node)
    node.kind = MAP
    node.structure = structure
    node.op = op
    node.args = args
    node.dtype = dtype
    node.shape = shape
    node.attrs = compute
    node.parents = 0
    node.tape = None
    node.depth = depth + 1
    if leaves is not None and len(leaves) <= LEAF_LIMIT:
        node.number = _NUMBERS.get(key) or structure_number(key)
        node.leaves = leaves
    else:
        node.number = node.leaves = None
    return node


_new_node = object.__new__


def view(node: Node, shape: Shape, m: AffineMap) -> Node:
    """Elements of ``node`` picked by ``m`` (indexing.py); folds into a buffer leaf's view."""
    structure = st.of_view(node.structure, m, len(shape))
    if node.kind == BUFFER:
        v = node.attrs
        off, ci, cj = m.fold(v.offset, padded_strides(v.strides))
        out = buffer(v.storage, shape, off, unpad_strides(ci, cj, len(shape)), structure)
        if node.tape is not None:
            out.tape = ("view", node, m)  # the gradient scatters back through ``m``
        return out
    if node.kind == VIEW:
        inner = m.then(node.attrs)
        source = node.args[0]
        if shape == source.shape and inner == IDENTITY:
            return source  # a view undone (the same elements in the same shape)
        return view(source, shape, inner)
    return Node(VIEW, node.dtype, shape, (node,), attrs=m, structure=structure)


def restrict(node: Node, structure: str) -> Node:
    """``node`` with every element outside ``structure`` zero (tril, triu, diag)."""
    combined = st.intersection(node.structure, structure)
    if combined == node.structure:
        return node
    return Node(RESTRICT, node.dtype, node.shape, (node,), attrs=combined, structure=combined)


def reduce(node: Node, reduction: Reduction, shape: Shape, dtype: DType) -> Node:
    return Node(REDUCE, dtype, shape, (node,), attrs=reduction)


def gather(source: Node, indexes: tuple[Node, ...], spec: Gather, shape: Shape) -> Node:
    return Node(GATHER, source.dtype, shape, (source, *indexes), attrs=spec)


def scatter_add(values: Node, indexes: tuple[Node, ...], spec: Gather, shape: Shape) -> Node:
    """Zeros of ``shape`` with ``values`` added where ``spec`` and ``indexes`` pick (the
    elements a gather of that spec from an array of ``shape`` would read)."""
    return Node(SCATTER_ADD, values.dtype, shape, (values, *indexes), attrs=spec)


def scan(node: Node, op: str, axis: int, dtype: DType) -> Node:
    """The running ``op`` along ``axis`` of the padded 2-D ``node`` (``dtype``: what it
    computes in, the node's own or wider)."""
    return Node(SCAN, dtype, node.shape, (node,), attrs=(op, axis))


def arg(node: Node, op: str, axis: int | None, shape: Shape, dtype: DType) -> Node:
    """The position (``dtype``: int64) along ``axis`` of ``node`` of its first extreme
    element by ``op``, NaN first (``shape``: the result's, with or without kept axes)."""
    return Node(ARG, dtype, shape, (node,), attrs=(op, axis))


def concat(parts: tuple[Node, ...], axis: int, shape: Shape, dtype: DType) -> Node:
    return Node(CONCAT, dtype, shape, parts, attrs=axis)


def check(value: Node, predicate: Node, message: str) -> Node:
    return Node(CHECK, value.dtype, value.shape, (value, predicate), attrs=message,
                structure=value.structure)


def rebuild(node: Node, args: tuple[Node, ...]) -> Node:
    """``node`` over new arguments of the same shapes and dtypes."""
    return Node(node.kind, node.dtype, node.shape, args, op=node.op, attrs=node.attrs,
                structure=node.structure)


def broadcast_shapes(name: str, *shapes: Shape) -> Shape:
    """NumPy broadcasting of up to 2-D shapes; ``ValueError`` naming ``name`` and the shapes."""
    sized = [s for s in shapes if s]
    if sized and all(s == sized[0] for s in sized):
        return sized[0]  # the common case: equal shapes, maybe with 0-d scalars
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


def walk(roots: list[Node], inputs: Callable[[Node], tuple[Node, ...]] | None = None
         ) -> list[Node]:
    """Every node reachable from ``roots``, children before parents, each once; a node's
    children are its arguments, or what ``inputs(node)`` names."""
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
        for a in reversed(node.args if inputs is None else inputs(node)):
            if id(a) not in seen:
                stack.append((a, False))
    return order


def substitute(roots: list[Node], done: dict[int, Node]) -> list[Node]:
    """``roots`` with every node whose id is in ``done`` replaced by its value there."""
    memo: dict[int, Node] = {}
    for node in walk(roots):
        if id(node) in done:
            memo[id(node)] = done[id(node)]
        elif node.args and any(id(a) in memo and memo[id(a)] is not a for a in node.args):
            memo[id(node)] = rebuild(node, tuple(memo.get(id(a), a) for a in node.args))
        else:
            memo[id(node)] = node
    return [memo[id(r)] for r in roots]


def contains(roots: list[Node], kinds: tuple[str, ...], stop: tuple[str, ...] = (),
             skip: Callable[[Node], bool] | None = None) -> bool:
    """Whether a node of one of ``kinds`` is reachable, not looking below ``stop`` kinds;
    ``skip`` leaves out nodes of those kinds that do not count."""
    return reaches(roots, lambda n: n.kind in kinds and (skip is None or not skip(n)), stop)


def reaches(roots: list[Node], found: Callable[[Node], bool], stop: tuple[str, ...] = ()
            ) -> bool:
    """Whether a node for which ``found`` holds is reachable, not looking below ``stop``
    kinds."""
    stack = list(roots)
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if found(node):
            return True
        if node.kind not in stop:
            stack.extend(node.args)
    return False
