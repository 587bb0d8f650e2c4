"""CuPy's own tests run unchanged against weft (issue 38's measure of NumPy habits).

Off unless ``WEFT_CUPY_TESTS=1`` (they take far longer than the suite's budget: thousands of
kernels to compile); ``scripts/cupy-conformance`` runs them and counts. The ``cupy`` and
``cupyx`` they import are the weft-made modules in ``adapter/``; see README.md here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

if os.environ.get("WEFT_CUPY_TESTS") != "1":
    collect_ignore_glob = ["*"]
else:
    import weft

    # weft's backends take the real CuPy (where installed) before the adapter's name shadows it.
    weft.devices()
    for _name in [m for m in sys.modules if m.split(".")[0] in ("cupy", "cupyx")]:
        del sys.modules[_name]
    sys.path.insert(0, str(Path(__file__).parent / "adapter"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: CuPy's slow tests")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    """A test that fails because weft says the case is outside its scope (another dtype,
    more than 2 dimensions) outside the adapter's comparisons is reported skipped, with
    weft's words as the reason."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("WEFT_CUPY_TESTS") != "1" or call.excinfo is None or not report.failed:
        return
    from cupy.testing._scope import outside_scope

    reason = outside_scope(call.excinfo.value)
    if reason and call.when == "call":
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {reason}")
