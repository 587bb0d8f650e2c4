"""Every docstring example in weft runs and gives what it shows (on the default device)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import weft

MODULES = sorted(m.name for m in pkgutil.walk_packages(weft.__path__, "weft."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False,
                             report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
