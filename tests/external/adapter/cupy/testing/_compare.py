"""CuPy's numpy_cupy_* decorators: run the test body with ``xp=numpy`` and with ``xp`` the
weft-made ``cupy``, then compare what they return (or the errors they raise)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import cupyx
import numpy
import numpy.testing
import pytest
import scipy

import cupy

from ._dtypes import hide_parameters
from ._scope import in_weft, outside_scope

# The error classes NumPy and weft must agree on when both raise (CuPy's list).
_COMPATIBLE = (AttributeError, IndexError, TypeError, ValueError, NotImplementedError,
               DeprecationWarning, numpy.exceptions.AxisError, numpy.linalg.LinAlgError)


def _run(impl: Callable, args: tuple, kw: dict, module: Any, names: tuple) -> tuple:
    name, scipy_name = names
    kw = dict(kw, **{name: module})
    if scipy_name:
        kw[scipy_name] = cupyx.scipy if module is cupy else scipy
    try:
        return impl(*args, **kw), None
    except (Exception, pytest.skip.Exception) as error:  # noqa: BLE001 (compared below)
        if error.__traceback__.tb_next is None:
            raise
        return None, error


def _compare_errors(weft_error: BaseException | None, numpy_error: BaseException | None,
                    accept_error: Any) -> None:
    if isinstance(weft_error, pytest.skip.Exception) and isinstance(
            numpy_error, pytest.skip.Exception):
        raise numpy_error
    if accept_error is True:
        accept_error = Exception
    elif not accept_error:
        accept_error = ()
    if weft_error is None:
        raise AssertionError(f"only NumPy raised: {numpy_error!r}") from numpy_error
    if numpy_error is None:
        raise AssertionError(f"only weft raised: {weft_error!r}") from weft_error
    if any(isinstance(weft_error, c) != isinstance(numpy_error, c) for c in _COMPATIBLE):
        raise AssertionError(f"different errors: weft {weft_error!r}, NumPy "
                             f"{numpy_error!r}") from weft_error
    if not (isinstance(weft_error, accept_error) and isinstance(numpy_error, accept_error)):
        raise AssertionError(f"both raised: weft {weft_error!r}, NumPy "
                             f"{numpy_error!r}") from weft_error


def _pair(weft_out: Any, numpy_out: Any) -> tuple[Any, Any]:
    """The two results as arrays, after CuPy's rules on the kinds of result."""
    if isinstance(weft_out, cupy.ndarray) and isinstance(numpy_out, (numpy.ndarray,
                                                                     numpy.generic)):
        return numpy.asarray(weft_out), numpy_out
    if isinstance(weft_out, numpy.generic) and isinstance(numpy_out, numpy.generic):
        return weft_out, numpy_out
    if numpy.isscalar(weft_out) and numpy.isscalar(numpy_out):
        return numpy.array(weft_out), numpy.array(numpy_out)
    raise AssertionError(f"different kinds of result: weft {type(weft_out).__name__}, "
                         f"NumPy {type(numpy_out).__name__}")


def _weft_promotion(w: Any, n: Any) -> bool:
    """Whether the dtypes differ as weft's documented promotion says they may: float32 where
    NumPy's float64 comes from mixing float32 with integers (the values are still checked,
    at float32's precision, before the case is marked)."""
    return numpy.dtype(w.dtype) == numpy.float32 and n.dtype == numpy.float64


def _checked(check: Callable[[Any, Any], None], names: tuple, type_check: bool,
             accept_error: Any) -> Callable:
    def decorator(impl: Callable) -> Callable:
        @functools.wraps(impl)
        def test_func(*args: Any, **kw: Any) -> None:
            numpy_out, numpy_error = _run(impl, args, kw, numpy, names)
            for n in numpy_out if isinstance(numpy_out, (tuple, list)) else (numpy_out,):
                if hasattr(n, "dtype") and not in_weft(n.dtype):
                    pytest.skip(f"outside weft's scope: NumPy's result is {n.dtype}")
            weft_out, weft_error = _run(impl, args, kw, cupy, names)
            if weft_error is not None and (reason := outside_scope(weft_error)):
                pytest.skip(reason)
            if weft_error is not None or numpy_error is not None:
                _compare_errors(weft_error, numpy_error, accept_error)
                return
            weft_outs = weft_out if isinstance(weft_out, (tuple, list)) else (weft_out,)
            numpy_outs = numpy_out if isinstance(numpy_out, (tuple, list)) else (numpy_out,)
            assert len(weft_outs) == len(numpy_outs), "different numbers of results"
            for w, n in zip(weft_outs, numpy_outs):
                w, n = _pair(w, n)
                if type_check and numpy.dtype(w.dtype) != n.dtype:
                    if _weft_promotion(w, n):
                        check(w, n.astype(numpy.float32))
                        pytest.xfail("weft's promotion (API.md: an integer array with a "
                                     "float32 array gives float32; NumPy gives float64)")
                    raise AssertionError(f"dtypes differ: weft {w.dtype}, NumPy {n.dtype}")
                assert w.shape == n.shape, f"shapes differ: weft {w.shape}, NumPy {n.shape}"
                check(w, n)

        return hide_parameters(test_func, impl, names)
    return decorator


def _tolerance(tol: Any, dtype: numpy.dtype) -> float:
    if isinstance(tol, dict):
        found = tol.get(dtype.type, tol.get("default"))
        if found is None:
            raise TypeError(f"no tolerance for {dtype}")
        return found
    return tol


def numpy_cupy_allclose(rtol: Any = 1e-7, atol: Any = 0, err_msg: str = "",
                        verbose: bool = True, name: str = "xp", type_check: bool = True,
                        accept_error: Any = False, sp_name: str | None = None,
                        scipy_name: str | None = None, contiguous_check: bool = True,
                        **_: Any) -> Callable:
    """Weft's results close to NumPy's (per-dtype tolerances as CuPy's)."""
    def check(w: Any, n: Any) -> None:
        dtype = numpy.asarray(w).dtype
        numpy.testing.assert_allclose(w, n, _tolerance(rtol, dtype), _tolerance(atol, dtype),
                                      err_msg=err_msg, verbose=verbose)
    return _checked(check, (name, scipy_name), type_check, accept_error)


def numpy_cupy_array_almost_equal(decimal: int = 6, err_msg: str = "", verbose: bool = True,
                                  name: str = "xp", type_check: bool = True,
                                  accept_error: Any = False, sp_name: str | None = None,
                                  scipy_name: str | None = None) -> Callable:
    def check(w: Any, n: Any) -> None:
        numpy.testing.assert_array_almost_equal(w, n, decimal, err_msg, verbose)
    return _checked(check, (name, scipy_name), type_check, accept_error)


def numpy_cupy_array_almost_equal_nulp(nulp: int = 1, name: str = "xp",
                                       type_check: bool = True, accept_error: Any = False,
                                       sp_name: str | None = None,
                                       scipy_name: str | None = None) -> Callable:
    def check(w: Any, n: Any) -> None:
        numpy.testing.assert_array_almost_equal_nulp(w, n, nulp)
    return _checked(check, (name, scipy_name), type_check, accept_error)


def numpy_cupy_array_max_ulp(maxulp: int = 1, dtype: Any = None, name: str = "xp",
                             type_check: bool = True, accept_error: Any = False,
                             sp_name: str | None = None,
                             scipy_name: str | None = None) -> Callable:
    def check(w: Any, n: Any) -> None:
        numpy.testing.assert_array_max_ulp(w, n, maxulp, dtype)
    return _checked(check, (name, scipy_name), type_check, accept_error)


def numpy_cupy_array_equal(err_msg: str = "", verbose: bool = True, name: str = "xp",
                           type_check: bool = True, accept_error: Any = False,
                           sp_name: str | None = None, scipy_name: str | None = None,
                           strides_check: bool = False) -> Callable:
    def check(w: Any, n: Any) -> None:
        numpy.testing.assert_array_equal(w, n, err_msg, verbose)
    return _checked(check, (name, scipy_name), type_check, accept_error)


def numpy_cupy_array_list_equal(err_msg: str = "", verbose: bool = True, name: str = "xp",
                                sp_name: str | None = None,
                                scipy_name: str | None = None) -> Callable:
    return numpy_cupy_array_equal(err_msg, verbose, name, False, False, sp_name, scipy_name)


def numpy_cupy_array_less(err_msg: str = "", verbose: bool = True, name: str = "xp",
                          type_check: bool = True, accept_error: Any = False,
                          sp_name: str | None = None,
                          scipy_name: str | None = None) -> Callable:
    def check(w: Any, n: Any) -> None:
        numpy.testing.assert_array_less(w, n, err_msg, verbose)
    return _checked(check, (name, scipy_name), type_check, accept_error)


def numpy_cupy_equal(name: str = "xp", sp_name: str | None = None,
                     scipy_name: str | None = None) -> Callable:
    """Plain results (not arrays) equal."""
    def decorator(impl: Callable) -> Callable:
        @functools.wraps(impl)
        def test_func(*args: Any, **kw: Any) -> None:
            weft_out, weft_error = _run(impl, args, kw, cupy, (name, scipy_name))
            if weft_error is not None:
                if reason := outside_scope(weft_error):
                    pytest.skip(reason)
                raise weft_error
            numpy_out, numpy_error = _run(impl, args, kw, numpy, (name, scipy_name))
            if numpy_error is not None:
                raise numpy_error
            assert weft_out == numpy_out, f"weft {weft_out!r}, NumPy {numpy_out!r}"

        return hide_parameters(test_func, impl, (name, scipy_name))
    return decorator
