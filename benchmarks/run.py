"""The benchmark runner: weft and every installed peer, side by side, in one run.

    python benchmarks/run.py [--sizes 22 25] [--repeat 7]

Prints a table, writes ``benchmarks/results/<device>/latest.json`` (records with ``case impl
dtype n ms gbps frac_copy``) and, when matplotlib is installed, ``latest.png``. Method
(../shared/PERFORMANCE.md): warm up, check every result against NumPy, then the median of
``--repeat`` timed runs with the device synchronized; random data, never zeros.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from cases import CASES  # noqa: E402
from common import results_dir  # noqa: E402

import weft as wf  # noqa: E402


def median_ms(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(times))


def copy_ms(n: int, dtype, repeat: int) -> float:
    """The device's copy of n elements: a one-input, one-output weft kernel (x * 1)."""
    x = wf.asarray(np.random.default_rng(1).uniform(size=n).astype(dtype))

    def run():
        wf.multiply(x, 1).eval()
        wf.synchronize()
    return median_ms(run, repeat)


def bench(sizes: list[int], repeat: int) -> list[dict]:
    try:
        import numexpr
    except ImportError:
        numexpr = None
    records = []
    rng = np.random.default_rng(0)
    for dtype in (np.float64, np.float32):
        for n in sizes:
            itemsize = np.dtype(dtype).itemsize
            copy = copy_ms(n, dtype, repeat)
            copy_gbps = 2 * n * itemsize / copy / 1e6
            records.append(dict(case="copy", impl="weft", dtype=np.dtype(dtype).name, n=n,
                                ms=copy, gbps=copy_gbps, frac_copy=1.0))
            for case in CASES:
                host = case.inputs(rng, n, dtype)
                dev = {k: wf.asarray(v) for k, v in host.items()}
                # checked against float64 NumPy: float32 NumPy sums are the less accurate side
                expected = case.numpy(**{k: v.astype(np.float64) for k, v in host.items()})
                elements = next(iter(host.values())).size
                fraction = case.read_fraction(host) if case.read_fraction else 1.0
                nbytes = (len(host) * fraction + case.outputs) * elements * itemsize

                def weft_run(case=case, dev=dev):
                    case.weft(**dev).eval()
                    wf.synchronize()

                got = case.weft(**dev).to_numpy()
                rtol = 1e-4 if dtype == np.float32 else 1e-10
                np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)
                impls = {"weft": weft_run}

                def unfused(weft_run=weft_run):
                    with wf.config(fuse=False):
                        weft_run()
                impls["weft-unfused"] = unfused
                impls["numpy"] = lambda case=case, host=host: case.numpy(**host)
                if numexpr is not None and case.numexpr:
                    local = dict(host)
                    np.testing.assert_allclose(numexpr.evaluate(case.numexpr, local_dict=local),
                                               expected, rtol=10 * rtol, atol=rtol)
                    impls["numexpr"] = lambda e=case.numexpr, d=local: numexpr.evaluate(
                        e, local_dict=d)
                for impl, fn in impls.items():
                    ms = median_ms(fn, repeat)
                    gbps = nbytes / ms / 1e6
                    records.append(dict(case=case.name, impl=impl, dtype=np.dtype(dtype).name,
                                        n=n, ms=ms, gbps=gbps, frac_copy=gbps / copy_gbps))
    return records


def table(records: list[dict]) -> str:
    lines = [f"{'case':<16} {'dtype':<8} {'n':>10} {'impl':<13} {'ms':>9} {'GB/s':>8} "
             f"{'of copy':>8} {'vs numpy':>9}"]
    numpy_ms = {(r["case"], r["dtype"], r["n"]): r["ms"] for r in records if r["impl"] == "numpy"}
    for r in records:
        ref = numpy_ms.get((r["case"], r["dtype"], r["n"]))
        speedup = f"{ref / r['ms']:8.2f}x" if ref else ""
        lines.append(f"{r['case']:<16} {r['dtype']:<8} {r['n']:>10} {r['impl']:<13} "
                     f"{r['ms']:9.2f} {r['gbps']:8.2f} {r['frac_copy']:8.2f} {speedup:>9}")
    return "\n".join(lines)


def plot(records: list[dict], path: Path, title: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    n = max(r["n"] for r in records)
    rows = [r for r in records if r["n"] == n and r["case"] != "copy"]
    labels = sorted({(r["case"], r["dtype"]) for r in rows})
    impls = sorted({r["impl"] for r in rows})
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / len(impls)
    for k, impl in enumerate(impls):
        vals = [next((r["gbps"] for r in rows if (r["case"], r["dtype"]) == lab
                      and r["impl"] == impl), 0) for lab in labels]
        ax.bar(np.arange(len(labels)) + k * width, vals, width, label=impl)
    copy = [r["gbps"] for r in records if r["case"] == "copy" and r["n"] == n]
    for c in copy:
        ax.axhline(c, color="grey", ls="--", lw=0.8)
    ax.set_xticks(np.arange(len(labels)) + 0.4 - width / 2)
    ax.set_xticklabels([f"{c}\n{d}" for c, d in labels])
    ax.set_ylabel("GB/s (fewest bytes moved)")
    ax.set_title(f"{title}, n = {n} (dashed: copy)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[22, 25],
                        help="log2 of the element counts")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    device = wf.current_device()
    records = bench([1 << s for s in args.sizes], args.repeat)
    title = f"{device} {device.name}"
    print(f"weft benchmark on {title}, {datetime.date.today()}, {platform.processor() or ''}")
    print(table(records))
    out = results_dir(device.kind, device.name)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"device": str(device), "device_name": device.name,
            "date": datetime.date.today().isoformat(), "python": platform.python_version(),
            "numpy": np.__version__}
    (out / "latest.json").write_text(json.dumps({"meta": meta, "records": records}, indent=1))
    (out / "latest.txt").write_text(f"{title} {meta['date']}\n{table(records)}\n")
    if plot(records, out / "latest.png", title):
        print(f"plot: {out / 'latest.png'}")
    print(f"results: {out / 'latest.json'}")


if __name__ == "__main__":
    main()
