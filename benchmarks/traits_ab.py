"""A launch choice measured on and off, interleaved in one process: one of the device's
traits (``weft.target.Traits``), or ``own_math`` of its dialect (``weft.dialect.Dialect``),
set to each of two values in turn, round by round, on element-wise cases of n elements.

    python benchmarks/traits_ab.py group_bounds_check False True [--log2n 24] [--rounds 5]
    python benchmarks/traits_ab.py own_math "()" "('exp', 'log')"

Prints the median wall time of one evaluation per case and value, and their ratio.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import time
from dataclasses import replace

import numpy as np

import weft as wf
from weft import memo


def cases(n: int) -> dict:
    rng = np.random.default_rng(0)
    found = {}
    for dtype in (np.float64, np.float32):
        a, b = (wf.asarray(rng.standard_normal(n).astype(dtype)) for _ in range(2))
        s = wf.asarray(rng.uniform(0.5, 2, n).astype(dtype))
        name = np.dtype(dtype).name
        found[f"c*(a+b) {name}"] = lambda a=a, b=b: (2.5 * (a + b)).eval()
        found[f"normal_pdf {name}"] = lambda a=a, b=b, s=s: (
            wf.exp(-0.5 * ((a - b) / s) ** 2) / (s * 2.5066282746310002)).eval()
        found[f"sin*cos+log1p(exp) {name}"] = lambda a=a: (
            wf.sin(a) * wf.cos(a) + wf.log1p(wf.exp(a))).eval()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("trait")
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--log2n", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    device = wf.current_device()
    base = device.traits
    dialect = device.backend.dialect_of(device)
    values = [ast.literal_eval(args.first), ast.literal_eval(args.second)]
    work = cases(1 << args.log2n)
    times: dict[tuple[str, int], list[float]] = {}
    for _ in range(args.rounds):
        for k, value in enumerate(values):
            if args.trait == "own_math":
                chosen = replace(dialect, own_math=frozenset(value))
                device.backend.dialect_of = lambda d, chosen=chosen: chosen
                wf.clear_cache()  # the kernel cache is keyed by device, not by dialect
            else:
                device.traits = replace(base, **{args.trait: value})
            memo.MEMO.clear()  # remembered plans keep the kernels they were made with
            for name, run in work.items():
                run()
                wf.synchronize()
                t0 = time.perf_counter()
                run()
                wf.synchronize()
                times.setdefault((name, k), []).append((time.perf_counter() - t0) * 1e3)
    device.traits = base
    vars(device.backend).pop("dialect_of", None)
    print(f"# {device} ({device.name}), n = 2^{args.log2n}, {args.trait}: "
          f"{values[0]} against {values[1]}, median ms of {args.rounds} rounds")
    for name in work:
        first, second = (statistics.median(times[(name, k)]) for k in (0, 1))
        print(f"{name:26s} {first:8.1f} {second:8.1f}   {first / second:4.2f}x")


if __name__ == "__main__":
    main()
