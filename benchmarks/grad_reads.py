"""Untraced ``value_and_grad`` read as a user reads it (the value, then each gradient)
against ``wf.eval(value, *grads)`` first, interleaved in rounds in one process. The label
(first argument) names the checkout, so runs of two checkouts alternated in turn compare
them on a noisy host.

    PYTHONPATH=src python benchmarks/grad_reads.py head [gpu]

Per call, ms: the median of 7 rounds of 3 calls. ``gpu`` takes the grad suite's GPU sizes
(a logistic GLM of 100000 x 5000 and 10^7 x 2, normal_lpdf over 2^26), where reading the
value and then the gradient without ``wf.eval`` ran the forward pass twice.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import weft as wf


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "weft"
    gpu = sys.argv[2:] == ["gpu"]
    rng = np.random.default_rng(0)
    cases = {}
    normal = [("normal_lpdf 2^26", 1 << 26)] if gpu else [("normal_lpdf 1e7", 10**7),
                                                          ("normal_lpdf 1e3", 1000)]
    for name, size in normal:
        y = wf.asarray(rng.standard_normal(size))
        cases[name] = (wf.value_and_grad(
            lambda mu, s, y=y: wf.stats.normal_lpdf(y, mu, s), argnums=(0, 1)),
            (wf.asarray(0.3), wf.asarray(1.2)))
    glms = [(100_000, 5000), (10**7, 2)] if gpu else [(10**6, 10)]
    for rows, cols in glms:
        x = wf.asarray(rng.standard_normal((rows, cols)) / np.sqrt(cols))
        n = wf.asarray((rng.uniform(size=rows) < 0.5).astype(np.int32))
        cases[f"logistic glm {rows}x{cols}"] = (wf.value_and_grad(
            lambda a, b, x=x, n=n: wf.stats.bernoulli_logit_glm_lpmf(n, x, a, b),
            argnums=(0, 1)), (wf.asarray(0.1), wf.asarray(rng.standard_normal(cols) * 0.1)))

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
