"""An MCMC loop's read: ``float(f(theta))`` of a traced function's 0-d result, against the
call alone, per call with Python included. The read's cost is the difference. The label
(first argument) names the checkout, so runs of two checkouts alternated in turn compare
them on a noisy host by their read costs.

    PYTHONPATH=src python benchmarks/read_loop.py head

Cases: a traced ``normal_lpdf`` of 1000 doubles whose ``mu`` alternates between two values
(as a sampler's position changes), and a traced ``(x * x).sum()``. The median of 7 rounds of
3000 calls, a synchronize per round.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import weft as wf


def per_call(fn, calls: int = 3000, rounds: int = 7) -> float:
    """µs per call: the median over ``rounds`` of ``calls`` back-to-back calls."""
    for _ in range(300):
        fn()
    times = []
    for _ in range(rounds):
        wf.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        wf.synchronize()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(times)


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "weft"
    rng = np.random.default_rng(1)
    y = wf.asarray(rng.standard_normal(1000))
    x = wf.asarray(rng.standard_normal(1000))
    density = wf.function(lambda y, mu, sigma: wf.stats.normal_lpdf(y, mu, sigma))
    square_sum = wf.function(lambda x: (x * x).sum())
    positions = [0.3, 0.31]
    turn = [0]

    def density_call():
        turn[0] ^= 1
        return density(y, positions[turn[0]], 1.2)

    cases = {"normal_lpdf": density_call, "(x*x).sum()": lambda: square_sum(x)}
    parts = []
    for name, call in cases.items():
        called = per_call(call)
        read = per_call(lambda call=call: float(call()))
        parts.append(f"{name}: call {called:.2f} float(call) {read:.2f} "
                     f"read {read - called:.2f}")
    print(f"{label} on {wf.current_device()}: " + "; ".join(parts))


if __name__ == "__main__":
    main()
