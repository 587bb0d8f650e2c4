"""The ad-hoc host path (no decorator): building a small expression, and building and
evaluating it, next to NumPy's same work and a traced function's call, interleaved in
rounds in one process. The label (first argument) names the checkout, so runs of two
checkouts alternated in turn compare them on a noisy host by their ratios to NumPy.

    PYTHONPATH=src python benchmarks/adhoc_calls.py head

Per call, µs, Python included: the median of 7 rounds of 2000 calls, a synchronize per
round.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from cases import chain10

import weft as wf


def per_call(fn, calls: int = 2000) -> float:
    for _ in range(100):
        fn()
    wf.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    wf.synchronize()
    return (time.perf_counter() - t0) / calls * 1e6


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "weft"
    rng = np.random.default_rng(1)
    an, bn = (rng.uniform(-1, 1, 1000).astype(np.float32) for _ in range(2))
    a, b = wf.asarray(an), wf.asarray(bn)
    y = wf.asarray(rng.standard_normal(1000))
    traced = wf.function(lambda a, b, c: c * (a + b))
    cases = {
        "numpy c*(a+b)": lambda: 2.5 * (an + bn),
        "numpy chain10": lambda: chain10(np, an),
        "build c*(a+b)": lambda: 2.5 * (a + b),
        "build chain10": lambda: chain10(wf, a),
        "adhoc c*(a+b)": lambda: (2.5 * (a + b)).eval(),
        "adhoc chain10": lambda: chain10(wf, a).eval(),
        "adhoc normal_lpdf": lambda: wf.stats.normal_lpdf(y, 0.3, 1.2).eval(),
        "traced c*(a+b)": lambda: traced(a, b, 2.5),
    }
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(7):
        for name, fn in cases.items():
            times[name].append(per_call(fn))
    print(label, " ".join(f"{k}={statistics.median(v):.1f}" for k, v in times.items()))


if __name__ == "__main__":
    main()
