"""Small launches on PoCL with and without the basic companion device
(``backends/opencl/companion.py``): a traced call read back as a float each time (what an
MCMC step does), cheap (``sum(c*(a+b))``) and dear (``sum(lgamma(a))``) work at sizes
around the companion's bound, next to NumPy in the same process.

PoCL reads its devices when it starts, so each setting is its own process; alternate them:

    WEFT_POCL_COMPANION=0 python benchmarks/small_launches.py off
    python benchmarks/small_launches.py on
    python benchmarks/small_launches.py all-basic   # every launch on the companion

µs per call, Python included: the median of 7 rounds of 300 calls.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
import scipy.special

import weft as wf
from weft import tuning

SIZES = (1000, 4096, 16384, 65536)


def per_call(fn, calls: int = 300, rounds: int = 7) -> float:
    for _ in range(20):
        fn()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(times)


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "on"
    if label == "all-basic":
        tuning.QUICK_ELEMENTS = 1 << 40
    rng = np.random.default_rng(3)
    cheap = wf.function(lambda a, b, c: (c * (a + b)).sum())
    dear = wf.function(lambda a: wf.lgamma(a).sum())
    normal = wf.function(lambda y, mu, sigma: wf.stats.normal_lpdf(y, mu, sigma))
    cases = {}
    for n in SIZES:
        an, bn = (rng.uniform(0.5, 3.0, n) for _ in range(2))
        a, b = wf.asarray(an), wf.asarray(bn)
        cases[f"sum(c*(a+b)) {n}"] = (lambda a=a, b=b: float(cheap(a, b, 2.5)),
                                      lambda an=an, bn=bn: float((2.5 * (an + bn)).sum()))
        cases[f"sum(lgamma(a)) {n}"] = (lambda a=a: float(dear(a)),
                                        lambda an=an: float(scipy.special.gammaln(an).sum()))
    yn = rng.standard_normal(1000)
    y = wf.asarray(yn)
    cases["normal_lpdf 1000"] = (
        lambda: float(normal(y, 0.3, 1.2)),
        lambda: float((-0.5 * ((yn - 0.3) / 1.2) ** 2 - np.log(1.2)
                       - 0.5 * np.log(2 * np.pi)).sum()))
    for name, (weft_call, numpy_call) in cases.items():
        assert np.isclose(weft_call(), numpy_call(), rtol=1e-9), name
    device = wf.current_device()
    companion = getattr(device.handle, "companion", None)
    print(f"# {device} ({device.name}); companion: {companion is not None}; setting {label}")
    for name, (weft_call, numpy_call) in cases.items():
        ours, theirs = per_call(weft_call), per_call(numpy_call)
        print(f"{label:9} {name:22} weft {ours:9.1f}  numpy {theirs:9.1f}  "
              f"ratio {ours / theirs:6.2f}")


if __name__ == "__main__":
    main()
