"""Every docstring example in weft runs and gives what it shows (on the default device).
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
# Modules whose examples each build their own special-function kernels (52 s of PoCL builds
# for distributions alone, 13 s for densities) and whose functions test_distributions,
# test_numpy_more, test_stats, test_stats_more and test_elliptic check on every device:
# their examples run on the reference device, except under WEFT_TEST_PROFILE=large.
ON_REFERENCE = () if os.environ.get("WEFT_TEST_PROFILE") == "large" else (
    "weft.composites", "weft.densities", "weft.distributions", "weft.elliptic", "weft.stats")


def _needs_dask(test: doctest.DocTest) -> bool:
    return any("dask" in example.source for example in test.examples)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name == "weft.dask" and not HAVE_DASK:
        pytest.skip("weft.dask needs the dask extra")
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    with weft.device("reference") if name in ON_REFERENCE else contextlib.nullcontext():
        for test in doctest.DocTestFinder().find(module):
            if HAVE_DASK or not _needs_dask(test):
                runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
