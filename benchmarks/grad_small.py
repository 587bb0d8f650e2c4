"""Issue 37's small-size target: a traced value-and-gradient call against the traced value
alone, at 10^3 elements, per call with Python included (interleaved rounds of 100 calls
between synchronizations, the median of 15).

    python benchmarks/grad_small.py [--device cuda:0]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import weft as wf


def per_call(f: Callable[..., Any], args: tuple[Any, ...]) -> tuple[float, float]:
    """µs per traced call of ``value_and_grad(f)`` and of ``f``, in interleaved rounds."""
    both = wf.function(wf.value_and_grad(f, argnums=tuple(range(len(args)))))
    value = wf.function(f)
    times: dict[Any, list[float]] = {both: [], value: []}
    for fn in times:
        for _ in range(50):
            fn(*args)
    for _ in range(15):
        for fn, found in times.items():
            wf.synchronize()
            start = time.perf_counter()
            for _ in range(100):
                fn(*args)
            wf.synchronize()
            found.append((time.perf_counter() - start) / 100 * 1e6)
    return float(np.median(times[both])), float(np.median(times[value]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", help="a weft device (default: the current one)")
    args = parser.parse_args()
    if args.device:
        wf.set_device(args.device)
    rng = np.random.default_rng(0)
    print(f"{wf.current_device()}: µs per traced call")
    for n, k in ((1000, 10), (1000, 3)):
        x = wf.asarray(rng.standard_normal((n, k)))
        y = wf.asarray(rng.standard_normal(n))
        counts = wf.asarray((rng.random(n) < 0.5).astype(np.int32))
        beta = wf.asarray(rng.standard_normal(k) * 0.01)
        cases = {
            f"normal_id_glm {n} x {k}": (
                lambda b, a, s, x=x, y=y: wf.stats.normal_id_glm_lpdf(y, x, a, b, s),
                (beta, 0.5, 1.2)),
            f"bernoulli_logit_glm {n} x {k}": (
                lambda b, a, x=x, c=counts: wf.stats.bernoulli_logit_glm_lpmf(c, x, a, b),
                (beta, 0.5)),
        }
        for name, (f, fargs) in cases.items():
            both, value = per_call(f, fargs)
            print(f"{name}: value+grad {both:.1f}, value {value:.1f}, ratio {both / value:.2f}")
    y = wf.asarray(rng.standard_normal(1000))
    both, value = per_call(lambda m, s: wf.stats.normal_lpdf(y, m, s), (0.3, 1.4))
    print(f"normal_lpdf 1000: value+grad {both:.1f}, value {value:.1f}, "
          f"ratio {both / value:.2f}")


if __name__ == "__main__":
    main()
