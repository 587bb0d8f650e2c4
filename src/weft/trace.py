"""What a traced function's trace launched (``wf.function``): its ``Replay``, where each
input comes from (an argument's buffer, a float argument, a closed-over array read anew),
the host checks to replay, and the results' signatures, so a result fed back into a traced
function is signed already. Also the trees of arguments and results, and the interned
signature of a materialized array.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from . import realize
from .array import Array
from .compiler import compile
from .config import fuse_enabled
from .devices import Device, current_device
from .replay import INPUT, SCALAR, Replay, UnreplayableError, make_runner, record
from .storage import Storage
from .tape import RECORDING
from .traced import ACTIVITY, FLOAT_TRACERS, TRACED_FLOATS

STALE = object()  # a trace whose closed-over array is no longer what it traced
MISS = object()  # a call a trace's fast entry does not recognize
_SIGNATURE_LIMIT = 16384


class Trace:
    """One signature's trace: its replay and what a call binds to it. Its generated runners
    (``_runner``, ``fast``) read its state through cells, never the trace itself: a trace
    they referred to would be in a reference cycle, and the collector finalizes a cycle's
    storages and streams in any order."""

    def __init__(self, replay: Replay, results: list[tuple], order: list[int], out_tree: Any,
                 inputs: list[tuple[int, Any]], closed: list[tuple], checks: list[tuple],
                 floats: list[int], traced: dict[int, str], captured: list[ex.Node]) -> None:
        self.replay = replay
        self.results = results  # per result: shape, strides, structure, signature
        self.order, self.out_tree = order, out_tree
        self.inputs = inputs  # per replay input: (argument leaf, or -1 - closed index)
        self.input_kinds: list[tuple[int, bool]] = []  # (leaf, an array?), set by record
        self.closed = closed  # (name, how to read it now, its interned signature)
        self.checks = checks  # replayed host checks: (leaf, density, argument, rule)
        self.float_leaves = floats
        self.traced = traced  # float values of the trace, as float.hex (bits: -0.0 != 0.0)
        self.traced_values = [(k, float.fromhex(v)) for k, v in traced.items()]
        self._verified = [not floats]  # a cell: the runners read it
        self.captured = captured  # leaves over other buffers the trace read: kept alive
        self._stale = [""]  # the closed-over array found changed (a cell, as _verified)
        self._runners: dict[int, Callable] = {}  # per thread
        self._fast: dict[int, Callable] = {}  # per thread

    @property
    def verified(self) -> bool:
        """Whether a call with other float values gave the same plan (``Function._verify``)."""
        return self._verified[0]

    @verified.setter
    def verified(self, value: bool) -> None:
        self._verified[0] = value

    @property
    def stale(self) -> str:
        return self._stale[0]

    @property
    def fingerprint(self) -> tuple:
        return self.replay.fingerprint

    def _runner(self) -> Callable[[list[Any]], Any]:
        """The calling thread's runner: the host checks, the closed-over arrays read and
        recognized (``STALE`` where one changed), the replay's body reading the call's
        leaves directly, and the result arrays, as one generated function
        (``Replay.runner_body``)."""
        names: dict[str, Any] = {"STALE": STALE}
        lines = self._closed_lines(names, "STALE")
        body, more = self._body()
        names.update(more)
        runner = make_runner("run(leaves)", lines + body, names, f"trace {id(self):x}")
        self._runners[threading.get_ident()] = runner
        return runner

    def _closed_lines(self, names: dict[str, Any], miss: str) -> list[str]:
        """Lines reading each closed-over array into ``c0``, ``c1``... and returning
        ``miss`` where one is not what the trace read (another shape or view, or lazy)."""
        names.update(ARRAY_TYPE=Array, BUFFER_KIND=ex.BUFFER, SIGNED=signed,
                     STALE_NAME=self._stale)
        lines = []
        for j, (name, read, sig) in enumerate(self.closed):
            names.update({f"READ{j}": read, f"CSIG{j}": sig, f"CNAME{j}": name})
            lines += [f"c{j} = READ{j}()",
                      f"if (type(c{j}) is not ARRAY_TYPE or c{j}._deferred is not None",
                      f"        or c{j}._node.kind is not BUFFER_KIND "
                      f"or SIGNED(c{j}) is not CSIG{j}):",
                      f"    STALE_NAME[0] = CNAME{j}", f"    return {miss}"]
        return lines

    def _body(self) -> tuple[list[str], dict[str, Any]]:
        """The lines after the closed-over arrays' (reading ``leaves`` and ``c0``...): the
        host checks, the replay's body, the results; and the globals they read."""
        kinds = dict(self.input_kinds)

        def read_input(k: int) -> str:
            leaf = self.inputs[k]
            if leaf < 0:
                return f"c{-1 - leaf}._node.attrs.storage"
            return f"leaves[{leaf}]._node.attrs.storage" if kinds[leaf] else f"leaves[{leaf}]"

        body, names = self.replay.runner_body(read_input, given_results=False,
                                              counts_activity=False)
        checks = []
        for j, (k, name, key, rule) in enumerate(self.checks):
            names.update({f"HOLDS{j}": rule.host, f"RULE{j}": rule, f"CHECKED{j}": (name, key)})
            checks += [f"if not HOLDS{j}(leaves[{k}]):",
                       f"    raise RULE{j}.failure(*CHECKED{j}, leaves[{k}])"]
        names.update(NODE=ex.Node, VIEW=ex.View, BUFFER_KIND=ex.BUFFER, ARRAY=Array,
                     UNFLATTEN=unflatten, TREE=self.out_tree)
        tail = []
        for j, (shape, strides, structure, sig) in enumerate(self.results):
            names.update({f"SHAPE{j}": shape, f"STRIDES{j}": strides,
                          f"STRUCTURE{j}": structure, f"SIG{j}": sig})
            # ex.buffer's leaf, made in line: one call fewer per result.
            tail += [f"r{j}.leaves += 1",
                     f"n{j} = NODE(BUFFER_KIND, r{j}.dtype, SHAPE{j}, (), None, "
                     f"VIEW(r{j}, 0, STRIDES{j}), STRUCTURE{j})",
                     f"n{j}.sig = SIG{j}"]  # fed back into a traced function, signed
        if self.out_tree is None:
            tail.append("return ARRAY(n0, DEVICE)")
        else:
            arrays = ", ".join(f"ARRAY(n{j}, DEVICE)" for j in range(len(self.results)))
            order = ", ".join(f"a[{j}]" for j in self.order)
            tail += [f"a = ({arrays},)", f"return UNFLATTEN(TREE, iter(({order},)))"]
        return [*checks, *body, *tail], names

    def fast(self, guards: list[Any], arrays: tuple[int, ...], device: Device, real: Any,
             fuse: bool) -> Callable[[tuple[Any, ...]], Any]:
        """The calling thread's whole call of a traced function with this trace's signature:
        guards that recognize the call argument by argument (``guards``: per argument its
        interned signature, or the type of a float: ``float``, ``np.float64`` or
        ``np.float32``; ``arrays`` on distinct buffers; the device, default real and fusion
        setting; the closed-over arrays), then this trace's runner in line. It returns
        ``MISS`` where a guard fails (the caller takes the general path). Generated once per
        thread, as the inline cache of jax's and CuPy's dispatch."""
        tid = threading.get_ident()
        found = self._fast.get(tid)
        if found is not None:
            return found
        names: dict[str, Any] = {
            "MISS": MISS, "ARRAY_TYPE": Array, "TID": tid, "GET_IDENT": threading.get_ident,
            "RECORDING": RECORDING, "ACTIVITY": ACTIVITY, "CURRENT": current_device,
            "DEV": device, "REAL": dt.default_real, "R": real, "FUSE": fuse_enabled, "F": fuse}
        n = len(guards)
        lines = [f"if len(leaves) != {n} or GET_IDENT() != TID or RECORDING[0] "
                 "or ACTIVITY.tracing:", "    return MISS"]
        for k, guard in enumerate(guards):
            names[f"G{k}"] = guard
            if guard in FLOAT_TRACERS:  # a float of this type (Python's or NumPy's)
                lines += [f"if type(leaves[{k}]) is not G{k}:", "    return MISS"]
            else:
                lines += [f"a = leaves[{k}]",
                          "if (type(a) is not ARRAY_TYPE or a._deferred is not None",
                          f"        or getattr(a._node, 'sig', None) is not G{k}):",
                          "    return MISS"]
        storages = [f"leaves[{k}]._node.attrs.storage" for k in arrays]
        if 1 < len(storages) <= 4:  # distinct buffers, as the signature had them
            for j in range(1, len(storages)):
                lines += [f"if {storages[j]} in ({', '.join(storages[:j])},):",
                          "    return MISS"]
        elif len(storages) > 4:
            lines += [f"if len({{{', '.join(f'id({x})' for x in storages)}}}) < "
                      f"{len(storages)}:", "    return MISS"]
        lines += ["if CURRENT() is not DEV or REAL() is not R or FUSE() != F:",
                  "    return MISS"]
        if self.float_leaves:  # new float values are first checked by tracing again
            names.update(VERIFIED=self._verified,
                         DIFFER=functools.partial(_floats_differ, self.traced_values))
            lines += ["if not VERIFIED[0] and DIFFER(leaves):", "    return MISS"]
        lines += self._closed_lines(names, "MISS")
        body, more = self._body()
        names.update(more)
        found = make_runner("fast(leaves)", lines + body, names, f"fast {id(self):x}")
        self._fast[tid] = found
        return found

    def floats_differ(self, leaves: list[Any]) -> bool:
        """Whether a float argument has other bits than at the trace (``_floats_differ``)."""
        return _floats_differ(self.traced_values, leaves)

    def run(self, leaves: list[Any]) -> Any:
        """Launch the trace for a call's ``leaves`` (arrays and float values); ``STALE``
        where a closed-over array is not what the trace read."""
        runner = self._runners.get(threading.get_ident())
        if runner is None:
            runner = self._runner()
        return runner(leaves)


def _floats_differ(traced: list[tuple[int, float]], leaves: list[Any]) -> bool:
    """Whether a float argument has other bits than at the trace (-0.0 is not 0.0, and NaN
    differs from everything, conservatively)."""
    for k, value in traced:
        new = leaves[k]
        if new != value or (new == 0.0 and math.copysign(1.0, new) !=
                            math.copysign(1.0, value)):
            return True
    return False


def signed(array: Array) -> Signature:
    """A materialized array's interned signature, kept on its leaf once made."""
    node = array._node
    sig = getattr(node, "sig", None)
    if sig is None:
        sig = node.sig = sign(array)
    return sig


def record_trace(outputs: list[Array], out_tree: Any, device: Device, call: list[Any],
                 leaves: list[Any], mark: int, closed: dict[int, tuple]
                 ) -> tuple[Trace | None, str | None]:
    """Compute a trace's results and make the ``Trace`` that replays them (None and why,
    where it cannot be)."""
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
    storages = [dest.attrs.storage for _, _, dest in pairs]
    by_storage: dict[int, int] = {}
    for k, value in enumerate(leaves):
        if isinstance(value, Array):
            by_storage.setdefault(id(value._node.attrs.storage), k)
    inputs: list[int] = []  # per replay input: its leaf, or -1 - its closed index
    input_of: dict[Any, int] = {}
    closed_list: list[tuple] = []
    captured: dict[int, Storage] = {}

    def take(key: Any, leaf: int) -> int:
        if key not in input_of:
            input_of[key] = len(inputs)
            inputs.append(leaf)
        return input_of[key]

    def source(kernel: Any, position: int, a: Any) -> tuple[int, int, tuple] | None:
        if isinstance(a, Storage):
            if id(a) in by_storage:
                return INPUT, take(("leaf", by_storage[id(a)]), by_storage[id(a)]), ()
            if id(a) in closed:
                if ("closed", id(a)) not in input_of:
                    closed_list.append(closed[id(a)])
                return INPUT, take(("closed", id(a)), -len(closed_list)), ()
            if a.serial > mark:
                raise UnreplayableError("a result reads a buffer made while tracing (an upload "
                                   "or a library call inside the function)")
            captured[id(a)] = a
            return None
        if isinstance(a, np.generic):
            leaf = kernel.arguments.leaves.get(position)
            origin = getattr(leaf, "origin", None) if leaf is not None else None
            traced = origin[0] if origin is not None else None
            # Only this call's floats: an enclosing trace's are its own constants.
            if (traced is not None and traced.position < len(call)
                    and call[traced.position] is traced):
                return SCALAR, take(("float", traced.position), traced.position), origin[1]
        return None

    try:
        replay = record(device, compiled, programs, storages, source)
    except UnreplayableError as e:
        return None, str(e)
    results = []
    for _, _, dest in pairs:
        strides = ex.contiguous_strides(dest.shape)
        sig = _intern((dest.dtype, dest.shape, dest.structure, 0, strides, device))
        results.append((dest.shape, strides, dest.structure, sig))
    # Every float argument, read by a launch or not: one that no launch reads may have
    # reached a constant through host Python, which the first call with another value shows
    # (``Function._verify``).
    floats = [t.position for t in call if type(t) in TRACED_FLOATS]
    checks = [(t.position, *check) for t in call if type(t) in TRACED_FLOATS
              for check in t.checks]
    trace = Trace(replay, results, [unique[id(a)] for a in outputs], out_tree, inputs,
                  closed_list, checks, floats, {k: float(leaves[k]).hex() for k in floats},
                  [ex.buffer(s, (s.size,)) for s in captured.values()])
    trace.input_kinds = [(k, isinstance(leaves[k], Array)) for k in inputs if k >= 0]
    return trace, None


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
