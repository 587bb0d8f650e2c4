"""weft on Dask, one worker per GPU (issues 8 and 9).

    python benchmarks/dask_scale.py [--gpus 1 2] [--log2n 31] [--chunk-log2 27]

``scaling``: the float32 expression ``sum(exp(x) * 2 + x * x)`` over 2^log2n elements, with
x persisted in the workers' memory as NumPy blocks of 2^chunk-log2 elements, on 1, 2, ... GPUs
(``weft.dask.gpu_cluster``): strong scaling (the same n) and weak scaling (n per GPU fixed).
Each block is moved to its worker's GPU, reduced by one fused weft kernel, and only the partial
sum comes back. ``overhead``: the same expression over 2^26 elements with chunks from 2^16 to
2^26 on one GPU: the Dask cost per task. Writes ``results/<device>/dask.json``/``.txt``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np
from common import results_dir


def expression(x):
    import weft as wf

    return ((wf.exp(x) * 2 + x * x).sum())


def measure(client, n: int, chunk: int, repeat: int) -> dict:
    import dask.array as da

    import weft.dask as wd

    rows = n // chunk
    x = da.random.default_rng(0).random((rows, chunk), chunks=(1, chunk), dtype=np.float32)
    x = client.persist(x)
    from distributed import wait

    wait(x)
    wx = wd.from_dask(x)
    first = float(expression(wx))  # compiles on every worker
    sample = x[:1].compute()
    want = float((np.exp(sample.astype(np.float64)) * 2 + sample.astype(np.float64) ** 2).sum())
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        got = float(expression(wx))
        times.append(time.perf_counter() - t0)
    assert abs(got - first) <= 1e-6 * abs(first), (got, first)
    ms = 1e3 * statistics.median(times)
    del x, wx
    return dict(n=n, chunk=chunk, tasks=rows, ms=ms, gbps=4 * n / ms / 1e6,
                first_block_check=abs(float(expression(wd.from_dask(da.from_array(sample))))
                                      - want) / abs(want))


def plot(records: list[dict], path: Path, title: str) -> bool:
    """Strong and weak scaling (time against GPUs) and the cost per task against chunk size."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for kind, style in (("strong", "o-"), ("weak", "s--")):
        rows = sorted((r for r in records if r["kind"] == kind), key=lambda r: r["gpus"])
        left.plot([r["gpus"] for r in rows], [r["ms"] for r in rows], style,
                  label=f"{kind} scaling")
    strong = sorted((r for r in records if r["kind"] == "strong"), key=lambda r: r["gpus"])
    if strong:
        left.plot([r["gpus"] for r in strong],
                  [strong[0]["ms"] / r["gpus"] for r in strong], "k:", label="ideal strong")
    left.set_xlabel("GPUs (one Dask worker each)")
    left.set_ylabel("ms per evaluation")
    left.legend()
    left.grid(alpha=0.3)
    rows = [r for r in records if r["kind"] == "overhead"]
    right.loglog([r["chunk"] for r in rows], [r["us_per_task"] for r in rows], "o-")
    right.set_xlabel("elements per chunk")
    right.set_ylabel("µs per task (2^26 elements, 1 GPU)")
    right.grid(alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--log2n", type=int, default=31)
    parser.add_argument("--chunk-log2", type=int, default=27)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-overhead", action="store_true")
    parser.add_argument("--plot", type=Path, help="only redraw the plot of this dask.json")
    args = parser.parse_args()
    if args.plot:
        data = json.loads(args.plot.read_text())
        plot(data["records"], args.plot.with_suffix(".png"), data["meta"]["device"])
        return
    from distributed import Client

    import weft.dask as wd

    name = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                          capture_output=True, text=True).stdout.splitlines()[0].strip()
    records = []
    chunk = 1 << args.chunk_log2
    for g in args.gpus:
        with wd.gpu_cluster(g) as cluster, Client(cluster) as client:
            for kind, n in (("strong", 1 << args.log2n), ("weak", (1 << args.log2n) // 2 * g)):
                if kind == "weak" and g == 2 and n == 1 << args.log2n:
                    r = dict(next(r for r in records if r["gpus"] == 2 and r["kind"] ==
                                  "strong"))
                else:
                    r = measure(client, n, chunk, args.repeat)
                r.update(kind=kind, gpus=g)
                records.append(r)
                print(f"{kind} {g} GPU(s), n=2^{int(np.log2(n))}: {r['ms']:.1f} ms, "
                      f"{r['gbps']:.1f} GB/s, {r['tasks']} tasks", flush=True)
            if g == 1 and not args.no_overhead:
                for c in range(16, 27, 2):
                    r = measure(client, 1 << 26, 1 << c, args.repeat)
                    r.update(kind="overhead", gpus=1)
                    r["us_per_task"] = 1e3 * r["ms"] / r["tasks"]
                    records.append(r)
                    print(f"overhead chunk 2^{c}: {r['ms']:.1f} ms for {r['tasks']} tasks, "
                          f"{r['us_per_task']:.0f} us/task", flush=True)
    out = results_dir("gpu", name)
    out.mkdir(parents=True, exist_ok=True)
    title = f"{name} x{max(args.gpus)}, {datetime.date.today()}"
    (out / "dask.json").write_text(json.dumps({"meta": {"device": title}, "records": records},
                                              indent=1))
    lines = [title, "kind      gpus  n        chunk    tasks  ms        GB/s"]
    for r in records:
        lines.append(f"{r['kind']:<9} {r['gpus']:>4}  2^{int(np.log2(r['n'])):<6} "
                     f"2^{int(np.log2(r['chunk'])):<6} {r['tasks']:>5}  {r['ms']:8.1f}  "
                     f"{r['gbps']:6.1f}")
    (out / "dask.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    plot(records, out / "dask.png", title)


if __name__ == "__main__":
    main()
