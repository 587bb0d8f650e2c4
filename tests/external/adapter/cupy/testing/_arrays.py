"""CuPy's array makers and assertions, on weft arrays (weft's values come to the host)."""

from __future__ import annotations

import contextlib
import math
import warnings
from typing import Any

import numpy
import numpy.testing

import cupy


def _host(x: Any) -> Any:
    return numpy.asarray(x) if isinstance(x, cupy.ndarray) else x


def _made(host: numpy.ndarray, xp: Any, order: str = "C") -> Any:
    if xp is numpy:
        return numpy.array(host, order=order)
    return cupy.array(host)


def shaped_arange(shape: Any, xp: Any = cupy, dtype: Any = numpy.float32,
                  order: str = "C") -> Any:
    """1..N in ``shape``; booleans are the evens."""
    dtype = numpy.dtype(dtype)
    values = numpy.arange(1, math.prod(shape) + 1)
    if dtype == numpy.bool_:
        values = values % 2 == 0
    elif dtype.kind == "c":
        values = values + values * 1j
    return _made(values.astype(dtype).reshape(shape), xp, order)


def shaped_reverse_arange(shape: Any, xp: Any = cupy, dtype: Any = numpy.float32) -> Any:
    """N..1 in ``shape``; booleans are the evens."""
    dtype = numpy.dtype(dtype)
    values = numpy.arange(math.prod(shape), 0, -1)
    if dtype == numpy.bool_:
        values = values % 2 == 0
    elif dtype.kind == "c":
        values = values + values * 1j
    return _made(values.astype(dtype).reshape(shape), xp)


def shaped_random(shape: Any, xp: Any = cupy, dtype: Any = numpy.float32, scale: float = 10,
                  seed: int = 0, order: str = "C") -> Any:
    """Uniform draws in [0, scale) (booleans fair coins), the same for NumPy and weft."""
    rng = numpy.random.RandomState(seed)
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        values = rng.randint(2, size=shape)
    elif dtype.kind == "c":
        values = (rng.rand(*shape) + 1j * rng.rand(*shape)) * scale
    else:
        values = rng.rand(*shape) * scale
    return _made(numpy.asarray(values, dtype=dtype), xp, order)


def shaped_linspace(start: float, stop: float, shape: Any, xp: Any = cupy,
                    dtype: Any = numpy.float32) -> Any:
    """An even spacing of [start, stop] in ``shape`` (clipped to the dtype's range)."""
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        start, stop = max(start, 0), min(stop, 1)
    elif dtype.kind == "u":
        start = max(start, 0)
    values = numpy.linspace(start, stop, int(numpy.prod(shape)))
    return _made(values.astype(dtype).reshape(shape), xp)


def assert_allclose(actual: Any, desired: Any, rtol: float = 1e-7, atol: float = 0,
                    equal_nan: bool = True, err_msg: str = "", verbose: bool = True,
                    *, strict: bool = False) -> None:
    numpy.testing.assert_allclose(_host(actual), _host(desired), rtol=rtol, atol=atol,
                                  equal_nan=equal_nan, err_msg=err_msg, verbose=verbose,
                                  strict=strict)


def assert_array_almost_equal(actual: Any, desired: Any, decimal: int = 6,
                              err_msg: str = "", verbose: bool = True) -> None:
    numpy.testing.assert_array_almost_equal(_host(actual), _host(desired), decimal=decimal,
                                            err_msg=err_msg, verbose=verbose)


def assert_array_equal(actual: Any, desired: Any, err_msg: str = "", verbose: bool = True,
                       strides_check: bool = False, **kwargs: Any) -> None:
    numpy.testing.assert_array_equal(_host(actual), _host(desired), err_msg=err_msg,
                                     verbose=verbose, **kwargs)


def assert_array_less(x: Any, y: Any, err_msg: str = "", verbose: bool = True,
                      *, strict: bool = False) -> None:
    numpy.testing.assert_array_less(_host(x), _host(y), err_msg=err_msg, verbose=verbose)


def assert_array_list_equal(xlist: Any, ylist: Any, err_msg: str = "",
                            verbose: bool = True) -> None:
    assert len(xlist) == len(ylist), f"lists of {len(xlist)} and {len(ylist)} arrays"
    for x, y in zip(xlist, ylist):
        numpy.testing.assert_array_equal(_host(x), _host(y), err_msg=err_msg, verbose=verbose)


@contextlib.contextmanager
def assert_warns(expected: type) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    if not any(isinstance(w.message, expected) for w in caught):
        raise AssertionError(f"{getattr(expected, '__name__', expected)} not raised")
