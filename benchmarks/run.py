"""The benchmark runner: one or more suites (``suites.py``), weft and the implementations
each suite compares (``impls.py``), side by side in one process.

    python benchmarks/run.py [SUITE ...] [--cases ...] [--impls ...] [--dtypes ...]
                             [--sizes N ...] [--repeat R] [--small] [--merge] [--out DIR]

Suites: ``latest`` (the default), ``chains`` and ``glm`` (together ``paper``), ``masked``,
``overhead``, ``compile``, ``dask``. ``--impls`` picks implementations by name, including
weft with launch traits set (``'weft[row_band=0]'``); ``--sizes`` takes element counts
(``2**22`` works). Method (../shared/PERFORMANCE.md): random data, never zeros; every
result checked against a float64 reference before it is timed; then the median of batches
between synchronizations, or interleaved rounds. Each suite writes
``results/<device>/<stem>.{json,txt,png}`` after every case (``report.py``).
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # JAX would take 75% of memory
sys.path.insert(0, str(Path(__file__).parent))

import report  # noqa: E402
from impls import find  # noqa: E402
from methods import Plan, batches, compile_times, interleaved  # noqa: E402
from suites import GROUPS, SUITES, Suite  # noqa: E402

import weft as wf  # noqa: E402

METHODS = {"batches": batches, "rounds": interleaved, "compile": compile_times}


def machine(small: bool) -> str:
    if small:
        return "small"
    gpu = any(d.kind == "cuda" or (d.kind == "opencl" and not d.handle.is_cpu)
              for d in wf.devices())
    return "gpu" if gpu else "cpu"


def where(small: bool, out: str | None) -> tuple[Path, str]:
    """The results folder of this machine (or ``out``) and a title for its tables."""
    cuda = [d for d in wf.devices() if d.kind == "cuda"]
    device = cuda[0] if cuda else wf.current_device()
    if small:
        folder, name = report.RESULTS / "small-harness-check", f"{device.name} (tiny sizes)"
    else:
        kind = "gpu" if device.kind == "cuda" else device.kind
        folder, name = report.results_dir(kind, device.name), device.name
    return (Path(out) if out else folder), name


def run_suite(suite: Suite, args: argparse.Namespace) -> None:
    kind = machine(args.small)
    wanted = args.impls or list(suite.impls.get(kind, ()))
    impls, missing = find(wanted)
    if not impls:
        print(f"{suite.name}: nothing to measure here ({missing})")
        return
    dtypes = args.dtypes or list(dict.fromkeys(
        d for sizes in suite.sizes.values() for d in sizes)) or ["float32"]
    plan = Plan(suite, impls, kind, args.cases or list(suite.cases), dtypes, args.sizes,
                args.repeat or suite.repeat)
    folder, name = where(args.small, args.out)
    title = f"{suite.name} suite, {name}"
    print(f"weft benchmark: {title}; {suite.about}\nimplementations: "
          f"{[i.name for i in impls]}", flush=True)

    def save(records: list[dict]) -> list[dict]:
        if args.merge:
            records = report.merged(folder, suite.stem, records)
        info = report.meta(title, suite=suite.name, not_measured=missing,
                           skipped=plan.skipped)
        report.write(folder, suite.stem, info, records, report.TABLES[suite.table](records))
        return records

    if suite.method == "dask":
        from dask_scale import scaling

        records = scaling(plan, save, tuple(args.gpus))
    else:
        records = METHODS[suite.method](plan, save)
    records = save(records)
    print(report.TABLES[suite.table](records))
    for s in plan.skipped:
        print("skipped:", s)
    if suite.plot and report.plot(suite.plot, records, folder / f"{suite.stem}.png", title):
        print(f"plot: {folder / f'{suite.stem}.png'}")
    print(f"results: {folder / f'{suite.stem}.json'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suites", nargs="*", default=["latest"],
                        help=f"suites: {', '.join([*SUITES, *GROUPS])}")
    parser.add_argument("--cases", nargs="+", help="case names (default: the suite's)")
    parser.add_argument("--impls", nargs="+", help="implementations (default: the suite's)")
    parser.add_argument("--dtypes", nargs="+")
    parser.add_argument("--sizes", nargs="+", type=lambda s: int(ast.literal_eval(s)),
                        help="element counts (default: the suite's for this machine)")
    parser.add_argument("--repeat", type=int, help="batches or rounds (default: the suite's)")
    parser.add_argument("--gpus", nargs="+", type=int, default=[1, 2], help="dask suite")
    parser.add_argument("--small", action="store_true",
                        help="tiny sizes, CPU devices allowed: checks the harness, not speed")
    parser.add_argument("--out", help="results folder (default: results/<device>/)")
    parser.add_argument("--merge", action="store_true",
                        help="keep the earlier records this run does not measure")
    args = parser.parse_args()
    names = [s for name in args.suites for s in GROUPS.get(name, (name,))]
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        sys.exit(f"unknown suites {unknown}; known: {[*SUITES, *GROUPS]}")
    for name in names:
        run_suite(SUITES[name], args)


if __name__ == "__main__":
    main()
