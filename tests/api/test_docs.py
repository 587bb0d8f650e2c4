"""Every docstring example in weft runs and gives what it shows (on the default device).
Examples that use an optional extra (Dask) are skipped where it is not installed."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import weft

MODULES = sorted(m.name for m in pkgutil.walk_packages(weft.__path__, "weft."))
HAVE_DASK = importlib.util.find_spec("dask") is not None


def _needs_dask(test: doctest.DocTest) -> bool:
    return any("dask" in example.source for example in test.examples)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name == "weft.dask" and not HAVE_DASK:
        pytest.skip("weft.dask needs the dask extra")
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    for test in doctest.DocTestFinder().find(module):
        if HAVE_DASK or not _needs_dask(test):
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
