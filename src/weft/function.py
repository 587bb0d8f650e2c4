"""Traced functions: ``@wf.function`` runs a Python function of weft arrays once per argument
signature and afterwards replays what that run launched, with the new call's buffers and
float values, building no expression.

The signature is read from the arguments in one pass: per array its dtype, shape, structure
and view (offset, strides) and which arguments share a buffer; per float only that it is a
float; other scalars (ints, bools, NumPy scalars, strings, None) and the arguments named in
``static_argnames`` by value; the tree of tuples, lists and dicts; the device, the default
real type and whether fusion is on. A call with a signature seen before replays its plan.

A lazy argument (``theta + step * p``) is computed first, in place, with the call's other
lazy arguments in one launch: the plan reads buffers, and an expression carried from call to
call (a sampler's position) ends at each call instead of growing with every step.

The trace is the first call itself: the function runs on the real arguments, each float as a
``TracedFloat`` (still the float), its results are compiled and launched, and the plan records
where each launch's arguments come from: an argument's buffer, a float argument (through the
conversions the expression made of it), a result, a temporary, or a constant. Three things
make a trace unfit to replay, and the function then runs as plain Python at every call with
that signature (always correct; ``WEFT_DEBUG=1`` says why): the function evaluated or read a
value while tracing (its structure may depend on data); a result is not computed by the
function (an argument itself, a buffer made by a library call inside it); a device computes
through an evaluator of its own (Dask). A float used by host Python (arithmetic, comparison)
becomes static: later calls key it by value. A host conversion that no float method sees
(``math.log(sigma)``) is caught by the second call with new float values, which traces again
and compares: a plan that differs makes those floats static (with a warning).

>>> import numpy as np, weft as wf
>>> @wf.function
... def scaled_sum(a, b, c):
...     return c * (a + b)
>>> a, b = wf.asarray(np.ones(3)), wf.asarray(np.arange(3.0))
>>> scaled_sum(a, b, 2.0).tolist(), scaled_sum(a, b, 3.0).tolist()
([2.0, 4.0, 6.0], [3.0, 6.0, 9.0])
"""

from __future__ import annotations

import functools
import inspect
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from .array import Array, evaluate
from .config import fuse_enabled, log
from .creation import asarray
from .devices import Device, current_device
from .storage import serial_mark
from .tape import RECORDING, reaches_argument
from .trace import (
    MISS,
    STALE,
    Signature,
    Trace,
    flatten,
    record_trace,
    sign,
    signed,
    unflatten,
)
from .traced import ACTIVITY, FLOAT_TRACERS, TRACED_FLOATS

_PLANS_PER_FUNCTION = 64
_CONTAINERS = (tuple, list, dict)
_FUNCTIONS: weakref.WeakSet[Function] = weakref.WeakSet()


def function(fn: Callable | None = None, *, static_argnames: tuple[str, ...] | str = ()
             ) -> Any:
    """``fn`` traced once per argument signature and replayed afterwards (see the module).

    >>> import weft as wf
    >>> double = wf.function(lambda x: 2.0 * x)
    >>> double(wf.asarray([1.0, 2.0])).tolist()
    [2.0, 4.0]
    """
    if isinstance(static_argnames, str):
        static_argnames = (static_argnames,)
    if fn is None:
        return lambda f: Function(f, tuple(static_argnames))
    return Function(fn, tuple(static_argnames))


def forget_traces() -> None:
    """Drop every traced function's plans (``wf.clear_cache`` calls this)."""
    for f in list(_FUNCTIONS):
        f.plans.clear()
        f.last = None


class _Static:
    """An argument keyed by value (named in ``static_argnames``)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class Function:
    """A traced function: call it as the function it wraps."""

    def __init__(self, fn: Callable, static_argnames: tuple[str, ...]) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.signature = inspect.signature(fn)
        names = list(self.signature.parameters)
        unknown = [n for n in static_argnames if n not in names]
        if unknown:
            raise ValueError(f"wf.function({fn.__name__}): static_argnames {unknown} are not "
                             f"parameters of {fn.__name__}{self.signature}")
        self.static_positions = frozenset(names.index(n) for n in static_argnames)
        params = list(self.signature.parameters.values())
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY,
                                                      p.POSITIONAL_OR_KEYWORD)
                      and p.default is p.empty]
        fixed = all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
        self.arity = len(names) if fixed else -1
        # Defaults of the last positional parameters (``def logp(theta, x=x, y=y)``: data
        # bound as defaults), appended to a call that leaves them out: the call keeps the
        # fast path instead of binding its arguments through ``inspect`` (PoCL, a GLM's
        # traced value with its data as defaults: 35-46 -> 19-29 us).
        self.filled = tuple(p.default for p in params[len(positional):]) if fixed else ()
        # (a, b, *rest): positional arguments, as many as a call gives, need no binding.
        self.varargs = (len(params) == len(positional) + 1
                        and params[-1].kind is params[-1].VAR_POSITIONAL)
        self.least = len(positional)
        # The tree of arguments that are all leaves (no tuples, lists or dicts), when no
        # argument is static: the common call, flattened by copying the arguments.
        self.flat = None if self.static_positions else ("args", (None,) * len(names))
        self.closed_over = _closed_over(fn)
        self.plans: dict[tuple, Any] = {}
        self.learned_static: dict[Any, frozenset[int]] = {}  # tree -> float leaves by value
        self.warned: set[int] = set()  # float leaves warned about
        # The last plan's whole call on the thread that ran it last, behind guards that
        # recognize a call of its signature (flat arguments, arrays on distinct buffers):
        # tried before any key is built (``Trace.fast``).
        self.last: Callable[[tuple[Any, ...]], Any] | None = None
        _FUNCTIONS.add(self)

    def __repr__(self) -> str:
        return f"<wf.function {self.fn.__qualname__}>"

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        return self if instance is None else functools.partial(self, instance)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if len(args) != self.arity and not kwargs and self.least <= len(args) < self.arity:
            args += self.filled[len(args) - self.least:]
        fast = self.last
        if fast is not None and not kwargs:
            result = fast(args)
            if result is not MISS:
                return result
        if RECORDING[0] and _differentiated((args, kwargs)):
            return self.fn(*args, **kwargs)  # its gradient must see the expression
        if kwargs or len(args) != self.arity:
            if kwargs or not self.varargs or len(args) < self.least:
                bound = self.signature.bind(*args, **kwargs)
                bound.apply_defaults()
                if bound.kwargs:  # **kwargs parameters: not traced
                    return self.fn(*args, **kwargs)
                args = bound.args
        if ACTIVITY.tracing:  # inside another function's trace: part of its expression
            return self.fn(*args)
        flat = self.flat
        if flat is not None and len(args) != len(flat[1]):
            flat = ("args", (None,) * len(args))  # as many as a (*rest) call gives
        if (flat is not None and len(args) == len(flat[1])
                and all(type(a) not in _CONTAINERS for a in args)):
            tree, leaves = flat, list(args)
        else:
            leaves = []
            tree = self._flatten_arguments(args, leaves)
        key = self._key(tree, leaves)
        if key is None:  # a lazy argument: computed first, in place, then read by the plan
            evaluate(*[a for a in leaves if isinstance(a, Array) and a.is_lazy])
            key = self._key(tree, leaves)
            if key is None:
                return self.fn(*_plain_arguments(tree, leaves))
        plan = self.plans.get(key)
        if plan is None:
            return self._trace(key, tree, leaves, self._miss_reason(key))
        if plan is _PLAIN:
            return self.fn(*_plain_arguments(tree, leaves))
        if not plan.verified and plan.floats_differ(leaves):
            return self._verify(plan, key, tree, leaves)
        result = plan.run(leaves)
        if result is STALE:
            del self.plans[key]
            self.last = None
            return self._trace(key, tree, leaves, f"closed-over array {plan.stale} changed")
        self.last = _fast_entry(key, tree, plan)
        return result

    # Signatures ------------------------------------------------------------------------

    def _flatten_arguments(self, args: tuple[Any, ...], leaves: list[Any]) -> Any:
        parts = []
        for position, value in enumerate(args):
            if position in self.static_positions:
                leaves.append(_Static(value))
                parts.append(None)
            else:
                parts.append(flatten(value, leaves))
        return ("args", tuple(parts))

    def _key(self, tree: Any, leaves: list[Any]) -> tuple | None:
        """The call's signature, or None while an argument is lazy. NumPy arrays among
        ``leaves`` are replaced by weft arrays on the current device."""
        learned = self.learned_static.get(tree, frozenset())
        entries: list[Any] = []
        storages: dict[int, int] = {}
        aliases = []
        for k, value in enumerate(leaves):
            kind = type(value)
            if kind in FLOAT_TRACERS:  # a Python or NumPy float: its type, or its bits
                # By its bits where static: -0.0 == 0.0, and NaN equals nothing.
                entries.append(("value", kind, float(value).hex()) if k in learned else kind)
            elif kind is Array or isinstance(value, (Array, np.ndarray)):
                if kind is np.ndarray:
                    value = leaves[k] = asarray(value)
                if value._deferred is not None:
                    return None
                node = value._node
                if node.kind is not ex.BUFFER:
                    return None
                sig = getattr(node, "sig", None)
                if sig is None:
                    sig = node.sig = sign(value)
                entries.append(sig)
                aliases.append(storages.setdefault(id(node.attrs.storage), k))
            else:
                static = value.value if kind is _Static else value
                kind = type(static)
                try:
                    hash(static)
                except TypeError:
                    raise TypeError(
                        f"wf.function({self.fn.__name__}): an argument of type "
                        f"{type(static).__name__} is neither a weft or NumPy array, a float, "
                        "nor hashable (a static argument is keyed by its value)") from None
                if isinstance(static, (float, np.floating)):
                    static = float(static).hex()  # -0.0 and 0.0 are different statics
                entries.append(("value", kind, static))
        return (tree, tuple(entries), tuple(aliases), current_device(), dt.default_real(),
                fuse_enabled())

    def _miss_reason(self, key: tuple) -> str:
        """Which named part of ``key`` is new against the latest plan (for WEFT_DEBUG)."""
        if not self.plans:
            return "first call"
        latest = next(reversed(self.plans))
        names = ("argument structure", "arguments", "aliasing between arguments", "device",
                 "default real type", "fusion setting")
        for name, new, old in zip(names, key, latest):
            if new != old:
                if name == "arguments" and len(new) == len(old):
                    k = next(i for i, (a, b) in enumerate(zip(new, old)) if a != b)
                    return (f"argument {self._leaf_name(key[0], k)}: "
                            f"{_describe(old[k])} -> {_describe(new[k])}")
                return f"new {name}"
        return "plans were cleared"

    def _leaf_name(self, tree: Any, k: int) -> str:
        """The ``k``-th leaf of ``tree`` as the user would write it (``theta['mu']``)."""
        names: list[str] = []
        for name, part in zip(self.signature.parameters, tree[1]):
            _paths(part, name, names)
        return names[k] if k < len(names) else f"#{k}"

    # Tracing ---------------------------------------------------------------------------

    def _trace(self, key: tuple, tree: Any, leaves: list[Any], reason: str,
               store: bool = True) -> Any:
        self.last = None  # what its guards recognize may change
        call = [FLOAT_TRACERS[type(v)](v, k) if type(v) in FLOAT_TRACERS else
                v.value if type(v) is _Static else v for k, v in enumerate(leaves)]
        device = key[3]
        mark, before = serial_mark(), ACTIVITY.count
        ACTIVITY.tracing += 1
        try:
            result = self.fn(*unflatten(tree, iter(call)))
        finally:
            ACTIVITY.tracing -= 1
        host_used = frozenset(t.position for t in call
                              if type(t) in TRACED_FLOATS and t.host_used)
        if host_used:
            self._learn_static(tree, host_used, leaves, "is used by Python arithmetic or a "
                               "comparison inside the function")
            key = self._key(tree, leaves)
        outputs: list[Any] = []
        out_tree = flatten(result, outputs)
        plain = _why_plain(outputs, device, ACTIVITY.count != before)
        if plain is None:
            closed = {}
            for name, read in self.closed_over:
                array = read()
                if type(array) is Array and not array.is_lazy:
                    closed.setdefault(id(array._node.attrs.storage),
                                      (name, read, signed(array)))
            plan, plain = record_trace(outputs, out_tree, device, call, leaves, mark, closed)
        if log.isEnabledFor(10):
            log.debug("wf.function %s: traced (%s)%s", self.fn.__qualname__, reason,
                             f"; runs as plain Python: {plain}" if plain else "")
        if not store:
            return result, None if plain else plan
        if len(self.plans) >= _PLANS_PER_FUNCTION:
            del self.plans[next(iter(self.plans))]
        self.plans[key] = _PLAIN if plain else plan
        return result

    def _verify(self, plan: Trace, key: tuple, tree: Any, leaves: list[Any]) -> Any:
        """A plan's first call with new float values: trace again and compare."""
        result, again = self._trace(key, tree, leaves, "checking the first trace",
                                    store=False)
        if again is not None and again.fingerprint == plan.fingerprint:
            plan.verified = True
            return result
        changed = frozenset(k for k in plan.float_leaves
                            if float(leaves[k]).hex() != plan.traced[k])
        self._learn_static(tree, changed, leaves, "reaches the function's structure or "
                           "constants through host Python (math or NumPy functions on it)")
        self.plans.pop(key, None)
        new_key = self._key(tree, leaves)
        if again is not None:
            self.plans[new_key] = again
        return result

    def _learn_static(self, tree: Any, positions: frozenset[int], leaves: list[Any],
                      why: str) -> None:
        self.learned_static[tree] = self.learned_static.get(tree, frozenset()) | positions
        for k in sorted(positions):
            if k not in self.warned:
                self.warned.add(k)
                warnings.warn(
                    f"wf.function({self.fn.__qualname__}): float argument "
                    f"{self._leaf_name(tree, k)} (value {leaves[k]!r}) {why}, so every new "
                    "value traces again; use weft operations on it, or name it in "
                    "static_argnames", RuntimeWarning,
                    stacklevel=4)


_PLAIN = object()  # a signature whose trace cannot be replayed: run the function itself


def _fast_entry(key: tuple, tree: Any, plan: Trace) -> Callable[[tuple[Any, ...]], Any] | None:
    """``plan``'s whole call on the calling thread, behind guards that recognize a call of
    its signature argument by argument (``Trace.fast``); None where the signature is not one
    those guards can recognize (nested or static arguments, arrays sharing a buffer)."""
    tree_, entries, aliases, device, real, fuse = key
    if tree_[0] != "args" or any(part is not None for part in tree_[1]):
        return None
    arrays = [k for k, e in enumerate(entries) if isinstance(e, Signature)]
    if any(e not in FLOAT_TRACERS and not isinstance(e, Signature) for e in entries):
        return None
    if list(aliases) != arrays:  # some arrays share a buffer
        return None
    return plan.fast(list(entries), tuple(arrays), device, real, fuse)


def _why_plain(outputs: list[Any], device: Device, evaluated: bool) -> str | None:
    if evaluated:
        return "it evaluated or read a value while tracing"
    if device.evaluator is not None:
        return f"{device} computes through its own evaluator"
    for a in outputs:
        if not isinstance(a, Array):
            return f"it returned a {type(a).__name__}, not weft arrays"
        if a._device is not device:
            return f"a result lives on {a._device}, not {device}"
        if not a.is_lazy:
            return "a result is not computed by the function (an argument or a constant)"
    return None


def _closed_over(fn: Callable) -> list[tuple[str, Callable[[], Any]]]:
    """How to read, at each call, the variables ``fn`` closes over and the globals its code
    names (nested functions and comprehensions included): arrays among them are inputs."""
    readers: list[tuple[str, Callable[[], Any]]] = []
    code = getattr(fn, "__code__", None)
    if code is None:
        return readers
    for name, cell in zip(code.co_freevars, getattr(fn, "__closure__", None) or ()):
        readers.append((name, lambda cell=cell: _cell_value(cell)))
    names: set[str] = set()
    stack = [code]
    while stack:
        c = stack.pop()
        names.update(c.co_names)
        stack.extend(k for k in c.co_consts if inspect.iscode(k))
    scope = getattr(fn, "__globals__", {})
    readers.extend((name, lambda name=name: scope.get(name)) for name in sorted(names)
                   if isinstance(scope.get(name), Array))
    return readers


def _cell_value(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # not yet bound
        return None


def _describe(entry: Any) -> str:
    if isinstance(entry, Signature):
        entry = entry.entry
    if entry in FLOAT_TRACERS:
        return "a float" if entry is float else f"a NumPy {entry.__name__}"
    if isinstance(entry, tuple) and entry and entry[0] == "value":
        value = entry[-1]
        if entry[1] in FLOAT_TRACERS:  # kept as hex
            value = entry[1](float.fromhex(value))
        return f"{value!r}"
    if isinstance(entry, tuple) and len(entry) == 6:
        return f"{entry[0]} {entry[1]} ({entry[2]}, offset {entry[3]}, strides {entry[4]})"
    return repr(entry)


# Trees of arguments and results ---------------------------------------------------------


def _paths(tree: Any, prefix: str, out: list[str]) -> None:
    if tree is None:
        out.append(prefix)
    elif tree[0] is dict:
        for name, part in zip(tree[1], tree[2]):
            _paths(part, f"{prefix}[{name!r}]", out)
    else:
        for i, part in enumerate(tree[1]):
            _paths(part, f"{prefix}[{i}]", out)


def _differentiated(arguments: Any) -> bool:
    """Whether an array in ``arguments`` depends on an argument being differentiated (a
    replay's results would hide it from the gradient)."""
    leaves: list[Any] = []
    flatten(arguments, leaves)
    return any(isinstance(a, Array) and reaches_argument(a._node) for a in leaves)


def _plain_arguments(tree: Any, leaves: list[Any]) -> list[Any]:
    return unflatten(tree, iter([v.value if type(v) is _Static else v for v in leaves]))
