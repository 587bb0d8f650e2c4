"""What a bit mask costs: wf.kernels.masked_add against the same add without a mask, and
against a bool-array mask, on every device given (default: the current one).

    python benchmarks/masked.py [--n 67108864] [--devices cuda:0 opencl:0] [--out DIR]

The mask adds one uint32 word per 32 elements to the traffic (1/96 of an in-place float32
add's bytes), so on a bandwidth-bound GPU it should cost under 10% (issue 6). Writes
``masked.json`` and ``masked.txt`` under ``--out`` (default: benchmarks/results/<device>/).
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import statistics
import time
from pathlib import Path

import numpy as np

import weft as wf

RESULTS = Path(__file__).parent / "results"


def timed_ms(run, repeat: int = 9, batch: int = 10) -> float:
    run()
    wf.synchronize()
    times = []
    for _ in range(repeat):
        wf.synchronize()
        t0 = time.perf_counter()
        for _ in range(batch):
            run()
        wf.synchronize()
        times.append((time.perf_counter() - t0) / batch)
    return 1e3 * statistics.median(times)


def measure(device: str, n: int, dtype) -> list[dict]:
    rng = np.random.default_rng(0)
    with wf.device(device):
        dst = wf.asarray(rng.standard_normal(n).astype(dtype))
        lhs = wf.asarray(rng.standard_normal(n).astype(dtype))
        rhs = wf.asarray(rng.standard_normal(n).astype(dtype))
        selected = rng.random(n) < 0.5
        bits = wf.bitmask(selected)
        bools = wf.asarray(selected)
        runs = {
            "add (no mask)": lambda: wf.kernels.masked_add(dst, lhs, rhs, None),
            "add, bit mask": lambda: wf.kernels.masked_add(dst, lhs, rhs, bits),
            "add, bool mask": lambda: wf.kernels.masked_add(dst, lhs, rhs, bools),
        }
        itemsize = np.dtype(dtype).itemsize
        out = []
        for name, run in runs.items():
            ms = timed_ms(run)
            out.append(dict(device=device, case=name, dtype=np.dtype(dtype).name, n=n, ms=ms,
                            gbps=3 * n * itemsize / ms / 1e6))
        base = out[0]["ms"]
        for record in out:
            record["vs_unmasked"] = record["ms"] / base
            print(f"  {device:<10} {record['dtype']:<8} {record['case']:<16} "
                  f"{record['ms']:8.3f} ms {record['gbps']:8.1f} GB/s "
                  f"{record['vs_unmasked']:6.3f}x", flush=True)
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1 << 26)
    parser.add_argument("--devices", nargs="+", default=None)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    devices = args.devices or [str(wf.current_device())]
    records = []
    for device in devices:
        for dtype in (np.float32, np.float64):
            records += measure(device, args.n, dtype)
    name = wf.get_device(devices[0]).name
    out = Path(args.out) if args.out else RESULTS / re.sub(r"[^A-Za-z0-9_.-]+", "-",
                                                            f"gpu-{name}").strip("-")
    out.mkdir(parents=True, exist_ok=True)
    meta = {"device": name, "date": str(datetime.date.today()), "n": args.n}
    (out / "masked.json").write_text(json.dumps({"meta": meta, "records": records}, indent=1))
    lines = [f"masked add, {name}, {meta['date']}, n = {args.n} (in place: dst = lhs + rhs)",
             f"{'device':<10} {'dtype':<8} {'case':<16} {'ms':>8} {'GB/s':>8} {'vs unmasked':>12}"]
    lines += [f"{r['device']:<10} {r['dtype']:<8} {r['case']:<16} {r['ms']:8.3f} "
              f"{r['gbps']:8.1f} {r['vs_unmasked']:12.3f}" for r in records]
    (out / "masked.txt").write_text("\n".join(lines) + "\n")
    print(f"results: {out / 'masked.txt'}")


if __name__ == "__main__":
    main()
