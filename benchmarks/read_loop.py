"""An MCMC loop's read: ``float(f(theta))`` of a traced function's 0-d result, against the
call alone, per call with Python included. The read's cost is the difference. The label
(first argument) names the checkout, so runs of two checkouts alternated in turn compare
them on a noisy host by their read costs.

    PYTHONPATH=src python benchmarks/read_loop.py head

Cases: a traced ``normal_lpdf`` of 1000 doubles whose ``mu`` alternates between two values
(as a sampler's position changes), and a traced ``(x * x).sum()``. The median of 7 batches of
3000 calls between synchronizations (``timing.median_ms``).
"""

from __future__ import annotations

import sys

import numpy as np
from timing import median_ms

import weft as wf


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
        called = 1e3 * median_ms(call, wf.synchronize, 7, batch=3000)
        read = 1e3 * median_ms(lambda call=call: float(call()), wf.synchronize, 7, batch=3000)
        parts.append(f"{name}: call {called:.2f} float(call) {read:.2f} "
                     f"read {read - called:.2f}")
    print(f"{label} on {wf.current_device()}: " + "; ".join(parts))


if __name__ == "__main__":
    main()
