"""CuPy's class parameterization, requirement checks and markers."""

from __future__ import annotations

import contextlib
import importlib.metadata
import inspect
import itertools
import sys
import unittest
from collections.abc import Callable
from typing import Any

import numpy
import pytest
from packaging.requirements import Requirement

import cupy


def product(parameter: dict[str, list]) -> list[dict[str, Any]]:
    keys = sorted(parameter)
    return [dict(zip(keys, values)) for values in itertools.product(*(parameter[k]
                                                                        for k in keys))]


def product_dict(*parameters: list[dict]) -> list[dict]:
    return [{k: v for d in dicts for k, v in d.items()}
            for dicts in itertools.product(*parameters)]


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, numpy.ndarray) else f"array{value.shape}"
    return text if len(text) <= 40 else text[:37] + "..."


def parameterize(*params: dict[str, Any], **_: Any) -> Callable:
    """One subclass per parameter set, its values as class attributes, in the class's module
    (the undecorated class is removed, as CuPy's)."""
    def decorate(cls: type) -> None:
        module = sys.modules[cls.__module__]
        for i, param in enumerate(params):
            members = {k: staticmethod(v) if inspect.isfunction(v) else v
                       for k, v in param.items()}
            label = ", ".join(f"{k}={_short(v)}" for k, v in sorted(param.items()))
            case = type(f"{cls.__name__}_param_{i}_{{{label}}}", (cls,), members)
            case.__module__ = module.__name__
            setattr(module, case.__name__, case)
        return None
    return decorate


def installed(*specifiers: str) -> bool:
    for spec in specifiers:
        requirement = Requirement(spec)
        try:
            found = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not requirement.specifier.contains(found, prereleases=True):
            return False
    return True


def with_requires(*requirements: str) -> Any:
    return pytest.mark.skipif(not installed(*requirements),
                              reason=f"needs {', '.join(requirements)}")


def numpy_satisfies(version_range: str) -> bool:
    return installed(f"numpy{version_range}")


slow = pytest.mark.slow


def multi_gpu(gpu_num: int) -> Any:
    return pytest.mark.skip(reason="CuPy's multi-GPU tests are outside this adapter")


def repeat(times: int, intensive_times: int | None = None) -> Callable:
    def decorator(impl: Callable) -> Callable:
        def test_func(*args: Any, **kw: Any) -> None:
            for _ in range(times):
                impl(*args, **kw)
        test_func.__name__ = impl.__name__
        test_func.__signature__ = inspect.signature(impl)
        return test_func
    return decorator


@contextlib.contextmanager
def assert_function_is_called(*args: Any, times_called: int = 1, **kwargs: Any) -> Any:
    pytest.skip("checks a call inside CuPy's own implementation")
    yield


AssertFunctionIsCalled = assert_function_is_called


class _NumpyAliasTestBase(unittest.TestCase):
    func: str

    @property
    def cupy_func(self) -> Any:
        return getattr(cupy, self.func)

    @property
    def numpy_func(self) -> Any:
        return getattr(numpy, self.func)


class NumpyAliasBasicTestBase(_NumpyAliasTestBase):
    def test_argspec(self) -> None:
        assert inspect.signature(self.cupy_func) == inspect.signature(self.numpy_func)

    def test_docstring(self) -> None:
        assert self.cupy_func.__doc__
        assert self.cupy_func.__doc__ is not self.numpy_func.__doc__


class NumpyAliasValuesTestBase(_NumpyAliasTestBase):
    def test_values(self) -> None:
        assert self.cupy_func(*self.args) == self.numpy_func(*self.args)
