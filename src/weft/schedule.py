"""Scheduling: cut what must be computed into kernels.

With fusion (the default) every requested element-wise output of one shape on one device is
one kernel. A reduction ends a kernel: a reduction that feeds further work is computed first
into a temporary (``x - x.mean(axis=0)`` is two kernels); requested reductions over the same
operand shape and axis share one kernel, and element-wise outputs of that shape are stored by
it on the way (``wf.eval(X * 2, X.sum(axis=0))`` is one kernel).

With ``wf.config(fuse=False)`` every operation is its own kernel writing a temporary: the
"sequence of basic kernels" that fusion is measured against.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import expr as ex
from .expr import Node

Output = tuple[Node, Node]  # (expression, destination buffer leaf or scatter target)
Temporary = Callable[[Node], Node]


@dataclass
class Step:
    """One kernel (a reduction may add a small second pass): outputs that share a grid."""

    outputs: list[Output]

    @property
    def reductions(self) -> list[Output]:
        return [(r, d) for r, d in self.outputs if r.kind == ex.REDUCE]

    @property
    def elementwise(self) -> list[Output]:
        return [(r, d) for r, d in self.outputs if r.kind != ex.REDUCE]


def _reduction_key(node: Node) -> tuple:
    return (node.args[0].shape, node.attrs.axis)


def _group(outputs: list[Output]) -> list[Step]:
    steps: list[Step] = []
    by_reduction: dict[tuple, Step] = {}
    for root, dest in outputs:
        if root.kind == ex.REDUCE:
            key = _reduction_key(root)
            if key not in by_reduction:
                by_reduction[key] = Step([])
                steps.append(by_reduction[key])
            by_reduction[key].outputs.append((root, dest))
    by_shape: dict[tuple[int, ...], Step] = {}
    for root, dest in outputs:
        if root.kind == ex.REDUCE:
            continue
        host = next((s for (shape, _), s in by_reduction.items()
                     if shape == dest.shape and dest.kind == ex.BUFFER), None)
        if host is None:
            if dest.shape not in by_shape:
                by_shape[dest.shape] = Step([])
                steps.append(by_shape[dest.shape])
            host = by_shape[dest.shape]
        host.outputs.append((root, dest))
    return steps


def fused(outputs: list[Output], temporary: Temporary) -> list[Step]:
    """Reductions feeding other work first, then the outputs, grouped.

    A feeding reduction waits for the reductions inside its operand: its level is how deep
    they nest. Feeding reductions of one level over the same operand shape and axis share a
    kernel, so ``wf.sum(f(a)) + wf.sum(g(b))`` reduces ``a`` and ``b`` together; a requested
    reduction of that level, shape and axis joins them, so a value and its gradient's sums
    read their operands once.
    """
    roots = {id(root): dest for root, dest in outputs}
    depth: dict[int, int] = {}  # reductions nested below a node
    levels: dict[tuple, list[Node]] = {}
    requested: dict[tuple, list[Node]] = {}
    for node in ex.walk([root for root, _ in outputs]):
        depth[id(node)] = max((depth[id(a)] + (a.kind == ex.REDUCE) for a in node.args),
                              default=0)
        if node.kind == ex.REDUCE:
            key = (depth[id(node)], *_reduction_key(node))
            dest = roots.get(id(node))
            if dest is None:
                levels.setdefault(key, []).append(node)
            elif dest.kind == ex.BUFFER and dest.shape == node.shape:
                requested.setdefault(key, []).append(node)
    done: dict[int, Node] = {}
    steps: list[Step] = []
    for key in sorted(levels, key=lambda k: k[0]):
        step = Step([])
        for node in levels[key] + requested.get(key, []):
            (ready,) = ex.substitute([node], done)
            dest = roots.get(id(node)) or temporary(node)
            step.outputs.append((ready, dest))
            done[id(node)] = dest
        steps.append(step)
    rest = [(root, dest) for root, dest in outputs if done.get(id(root)) is not dest]
    finals = ex.substitute([root for root, _ in rest], done)
    steps += _group([(root, dest) for root, (_, dest) in zip(finals, rest)])
    return steps


def unfused(outputs: list[Output], temporary: Temporary) -> list[Step]:
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
        if node.kind == ex.GATHER:
            args = (node.args[0], *(operand(a) for a in node.args[1:]))
        else:
            args = tuple(operand(a) for a in node.args)
        rebuilt = ex.rebuild(node, args)
        dest = finals.get(id(node)) or temporary(node)
        steps.append(Step([(rebuilt, dest)]))
        done[id(node)] = dest
    return steps
