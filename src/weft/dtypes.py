"""weft's dtypes, the promotion order and the default real.

Promotion follows NumBirch, not NumPy: the order is bool < int32 < int64 < float32 < float64
and the result is the highest present, so an integer array with a float32 array gives float32.
Python scalars are *weak*: they adopt the array's dtype within their kind.
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True, eq=False)
class DType:
    """One element type. ``kind`` is ``"b"`` (bool), ``"u"``, ``"i"`` or ``"f"``.

    The six module constants are the only instances (a pickled one comes back as its
    constant), so equality between them and hashing are identity's: structural keys hold a
    dtype per node and are hashed on every call. A weft dtype also equals what NumPy takes
    for its NumPy dtype (``wf.float64 == np.float64 == np.dtype("float64") == "float64"``),
    and ``np.dtype(wf.float64)`` is ``np.dtype("float64")`` (through ``.dtype``).

    >>> import numpy as np, weft as wf
    >>> wf.float64 == np.float64, np.dtype("int32") == wf.int32, np.dtype(wf.float32)
    (True, True, dtype('float32'))
    """

    name: str
    numpy: np.dtype
    kind: str
    rank: int
    short: str  # suffix for generated helper names, e.g. ``f64``

    @property
    def itemsize(self) -> int:
        return self.numpy.itemsize

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def is_integer(self) -> bool:
        return self.kind in "ui"

    @property
    def dtype(self) -> np.dtype:
        """The NumPy dtype (what ``np.dtype(x)`` reads of an object that is not one)."""
        return self.numpy

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DType):
            return self is other
        if other is None:  # np.dtype(None) is float64: None is no dtype here
            return False
        try:
            return bool(self.numpy == np.dtype(other))
        except (TypeError, ValueError):
            return NotImplemented

    __hash__ = object.__hash__  # identity, as equality among weft dtypes

    def __repr__(self) -> str:
        return f"wf.{self.name}"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return _constant, (self.name,)

    def __str__(self) -> str:
        return self.name


bool_ = DType("bool", np.dtype(np.bool_), "b", 0, "b8")
uint32 = DType("uint32", np.dtype(np.uint32), "u", 1, "u32")
int32 = DType("int32", np.dtype(np.int32), "i", 1, "i32")
int64 = DType("int64", np.dtype(np.int64), "i", 2, "i64")
float32 = DType("float32", np.dtype(np.float32), "f", 3, "f32")
float64 = DType("float64", np.dtype(np.float64), "f", 4, "f64")

ALL: tuple[DType, ...] = (bool_, uint32, int32, int64, float32, float64)
_BY_NAME = {d.name: d for d in ALL} | {"bool_": bool_}


def _constant(name: str) -> DType:
    return _BY_NAME[name]


_BY_NUMPY = {d.numpy: d for d in ALL}
# NumPy scalars of these types act as the wider weft type of their kind (as NumPy's own
# promotion would with an array of that type); arrays of them are refused (``unsupported``).
_WIDENED = {
    np.dtype(np.int8): int32,
    np.dtype(np.int16): int32,
    np.dtype(np.uint8): int32,
    np.dtype(np.uint16): int32,
    np.dtype(np.float16): float32,
}


def _initial_default_real() -> DType:
    name = os.environ.get("WEFT_REAL", "float64")
    if name not in ("float32", "float64"):
        raise ValueError(f"WEFT_REAL must be float32 or float64, not {name!r}")
    return _BY_NAME[name]


_default_real = _initial_default_real()


def default_real() -> DType:
    """The real type used where integers need a real result (``sqrt(4)``, ``1 / 2``).

    >>> import weft as wf
    >>> wf.default_real()
    wf.float64
    """
    return _default_real


def set_default_real(dtype: Any) -> None:
    """Set the default real to ``wf.float32`` or ``wf.float64`` (also ``WEFT_REAL``).

    >>> import weft as wf
    >>> wf.set_default_real(wf.float32); wf.set_default_real(wf.float64)
    """
    global _default_real
    d = to_dtype(dtype)
    if not d.is_float:
        raise TypeError(f"the default real must be float32 or float64, not {d}")
    _default_real = d


def to_dtype(spec: Any) -> DType:
    """Convert a dtype-like value (``wf.float32``, ``"float32"``, ``np.float32``, ``float``).

    >>> import weft as wf
    >>> wf.to_dtype("int32")
    wf.int32
    """
    if isinstance(spec, DType):
        return spec
    if spec is bool:
        return bool_
    if spec is int:
        return int64
    if spec is float:
        return _default_real
    if isinstance(spec, str) and spec in _BY_NAME:
        return _BY_NAME[spec]
    try:
        npd = np.dtype(spec)
    except TypeError:
        raise TypeError(f"not a dtype weft supports: {spec!r}") from None
    return from_numpy_dtype(npd)


def unsupported(npd: np.dtype) -> TypeError:
    """The error for data or a dtype weft does not hold: never converted behind the user's
    back."""
    return TypeError(
        f"weft has no {npd} arrays: it holds bool, int32, int64, uint32, float32 and float64. "
        f"Say which to use, e.g. wf.asarray(data, dtype=wf.int32) or "
        f"np.asarray(data, dtype=np.float32)")


def from_numpy_dtype(npd: Any) -> DType:
    """The weft dtype of NumPy data of type ``npd``, in either byte order; ``TypeError``
    (``unsupported``) for types weft does not hold.

    >>> import numpy as np, weft as wf
    >>> wf.dtypes.from_numpy_dtype(np.dtype(">f8"))
    wf.float64
    """
    npd = np.dtype(npd)
    if not npd.isnative:
        npd = npd.newbyteorder("=")
    found = _BY_NUMPY.get(npd)
    if found is None:
        raise unsupported(npd)
    return found


def of_numpy_scalar(value: np.generic) -> DType:
    """The weft dtype a NumPy scalar operand acts as: its own, or for narrow types (int8,
    uint16, float16, ...) the weft type of its kind that holds every value of it."""
    npd = value.dtype
    return _WIDENED.get(npd) or from_numpy_dtype(npd)


def promote(a: DType, b: DType) -> DType:
    """Promote two strong dtypes: the higher in bool < int32 < int64 < float32 < float64."""
    if a is b:
        return a
    if a is uint32 or b is uint32:
        other = b if a is uint32 else a
        if other is bool_:
            return uint32
        if other.kind == "i":
            return int64  # every uint32 and every int32 fit in int64
        return other
    return a if a.rank >= b.rank else b


class Weak:
    """A Python scalar's type: a kind without a width, resolved against strong dtypes."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind


KIND_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2}


def scalar_kind(value: Any) -> str:
    """``"b"``, ``"i"`` or ``"f"`` for a Python scalar; ``TypeError`` for anything else."""
    if isinstance(value, (bool, np.bool_)):
        return "b"
    if isinstance(value, int):
        return "i"
    if isinstance(value, (float, np.floating)):  # (a NumPy float a density takes as weak)
        return "f"
    raise TypeError(f"unsupported operand type {type(value).__name__}: {value!r}")


def resolve(strong: list[DType], weak_kinds: list[str]) -> DType:
    """The result type of strong dtypes and weak Python-scalar kinds (API.md section 2)."""
    result: DType | None = None
    for d in strong:
        result = d if result is None else promote(result, d)
    for kind in weak_kinds:
        if result is None:
            result = {"b": bool_, "i": int64, "f": _default_real}[kind]
        elif KIND_ORDER[kind] > KIND_ORDER[result.kind]:
            result = int64 if kind == "i" else _default_real
    if result is None:
        raise TypeError("result_type needs at least one argument")
    return result


def real_of(d: DType) -> DType:
    """The real type a function of ``d`` computes in: ``d`` itself if real, else the default."""
    return d if d.is_float else _default_real


def as_int(value: Any, what: str) -> int:
    """``value`` as a Python int, where an integer is required (a size, an offset, an axis):
    ints and NumPy integers; anything else raises ``TypeError`` naming ``what``, as NumPy does
    (a float is never truncated, a string never parsed).

    >>> import weft as wf
    >>> wf.dtypes.as_int(3, "k")
    3
    """
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__} "
                        f"{value!r}") from None


def int_fits(value: int, d: DType) -> bool:
    """Whether integer type ``d`` holds the Python int ``value``."""
    info = np.iinfo(d.numpy)
    return bool(info.min <= value <= info.max)


def check_int_fits(value: int, d: DType) -> None:
    """NumPy 2 raises for a Python int that the array's integer type cannot hold (outside
    comparisons); so do we."""
    if not int_fits(value, d):
        raise OverflowError(f"Python integer {value} out of bounds for {d}")
