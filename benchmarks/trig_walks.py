"""sin, cos and the chain6 case over 2^24 elements on the current device, sin over huge
arguments only (the walk's worst case: both passes), a sum of cosines, column sums of
cosines (4096 x 4096: by row chunks; 256 x 65536: in bands) and a von Mises log density
(2^24, a checked band), for base/head comparisons of the CPU walks in two passes
(skeletons/elementwise.WALK_TWICE, skeletons/reduce_twice.py). The label (first argument)
names the checkout.

    PYTHONPATH=src python benchmarks/trig_walks.py head

Per evaluation, ms: the median of 7.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from cases import chain6

import weft as wf


def _median_ms(fn) -> float:
    fn().eval()
    wf.synchronize()
    times = []
    for _ in range(7):
        t0 = time.perf_counter()
        fn().eval()
        wf.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "weft"
    rng = np.random.default_rng(0)
    results = {}
    for dtype, huge in ((np.float32, 1e29), (np.float64, 1e20)):
        name = np.dtype(dtype).name
        x = wf.asarray(rng.uniform(-1, 1, 1 << 24).astype(dtype))
        big = wf.asarray(rng.uniform(huge, 10 * huge, 1 << 24).astype(dtype))
        results[f"chain6 {name}"] = _median_ms(lambda x=x: chain6(wf, x))
        results[f"sin {name}"] = _median_ms(lambda x=x: wf.sin(x))
        results[f"sin+cos {name}"] = _median_ms(lambda x=x: wf.sin(x) + wf.cos(x))
        results[f"sin huge {name}"] = _median_ms(lambda big=big: wf.sin(big))
        results[f"sum(cos) {name}"] = _median_ms(lambda x=x: wf.sum(wf.cos(x)))
        square, wide = x.reshape(4096, 4096), x.reshape(256, 65536)
        results[f"cols(cos) square {name}"] = _median_ms(
            lambda square=square: wf.cos(square).sum(axis=0))
        results[f"cols(cos) wide {name}"] = _median_ms(
            lambda wide=wide: wf.cos(wide).sum(axis=0))
        results[f"von_mises {name}"] = _median_ms(
            lambda x=x: wf.stats.von_mises_lpdf(x, 0.3, 2.0))
    print(label, "  ".join(f"{k}={v:.1f}" for k, v in results.items()))


if __name__ == "__main__":
    main()
