"""Evaluations remembered by expression structure: a repeated lazy expression's entry to
the fast path (``replay``).

Lowering an expression costs far more Python time than launching its kernel. A repeated
expression (a loop body, a benchmark, a log density evaluated at new parameters) has the same
structure every time: the same ops, dtypes, shapes, views and aliasing of its leaves, with new
buffers and new scalar values. ``signature`` walks the DAG once to get that structure as a key
plus the leaves in order; the remembered ``Replay`` takes the leaves' values as its inputs (a
buffer leaf's storage, a scalar leaf's value), so a hit skips scheduling, lowering and the
kernel-cache lookup. Arguments that cannot be traced to a leaf keep the evaluation on the
general path, which is always correct.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import expr as ex
from . import replay, templates
from .compiler import Compiled
from .replay import INPUT, SCALAR, Replay, UnreplayableError
from .storage import Storage

# Node kinds whose attrs are plain hashable structure (no nodes, no values): a gather's are
# its index rule (a frozen Gather). Whatever a kernel takes that no leaf gives makes
# ``record`` refuse the evaluation, so a kind here can cost a miss, never a wrong replay.
_SIMPLE = {ex.MAP, ex.CAST, ex.BROADCAST, ex.VIEW, ex.INDEX, ex.RESTRICT, ex.REDUCE, ex.CHECK,
           ex.CONCAT, ex.SCAN, ex.ARG, ex.GATHER}
_LIMIT = 4096


def inputs(leaves: Sequence[ex.Node]) -> list[Any]:
    """What a replay takes for each leaf: a buffer leaf's storage, a scalar leaf's value."""
    return [leaf.attrs.storage if leaf.kind == ex.BUFFER else leaf.attrs for leaf in leaves]


def signature(root: ex.Node, dest: ex.Node) -> tuple[tuple | None, Sequence[ex.Node]]:
    """The structural key of writing ``root`` into the leaf ``dest`` (None when it is not
    remembered) and the leaves of ``root``. The destination's view and its aliasing with
    the leaves are part of the key: writes into views and in place lower differently."""
    out = dest.attrs
    known = templates.known_signature(root)  # a template's plan takes the walk's leaves
    if known is None and root.leaves is not None:
        pattern, storages = _aliasing(root.leaves)
        return (root.number, pattern, (dest.dtype, dest.shape, dest.structure, out.offset,
                                       out.strides, storages.get(id(out.storage), -1))
                ), root.leaves
    entries, leaves = known if known is not None else structure(root)
    if entries is None:
        return None, []
    storages: dict[int, int] = {}
    for leaf in leaves:
        if leaf.kind == ex.BUFFER:
            storages.setdefault(id(leaf.attrs.storage), len(storages))
    return (*entries, (dest.dtype, dest.shape, dest.structure, out.offset, out.strides,
                       storages.get(id(out.storage), -1))), leaves


def joint_signature(outputs: list[tuple[ex.Node, ex.Node]]
                    ) -> tuple[tuple | None, list[ex.Node]]:
    """``signature`` of computing several ``(root, destination leaf)`` pairs together (a
    value and its gradients): the roots' structure with shared nodes entered once, which
    entries are the roots, and each destination's view and aliasing."""
    index: dict[int, int] = {}
    entries: list[tuple] = []
    leaves: list[ex.Node] = []
    buffers: dict[int, int] = {}
    positions = []
    try:
        for root, _ in outputs:
            k = _visit(root, index, entries, leaves, buffers)
            if k is None:
                return None, []
            positions.append(k)
    except RecursionError:
        return None, []
    storages: dict[int, int] = {}
    for leaf in leaves:
        if leaf.kind == ex.BUFFER:
            storages.setdefault(id(leaf.attrs.storage), len(storages))
    known = len(storages)
    dests = []
    for _, dest in outputs:
        out = dest.attrs
        alias = storages.setdefault(id(out.storage), len(storages))
        dests.append((dest.dtype, dest.shape, dest.structure, out.offset, out.strides,
                      alias if alias < known else known - alias - 1))
    return (*entries, tuple(positions), *dests), leaves


def signature_into_new(root: ex.Node) -> tuple[tuple | None, Sequence[ex.Node]]:
    """``signature`` of writing ``root`` into a new buffer (row-major, aliasing nothing),
    without the buffer."""
    known = templates.known_signature(root)
    if known is None and root.leaves is not None:
        return (root.number, _aliasing(root.leaves)[0],
                (root.dtype, root.shape, root.structure, 0, ex.contiguous_strides(root.shape),
                 -1)), root.leaves
    entries, leaves = known if known is not None else structure(root)
    if entries is None:
        return None, []
    return (*entries, (root.dtype, root.shape, root.structure, 0,
                       ex.contiguous_strides(root.shape), -1)), leaves


def _aliasing(leaves: tuple[ex.Node, ...]) -> tuple[tuple[int, ...], dict[int, int]]:
    """Which leaves are one: per leaf, the index of its buffer's storage or (a scalar) of
    its node among the distinct ones so far; and the storages' indexes. With a structure
    number, this is the whole key: a numbered expression's leaves are in tree order, so it
    also tells a shared subtree from an equal copy reading other values."""
    seen: dict[int, int] = {}
    pattern = tuple([seen.setdefault(id(leaf.attrs.storage) if leaf.kind is ex.BUFFER
                                     else id(leaf), len(seen)) for leaf in leaves])
    return pattern, seen


def structure(root: ex.Node) -> tuple[tuple | None, list[ex.Node]]:
    """The structural key of ``root`` alone (None when it is not remembered) and its leaves,
    in the order remembered plans take them. A leaf's place in that order follows from the
    structure (a post-order walk), so the key holds only which buffer each leaf reads."""
    index: dict[int, int] = {}  # node id -> entry index
    entries: list[tuple] = []
    leaves: list[ex.Node] = []
    try:
        if _visit(root, index, entries, leaves, {}) is None:
            return None, []
    except RecursionError:  # thousands of ops deep: the same walk with a stack of its own
        index, entries, leaves = {}, [], []
        if _walk(root, index, entries, leaves, {}) is None:
            return None, []
    return tuple(entries), leaves


def _visit(node: ex.Node, index: dict[int, int], entries: list[tuple],
           leaves: list[ex.Node], storages: dict[int, int]) -> int | None:
    """``node``'s entry index, its arguments' entered first (post-order); None: a node a
    key cannot describe. Recursive, the leaves' entries made in line (the walk is a third
    of a small cached call); no closure, so no reference cycle keeps leaves alive (their
    counts decide copy-on-write)."""
    found = index.get(id(node))
    if found is not None:
        return found
    kind = node.kind
    if kind is ex.BUFFER:
        view = node.attrs
        leaves.append(node)
        entry: tuple = (kind, node.dtype, node.shape, node.structure, view.offset,
                        view.strides, storages.setdefault(id(view.storage), len(storages)))
    elif kind is ex.SCALAR:
        leaves.append(node)
        entry = (kind, node.dtype)
    elif kind not in _SIMPLE:
        return None
    else:
        positions = []
        for arg in node.args:
            k = _visit(arg, index, entries, leaves, storages)
            if k is None:
                return None
            positions.append(k)
        op = node.op
        entry = (kind, op.name if op is not None else None, node.attrs, node.dtype,
                 node.shape, node.structure, tuple(positions))
    index[id(node)] = len(entries)
    entries.append(entry)
    return len(entries) - 1


def _walk(root: ex.Node, index: dict[int, int], entries: list[tuple], leaves: list[ex.Node],
          storages: dict[int, int]) -> int | None:
    """``_visit`` for expressions deeper than Python's recursion allows: the same entries,
    each node entered by ``_visit`` once its arguments are (so it recurses no further)."""
    stack: list[tuple[ex.Node, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in index:
            continue
        kind = node.kind
        if not expanded and kind is not ex.BUFFER and kind is not ex.SCALAR:
            if kind not in _SIMPLE:
                return None
            stack.append((node, True))
            stack.extend((arg, False) for arg in reversed(node.args))
            continue
        _visit(node, index, entries, leaves, storages)
    return index[id(root)]


def record(device: Any, compiled: Compiled, programs: list[Any], leaves: Sequence[ex.Node],
           dests: list[Storage]) -> Replay | None:
    """The replay of ``compiled`` (launched as ``programs`` into ``dests``) taking the
    leaves' values (``inputs``), or None when an argument cannot be traced to a leaf (then
    the evaluation is not remembered): a scalar that is no leaf's could come from a value
    the structural key does not hold."""
    if not compiled.kernels:
        return None
    by_storage: dict[int, int] = {}
    by_scalar: dict[int, int] = {}  # id of a scalar leaf (the node, never its value) -> k
    for k, leaf in enumerate(leaves):
        if leaf.kind == ex.BUFFER:
            by_storage.setdefault(id(leaf.attrs.storage), k)
        else:
            by_scalar[id(leaf)] = k

    def source(kernel: Any, position: int, a: Any) -> tuple[int, int, tuple] | None:
        if isinstance(a, Storage):
            if id(a) in by_storage:
                return INPUT, by_storage[id(a)], ()
            raise UnreplayableError("a buffer that is no leaf's")
        if isinstance(a, np.generic):
            leaf = kernel.arguments.leaves.get(position)
            if leaf is not None and id(leaf) in by_scalar:
                return SCALAR, by_scalar[id(leaf)], ()
            # A reduction's scale (mean's 1/n) is structure: the key holds it.
            scales = {r.scale for r in kernel.ir.reductions if r.scale is not None}
            if leaf is None and kernel.ir.params[position].name in scales:
                return None
            raise UnreplayableError("a scalar that is no leaf's")
        if a is None or isinstance(a, (int, float)):
            return None
        raise UnreplayableError(f"an argument of type {type(a).__name__}")

    try:
        return replay.record(device, compiled, programs, dests, source)
    except UnreplayableError:
        return None


class Memo:
    """Replays by structural key, and by template (shared by every thread)."""

    def __init__(self) -> None:
        self.plans: dict[tuple, Replay] = {}
        # Replays of templates' expressions evaluated into new buffers, by (template,
        # device): found without building the expression or its key (templates.Deferred).
        self.template_plans: dict[tuple[Any, Any], Replay] = {}

    def get(self, key: tuple) -> Replay | None:
        return self.plans.get(key)

    def put(self, key: tuple, plan: Replay) -> None:
        if len(self.plans) >= _LIMIT:
            self.plans.clear()  # rare: many distinct structures; start over
        self.plans[key] = plan

    def for_template(self, template: Any, device: Any) -> Replay | None:
        return self.template_plans.get((template, device))

    def put_for_template(self, template: Any, device: Any, plan: Replay) -> None:
        if len(self.template_plans) >= _LIMIT:
            self.template_plans.clear()
        self.template_plans[(template, device)] = plan

    def clear(self) -> None:
        self.plans.clear()
        self.template_plans.clear()


MEMO = Memo()
