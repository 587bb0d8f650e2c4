"""Results whose every element is a reduction of its own, written where they belong.

A gradient with respect to a short vector read element by element (a GLM's ``beta`` with a
few columns: ``x[:, j] * beta[j]``) is, per element, one full reduction, placed among zeros
and the placements added: a vector of reductions. Scheduled as it is written, the
reductions go into temporaries and a launch of its own gathers them into the result. Here
each reduction is instead given its element of the result as its destination, so it is
written there by the kernel that computes it, beside the value's reduction.

>>> import weft as wf
>>> x = wf.asarray([[1.0, 2.0], [3.0, 4.0]])
>>> g = wf.grad(lambda b: (x[:, 0] * b[0] + x[:, 1] * b[1]).sum())(wf.asarray([0.5, 0.5]))
>>> g.tolist()
[4.0, 6.0]
"""

from __future__ import annotations

import math

import numpy as np

from . import expr as ex
from .expr import Node
from .indexing import IDENTITY, as_2d

Output = tuple[Node, Node]


def into_slots(outputs: list[Output]) -> list[Output]:
    """``outputs`` with each whose expression is a vector of reductions (``_element_nodes``)
    and whose destination is a buffer that no output reads replaced by one output per
    element: that element's reduction into that element of the destination."""
    found: list[Output] = []
    read: set[int] | None = None
    for root, dest in outputs:
        elements = (_element_nodes(root, _depth_budget(root)) if dest.kind == ex.BUFFER
                    and root.shape
                    and root.kind in (ex.MAP, ex.VIEW, ex.CONCAT) else None)
        if elements is None or len(elements) != math.prod(dest.shape) or any(
                e.kind != ex.REDUCE or e.dtype is not dest.dtype for e in elements.values()):
            found.append((root, dest))
            continue
        if read is None:
            read = {id(n.attrs.storage) for n in ex.walk([r for r, _ in outputs])
                    if n.kind == ex.BUFFER}
        if id(dest.attrs.storage) in read:
            found.append((root, dest))
            continue
        view = dest.attrs
        for position, element in sorted(elements.items()):
            index = np.unravel_index(position, dest.shape) if dest.shape else ()
            offset = view.offset + sum(int(i) * s for i, s in zip(index, view.strides))
            found.append((element, ex.buffer(view.storage, (), offset, ())))
    return found


def _depth_budget(root: Node) -> int:
    """How many levels of additions, joins and reshapes ``_element_nodes`` looks through: a
    gradient places each element once, so a few per element. A long chain of additions
    (``p = p + 0.01 * g`` in a loop) is then refused after a few levels, not walked
    recursively down to its bottom."""
    return 2 * math.prod(root.shape) + 4


def _element_nodes(node: Node, budget: int) -> dict[int, Node] | None:
    """``node``'s elements that are not a constant zero, by row-major position, where each
    is a 0-d node of its own: ``node`` built of additions, joins, reshapes and broadcast
    zeros around 0-d values (how a gradient places its elements), at most ``budget`` levels
    deep; None otherwise."""
    if budget < 0:
        return None
    budget -= 1
    rows, cols = as_2d(node.shape)
    if node.kind == ex.BROADCAST:
        leaf = node.args[0]
        zero = (leaf.kind == ex.SCALAR and getattr(leaf, "origin", None) is None
                and leaf.attrs == 0)
        return {} if zero else None
    if rows * cols == 1 and node.kind in (ex.REDUCE, ex.MAP, ex.CAST, ex.CHECK):
        return None if node.shape else {0: node}
    if node.kind == ex.VIEW:
        inner = node.args[0]
        if node.attrs != IDENTITY or as_2d(inner.shape) != (rows, cols):
            return None
        if not inner.shape and not node.shape:
            return None
        return _element_nodes(inner, budget) if inner.shape else {0: inner}
    if node.kind == ex.CONCAT:
        found: dict[int, Node] = {}
        start = 0
        for part in node.args:
            part_rows, part_cols = as_2d(part.shape)
            inside = _element_nodes(part, budget)
            if inside is None:
                return None
            for position, element in inside.items():
                r, c = divmod(position, part_cols)
                r, c = (r + start, c) if node.attrs == 0 else (r, c + start)
                found[r * cols + c] = element
            start += part_rows if node.attrs == 0 else part_cols
        return found
    if node.kind == ex.MAP and node.op is not None and node.op.name == "add" and all(
            a.shape == node.shape for a in node.args):
        left = _element_nodes(node.args[0], budget)
        right = None if left is None else _element_nodes(node.args[1], budget)
        if right is None or left.keys() & right.keys():
            return None
        return {**left, **right}
    return None
