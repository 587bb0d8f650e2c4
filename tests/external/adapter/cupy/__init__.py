"""A ``cupy`` module made of weft, for running CuPy's own tests unchanged against weft.

CuPy's tests call ``cupy.<name>`` (or ``xp.<name>`` with ``xp`` this module) and compare
the result with ``numpy.<name>``. Here ``cupy.<name>`` is ``weft.<name>``; the few names that
are CuPy's own (``array``, ``asnumpy``, ``ndarray``, ``fuse``) map to weft's equivalents;
dtype names are NumPy's scalar types, as in CuPy. A name weft does not have raises
``AttributeError`` and the test fails: a missing function counts against weft.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy

import weft

from . import _core, cuda, exceptions, testing  # noqa: F401

ndarray = weft.Array
ufunc = numpy.ufunc
newaxis = None
pi, e, inf, nan, euler_gamma = numpy.pi, numpy.e, numpy.inf, numpy.nan, numpy.euler_gamma
dtype = numpy.dtype
integer, floating, number = numpy.integer, numpy.floating, numpy.number
for _name in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64", "float16", "float32", "float64", "complex64", "complex128",
              "intp", "uintp", "byte", "short", "intc", "int_", "longlong", "ubyte",
              "ushort", "uintc", "ulonglong", "half", "single", "double", "csingle",
              "cdouble", "generic"):
    if hasattr(numpy, _name):
        globals()[_name] = getattr(numpy, _name)
bool = numpy.bool_  # noqa: A001 (CuPy's name)


def array(obj: Any, dtype: Any = None, copy: Any = True, order: str = "K",
          subok: bool = False, ndmin: int = 0, *, blocking: bool = False) -> weft.Array:
    """``cupy.array``: weft.asarray of NumPy's array of ``obj`` (a weft array stays one)."""
    if isinstance(obj, weft.Array):
        result = weft.asarray(obj, dtype=dtype)
        return result if not copy else result.copy()
    host = numpy.array(obj, dtype=dtype, ndmin=ndmin)
    if dtype is None and host.dtype == numpy.float16:
        host = host.astype(numpy.float32)
    return weft.asarray(host)


def asarray(a: Any, dtype: Any = None, order: Any = None, *, blocking: bool = False,
            device: Any = None, copy: Any = None) -> weft.Array:
    """``cupy.asarray``."""
    if isinstance(a, weft.Array):
        return weft.asarray(a, dtype=dtype)
    return weft.asarray(numpy.asarray(a, dtype=dtype))


def asnumpy(a: Any, stream: Any = None, order: str = "C", out: Any = None,
            *, blocking: bool = True) -> numpy.ndarray:
    """``cupy.asnumpy``: the values on the host."""
    return numpy.asarray(a)


def get_array_module(*args: Any) -> Any:
    """``cupy.get_array_module``: this module if any argument is a weft array, else NumPy."""
    import sys

    return sys.modules[__name__] if any(isinstance(a, weft.Array) for a in args) else numpy


def fuse(*args: Any, **kwargs: Any) -> Any:
    """``cupy.fuse``: weft's traced function (one kernel per call signature) for weft
    arguments; without any, the plain function, as CuPy's fuse runs NumPy arguments."""
    def wrap(function: Any) -> Any:
        traced = weft.function(function)

        @functools.wraps(function)
        def call(*call_args: Any, **call_kwargs: Any) -> Any:
            if any(isinstance(a, weft.Array) for a in (*call_args, *call_kwargs.values())):
                return traced(*call_args, **call_kwargs)
            return function(*call_args, **call_kwargs)

        return call

    if len(args) == 1 and callable(args[0]) and not kwargs:
        return wrap(args[0])
    return wrap


class _MemoryPool:
    """CuPy's memory pools are CuPy's business: freeing them is nothing here."""

    def free_all_blocks(self) -> None:
        return None


def get_default_memory_pool() -> _MemoryPool:
    return _MemoryPool()


get_default_pinned_memory_pool = get_default_memory_pool


def __getattr__(name: str) -> Any:
    try:
        return getattr(weft, name)
    except AttributeError:
        raise AttributeError(f"weft has no {name!r} (cupy.{name} in CuPy's tests)") from None
