"""The benchmark runner's harness works: each suite's cases run, check their results against
the float64 reference and write their records (tiny sizes, timing not looked at)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).parent.parent / "benchmarks" / "run.py"


@pytest.mark.parametrize(("suite", "cases"), [
    ("latest", ["c*(a+b)", "normal_lpdf_sum", "tril_sum"]),
    ("glm", ["glm narrow"]),
    ("chains", ["array chain 3"]),
    ("masked", ["add, bit mask, random 50%"]),
    ("overhead", ["mcmc"]),
])
def test_suite_runs_and_writes_checked_records(tmp_path, suite, cases):
    done = subprocess.run(
        [sys.executable, str(RUNNER), suite, "--small", "--repeat", "1", "--dtypes", "float64",
         "--impls", "weft", "numpy", "--out", str(tmp_path), "--cases", *cases],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    stem = {"chains": "paper-chains", "glm": "paper-glm"}.get(suite, suite)
    records = json.loads((tmp_path / f"{stem}.json").read_text())["records"]
    measured = {(r["case"], r["impl"]) for r in records}
    for case in cases:
        assert (case, "weft") in measured
        if suite != "chains":  # the chains compare weft with itself unfused
            assert (case, "numpy") in measured
    assert all(r["ms"] > 0 for r in records)
