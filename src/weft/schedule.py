"""Scheduling: cut what must be computed into kernels.

With fusion (the default) every requested output of one shape on one device is one kernel.
With ``wf.config(fuse=False)`` every operation is its own kernel writing a temporary: the
"sequence of basic kernels" that fusion is measured against.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import expr as ex
from .expr import Node

Output = tuple[Node, Node]  # (expression, destination buffer leaf)


@dataclass
class Step:
    """One kernel: outputs that share a thread grid."""

    outputs: list[Output]


def fused(outputs: list[Output]) -> list[Step]:
    """One step per distinct output shape, in first-requested order."""
    groups: dict[tuple[int, ...], list[Output]] = {}
    for root, dest in outputs:
        groups.setdefault(dest.shape, []).append((root, dest))
    return [Step(group) for group in groups.values()]


def unfused(outputs: list[Output], temporary: Any) -> list[Step]:
    """One step per operation node; ``temporary(node)`` gives a destination leaf for it."""
    steps: list[Step] = []
    done: dict[int, Node] = {}
    finals = {id(root): dest for root, dest in outputs}

    def operand(node: Node) -> Node:
        return done.get(id(node), node)

    for node in ex.walk([root for root, _ in outputs]):
        if node.kind in (ex.BUFFER, ex.SCALAR):
            if id(node) in finals:
                steps.append(Step([(node, finals[id(node)])]))
            continue
        rebuilt = Node(node.kind, node.dtype, node.shape, tuple(operand(a) for a in node.args),
                       op=node.op, attrs=node.attrs)
        dest = finals.get(id(node)) or temporary(node)
        steps.append(Step([(rebuilt, dest)]))
        done[id(node)] = dest
    return steps
