"""Counts of a test-suite run from its pytest-json-report file (the array API tests, CuPy's
tests): per test module, then the commonest first lines of the failures, numbers masked.

    python scripts/report_summary.py report.json
"""

from __future__ import annotations

import collections
import json
import re
import sys


def main(path: str) -> None:
    tests = json.load(open(path))["tests"]
    print(dict(collections.Counter(t["outcome"] for t in tests)))
    by_module: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    reasons: collections.Counter = collections.Counter()
    for t in tests:
        by_module[t["nodeid"].split("::")[0].rsplit("/", 1)[-1]][t["outcome"]] += 1
        if t["outcome"] in ("failed", "error"):
            phase = t.get("call") or t.get("setup") or {}
            message = (phase.get("crash") or {}).get("message", "?").splitlines() or ["?"]
            reasons[re.sub(r"\d+", "N", message[0][:110])] += 1
    for module, counts in sorted(by_module.items()):
        print(f"{module:45s} " + " ".join(f"{k} {counts[k]:4d}" for k in
                                           ("passed", "failed", "skipped")))
    for reason, count in reasons.most_common(25):
        print(f"{count:5d}  {reason}")


if __name__ == "__main__":
    main(sys.argv[1])
