"""Expression templates: a library function's expression, captured once per argument structure
and rebuilt for new arguments without running the function again.

A log density builds 20-40 nodes through ``apply_op`` (typing, broadcasting, device checks)
on every call, which costs more host time than a small kernel takes on a GPU. Its structure
depends only on the arguments' structure (dtypes, shapes, views, which of them are Python
scalars, which share a buffer) and the explicit result type, so the first call with a given
structure is captured: every node in dependency order, each leaf as the argument it reads (a
buffer view of an Array argument, a Python scalar argument converted to the leaf's type) or as
a constant. Later calls keep only their arguments (``Deferred``); the nodes are rebuilt
directly (a fraction of a microsecond each) when something reads the expression, and an
evaluation straight away skips them altogether: ``memo`` keeps the template's plan, which
takes the arguments' buffers and scalar values alone.

The result is an ordinary lazy Array: it composes and fuses with anything, as before.
"""

from __future__ import annotations

import operator
import threading
import weakref
from collections.abc import Callable
from typing import Any

from . import expr as ex
from .dtypes import DType
from .traced import TRACED

# Node kinds a template can hold: plain structure in their attrs, no nodes or values.
_KINDS = {ex.MAP, ex.CAST, ex.BROADCAST, ex.VIEW, ex.INDEX, ex.RESTRICT, ex.REDUCE, ex.CHECK}
_LIMIT = 1024

_ARRAY, _SCALAR, _CONST = 0, 1, 2


class Template:
    """How to rebuild one captured expression from new arguments."""

    __slots__ = ("leaves", "steps", "entries", "leaf_order", "result", "inputs", "array_leaves")

    def __init__(self, leaves: list[tuple], steps: list[tuple], entries: tuple,
                 leaf_order: list[int]) -> None:
        self.leaves = leaves  # (_ARRAY, arg, shape, offset, strides, structure) |
        #                       (_SCALAR, arg, types it went through) | (_CONST, node)
        self.steps = steps  # (kind, dtype, shape, picks its arguments, op, attrs, structure)
        self.entries = entries  # memo's structural key of the expression, without the output
        self.leaf_order = leaf_order  # memo's leaf order, as positions among the leaves
        _, dtype, shape, _, _, _, structure = steps[-1]
        # The dtype, shape and structure of the expression: what its array reports unbuilt.
        self.result: tuple[DType, tuple[int, ...], str] = (dtype, shape, structure)
        # The argument each buffer leaf reads (one per leaf: several may view one argument).
        self.array_leaves = [leaf[1] for leaf in leaves if leaf[0] == _ARRAY]
        # Where each input of a remembered plan comes from, in memo's leaf order: an Array
        # argument's buffer, a scalar argument through its conversions, or a constant's value.
        self.inputs: list[tuple[int, Any, tuple[DType, ...]]] = []
        for p in leaf_order:
            leaf = leaves[p]
            if leaf[0] == _CONST:
                self.inputs.append((_CONST, leaf[1].attrs, ()))
            else:
                self.inputs.append((leaf[0], leaf[1], leaf[2] if leaf[0] == _SCALAR else ()))

    def reads_whole(self, position: int, node: ex.Node) -> bool:
        """Whether every buffer leaf reading argument ``position`` reads exactly ``node``'s
        view, so that ``node`` itself can stand for them (a differentiated argument: its
        gradient must reach its own node)."""
        view = node.attrs
        whole = (node.shape, view.offset, view.strides, node.structure)
        return all(tuple(leaf[2:6]) == whole for leaf in self.leaves
                   if leaf[0] == _ARRAY and leaf[1] == position)

    def build(self, args: list[Any]) -> ex.Node:
        """The expression for ``args`` (Array arguments' nodes and Python scalars, in the
        order the template was captured with)."""
        return self.defer(args).expression()

    def defer(self, args: list[Any]) -> Deferred:
        """The expression for ``args``, built when first needed. Until then the arguments'
        current buffers count as read by it, as by any lazy expression, so that writing into
        an argument copies first (copy-on-write)."""
        return Deferred(self, args)


def _scalar_value(value: Any, types: tuple[DType, ...]) -> Any:
    """A scalar argument as the captured call converted it: through each type in turn."""
    for dtype in types:
        value = dtype.numpy.type(value)
    return value


class Deferred:
    """A template's expression for one call: the call's arguments, and the expression's nodes
    built on demand. An evaluation with a remembered plan needs only the arguments' buffers
    and scalar values (``plan_inputs``); anything else that reads the expression builds it
    (``Array._node``)."""

    __slots__ = ("template", "args", "storages")

    def __init__(self, template: Template, args: list[Any]) -> None:
        self.template = template
        self.args = args
        # One count per buffer leaf, as the leaves' nodes would hold (``expr.buffer``).
        storages = [args[k].attrs.storage for k in template.array_leaves]
        for storage in storages:
            storage.leaves += 1
        self.storages = storages

    def __del__(self) -> None:
        for storage in self.storages:
            storage.leaves -= 1

    def plan_inputs(self) -> list[Any]:
        """What a remembered plan takes for each leaf, in memo's order (``memo.inputs``): a
        buffer leaf's storage, a scalar leaf's value."""
        args = self.args
        inputs = []
        for tag, source, types in self.template.inputs:
            if tag == _ARRAY:
                inputs.append(args[source].attrs.storage)
            elif tag == _SCALAR:
                inputs.append(_scalar_value(args[source], types))
            else:
                inputs.append(source)
        return inputs

    def expression(self) -> ex.Node:
        template = self.template
        args = self.args
        nodes: list[ex.Node] = []
        for leaf in template.leaves:
            tag = leaf[0]
            if tag == _ARRAY:
                arg = args[leaf[1]]
                if arg.tape is not None:  # differentiated: its own node (``reads_whole``)
                    nodes.append(arg)
                    continue
                nodes.append(ex.buffer(arg.attrs.storage, leaf[2], leaf[3], leaf[4], leaf[5]))
            elif tag == _SCALAR:
                types = leaf[2]
                value = args[leaf[1]]
                node = ex.scalar(_scalar_value(value, types[:-1]), types[-1])
                if type(value) in TRACED:  # a traced argument (a trace inside a trace)
                    node.origin = (value, types)
                nodes.append(node)
            else:
                nodes.append(leaf[1])  # a constant: immutable, shared between expressions
        node_class = ex.Node
        for kind, dtype, shape, pick, op, attrs, structure in template.steps:
            nodes.append(node_class(kind, dtype, shape, pick(nodes), op, attrs, structure))
        root = nodes[-1]
        _SIGNATURES[root] = (template.entries, [nodes[p] for p in template.leaf_order])
        return root


def capture(root: ex.Node, array_args: dict[int, int], scalar_args: dict[int, int]
            ) -> Template | None:
    """A template of ``root``, or None when it holds something a template cannot rebuild.

    ``array_args``: id of an Array argument's buffer -> its argument position (every buffer
    the expression reads must be one of them). ``scalar_args``: id of a scalar argument's
    ``TracedFloat`` or ``TracedInt`` -> its position: the scalar leaves made from one name
    it as their origin, through the conversions they went through; every other scalar leaf
    is a constant of the function.
    """
    from . import memo

    order = ex.walk([root])
    position: dict[int, int] = {}
    leaves: list[tuple] = []
    steps: list[tuple] = []
    for node in order:
        if node.kind == ex.BUFFER:
            v = node.attrs
            arg = array_args.get(id(v.storage))
            if arg is None:
                return None
            leaves.append((_ARRAY, arg, node.shape, v.offset, v.strides, node.structure))
        elif node.kind == ex.SCALAR:
            origin = getattr(node, "origin", None)
            if origin is not None and id(origin[0]) in scalar_args:
                leaves.append((_SCALAR, scalar_args[id(origin[0])], origin[1]))
            else:
                leaves.append((_CONST, node))
        elif node.kind not in _KINDS:
            return None
        else:
            continue
        position[id(node)] = len(leaves) - 1
    for node in order:
        if node.kind in (ex.BUFFER, ex.SCALAR):
            continue
        position[id(node)] = len(leaves) + len(steps)
        steps.append((node.kind, node.dtype, node.shape,
                      picker(tuple(position[id(a)] for a in node.args)), node.op, node.attrs,
                      node.structure))
    entries, memo_leaves = memo.structure(root)
    if entries is None or not steps:
        return None  # (a bare leaf is its argument: nothing to rebuild)
    return Template(leaves, steps, entries, [position[id(leaf)] for leaf in memo_leaves])


def picker(positions: tuple[int, ...]) -> Callable[[list[Any]], tuple[Any, ...]]:
    """A function taking ``positions`` out of a list, as a tuple: a step's arguments out of
    the nodes built so far, a launch's arguments by kind (one C call for several)."""
    if not positions:
        return lambda nodes: ()
    if len(positions) == 1:
        (only,) = positions
        return lambda nodes: (nodes[only],)
    return operator.itemgetter(*positions)


# The structural key and leaves of expressions a template built, for memo (weak: an entry
# lives as long as its expression).
_SIGNATURES: weakref.WeakKeyDictionary[ex.Node, tuple[tuple, list[ex.Node]]] = \
    weakref.WeakKeyDictionary()


def known_signature(root: ex.Node) -> tuple[tuple, list[ex.Node]] | None:
    return _SIGNATURES.get(root)


class Templates:
    """Templates by call key (with whatever else the caller keeps beside them), shared by
    every thread."""

    def __init__(self) -> None:
        self._by_key: dict[tuple, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple) -> Any:
        return self._by_key.get(key)

    def put(self, key: tuple, template: Any) -> None:
        with self._lock:
            if len(self._by_key) >= _LIMIT:
                self._by_key.clear()  # rare: many argument structures; start over
            self._by_key[key] = template

    def clear(self) -> None:
        with self._lock:
            self._by_key.clear()


TEMPLATES = Templates()
