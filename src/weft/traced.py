"""Run-time values of a traced function's trace (``wf.function``): a float argument that
remembers which argument it is, and a count of the host work a trace must not do.

A ``TracedFloat`` is the float itself (every function that takes a float takes it), so the
trace computes the call's true result. The scalar leaves made from it name it as their
origin (``expr.scalar``), which is how a plan finds where each kernel argument comes from.
Python arithmetic or a comparison on it means the function's structure may depend on the
value: it then counts as static (part of the signature), and a new value retraces.

>>> x = TracedFloat(1.5, 0)
>>> x + 1.0, x.host_used
(2.5, True)
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

# The float methods through which a value reaches host control flow or host arithmetic.
_HOST_USES = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
              "__rmod__", "__divmod__", "__rdivmod__", "__pow__", "__rpow__", "__neg__",
              "__pos__", "__abs__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__",
              "__ne__", "__bool__", "__int__", "__round__", "__trunc__", "__floor__",
              "__ceil__", "is_integer", "as_integer_ratio")


class _Traced:
    """What a traced scalar keeps beside its value: its place among the arguments
    (``position``), whether host Python used its value (``host_used``), and the host checks
    a library made of it (``checks``: replayed on every later call)."""

    __slots__ = ()
    _base: type = object  # the plain type it is a value of

    def __new__(cls, value: Any, position: int) -> Any:
        self = cls._base.__new__(cls, value)
        self.position = position
        self.host_used = False
        self.checks: list[tuple[Any, ...]] = []
        return self

    def __hash__(self) -> int:
        return self._base.__hash__(self)

    def __reduce__(self) -> tuple:
        return self._base, (plain(self),)


class TracedFloat(_Traced, float):
    """A float argument of a traced function (or of a library function whose template is
    captured) during its trace: the float itself (``_Traced``)."""

    __slots__ = ("position", "host_used", "checks")
    _base = float


def _host_use(name: str, base: type = float) -> Any:
    method = getattr(base, name)
    # The plain value, counting no use: float's and int's own conversion, or a NumPy
    # scalar's constructor, which copies the value without calling a method of it.
    value_of = getattr(base, f"__{base.__name__}__", base)

    def use(self: Any, *args: Any) -> Any:
        result = method(value_of(self), *args)
        if result is not NotImplemented:  # else Python asks the other operand (an Array)
            self.host_used = True
        return result

    use.__name__ = name
    return use


for _name in _HOST_USES:
    setattr(TracedFloat, _name, _host_use(_name))


class TracedInt(_Traced, int):
    """An int argument of a library function while its template is captured (``stats``):
    the int itself (``_Traced``). (No slots: an int subclass cannot have them.)"""

    _base = int


# An int's host uses: arithmetic, comparisons and its conversions (a size, an index, a
# range: all structure); weft makes a kernel's leaf of it with ``plain``, which counts none.
for _name in (*_HOST_USES, "__index__", "__float__"):
    if _name not in ("is_integer", "as_integer_ratio") and hasattr(int, _name):
        setattr(TracedInt, _name, _host_use(_name, int))

def _numpy_traced(base: type, doc: str) -> type:
    """A traced NumPy scalar type over ``base``: the members ``_Traced`` gives a Python
    scalar, set on a class of NumPy's scalar alone (a mixin base ahead of a NumPy scalar
    type breaks its memory layout: NumPy then crashes converting it)."""
    def new(cls: type, value: Any, position: int) -> Any:
        self = base.__new__(cls, value)
        self.position = position
        self.host_used = False
        self.checks = []
        return self

    members = {"__slots__": ("position", "host_used", "checks"), "__doc__": doc,
               "_base": base, "__new__": new, "__hash__": lambda self: base.__hash__(self),
               "__reduce__": lambda self: (base, (base(self),))}
    traced = type(f"Traced{base.__name__.capitalize()}", (base,), members)
    for name in _HOST_USES:
        if hasattr(base, name):
            setattr(traced, name, _host_use(name, base))
    return traced


TracedFloat64 = _numpy_traced(np.float64, "A NumPy float64 argument of a traced function "
                              "during its trace: the NumPy scalar itself (a strong float64, "
                              "as NumPy 2 types it), which names its argument position.")
TracedFloat32 = _numpy_traced(np.float32, "A NumPy float32 argument of a traced function "
                              "during its trace (``TracedFloat64``).")

TRACED = (TracedFloat, TracedInt, TracedFloat64, TracedFloat32)  # traced scalar arguments
# A traced function's run-time float arguments, by type: what traces each.
FLOAT_TRACERS: dict[type, type] = {float: TracedFloat, np.float64: TracedFloat64,
                                   np.float32: TracedFloat32}
TRACED_FLOATS = (TracedFloat, TracedFloat64, TracedFloat32)


def plain(value: Any) -> Any:
    """A traced scalar's value as a plain scalar of its type, without counting a host use
    (what weft itself reads of it: a kernel argument's value, a replayed check)."""
    kind = type(value)
    if kind is TracedInt:
        return int.__int__(value)
    if kind is TracedFloat:
        return float.__float__(value)
    if kind is TracedFloat64 or kind is TracedFloat32:
        return kind._base(value)
    return value


class _Activity(threading.local):
    """Evaluations and host reads the calling thread has made (a running count), and how
    many traced functions it is tracing (a traced function called inside another's trace
    runs as plain Python: it becomes part of the outer expression)."""

    count = 0
    tracing = 0


ACTIVITY = _Activity()


def note_activity() -> None:
    """Count an evaluation or a host read on the calling thread: a trace that makes one
    depends on computed values, so its function is not replayed (``wf.function``)."""
    ACTIVITY.count += 1
