"""Scheduling: cut what must be computed into kernels.

With fusion (the default) every requested element-wise output of one shape on one device is
one kernel. A reduction ends a kernel: a reduction that feeds further work is computed first
into a temporary (``x - x.mean(axis=0)`` is two kernels), as is a scan or an arg-reduction
along rows (scan_kernels.py's passes); requested reductions over the same operand shape and
axis share one kernel, and element-wise outputs of that shape are stored by it on the way
(``wf.eval(X * 2, X.sum(axis=0))`` is one kernel).

With ``wf.config(fuse=False)`` every operation is its own kernel writing a temporary: the
"sequence of basic kernels" that fusion is measured against.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from . import expr as ex
from .breadth import FIXED_BYTES, leaf_reads, narrowed, reads_bytes
from .expr import Node
from .indexing import as_2d
from .slots import into_slots

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
    def scans(self) -> list[Output]:
        """Scans and arg-reductions: passes of scan_kernels.py."""
        return [(r, d) for r, d in self.outputs if r.kind in _PASSES]

    @property
    def elementwise(self) -> list[Output]:
        return [(r, d) for r, d in self.outputs if r.kind != ex.REDUCE]


# Computed into memory before what reads them.
_CUTS = (ex.REDUCE, ex.SCATTER_ADD, ex.SCAN, ex.ARG)
_PASSES = (ex.SCAN, ex.ARG)  # computed by scan_kernels.py's passes (``scan_steps``)


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
    return _with_scalars_hosted(steps, by_shape)


# An element-wise step of at most this many elements also writes the step's 0-d outputs
# (each of its work-items the same value to the same place), saving their launch: a
# gradient's scalar parameters beside its vector ones.
SCALAR_HOST_LIMIT = 4096


def _with_scalars_hosted(steps: list[Step], by_shape: dict[tuple[int, ...], Step]
                         ) -> list[Step]:
    """``steps`` with the element-wise 0-d outputs' step merged into another small
    element-wise step, where there is one and no output of either reads a 0-d destination
    (another work-item could read it after the first one wrote it)."""
    scalars = by_shape.get(())
    host = next((step for shape, step in by_shape.items()
                 if shape and 0 < _size(shape) <= SCALAR_HOST_LIMIT), None)
    if scalars is None or host is None or any(d.kind != ex.BUFFER for _, d in scalars.outputs):
        return steps
    written = {id(d.attrs.storage) for _, d in scalars.outputs}
    roots = [root for root, _ in (*host.outputs, *scalars.outputs)]
    if any(n.kind == ex.BUFFER and id(n.attrs.storage) in written for n in ex.walk(roots)):
        return steps
    shape = host.outputs[0][1].shape
    for root, dest in scalars.outputs:
        view = dest.attrs
        spread = ex.buffer(view.storage, shape, view.offset, (0,) * len(shape))
        host.outputs.append((ex.broadcast(root, shape), spread))
    return [step for step in steps if step is not scalars]


# A value broadcast over at least this many elements each is stored once and read back, not
# recomputed per element: a GLM's per-row derivative (an exp, a log) over its 5000 columns
# made the gradient's column pass compute-bound (H200, logistic GLM 100000 x 5000).
STORE_EXPANSION = 8


# A row reduction over rows of at most this many elements that feeds other work is computed
# in line, where its value is needed (its row's elements loaded and combined there), instead
# of first into memory: a GLM's linear predictor over 10 columns is one pass with its
# density, not a pass of its own and a temporary.
INLINE_COLUMNS = 16


def inline_reductions(order: list[Node], roots: dict[int, Node]) -> set[int]:
    """The reductions ``fused`` leaves in the expressions that read them, by id (lowering
    unrolls them: ``lower._Lowering.lower_reduce``): row reductions (or full ones of a
    vector) over at most ``INLINE_COLUMNS`` elements, with nothing to cut inside, that are
    not themselves requested and that no broadcast spreads (each of its readers' elements
    would load its row again)."""
    spread: set[int] = set()
    cut_below: set[int] = set()
    found: set[int] = set()
    for node in order:
        if node.kind != ex.REDUCE:  # an argument smaller than its reader is spread over it
            for a in node.args:
                if _size(a.shape) < _size(node.shape):
                    while a.kind == ex.VIEW:
                        a = a.args[0]
                    spread.add(id(a))
        below = any(id(a) in cut_below or (a.kind in _CUTS and id(a) not in found)
                    for a in node.args)
        if node.kind == ex.REDUCE and not below and id(node) not in roots:
            rows, cols = as_2d(node.args[0].shape)
            axis = node.attrs.axis
            if cols <= INLINE_COLUMNS and (axis == 1 or (axis is None and rows == 1)):
                found.add(id(node))
        if below:
            cut_below.add(id(node))
    return found - spread


def fused(outputs: list[Output], temporary: Temporary, parameter_bytes: int = 0
          ) -> list[Step]:
    """Reductions feeding other work first, then the outputs, grouped.

    A feeding reduction waits for the reductions inside its operand: its level is how deep
    they nest. Feeding reductions of one level over the same operand shape and axis share a
    kernel, so ``wf.sum(f(a)) + wf.sum(g(b))`` reduces ``a`` and ``b`` together; a requested
    reduction of that level, shape and axis joins them, so a value and its gradient's sums
    read their operands once. A computed value that a broadcast spreads over many elements
    (``STORE_EXPANSION``) is stored by a reduction step of its level over its shape, where
    there is one, and read back by the kernels after it.

    With ``parameter_bytes`` (0: no limit), no kernel reads more leaves than that many bytes
    of parameters hold (breadth.py): the widest subexpressions are computed first, and a
    step's outputs are parted among kernels.
    """
    first: list[Step] = []
    if parameter_bytes:
        wide, outputs = narrowed(outputs, temporary, parameter_bytes)
        for output in wide:
            first += fused([output], temporary, parameter_bytes)
    outputs = into_slots(outputs)
    roots = {id(root): dest for root, dest in outputs}
    order = ex.walk([root for root, _ in outputs])
    spread, readers = _spread_values(order)
    inline = inline_reductions(order, roots)
    levels, requested, depth = _levels(order, roots, spread, readers, inline)
    # A spread value is stored only by a reduction step of its level over its shape: alone,
    # it would cost a launch of its own.
    hosted: dict[tuple, list[Node]] = {}
    keys = [*levels, *requested]
    for node in spread.values():
        key = next((k for k in keys if k[0] == depth[id(node)] and k[1] == node.shape), None)
        if key is not None:
            hosted.setdefault(key, []).append(node)
    if len(hosted) != len(spread) or sum(map(len, hosted.values())) != len(spread):
        kept = {id(n): n for group in hosted.values() for n in group}
        levels, requested, depth = _levels(order, roots, kept, readers, inline)
        hosted = {k: v for k, v in hosted.items() if k in levels or k in requested}
    scatters: dict[int, list[Node]] = {}  # scatter-adds, scans, arg-reductions, by level
    for node in order:
        if node.kind in (ex.SCATTER_ADD, *_PASSES):
            scatters.setdefault(depth[id(node)], []).append(node)
    done: dict[int, Node] = {}
    steps: list[Step] = []
    keys = sorted({*levels, *hosted}, key=lambda k: k[0])
    for level in sorted({*scatters, *(k[0] for k in keys)}):
        for node in scatters.get(level, []):
            dest = roots.get(id(node))
            args = ex.substitute(list(node.args), done)
            if dest is None or dest.kind != ex.BUFFER or _reads_storage(args, dest):
                dest = temporary(node)
            more = scatter_add_steps if node.kind == ex.SCATTER_ADD else scan_steps
            steps += more(args, node, dest, temporary)
            done[id(node)] = dest
        steps += _level_steps([k for k in keys if k[0] == level], levels, requested, hosted,
                              roots, done, temporary)
    rest = [(root, dest) for root, dest in outputs if done.get(id(root)) is not dest]
    finals = ex.substitute([root for root, _ in rest], done)
    steps += _group([(root, dest) for root, (_, dest) in zip(finals, rest)])
    if parameter_bytes:
        steps = [part for step in steps for part in _parted(step, parameter_bytes)]
    return first + steps


def _parted(step: Step, parameter_bytes: int) -> list[Step]:
    """``step``'s outputs parted among steps whose kernels each read at most
    ``parameter_bytes`` of leaves, in order; whole where one fits, where it scans, or where
    an output reads what another writes (one kernel reads each element before writing it)."""
    limit = parameter_bytes - FIXED_BYTES
    if len(step.outputs) < 2 or step.scans or reads_bytes(
            [n for output in step.outputs for n in output]) <= limit:
        return [step]
    written = {id(d.attrs.storage) for _, d in step.outputs if d.kind == ex.BUFFER}
    if len(written) < len(step.outputs) or any(
            n.kind == ex.BUFFER and id(n.attrs.storage) in written
            for n in ex.walk([r for r, _ in step.outputs])):
        return [step]
    parts = [Step([])]
    part_reads: dict[tuple, int] = {}
    for output in step.outputs:
        reads = leaf_reads(list(output))
        merged = {**part_reads, **reads}
        if parts[-1].outputs and sum(merged.values()) > limit:
            parts.append(Step([]))
            merged = reads
        parts[-1].outputs.append(output)
        part_reads = merged
    return parts


def _level_steps(keys: list[tuple], levels: dict[tuple, list[Node]],
                 requested: dict[tuple, list[Node]], hosted: dict[tuple, list[Node]],
                 roots: dict[int, Node], done: dict[int, Node], temporary: Temporary
                 ) -> list[Step]:
    """One level's reduction steps (``fused``), each computing its reductions (feeding and
    requested) and the spread values it hosts; ``done`` learns where each went."""
    steps = []
    for key in keys:
        step = Step([])
        for node in levels.get(key, []) + requested.get(key, []) + hosted.get(key, []):
            (ready,) = ex.substitute([node], done)
            dest = roots.get(id(node)) or temporary(node)
            step.outputs.append((ready, dest))
            done[id(node)] = dest
        steps.append(step)
    return steps


def _reads_storage(args: list[Node], dest: Node) -> bool:
    """Whether ``args`` read the buffer under the leaf ``dest`` (then writing it in place
    could overwrite what a later element still reads)."""
    storage = dest.attrs.storage
    return any(n.kind == ex.BUFFER and n.attrs.storage is storage for n in ex.walk(args))


def scan_steps(args: list[Node], node: Node, dest: Node, temporary: Temporary) -> list[Step]:
    """A scan or arg-reduction ``node`` (its argument ``args``, computed) into the buffer
    leaf ``dest``: its passes compute the operand where they read it, unless it checks or
    gathers (a pass has no error record), when it is computed first into a temporary."""
    (operand,) = args
    steps = []
    if ex.contains([operand], (ex.CHECK, ex.GATHER)):
        leaf = temporary(operand)
        steps.append(Step([(operand, leaf)]))
        operand = leaf
    return [*steps, Step([(ex.rebuild(node, (operand,)), dest)])]


def scatter_add_steps(args: list[Node], node: Node, dest: Node,
                      temporary: Temporary | None = None) -> list[Step]:
    """A scatter-add ``node`` (its arguments ``args``, computed) into the buffer leaf
    ``dest``: zeros, then each value added at its element, in a kernel over the values."""
    values, *indexes = args
    zero = ex.broadcast(ex.scalar(0, node.dtype), node.shape)
    spec = replace(node.attrs, accumulate=True)
    return [Step([(zero, dest)]),
            Step([(values, ex.gather(dest, tuple(indexes), spec, values.shape))])]


def _levels(order: list[Node], roots: dict[int, Node], stored: dict[int, Node],
            readers: set[int], inline: set[int]
            ) -> tuple[dict[tuple, list[Node]], dict[tuple, list[Node]], dict[int, int]]:
    """Feeding and requested reductions by (level, operand shape, axis), and each node's
    level: how many reductions nest below it (``inline`` ones computed where they are read:
    no level), and stored values below a broadcast's ``readers`` (other uses of a stored
    value may compute it beside it, in its step)."""
    depth: dict[int, int] = {}
    levels: dict[tuple, list[Node]] = {}
    requested: dict[tuple, list[Node]] = {}
    for node in order:
        reader = id(node) in readers
        depth[id(node)] = max((depth[id(a)] + ((a.kind in _CUTS and id(a) not in inline)
                                               or (reader and id(a) in stored))
                               for a in node.args), default=0)
        if node.kind == ex.REDUCE and id(node) not in inline:
            key = (depth[id(node)], *_reduction_key(node))
            dest = roots.get(id(node))
            if dest is None:
                levels.setdefault(key, []).append(node)
            elif dest.kind == ex.BUFFER and dest.shape == node.shape:
                requested.setdefault(key, []).append(node)
    return levels, requested, depth


def _spread_values(order: list[Node]) -> tuple[dict[int, Node], set[int]]:
    """The computed values (not leaves, not 0-d) that broadcasts spread over at least
    ``STORE_EXPANSION`` elements each, by id, and the nodes on those broadcasts that read
    them (the broadcast, or the view under it)."""
    found: dict[int, Node] = {}
    readers: set[int] = set()
    for node in order:
        if node.kind != ex.BROADCAST:
            continue
        reader, value = node, node.args[0]
        while value.kind == ex.VIEW:
            reader, value = value, value.args[0]
        size = _size(value.shape)
        if (value.kind in (ex.MAP, ex.CAST, ex.CHECK) and size > 1
                and _size(node.shape) >= STORE_EXPANSION * size):
            found[id(value)] = value
            readers.add(id(reader))
    return found, readers


def _size(shape: tuple[int, ...]) -> int:
    size = 1
    for n in shape:
        size *= n
    return size


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
        dest = finals.get(id(node)) or temporary(node)
        if node.kind == ex.SCATTER_ADD:
            steps += scatter_add_steps(list(args), node, dest)
        elif node.kind in _PASSES:
            into = dest
            if dest.kind != ex.BUFFER or _reads_storage(list(args), dest):
                into = temporary(node)
            steps += scan_steps(list(args), node, into, temporary)
            if into is not dest:
                steps.append(Step([(into, dest)]))
        else:
            steps.append(Step([(ex.rebuild(node, args), dest)]))
        done[id(node)] = dest
    return steps
