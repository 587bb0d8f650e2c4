"""Applying an op-table entry to operands: weft arrays, NumPy scalars (strong types) and
Python scalars (weak types, taking the type of the strong operands beside them), with
NumPy's broadcasting; the result is a lazy Array over a new node.

The types an op gets are worked out once per (op, operand types, default real) and kept;
operands that are arrays of one device and Python floats (or ints and bools where the
operation computes in a float type) take a short path that builds the node from the kept
types directly (PoCL host: ``a + b`` 8.8 -> 4.2 us, ``2.5 * a`` 11.6 -> 5.9).

>>> import weft as wf
>>> wf.apply_op("add", wf.asarray([1, 2]), 3).tolist()
[4, 5]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from . import rewrites
from .array import Array
from .carrying import CARRY_DEPTH, own
from .devices import Device, current_device
from .dtypes import DType
from .ops import OPS, signature
from .traced import TRACED


def _device_of(args: tuple[Any, ...], name: str) -> Device:
    found: Device | None = None
    for a in args:
        if isinstance(a, Array):
            if found is None:
                found = a._device
            elif a._device is not found:
                raise ValueError(
                    f"{name}: operands live on different devices ({found} and {a._device}); "
                    "move one with wf.asarray(x, device=...)"
                )
    return found if found is not None else current_device()


def _strong_dtype(a: Any) -> DType | None:
    if isinstance(a, Array):
        return a.dtype
    if isinstance(a, np.generic):
        return dt.of_numpy_scalar(a)
    return None


def as_operand(value: Any, device: Device) -> Array | Any:
    """An Array for array-likes; Python scalars stay as they are (weak types) and NumPy
    scalars too (strong types), both becoming kernel arguments rather than buffers."""
    if isinstance(value, Array):
        return value
    if isinstance(value, (bool, int, float)) and not isinstance(value, np.generic):
        return value
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        return value
    from .creation import asarray

    return asarray(value, device=device)


_TYPING: dict[tuple, tuple[list[DType], DType, DType]] = {}  # (op, operand types) -> types


def _typing(op: Any, operands: list[Any], explicit: DType | None
            ) -> tuple[list[DType], DType, DType]:
    # A Python scalar takes the type it would have next to the strong operands it combines
    # with (for where: the two value operands, not the condition).
    values = operands[1:] if op.rule == "where" else operands
    strong = [_strong_dtype(a) for a in values if _strong_dtype(a) is not None]
    resolved = [_strong_dtype(a) or dt.resolve(strong, [dt.scalar_kind(a)]) for a in operands]
    return signature(op, resolved, explicit)


def apply_op(name: str, *args: Any, dtype: Any = None) -> Array:
    """``OPS[name]`` over ``args`` (Arrays, array-likes or Python scalars), lazily.

    >>> import weft as wf
    >>> wf.apply_op("add", wf.asarray([1, 2]), 3).tolist()
    [4, 5]
    """
    if dtype is None and 0 < len(args) < 3:
        made = _short_path(name, args)
        if made is not None:
            return made
    return long_path(name, *args, dtype=dtype)


def long_path(name: str, *args: Any, dtype: Any = None) -> Array:
    """``apply_op`` without its short path: every operand kind, dtype= and the rewrites
    (what the short path leaves to it).

    >>> import weft as wf
    >>> long_path("add", wf.asarray([1, 2]), 3, dtype="float64").tolist()
    [4.0, 5.0]
    """
    op = OPS[name]
    if len(args) != op.arity:
        raise TypeError(f"{name} takes {op.arity} argument(s), got {len(args)}")
    device = _device_of(args, name)
    operands = [as_operand(a, device) for a in args]
    explicit = dt.to_dtype(dtype) if dtype is not None else None
    tags = tuple(_strong_dtype(a) or dt.scalar_kind(a) for a in operands)
    key = (name, tags, explicit, dt.default_real())
    typing = _TYPING.get(key)
    if typing is None:
        typing = _TYPING[key] = _typing(op, operands, explicit)
    arg_types, result, compute = typing
    if name == "power" and isinstance(operands[1], (int, float, np.generic)):
        reduced = rewrites.power_by_constant(operands[0], operands[1], compute, device)
        if reduced is not None:
            return reduced
    nodes = []
    for position, (a, want) in enumerate(zip(operands, arg_types)):
        if isinstance(a, Array):
            nodes.append(ex.cast(a._node, want))
        elif isinstance(a, np.generic):
            # A traced NumPy float stays itself: its leaf then names the argument.
            nodes.append(ex.scalar(a if type(a) in TRACED else a.item(), want))
        else:
            if want.kind in "ui" and isinstance(a, int) and not isinstance(a, bool):
                if name in rewrites.COMPARISONS and not dt.int_fits(a, want):
                    return rewrites.compare_beyond_range(name, operands, position, want)
                dt.check_int_fits(a, want)
            nodes.append(ex.scalar(a, want))
    shape = ex.broadcast_shapes(name, *(n.shape for n in nodes))
    node = ex.apply(op, tuple(nodes), result, compute, shape)
    if explicit is not None and result is not explicit and op.rule not in ("predicate",
                                                                           "logical"):
        node = ex.cast(node, explicit)
    return Array(node, device)


# The short path ---------------------------------------------------------------------------

# (op, operand tags, default real) -> (op, the type each operand takes, result, computation
# type), or None where the long path must decide. A tag: an array's dtype, a scalar's type.
_SHORT: dict[tuple, tuple | None] = {}
_PYTHON_SCALARS = (float, int, bool)


def _short_path(name: str, args: tuple[Any, ...]) -> Array | None:
    """The op over arrays of one device and plain Python scalars, from kept types; None
    where the long path must decide (other operands, lazy templates, integer scalars that
    must be range-checked, ``power``'s rewrites, broadcasting errors)."""
    if len(args) == 2:
        return _short_binary(name, args[0], args[1])
    (a,) = args
    if type(a) is not Array or a._deferred is not None:
        return None
    node = a._node
    key = (name, node.dtype, dt._default_real)
    kept = _SHORT.get(key, _MISSING)
    if kept is _MISSING:
        kept = _SHORT[key] = _short_types(name, args)
    if kept is None:
        return None
    op, (want,), result, compute = kept
    if node.dtype is not want:
        node = ex.cast(node, want)
    out = _new_array(Array)
    out._node = node = ex.apply(op, (node,), result, compute, node.shape)
    out._device = a._device
    out._base = out._deferred = out._together = None
    if node.depth >= CARRY_DEPTH:
        own(out)
    return out


def binary(name: str, swapped: bool = False, on_miss: Any = None) -> Any:
    """The function ``(first, second) -> Array`` of the binary op ``name`` over arrays of
    one device and plain Python scalars, from kept types (``swapped``: ``name(second,
    first)``, a reflected dunder); where the long path must decide, ``on_miss(name, a, b)``
    (None: returns None). Made once per op: an Array dunder is one of these, so an operator
    of a loop body or a density costs one Python call (PoCL host: ``x * 1.5`` 2.9 -> 1.6
    us, then 16.9k -> 13k instructions).

    >>> import weft as wf
    >>> binary("add")(wf.asarray([1.0, 2.0]), 1.5).tolist()
    [2.5, 3.5]
    """
    def short(first: Any, second: Any) -> Array | None:
        a, b = (second, first) if swapped else (first, second)
        ta, tb = type(a), type(b)
        if ta is Array:
            if a._deferred is not None:
                return on_miss and on_miss(name, a, b)
            node_a = a._node
            tag_a = node_a.dtype
            device = a._device
            if tb is Array:
                if b._deferred is not None or b._device is not device:
                    return on_miss and on_miss(name, a, b)
                node_b = b._node
                tag_b = node_b.dtype
            elif tb in _PYTHON_SCALARS:
                node_b = None
                tag_b = tb
            else:
                return on_miss and on_miss(name, a, b)
        elif tb is Array and ta in _PYTHON_SCALARS:
            if b._deferred is not None:
                return on_miss and on_miss(name, a, b)
            node_a = None
            tag_a = ta
            node_b = b._node
            tag_b = node_b.dtype
            device = b._device
        else:
            return on_miss and on_miss(name, a, b)
        key = (name, tag_a, tag_b, dt._default_real)
        kept = _SHORT.get(key, _MISSING)
        if kept is _MISSING:
            kept = _SHORT[key] = _short_types(name, (a, b))
        if kept is None:
            return on_miss and on_miss(name, a, b)
        op, (want_a, want_b), result, compute = kept
        # A non-zero number's kept leaf straight from ex.constant's table; zero (whose key
        # tells its sign) and new numbers through ex.constant.
        if node_a is None:
            shape = node_b.shape
            node_a = (a and _kept_constant((a, tag_a, want_a))) or ex.constant(a, want_a)
        else:
            shape = node_a.shape
            if node_a.dtype is not want_a:
                node_a = ex.cast(node_a, want_a)
        if node_b is None:
            node_b = (b and _kept_constant((b, tag_b, want_b))) or ex.constant(b, want_b)
        else:
            if node_b.dtype is not want_b:
                node_b = ex.cast(node_b, want_b)
            if node_b.shape != shape:
                shape = ex.broadcast_shapes(name, shape, node_b.shape)
        # Array.__init__'s work, in line (a map of arrays has their dimensions).
        out = _new_array(Array)
        out._node = node = ex.apply(op, (node_a, node_b), result, compute, shape)
        out._device = device
        out._base = out._deferred = out._together = None
        if node.depth >= CARRY_DEPTH:
            own(out)
        return out

    short.__name__ = short.__qualname__ = name
    return short


def _short_binary(name: str, a: Any, b: Any) -> Array | None:
    """``_short_path`` of two operands (None where the long path must decide)."""
    short = _SHORT_BINARY.get(name)
    if short is None:
        short = _SHORT_BINARY[name] = binary(name)
    return short(a, b)


_SHORT_BINARY: dict[str, Any] = {}
_kept_constant = ex.kept_constant
_new_array = object.__new__


_MISSING = object()


def _short_types(name: str, args: tuple[Any, ...]) -> tuple | None:
    op = OPS.get(name)
    if op is None or len(args) != op.arity or name == "power":
        return None
    arg_types, result, compute = _typing(op, list(args), None)
    for a, want in zip(args, arg_types):
        if type(a) is not Array and want.kind in "uib":
            return None  # an int or bool scalar: range checks and comparisons' rewrites
    return op, tuple(arg_types), result, compute
