"""The line budget (DESIGN.md: small modules with one concept each): no Python file of the
package, its tests or its benchmarks is over 600 lines."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 600
# Other projects' tests, pinned unchanged (tests/external/README.md): not ours to split.
UPSTREAM = ROOT / "tests" / "external" / "cupy_upstream"


def test_no_python_file_is_over_the_line_budget():
    over = {}
    for folder in ("src", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if UPSTREAM in path.parents:
                continue
            lines = len(path.read_text().splitlines())
            if lines > BUDGET:
                over[str(path.relative_to(ROOT))] = lines
    assert not over, f"files over {BUDGET} lines (split them by concept): {over}"
