"""Evaluation plans remembered by expression structure: the per-call fast path.

Lowering an expression costs far more Python time than launching its kernel. A repeated
expression (a loop body, a benchmark, a log density evaluated at new parameters) has the same
structure every time: the same ops, dtypes, shapes, views and aliasing of its leaves, with new
buffers and new scalar values. ``signature`` walks the DAG once to get that structure as a key
plus the leaves in order; a remembered ``Plan`` then says where each kernel argument comes from
(a leaf's buffer, a scalar leaf's value, the new output, or a constant), so a hit skips
scheduling, lowering and the kernel-cache lookup. An evaluation is remembered from what
compiling it gave (``compiler.Compiled``: element-wise kernels, reductions and their combining
passes, temporaries, and what a checked kernel's error records mean); arguments that cannot be
traced to a leaf keep it on the general path, which is always correct.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import expr as ex
from . import templates
from .compiler import Compiled, TemporaryBuffer
from .storage import Storage

# Node kinds whose attrs are plain hashable structure (no nodes, no values).
_SIMPLE = {ex.MAP, ex.CAST, ex.BROADCAST, ex.VIEW, ex.INDEX, ex.RESTRICT, ex.REDUCE, ex.CHECK}
_LIMIT = 4096
_DEST = ("dest",)
_INPUT = "input"


class Launch:
    """One kernel of a remembered evaluation and where each of its arguments comes from:
    ``("leaf", k)`` a leaf's buffer, ``("scalar", k)`` a scalar leaf's value, ``("dest",)``,
    ``("temp", k)`` the evaluation's k-th temporary buffer, ``("const", value)``."""

    __slots__ = ("ir", "program", "sources", "n", "groups", "errors", "_constants", "_holes")

    def __init__(self, ir: Any, program: Any, sources: list[tuple], n: int,
                 groups: int | None, errors: list[Any]) -> None:
        self.ir = ir
        self.program = program
        self.sources = sources
        self.n = n
        self.groups = groups
        self.errors = errors  # what a checked kernel's error records mean
        # Most arguments (sizes, offsets, strides, launch settings) are the same every call:
        # a call copies them and fills in only the rest, its "holes". A leaf's buffer and a
        # scalar leaf's value both come from the call's inputs (``inputs``).
        self._constants = [source[1] if source[0] == "const" else None for source in sources]
        self._holes = [(position, _INPUT if source[0] in ("leaf", "scalar") else source[0],
                        source[1] if len(source) > 1 else 0)
                       for position, source in enumerate(sources) if source[0] != "const"]

    def arguments(self, inputs: list[Any], dest: Storage, temps: list[Storage]) -> list[Any]:
        """This launch's arguments for one call, its leaves' values given as ``inputs`` (a
        buffer leaf's storage, a scalar leaf's value: ``memo.inputs``)."""
        args = self._constants.copy()
        for position, tag, k in self._holes:
            if tag is _INPUT:
                args[position] = inputs[k]
            elif tag == "dest":
                args[position] = dest
            else:
                args[position] = temps[k]
        return args


def inputs(leaves: list[ex.Node]) -> list[Any]:
    """What a plan takes for each leaf: a buffer leaf's storage, a scalar leaf's value."""
    return [leaf.attrs.storage if leaf.kind == ex.BUFFER else leaf.attrs for leaf in leaves]


class Plan:
    """A remembered evaluation: temporaries to allocate, then kernels to launch in order."""

    __slots__ = ("temporaries", "launches")

    def __init__(self, temporaries: list[tuple[Any, int]], launches: list[Launch]) -> None:
        self.temporaries = temporaries  # (dtype, size) of each
        self.launches = launches


def signature(root: ex.Node, dest: ex.Node) -> tuple[tuple | None, list[ex.Node]]:
    """The structural key of writing ``root`` into the leaf ``dest`` (None when it is not
    remembered) and the leaves of ``root``. The destination's view and its aliasing with
    the leaves are part of the key: writes into views and in place lower differently."""
    known = templates.known_signature(root)
    entries, leaves = known if known is not None else structure(root)
    if entries is None:
        return None, []
    storages: dict[int, int] = {}
    for leaf in leaves:
        if leaf.kind == ex.BUFFER:
            storages.setdefault(id(leaf.attrs.storage), len(storages))
    out = dest.attrs
    return (*entries, (dest.dtype.name, dest.shape, dest.structure, out.offset, out.strides,
                       storages.get(id(out.storage), -1))), leaves


def structure(root: ex.Node) -> tuple[tuple | None, list[ex.Node]]:
    """The structural key of ``root`` alone (None when it is not remembered) and its leaves,
    in the order remembered plans take them."""
    # Iterative post-order (a recursive closure would form a reference cycle that keeps the
    # leaves alive, and leaf counts decide copy-on-write).
    index: dict[int, int] = {}
    entries: list[tuple] = []
    leaves: list[ex.Node] = []
    storages: dict[int, int] = {}
    stack: list[tuple[ex.Node, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in index:
            continue
        kind = node.kind
        if kind == ex.BUFFER:
            view = node.attrs
            alias = storages.setdefault(id(view.storage), len(storages))
            entry: tuple = (kind, node.dtype.name, node.shape, node.structure, view.offset,
                            view.strides, alias, len(leaves))
            leaves.append(node)
        elif kind == ex.SCALAR:
            entry = (kind, node.dtype.name, len(leaves))
            leaves.append(node)
        elif kind not in _SIMPLE:
            return None, []
        elif not expanded:
            stack.append((node, True))
            stack.extend((arg, False) for arg in reversed(node.args))
            continue
        else:
            entry = (kind, node.op.name if node.op is not None else None, node.attrs,
                     node.dtype.name, node.shape, node.structure,
                     tuple(index[id(arg)] for arg in node.args))
        index[id(node)] = len(entries)
        entries.append(entry)
    return tuple(entries), leaves


def make_plan(compiled: Compiled, programs: list[Any], leaves: list[ex.Node], dest: Storage
              ) -> Plan | None:
    """Where each argument of ``compiled``'s kernels (built as ``programs``) comes from, or
    None when one cannot be traced to its source (then the evaluation is not remembered)."""
    if not compiled.kernels:
        return None
    by_storage: dict[int, int] = {}
    by_scalar: dict[int, int] = {}  # id of a scalar leaf (the node, never its value) -> k
    for k, leaf in enumerate(leaves):
        if leaf.kind == ex.BUFFER:
            by_storage.setdefault(id(leaf.attrs.storage), k)
        else:
            by_scalar[id(leaf)] = k
    temps = {id(t): k for k, t in enumerate(compiled.temporaries)}
    launches = []
    for kernel, program in zip(compiled.kernels, programs):
        ir, args = kernel.ir, kernel.arguments
        # A reduction's scale (mean's 1/n) is structure: the key holds it.
        scales = {r.scale for r in ir.reductions if r.scale is not None}
        sources: list[tuple] = []
        for position, (param, a) in enumerate(zip(ir.params, args)):
            if type(a) is TemporaryBuffer:
                sources.append(("temp", temps[id(a)]))
            elif isinstance(a, Storage):
                if a is dest:
                    sources.append(_DEST)
                elif id(a) in by_storage:
                    sources.append(("leaf", by_storage[id(a)]))
                else:
                    return None
            elif isinstance(a, np.generic):
                leaf = args.leaves.get(position)
                if leaf is not None:
                    if id(leaf) not in by_scalar:
                        return None
                    sources.append(("scalar", by_scalar[id(leaf)]))
                elif param.name in scales:
                    sources.append(("const", a))
                else:
                    return None
            elif type(a) is int or type(a) is bool:
                sources.append(("const", np.int64(a)))  # converted once, not per launch
            elif a is None or isinstance(a, (int, float)):
                sources.append(("const", a))
            else:
                return None
        launches.append(Launch(ir, program, sources, kernel.n, kernel.groups, kernel.errors))
    return Plan([(t.dtype, t.size) for t in compiled.temporaries], launches)


class Memo:
    def __init__(self) -> None:
        self.plans: dict[tuple, Plan] = {}
        # Plans of templates' expressions evaluated into new buffers, by (template, device):
        # found without building the expression or its structural key (templates.Deferred).
        self.template_plans: dict[tuple[Any, Any], Plan] = {}

    def get(self, key: tuple) -> Plan | None:
        return self.plans.get(key)

    def put(self, key: tuple, plan: Plan) -> None:
        if len(self.plans) >= _LIMIT:
            self.plans.clear()  # rare: many distinct structures; start over
        self.plans[key] = plan

    def for_template(self, template: Any, device: Any) -> Plan | None:
        return self.template_plans.get((template, device))

    def put_for_template(self, template: Any, device: Any, plan: Plan) -> None:
        if len(self.template_plans) >= _LIMIT:
            self.template_plans.clear()
        self.template_plans[(template, device)] = plan

    def clear(self) -> None:
        self.plans.clear()
        self.template_plans.clear()


MEMO = Memo()
