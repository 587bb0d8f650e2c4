"""Untraced ``value_and_grad`` read as a user reads it (the value, then each gradient)
against ``wf.eval(value, *grads)`` first, interleaved in rounds in one process. The label
(first argument) names the checkout, so runs of two checkouts alternated in turn compare
them on a noisy host.

    PYTHONPATH=src python benchmarks/grad_reads.py head

Per call, ms: the median of 7 rounds of 3 calls.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import weft as wf


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "weft"
    rng = np.random.default_rng(0)
    y = wf.asarray(rng.standard_normal(10**7))
    x = wf.asarray(rng.standard_normal((10**6, 10)))
    n = wf.asarray((rng.uniform(size=10**6) < 0.5).astype(np.int32))
    small = wf.asarray(rng.standard_normal(1000))
    cases = {
        "normal_lpdf 1e7": (wf.value_and_grad(
            lambda mu, s: wf.stats.normal_lpdf(y, mu, s), argnums=(0, 1)),
            (wf.asarray(0.3), wf.asarray(1.2))),
        "logistic glm 1e6x10": (wf.value_and_grad(
            lambda a, b: wf.stats.bernoulli_logit_glm_lpmf(n, x, a, b), argnums=(0, 1)),
            (wf.asarray(0.1), wf.asarray(rng.standard_normal(10) * 0.1))),
        "normal_lpdf 1e3": (wf.value_and_grad(
            lambda mu, s: wf.stats.normal_lpdf(small, mu, s), argnums=(0, 1)),
            (wf.asarray(0.3), wf.asarray(1.2))),
    }

    def one_by_one(vg, args):
        value, grads = vg(*args)
        float(value)
        for g in grads:
            np.asarray(g)

    def eval_first(vg, args):
        value, grads = vg(*args)
        wf.eval(value, *grads)
        float(value)
        for g in grads:
            np.asarray(g)

    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(7):
        for name, (vg, args) in cases.items():
            for how, read in (("one by one", one_by_one), ("wf.eval first", eval_first)):
                read(vg, args)
                t0 = time.perf_counter()
                for _ in range(3):
                    read(vg, args)
                times.setdefault((name, how), []).append((time.perf_counter() - t0) / 3 * 1e3)
    print(label, "  ".join(f"{name} [{how}]={statistics.median(v):.3f}"
                           for (name, how), v in times.items()))


if __name__ == "__main__":
    main()
