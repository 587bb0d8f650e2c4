"""Kernels whose parameters fit the device: an expression that reads more leaves than one
kernel's parameters can hold is computed in parts.

Each buffer a kernel reads is a pointer and a view (offset, strides) among its parameters,
each run-time scalar a value. A loop that adds a new array at every turn without reading the
total (``total = total + term_k``) builds one expression over all of them, and one kernel
would take them all: OpenCL guarantees only 1024 bytes of parameters (PoCL reports that
size), and PoCL's compile time grows with the square of the count beyond it (1000 inputs:
53 s at the first launch, 2 Zen 3 cores). Here the widest subexpressions are computed first
into temporaries, so every kernel reads at most ``Traits.parameter_bytes`` of parameters.

>>> import numpy as np, weft as wf
>>> total = wf.zeros(3)
>>> for k in range(200):
...     total = total + wf.asarray(np.full(3, float(k)))
>>> total.tolist()
[19900.0, 19900.0, 19900.0]
"""

from __future__ import annotations

from collections.abc import Callable

from . import expr as ex
from .expr import Node

Output = tuple[Node, Node]

# Bytes of a kernel's parameters that are not its leaves: sizes, the error record, a
# reduction's layout.
FIXED_BYTES = 128
_LAYERS = (ex.VIEW, ex.BROADCAST)  # a node reading what its argument reads, nothing more
_COMPUTED_APART = (ex.SCATTER_ADD, ex.SCAN, ex.ARG)  # always in kernels of their own


def leaf_bytes(node: Node) -> int:
    """Parameter bytes a kernel spends on the leaf ``node``: a buffer's pointer, offset and
    strides, or a scalar's value."""
    if node.kind == ex.BUFFER:
        return 8 * (2 + len(node.attrs.strides))
    return 8


def _leaf_key(node: Node) -> tuple:
    if node.kind == ex.BUFFER:
        view = node.attrs
        return (id(view.storage), view.offset, view.strides)
    return (id(node),)


def narrowed(outputs: list[Output], temporary: Callable[[Node], Node], budget: int
             ) -> tuple[list[Output], list[Output]]:
    """``(first, rest)``: subexpressions to compute first, in order, each into its temporary
    leaf, and ``outputs`` reading those leaves in their place, such that no expression reads
    more than ``budget`` bytes of leaves (where cutting can reach that: a join of more arrays
    than fit stays whole). ``first`` is empty for all but very wide expressions."""
    order = ex.walk([root for root, _ in outputs])
    limit = budget - FIXED_BYTES
    reads: dict[int, dict[tuple, int]] = {}
    cut: dict[int, Node] = {}
    for node in order:
        if node.kind in (ex.BUFFER, ex.SCALAR):
            reads[id(node)] = {_leaf_key(node): leaf_bytes(node)}
            continue
        if node.kind in _COMPUTED_APART:
            _cut_children(node, reads, cut, limit)
            reads[id(node)] = {("computed", id(node)): 32}
            continue
        reads[id(node)] = _cut_children(node, reads, cut, limit)
    if not cut:
        return [], outputs
    done: dict[int, Node] = {}
    first = []
    for node in order:  # children before parents: a cut inside another is computed first
        if id(node) in cut:
            (ready,) = ex.substitute([node], done)
            leaf = temporary(node)
            first.append((ready, leaf))
            done[id(node)] = leaf
    roots = ex.substitute([root for root, _ in outputs], done)
    return first, [(root, dest) for root, (_, dest) in zip(roots, outputs)]


def _cut_children(node: Node, reads: dict[int, dict[tuple, int]], cut: dict[int, Node],
                  limit: int) -> dict[tuple, int]:
    """What ``node`` reads once its widest arguments are cut until that fits ``limit``."""
    merged = _merge(node.args, reads)
    while sum(merged.values()) > limit:
        candidates = [(sum(reads[id(c)].values()), a, c) for a, c in
                      ((a, _cuttable(a)) for a in node.args) if c is not None
                      and id(c) not in cut and len(reads[id(c)]) > 1]
        if not candidates:
            break
        _, arg, chosen = max(candidates, key=lambda t: t[0])
        cut[id(chosen)] = chosen
        single = {("computed", id(chosen)): 32}
        reads[id(chosen)] = single
        while arg is not chosen:  # views and broadcasts over it now read its temporary
            reads[id(arg)] = single
            arg = arg.args[0]
        merged = _merge(node.args, reads)
    return merged


def _cuttable(node: Node) -> Node | None:
    """The node under ``node``'s views and broadcasts that a temporary can replace, if any."""
    while node.kind in _LAYERS:
        node = node.args[0]
    if node.kind in (ex.BUFFER, ex.SCALAR, ex.INDEX):
        return None
    return node


def _merge(args: tuple[Node, ...], reads: dict[int, dict[tuple, int]]) -> dict[tuple, int]:
    if len(args) == 1:
        return reads[id(args[0])]
    merged: dict[tuple, int] = {}
    for a in args:
        merged.update(reads[id(a)])
    return merged


def leaf_reads(roots: list[Node]) -> dict[tuple, int]:
    """The distinct leaves ``roots`` read (inside reductions computed apart too: an
    over-count is harmless), each with its parameter bytes."""
    return {_leaf_key(n): leaf_bytes(n) for n in ex.walk(roots)
            if n.kind in (ex.BUFFER, ex.SCALAR)}


def reads_bytes(roots: list[Node]) -> int:
    """Parameter bytes of the distinct leaves ``roots`` read (``leaf_reads``)."""
    return sum(leaf_reads(roots).values())
