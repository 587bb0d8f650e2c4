"""Writes: ``x[...] = v``, ``x[key] = v``, in-place operators and ``wf.assign``.

A write lands in a ``Target``: a base array's elements picked by an index map (a block,
transpose or diagonal) or by integer arrays (a scatter). It goes into the base's own buffer
when nothing else reads it and no read in the value could see another element's write;
otherwise into a fresh buffer (a copy first for partial writes) that replaces the base's only
after every kernel succeeded, so a failed check or index leaves every destination unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from . import pending, realize
from .array import Array, as_operand, compute
from .devices import Device
from .dtypes import DType
from .indexing import IDENTITY, AffineMap, basic_map, is_whole
from .tape import RECORDING, reaches_argument


def owns_buffer(x: Array, ignoring: Array | None = None) -> bool:
    """True when writing into ``x``'s buffer cannot change any other value (no copy needed).

    ``ignoring``: a view of ``x`` that is being written through (its old value is dropped).
    """
    node = x._node
    if node.kind != ex.BUFFER or node.parents != 0:
        return False
    leaves = node.attrs.storage.leaves
    if ignoring is not None and ignoring is not x:
        other = ignoring._node
        if (other.kind == ex.BUFFER and other.parents == 0
                and other.attrs.storage is node.attrs.storage):
            leaves -= 1
    return leaves == 1


def scalar_node(value: Any, dtype: DType) -> ex.Node:
    """A Python scalar written into an array of ``dtype``: same kind converts, a float into an
    integer array stays a float (the cast truncates, as NumPy)."""
    kind = dt.scalar_kind(value)
    if kind == "f" and dtype.kind in "bui" or kind == "i" and dtype.kind == "b":
        return ex.scalar(value, dt.resolve([], [kind]))
    if dtype.kind in "ui" and kind == "i":
        dt.check_int_fits(value, dtype)
    return ex.scalar(value, dtype)


def value_node(value: Any, device: Device, dtype: DType, shape: tuple[int, ...]) -> ex.Node:
    """``value`` as a node of ``dtype`` broadcast to exactly ``shape`` (``ValueError`` else)."""
    value = as_operand(value, device)
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, Array):
        if value._device is not device:
            raise ValueError(f"cannot write an array on {value._device} into one on {device}")
        node = value._node
    else:
        node = scalar_node(value, dtype)
    extra = len(node.shape) - len(shape)
    if extra > 0 and all(size == 1 for size in node.shape[:extra]):
        # As NumPy's assignment: a value's extra leading dimensions of size 1 are dropped
        # (a 1-d array's elements are its padded 2-d view's, so the map is the identity).
        node = ex.view(node, node.shape[extra:], IDENTITY)
    if node.shape != shape:
        try:
            broadcast = ex.broadcast_shapes("assignment", node.shape, shape)
        except ValueError:
            broadcast = None
        if broadcast != shape:
            raise ValueError(
                f"could not broadcast input array from shape {node.shape} into shape {shape}"
            )
        node = ex.broadcast(node, shape)
    return ex.cast(node, dtype)


class Target:
    """Where a write lands: ``base``'s elements picked by ``map`` (a block, transpose or
    diagonal of it), or by integer arrays (``scatter``: a gather spec and its index nodes)."""

    def __init__(self, base: Array, shape: tuple[int, ...], m: AffineMap | None,
                 view: Array | None = None, scatter: tuple[ex.Gather, tuple] | None = None
                 ) -> None:
        self.base = base
        self.shape = shape
        self.map = m  # None: the whole array
        self.view = view  # the view Array written through, re-pointed afterwards
        self.scatter = scatter

    @property
    def whole(self) -> bool:
        return self.map is None and self.scatter is None

    def destination(self, leaf: ex.Node) -> ex.Node:
        """The destination node within ``leaf``, the base's buffer (or its copy)."""
        if self.scatter is not None:
            spec, indexes = self.scatter
            return ex.gather(leaf, indexes, spec, self.shape)
        if self.map is None:
            return leaf
        return ex.view(leaf, self.shape, self.map)


def target_of(dst: Array, key: Any = None) -> Target:
    """The ``Target`` of ``dst[key] = ...`` (``key=None``: all of ``dst``)."""
    from .gather import scatter_target, split_key

    if key is not None and is_whole(key, dst.ndim):
        key = None
    if key is not None and split_key(key, dst.ndim) is not None:
        if dst._base is not None:
            raise TypeError("integer-array assignment into a view is not supported: assign "
                            "into the array itself")
        return scatter_target(dst, key)
    shape, m = (dst.shape, None) if key is None else basic_map(dst.shape, key)
    if dst._base is None:
        return Target(dst, shape, m)
    base, to_base = dst._base
    return Target(base, shape, to_base if m is None else m.then(to_base), view=dst)


def _aligned_reads_only(value: ex.Node, dest: ex.Node) -> bool:
    """Whether every read of ``dest``'s buffer in ``value`` is of the element being written
    (so writing in place cannot be seen by another element's read)."""
    storage = dest.attrs.storage if dest.kind == ex.BUFFER else None
    stack = [(value, True)]
    while stack:
        node, aligned = stack.pop()
        if node.kind == ex.REDUCE:
            continue  # computed by an earlier kernel
        if node.kind == ex.BUFFER:
            if node.attrs.storage is (storage or dest.args[0].attrs.storage) and not (
                    storage is not None and aligned and node.shape == dest.shape
                    and node.attrs.same_elements(dest.attrs, node.shape)):
                return False
            continue
        keeps = node.kind in (ex.MAP, ex.CAST, ex.CHECK)
        for a in node.args:
            stack.append((a, aligned and keeps and a.shape == node.shape))
    return True


def _fallible(values: list[ex.Node]) -> bool:
    """Whether a kernel computing ``values`` can fail (checks, integer indexes; a trusted
    gather, in bounds by construction, cannot), including the kernels of the reductions they
    read: a failure there reaches the write through the reduction's result."""
    return ex.contains(values, (ex.CHECK, ex.GATHER),
                       skip=lambda n: n.kind == ex.GATHER and n.attrs.trusted)


def _storages(nodes: list[ex.Node]) -> list[Any]:
    """The buffers ``nodes`` read."""
    return [n.attrs.storage for n in ex.walk(nodes) if n.kind == ex.BUFFER]


def write_targets(targets: list[Target], values: list[ex.Node], exclusive: bool | None = None
                  ) -> None:
    """Write each value into its target, all in as few kernels as the shapes allow.

    Nothing changes if anything fails: a kernel that can fail (checks, integer indexes)
    writes into fresh buffers that replace the destinations only after it succeeded.
    """
    for t in targets:
        if t.base.is_lazy and not t.whole:
            t.base.eval()
    # A value computed from a failed check must not reach an existing array: read every
    # report the values and the destinations depend on first.
    pending.settle(_storages(values + [t.base._node for t in targets]))
    fallible = _fallible(values) or any(t.scatter is not None for t in targets)
    before = {id(t.base): t.base._node for t in targets}
    # While a gradient is being taken through the write, the values before it stay as they
    # were (the reverse pass reads them): the write goes to a fresh buffer.
    taped = bool(RECORDING[0]) and any(reaches_argument(n)
                                       for n in [*values, *before.values()])
    leaves: dict[int, ex.Node] = {}
    outputs: list[tuple[ex.Node, ex.Node]] = []
    device = targets[0].base._device
    # Scatters whose values are differentiated: deterministic, their winners remembered.
    scattered = [t.scatter for t in targets]
    written = list(values)
    if taped:
        from .gather import one_winner

        for k, t in enumerate(targets):
            if t.scatter is not None and reaches_argument(values[k]):
                one = int(np.prod(t.shape, dtype=np.int64)) <= 1
                landed, written[k] = (None, values[k]) if one else one_winner(
                    t, values[k], device)
                scattered[k] = (*t.scatter, landed)
    for t, value in zip(targets, values):
        base = t.base
        if id(base) not in leaves:
            own = False if taped else exclusive if exclusive is not None else owns_buffer(
                base, t.view)
            leaf = base._node if not base.is_lazy else None
            if leaf is not None and own and not fallible and all(
                    _aligned_reads_only(v, t2.destination(leaf))
                    for t2 in targets if t2.base is base for v in values):
                leaves[id(base)] = leaf
            elif t.whole and all(t2.whole for t2 in targets if t2.base is base):
                leaves[id(base)] = realize.new_leaf(device, base.shape, base.dtype)
            else:
                fresh = realize.new_leaf(device, leaf.shape, leaf.dtype, leaf.structure)
                compute(device, [(leaf, fresh)])
                leaves[id(base)] = fresh
        outputs.append((value, t.destination(leaves[id(base)])))
    outputs = [(w, dest) for w, (_, dest) in zip(written, outputs)]
    compute(device, outputs)
    if fallible:
        pending.settle(leaf.attrs.storage for leaf in leaves.values())
    for t, value in zip(targets, values):
        leaf = leaves[id(t.base)]
        old = t.base._node.structure
        if t.whole:
            structure = value.structure
        elif t.map is not None and t.map.ri == 0 and t.map.ci == 0 and t.map.rj == t.map.cj \
                and t.map.r0 == t.map.c0 and len(t.shape) == 1 and old != "general":
            structure = old  # the diagonal lies inside every structure
        else:
            structure = "general"
        v = leaf.attrs
        t.base._node = ex.buffer(v.storage, leaf.shape, v.offset, v.strides, structure)
    if taped:
        for t in targets:
            regions = tuple((t2.map, spread, t2.shape, value)
                            for t2, spread, value in zip(targets, scattered, values)
                            if t2.base is t.base)
            t.base._node.tape = ("write", before[id(t.base)], regions)
    for t in targets:
        if t.view is not None:
            t.view._node = ex.view(t.base._node, t.view.shape, t.view._base[1])


def write(dst: Array, value: Any, key: Any = None, exclusive: bool | None = None) -> None:
    """Write ``value`` into ``dst``, or into its region ``dst[key]``.

    Nothing is written if anything fails (shape, dtype, device, a check, an index).
    """
    target = target_of(dst, key)
    node = value_node(value, dst._device, dst.dtype, target.shape)
    if target.whole and dst.is_lazy:
        dst._node = node  # nothing to write into yet: the array takes the new value lazily
        return
    write_targets([target], [node], exclusive)
