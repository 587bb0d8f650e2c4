"""CuPy's dtype and layout loops, over weft's dtypes only.

A loop runs the body once per dtype (as CuPy's do) and skips a dtype that turns out outside
weft's scope; when every dtype is skipped, the test is.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import random
from collections.abc import Callable, Iterable
from typing import Any

import numpy
import pytest

from ._scope import WEFT_DTYPES, in_weft

_FLOATS = (numpy.float64, numpy.float32)
_SIGNED = (numpy.int32, numpy.int64)
_UNSIGNED = (numpy.uint32,)
_INTS = _SIGNED + _UNSIGNED


def hide_parameters(test_func: Callable, impl: Callable, names: Iterable[str | None]
                    ) -> Callable:
    """``test_func`` with ``impl``'s signature less ``names`` (the arguments a decorator
    supplies), so pytest asks no fixture for them."""
    sig, hidden = inspect.signature(impl), set(names)
    test_func.__signature__ = sig.replace(
        parameters=[p for p in sig.parameters.values() if p.name not in hidden])
    return test_func


def _loop(cases: list[dict[str, Any]], names: tuple[str, ...]) -> Callable:
    def decorator(impl: Callable) -> Callable:
        @functools.wraps(impl)
        def test_func(*args: Any, **kw: Any) -> None:
            skipped = []
            for case in cases:
                try:
                    impl(*args, **dict(kw, **case))
                except pytest.skip.Exception as reason:
                    skipped.append(str(reason))
                except Exception as error:
                    if hasattr(error, "add_note"):  # Python 3.11+
                        error.add_note(f"with {case}")
                    raise
            if len(skipped) == len(cases):
                pytest.skip(skipped[0] if skipped else "no dtype in weft's scope")
        return hide_parameters(test_func, impl, names)
    return decorator


def for_dtypes(dtypes: Iterable[Any], name: str = "dtype") -> Callable:
    kept = [numpy.dtype(d).type for d in dtypes if in_weft(d)]
    return _loop([{name: d} for d in dict.fromkeys(kept)], (name,))


def _all(no_bool: bool) -> tuple:
    return _FLOATS + _INTS + (() if no_bool else (numpy.bool_,))


def for_all_dtypes(name: str = "dtype", no_float16: bool = False, no_bool: bool = False,
                   no_complex: bool = False) -> Callable:
    return for_dtypes(_all(no_bool), name)


def for_float_dtypes(name: str = "dtype", no_float16: bool = False) -> Callable:
    return for_dtypes(_FLOATS, name)


def for_signed_dtypes(name: str = "dtype") -> Callable:
    return for_dtypes(_SIGNED, name)


def for_unsigned_dtypes(name: str = "dtype") -> Callable:
    return for_dtypes(_UNSIGNED, name)


def for_int_dtypes(name: str = "dtype", no_bool: bool = False) -> Callable:
    return for_dtypes(_INTS + (() if no_bool else (numpy.bool_,)), name)


def for_complex_dtypes(name: str = "dtype") -> Callable:
    return for_dtypes((), name)


def for_dtypes_combination(types: Iterable[Any], names: tuple[str, ...] = ("dtype",),
                           full: bool | None = None) -> Callable:
    """Combinations of weft's dtypes for ``names``: all when ``full``, else (as CuPy does)
    each dtype at least once in each place, paired by a fixed shuffle."""
    kept = list(dict.fromkeys(numpy.dtype(t).type for t in types if in_weft(t)))
    if len(names) == 1:
        return for_dtypes(kept, names[0])
    if full:
        combos = list(itertools.product(kept, repeat=len(names)))
    else:
        shuffle = random.Random(0)
        columns = []
        for _ in names:
            shuffled = kept[:]
            shuffle.shuffle(shuffled)
            columns.append(kept + shuffled)
        combos = list(dict.fromkeys(zip(*columns)))
    return _loop([dict(zip(names, c)) for c in combos], tuple(names))


def for_all_dtypes_combination(names: tuple[str, ...] = ("dtyes",), no_float16: bool = False,
                               no_bool: bool = False, full: bool | None = None,
                               no_complex: bool = False) -> Callable:
    return for_dtypes_combination(_all(no_bool), names, full)


def for_signed_dtypes_combination(names: tuple[str, ...] = ("dtype",),
                                  full: bool | None = None) -> Callable:
    return for_dtypes_combination(_SIGNED, names, full)


def for_unsigned_dtypes_combination(names: tuple[str, ...] = ("dtype",),
                                    full: bool | None = None) -> Callable:
    return for_dtypes_combination(_UNSIGNED, names, full)


def for_int_dtypes_combination(names: tuple[str, ...] = ("dtype",), no_bool: bool = False,
                               full: bool | None = None) -> Callable:
    return for_dtypes_combination(_INTS + (() if no_bool else (numpy.bool_,)), names, full)


def for_orders(orders: Iterable[Any], name: str = "order") -> Callable:
    return _loop([{name: o} for o in orders], (name,))


def for_CF_orders(name: str = "order") -> Callable:  # noqa: N802 (CuPy's name)
    return for_orders([None, "C", "F", "c", "f"], name)


def for_contiguous_axes(name: str = "axis") -> Callable:
    """Each run of trailing or leading axes, as CuPy's (``self.shape`` gives the rank)."""
    def decorator(impl: Callable) -> Callable:
        @functools.wraps(impl)
        def test_func(self: Any, *args: Any, **kw: Any) -> None:
            ndim = len(self.shape)
            axes = [tuple(range(i, ndim)) for i in range(ndim)]
            axes += [tuple(range(0, i)) for i in range(1, ndim)]
            _loop([{name: a} for a in axes], (name,))(impl)(self, *args, **kw)
        return hide_parameters(test_func, impl, (name,))
    return decorator


assert set(map(numpy.dtype, _all(False))) == set(WEFT_DTYPES)
