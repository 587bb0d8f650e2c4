"""What a traced function's trace launched, and its replay (``wf.function``).

``record`` computes a trace's results and makes its ``Plan``: per launch, the program, the
arguments that never change (sizes, offsets, launch settings, constants) and the holes a call
fills (an argument's buffer, a float argument through the conversions the expression made
of it, a result, a temporary, a closed-over array read anew). ``Plan.run`` replays it for
one call; ``Plan.fingerprint`` is what two traces of one signature must share.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import expr as ex
from . import realize
from .array import Array
from .cache import CACHE
from .compiler import Compiled, TemporaryBuffer, compile
from .devices import Device
from .storage import Storage
from .traced import TracedFloat, note_activity

_FLOAT, _INPUT, _OUTPUT, _TEMP, _CLOSED = range(5)
STALE = object()  # a plan whose closed-over array is no longer what it traced
_SIGNATURE_LIMIT = 16384


def record(outputs: list[Array], out_tree: Any, device: Device, call: list[Any],
            leaves: list[Any], mark: int, closed: dict[int, tuple]
            ) -> tuple[Plan | None, str | None]:
    """Compute the traced results and make the plan that replays them."""
    unique: dict[int, int] = {}
    pairs = []
    for a in outputs:
        if id(a) not in unique:
            unique[id(a)] = len(pairs)
            pairs.append((a, a._node, realize.new_leaf(device, a._node)))
    compiled = compile([(node, dest) for _, node, dest in pairs], device.target)
    programs = realize.run(device, compiled)
    for a, _, dest in pairs:
        a._node = dest
        a._deferred = None
    results = [(dest.dtype, dest.shape, dest.structure, dest.attrs.storage)
               for _, _, dest in pairs]
    order = [unique[id(a)] for a in outputs]
    return Plan.make(device, compiled, programs, results, order, out_tree, call, leaves,
                      mark, closed)


class _Launch:
    __slots__ = ("ir", "program", "constants", "holes", "n", "groups", "errors")


class Plan:
    """What one signature's trace launched, and where each argument comes from."""

    def __init__(self) -> None:
        self.verified = True
        self.float_leaves: list[int] = []
        self.traced: dict[int, str] = {}  # float values of the trace, as float.hex
        self.checks: list[tuple[int, str, str, Any]] = []  # replayed host checks
        self.captured: list[ex.Node] = []  # leaves over other buffers the trace read
        self.closed: list[tuple] = []
        self.stale = ""
        self.fingerprint: tuple = ()

    @classmethod
    def make(cls, device: Device, compiled: Compiled, programs: list[Any],
             results: list[tuple], order: list[int], out_tree: Any, call: list[Any],
             leaves: list[Any], mark: int, closed: dict[int, tuple]
             ) -> tuple[Plan | None, str | None]:
        plan = cls()
        plan.device = device
        # Per result: what to allocate, and its leaf (row-major, born signed).
        plan.results = []
        for dtype, shape, structure, storage in results:
            strides = ex.contiguous_strides(shape)
            sig = _intern((dtype, shape, structure, 0, strides, device))
            plan.results.append((dtype, storage.size, shape, strides, structure, sig))
        plan.order, plan.out_tree = order, out_tree
        plan.temporaries = [(t.dtype, t.size) for t in compiled.temporaries]
        by_storage: dict[int, int] = {}
        for k, value in enumerate(leaves):
            if isinstance(value, Array):
                by_storage.setdefault(id(value._node.attrs.storage), k)
        outs = {id(r[3]): j for j, r in enumerate(results)}
        temps = {id(t): k for k, t in enumerate(compiled.temporaries)}
        captured: dict[int, Storage] = {}
        plan.closed = []  # (name, how to read it now, its signature at the trace)
        closed_index: dict[int, int] = {}
        plan.launches = []
        shape = []
        for kernel, program in zip(compiled.kernels, programs):
            launch = _Launch()
            launch.ir, launch.program = kernel.ir, program
            launch.n, launch.groups, launch.errors = kernel.n, kernel.groups, kernel.errors
            launch.constants = []
            launch.holes = []
            for position, a in enumerate(kernel.arguments):
                hole: tuple | None = None
                if type(a) is TemporaryBuffer:
                    hole = (position, _TEMP, temps[id(a)], None)
                elif isinstance(a, Storage):
                    if id(a) in outs:
                        hole = (position, _OUTPUT, outs[id(a)], None)
                    elif id(a) in by_storage:
                        hole = (position, _INPUT, by_storage[id(a)], None)
                    elif id(a) in closed:
                        if id(a) not in closed_index:
                            closed_index[id(a)] = len(plan.closed)
                            plan.closed.append(closed[id(a)])
                        hole = (position, _CLOSED, closed_index[id(a)], None)
                    elif a.serial > mark:
                        return None, ("a result reads a buffer made while tracing (an upload "
                                      "or a library call inside the function)")
                    else:
                        captured[id(a)] = a
                elif isinstance(a, np.generic):
                    leaf = kernel.arguments.leaves.get(position)
                    origin = getattr(leaf, "origin", None) if leaf is not None else None
                    traced = origin[0] if origin is not None else None
                    # Only this call's floats: an enclosing trace's are its own constants.
                    if (traced is not None and traced.position < len(call)
                            and call[traced.position] is traced):
                        hole = (position, _FLOAT, traced.position, origin[1])
                elif type(a) is int or type(a) is bool:
                    a = np.int64(a)  # converted once, not per call
                launch.constants.append(None if hole else a)
                if hole:
                    launch.holes.append(hole)
                shape.append(hole[1:3] + (hole[3],) if hole else _constant_key(a))
            plan.launches.append(launch)
            shape.append((kernel.ir, kernel.variant, kernel.n, kernel.groups))
        plan.captured = [ex.buffer(s, (s.size,)) for s in captured.values()]
        # Every float argument, read by a launch or not: one that no launch reads may have
        # reached a constant through host Python, which the first call with another value
        # shows (``Function._verify``).
        floats = [t.position for t in call if type(t) is TracedFloat]
        plan.float_leaves = floats
        plan.traced = {k: leaves[k].hex() for k in floats}  # bits: -0.0 is not 0.0
        plan.verified = not floats
        plan.checks = [(t.position, *check) for t in call if type(t) is TracedFloat
                       for check in t.checks]
        plan.fingerprint = tuple(shape)
        return plan, None

    def floats_differ(self, leaves: list[Any]) -> bool:
        """Whether a float argument has other bits than at the trace."""
        return any(leaves[k].hex() != v for k, v in self.traced.items())

    def run(self, leaves: list[Any]) -> Any:
        """Launch the plan for a call's ``leaves`` (buffers and float values)."""
        for k, name, key, rule in self.checks:
            value = leaves[k]
            if not rule.host(value):
                raise ValueError(f"{name}: {key} must be {rule.words}, got {value!r}")
        closed = []
        for name, read, sig in self.closed:
            array = read()
            if type(array) is not Array or array.is_lazy or signature_entry(array) != sig:
                self.stale = name
                return STALE
            closed.append(array._node.attrs.storage)
        device = self.device
        allocate = device.backend.allocate
        outputs = [allocate(device, dtype, size) for dtype, size, *_ in self.results]
        temps = [allocate(device, dtype, size) for dtype, size in self.temporaries]
        note_activity()
        for launch in self.launches:
            args = launch.constants.copy()
            for position, kind, k, types in launch.holes:
                if kind == _INPUT:
                    args[position] = leaves[k]._node.attrs.storage
                elif kind == _FLOAT:
                    value = leaves[k]
                    for dtype in types:
                        value = dtype.numpy.type(value)
                    args[position] = value
                elif kind == _OUTPUT:
                    args[position] = outputs[k]
                elif kind == _TEMP:
                    args[position] = temps[k]
                else:
                    args[position] = closed[k]
            CACHE.stats["hits"] += 1
            realize.launch(device, launch.ir, launch.program, args, launch.errors, launch.n,
                           launch.groups)
        arrays = []
        for storage, (_, _, shape, strides, structure, sig) in zip(outputs, self.results):
            node = ex.buffer(storage, shape, 0, strides, structure)
            node.sig = sig  # fed back into a traced function, signed already
            arrays.append(Array(node, device))
        if self.out_tree is None:
            return arrays[0]
        return unflatten(self.out_tree, iter([arrays[j] for j in self.order]))


def signature_entry(array: Array) -> tuple:
    view = array._node.attrs
    return (array.dtype, array.shape, array._node.structure, view.offset, view.strides,
            array._device)


class Signature:
    """A materialized array's part of a call's signature, interned: one object per distinct
    (dtype, shape, structure, offset, strides, device), so a key hashes and compares it by
    identity."""

    __slots__ = ("entry",)

    def __init__(self, entry: tuple) -> None:
        self.entry = entry

    def __repr__(self) -> str:
        return f"<signature {self.entry}>"


_SIGNATURES: dict[tuple, Signature] = {}


def _intern(entry: tuple) -> Signature:
    found = _SIGNATURES.get(entry)
    if found is None:
        if len(_SIGNATURES) >= _SIGNATURE_LIMIT:
            _SIGNATURES.clear()  # rare; an array signed before then keys a new trace
        found = _SIGNATURES.setdefault(entry, Signature(entry))
    return found


def sign(array: Array) -> Signature:
    return _intern(signature_entry(array))


def _constant_key(value: Any) -> tuple:
    if isinstance(value, Storage):
        return ("captured", id(value))
    if isinstance(value, np.generic):
        return ("constant", value.dtype.str, value.tobytes())
    return ("constant", type(value), value)


# Trees of arguments and results ---------------------------------------------------------


def flatten(value: Any, leaves: list[Any]) -> Any:
    """``value``'s tuples, lists and dicts as a hashable tree; everything else appended to
    ``leaves``."""
    kind = type(value)
    if kind is tuple or kind is list:
        return (kind, tuple(flatten(v, leaves) for v in value))
    if kind is dict:
        return (dict, tuple(value), tuple(flatten(v, leaves) for v in value.values()))
    leaves.append(value)
    return None


def unflatten(tree: Any, leaves: Any) -> Any:
    if tree is None:
        return next(leaves)
    if tree[0] == "args":
        return [unflatten(t, leaves) for t in tree[1]]
    if tree[0] is dict:
        return dict(zip(tree[1], (unflatten(t, leaves) for t in tree[2])))
    return tree[0](unflatten(t, leaves) for t in tree[1])
