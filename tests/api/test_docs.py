"""Every docstring example in weft runs and gives what it shows (the compiler's and
runtime's on the default device, the others on the reference device).
Examples that use an optional extra (Dask) are skipped where it is not installed."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import importlib.util
import os
import pkgutil

import pytest

import weft

MODULES = sorted(m.name for m in pkgutil.walk_packages(weft.__path__, "weft."))
HAVE_DASK = importlib.util.find_spec("dask") is not None
# Examples of the compiler and runtime (how kernels are generated, cached, traced and run)
# run on the default device. The other modules' examples run on the reference device, except
# under WEFT_TEST_PROFILE=large: their functions are checked on every device by their own
# tests, and on PoCL each example would build kernels of its own (75 s of a 2-core run).
ON_DEFAULT_DEVICE = ("weft.api", "weft.cache", "weft.compiler", "weft.dask", "weft.devices",
                     "weft.function", "weft.memo", "weft.pending", "weft.pocl_cache",
                     "weft.realize", "weft.replay", "weft.templates", "weft.traced",
                     "weft.transposing", "weft.variants", "weft.backends", "weft.render",
                     "weft.skeletons")
LARGE = os.environ.get("WEFT_TEST_PROFILE") == "large"


def _on_reference(name: str) -> bool:
    return not LARGE and not any(name == m or name.startswith(m + ".")
                                 for m in ON_DEFAULT_DEVICE)


def _needs_dask(test: doctest.DocTest) -> bool:
    return any("dask" in example.source for example in test.examples)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name == "weft.dask" and not HAVE_DASK:
        pytest.skip("weft.dask needs the dask extra")
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    with weft.device("reference") if _on_reference(name) else contextlib.nullcontext():
        for test in doctest.DocTestFinder().find(module):
            if HAVE_DASK or not _needs_dask(test):
                runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
