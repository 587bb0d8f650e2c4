"""Several sums over one vector in one kernel (a value and its gradients, or two
densities evaluated together) against one sum alone, interleaved in rounds in one process.
The label (first argument) names the checkout, so runs of two checkouts alternated in turn
compare them on a noisy host.

    PYTHONPATH=src python benchmarks/sums_in_one_kernel.py head

Per evaluation, ms: the median of 5 rounds of 2, 10^7 float64 elements.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import weft as wf


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "weft"
    y = wf.asarray(np.random.default_rng(0).standard_normal(10**7))

    def z(m: float) -> wf.Array:
        return (y - m) / 1.2

    cases = {
        "one sum": lambda: wf.eval(wf.sum(z(0.3) * z(0.3))),
        "two sums": lambda: wf.eval(wf.sum(z(0.3) * z(0.3)), wf.sum(z(0.5))),
        "one normal_lpdf": lambda: wf.eval(wf.stats.normal_lpdf(y, 0.3, 1.2)),
        "two normal_lpdf": lambda: wf.eval(wf.stats.normal_lpdf(y, 0.3, 1.2),
                                           wf.stats.normal_lpdf(y, 0.5, 1.3)),
    }
    times: dict[str, list[float]] = {}
    for _ in range(5):
        for name, fn in cases.items():
            fn()
            wf.synchronize()
            t0 = time.perf_counter()
            fn()
            fn()
            wf.synchronize()
            times.setdefault(name, []).append((time.perf_counter() - t0) / 2 * 1e3)
    print(label, "  ".join(f"{k}={statistics.median(v):.2f}" for k, v in times.items()))


if __name__ == "__main__":
    main()
