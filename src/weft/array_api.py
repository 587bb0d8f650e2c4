"""The array API standard's namespace (2023.12) for what weft has: ``x.__array_namespace__()``.

Most names are weft's own functions, which already follow NumPy (whose names the standard
mostly shares: ``acos``, ``pow``, ``bitwise_left_shift`` are weft aliases too). The functions
whose standard signature differs from NumPy's are adapted here: ``astype``, ``concat``,
``permute_dims``, ``matrix_transpose``, ``std``/``var`` (``correction``), ``sort``/``argsort``
(``descending``, ``stable``), ``cumulative_sum`` (``include_initial``), ``vecdot``,
``expand_dims``, ``squeeze``, ``flip``, ``isdtype``, ``can_cast``, ``finfo``, ``iinfo``.
Arrays have at most 2 dimensions until the n-d issue lands; functions the standard has and
weft does not (FFT, complex numbers) are absent, so
``hasattr(xp, name)`` says what is supported (``real``, ``imag`` and ``conj`` take weft's
real arrays). ``__array_namespace_info__()`` lists the devices and data types. The
``linalg`` extension is ``xp.linalg`` (``array_api_linalg.py``).

>>> import weft as wf
>>> xp = wf.asarray([3.0, 1.0, 2.0]).__array_namespace__()
>>> xp.sort(xp.asarray([3.0, 1.0, 2.0]), descending=True).tolist()
[3.0, 2.0, 1.0]
"""

from __future__ import annotations

import builtins as _py  # max, min, any, all, abs, round and pow are the standard's here
import math
from typing import Any

import numpy as np

import weft as _wf

from . import dtypes as _dt
from .array import Array
from .indexing import checked_axis

__array_api_version__ = "2023.12"

e, inf, nan, pi, newaxis = math.e, math.inf, math.nan, math.pi, None
bool, int32, int64, uint32, float32, float64 = (  # noqa: A001 - the standard's names
    _dt.bool_, _dt.int32, _dt.int64, _dt.uint32, _dt.float32, _dt.float64)

_SAME = (
    "abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift "
    "bitwise_invert bitwise_or bitwise_right_shift bitwise_xor ceil copysign cos cosh "
    "divide equal exp expm1 floor floor_divide greater greater_equal hypot isfinite isinf "
    "isnan less less_equal log log1p log2 log10 logaddexp logical_and logical_not logical_or "
    "logical_xor maximum minimum multiply negative not_equal positive pow remainder round "
    "sign signbit sin sinh square sqrt subtract tan tanh trunc "
    "arange asarray empty empty_like eye from_dlpack full full_like linspace ones ones_like "
    "tril triu zeros zeros_like broadcast_to stack argmax argmin nonzero where max mean min "
    "prod sum all any result_type broadcast_arrays meshgrid moveaxis repeat roll take "
    "tensordot tile unstack unique_all unique_counts unique_inverse unique_values "
    "take_along_axis").split()
globals().update({name: getattr(_wf, name) for name in _SAME})
matmul = _wf.linalg.matmul


def clip(x: Array, /, min: Any = None, max: Any = None) -> Array:  # noqa: A002
    """``x`` limited to [min, max] (either may be None), in ``x``'s type."""
    return _wf.clip(x, min, max)


def diff(x: Array, /, *, axis: int = -1, n: int = 1, prepend: Any = None,
         append: Any = None) -> Array:
    """The ``n``-th differences along ``axis`` (the standard's 2024.12 signature)."""
    return _wf.diff(x, n=n, axis=axis, prepend=prepend, append=append)


def astype(x: Array, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Array:
    """``x`` as ``dtype`` (on ``device`` if given)."""
    out = x.astype(dtype)
    if device is not None:
        out = out.to_device(device)
    return out.copy() if copy and out is x else out


def concat(arrays: Any, /, *, axis: int | None = 0) -> Array:
    """The arrays joined along ``axis`` (flattened first for None)."""
    return _wf.concatenate(list(arrays), axis=axis)


def permute_dims(x: Array, /, axes: tuple[int, ...]) -> Array:
    """The axes of ``x`` in the order ``axes`` (at most 2)."""
    order = tuple(int(a) % _py.max(x.ndim, 1) for a in axes)
    if sorted(order) != list(range(x.ndim)):
        raise ValueError(f"permute_dims: {axes} is not a permutation of {x.ndim} axes")
    return x.T if order == (1, 0) else x


def matrix_transpose(x: Array, /) -> Array:
    """The transpose of a matrix."""
    if x.ndim != 2:
        raise ValueError(f"matrix_transpose needs a matrix, not {x.ndim} dims")
    return x.mT


def reshape(x: Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Array:
    """``x``'s elements in ``shape``."""
    return x.reshape(shape)


def expand_dims(x: Array, /, *, axis: int = 0) -> Array:
    """``x`` with an axis of one inserted at ``axis``."""
    if x.ndim >= 2:
        raise ValueError("expand_dims: weft arrays have at most 2 dims")
    position = int(axis) % (x.ndim + 1)
    return x[None] if position == 0 else x[..., None]


def squeeze(x: Array, /, axis: int | tuple[int, ...]) -> Array:
    """``x`` without the axes of one in ``axis`` (``ndarray.squeeze``)."""
    return x.squeeze(axis)


def flip(x: Array, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """``x`` with the order of its elements along ``axis`` (all axes for None) reversed."""
    axes = range(x.ndim) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    key = [slice(None)] * x.ndim
    for a in axes:
        key[int(a) % x.ndim] = slice(None, None, -1)
    return x[tuple(key)]


def real(x: Array, /) -> Array:
    """The real part: ``x`` itself (weft's arrays are real), as a copy."""
    return x.copy()


def imag(x: Array, /) -> Array:
    """The imaginary part: zeros of ``x``'s type (weft's arrays are real)."""
    return _wf.zeros_like(x)


def conj(x: Array, /) -> Array:
    """The complex conjugate: ``x`` itself (weft's arrays are real), as a copy."""
    return x.copy()


def std(x: Array, /, *, axis: Any = None, correction: float = 0.0,
        keepdims: bool = False) -> Array:
    """The standard deviation, ``correction`` as NumPy's ``ddof``."""
    return _wf.std(x, axis=axis, ddof=correction, keepdims=keepdims)


def var(x: Array, /, *, axis: Any = None, correction: float = 0.0,
        keepdims: bool = False) -> Array:
    """The variance, ``correction`` as NumPy's ``ddof``."""
    return _wf.var(x, axis=axis, ddof=correction, keepdims=keepdims)


def searchsorted(x1: Array, x2: Array, /, *, side: str = "left", sorter: Any = None
                 ) -> Array:
    """Where each value of ``x2`` goes in the sorted 1-D ``x1`` (the standard's names)."""
    return _wf.searchsorted(x1, x2, side=side, sorter=sorter)


def sort(x: Array, /, *, axis: int = -1, descending: bool = False,
         stable: bool = True) -> Array:
    """Sorted along ``axis``; a descending sort keeps equal elements in their order."""
    if not descending:
        return _wf.sort(x, axis=axis)
    return flip(_wf.sort(flip(x, axis=axis), axis=axis), axis=axis)


def argsort(x: Array, /, *, axis: int = -1, descending: bool = False,
            stable: bool = True) -> Array:
    """The positions that sort ``x`` along ``axis`` (equal elements keep their order)."""
    if not descending:
        return _wf.argsort(x, axis=axis)
    size = x.shape[int(axis) % x.ndim]
    return size - 1 - flip(_wf.argsort(flip(x, axis=axis), axis=axis), axis=axis)


cumulative_sum = _wf.cumulative_sum
cumulative_prod = _wf.cumulative_prod


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The dot product of vectors along ``axis`` (real arrays), in the operands' promoted
    type; that axis must have one size in both (it is not broadcast)."""
    sizes = [x.shape[checked_axis("vecdot", axis, x.ndim)] for x in (x1, x2)]
    if sizes[0] != sizes[1]:
        raise ValueError(f"vecdot: shapes {x1.shape} and {x2.shape} differ along axis {axis}")
    return _wf.sum(x1 * x2, axis=axis, dtype=_wf.result_type(x1, x2))


def isdtype(dtype: Any, kind: Any) -> bool:
    """Whether ``dtype`` is of ``kind`` (a dtype, a kind name, or a tuple of them)."""
    if isinstance(kind, tuple):
        return _py.any(isdtype(dtype, k) for k in kind)
    dtype = _dt.to_dtype(dtype)
    if not isinstance(kind, str):
        return dtype == _dt.to_dtype(kind)
    kinds = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
             "real floating": "f", "numeric": "iuf", "complex floating": ""}
    if kind not in kinds:
        raise ValueError(f"isdtype: {kind!r} is not a kind of the array API standard")
    return dtype.kind in kinds[kind] if kinds[kind] else False


def can_cast(from_: Any, to: Any, /) -> bool:
    """Whether the standard's promotion casts ``from_`` to ``to`` without loss."""
    source = from_.dtype if isinstance(from_, Array) else _dt.to_dtype(from_)
    return _py.bool(np.can_cast(source.numpy, _dt.to_dtype(to).numpy, casting="safe"))


def finfo(type: Any, /) -> Any:  # noqa: A002 - the standard's name
    """The limits of a floating type (NumPy's ``finfo``)."""
    return np.finfo(_dt.to_dtype(type.dtype if isinstance(type, Array) else type).numpy)


def iinfo(type: Any, /) -> Any:  # noqa: A002 - the standard's name
    """The limits of an integer type (NumPy's ``iinfo``)."""
    return np.iinfo(_dt.to_dtype(type.dtype if isinstance(type, Array) else type).numpy)


_DTYPE_NAMES = ("bool", "int32", "int64", "uint32", "float32", "float64")


class _Info:
    """What this namespace offers (the standard's inspection API)."""

    def capabilities(self) -> dict[str, Any]:
        """Boolean-mask reads and data-dependent shapes (``x[mask]``, ``nonzero``) work;
        arrays have at most 2 dimensions."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 2}

    def default_device(self) -> Any:
        return _wf.current_device()

    def devices(self) -> list[Any]:
        """weft's devices, and the current one where it is not among them (the reference
        interpreter, chosen by name)."""
        found = list(_wf.devices())
        current = _wf.current_device()
        return found if current in found else [*found, current]

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        """The default real and integer types; weft has no complex types (None)."""
        return {"real floating": _dt.default_real(), "complex floating": None,
                "integral": int64, "indexing": int64}

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]:
        """The data types, by name, of ``kind`` (as ``isdtype``'s; every one when None).
        A device without float64 has no float64."""
        found = {name: globals()[name] for name in _DTYPE_NAMES}
        target = _wf.current_device() if device is None else device
        if not target.supports_fp64:
            del found["float64"]
        if kind is None:
            return found
        return {name: d for name, d in found.items() if isdtype(d, kind)}


def __array_namespace_info__() -> _Info:  # noqa: N807 - the standard's name
    """The standard's inspection object: capabilities, devices and data types.

    >>> import weft as wf
    >>> xp = wf.asarray([1.0]).__array_namespace__()
    >>> sorted(xp.__array_namespace_info__().dtypes(kind="real floating"))
    ['float32', 'float64']
    """
    return _Info()


def namespace(self: Array, /, *, api_version: str | None = None) -> Any:
    """This module: the array API namespace of weft arrays (2023.12)."""
    import sys

    if api_version not in (None, "2023.12", "2022.12"):
        raise ValueError(f"weft follows the array API standard 2023.12, not {api_version!r}")
    return sys.modules[__name__]


Array.__array_namespace__ = namespace  # type: ignore[attr-defined]

from . import array_api_linalg as linalg  # noqa: E402, F401 - it uses this namespace
