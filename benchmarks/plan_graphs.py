"""CUDA graphs for replays, measured in one process: each case's traced function twice,
one whose runner launches its kernels as one CUDA graph (weft's way on a CUDA device), one
whose runner launches them kernel by kernel (the backend's ``plan_graph`` answered None
while its first call built the runner), timed in interleaved rounds.

    WEFT_DEVICE=cuda:0 PYTHONPATH=src python benchmarks/plan_graphs.py

Per call, µs, Python included: the median (and best) of 15 rounds of 1000 calls, a
synchronize per round. On a device without graphs both runners are the same.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from cases import chain10

import weft as wf


def per_call(fn: Callable[..., Any], args: tuple[Any, ...], read: bool) -> float:
    """µs per call of ``fn(*args)`` over 1000 calls (``read``: each result read as a float)."""
    wf.synchronize()
    start = time.perf_counter()
    if read:
        for _ in range(1000):
            float(fn(*args))
    else:
        for _ in range(1000):
            fn(*args)
    wf.synchronize()
    return (time.perf_counter() - start) * 1e3


def cases() -> dict[str, tuple[Callable[[], Callable[..., Any]], tuple[Any, ...], bool]]:
    """Per case: a maker of the function, its arguments, and whether a call reads its value."""
    rng = np.random.default_rng(0)
    a, b, c = (wf.asarray(rng.standard_normal(1000).astype(np.float32)) for _ in range(3))
    y = wf.asarray(rng.standard_normal(1000))
    mu, sigma = wf.asarray(0.1), wf.asarray(1.3)
    x = wf.asarray(rng.standard_normal((1000, 10)))
    counts = wf.asarray((rng.random(1000) < 0.5).astype(np.int32))
    beta, alpha = wf.asarray(rng.standard_normal(10) * 0.1), wf.asarray(0.2)

    def glm(al: Any, be: Any) -> Any:
        return wf.stats.bernoulli_logit_glm_lpmf(counts, x, al, be)

    return {
        "c*(a+b)": (lambda: lambda a, b, c: c * (a + b), (a, b, c), False),
        "chain10": (lambda: lambda a: chain10(wf, a), (a,), False),
        "normal_lpdf": (lambda: wf.stats.normal_lpdf, (y, mu, sigma), False),
        "mcmc float(normal_lpdf)": (lambda: lambda t: wf.stats.normal_lpdf(t, 0.0, 1.0),
                                    (y,), True),
        "glm value+grad 1000x10": (lambda: wf.value_and_grad(glm, argnums=(0, 1)),
                                   (alpha, beta), False),
        "normal_lpdf value+grad": (
            lambda: wf.value_and_grad(lambda m, s: wf.stats.normal_lpdf(y, m, s),
                                      argnums=(0, 1)), (mu, sigma), False),
    }


def main() -> None:
    backend = wf.current_device().backend
    graph_maker = backend.plan_graph
    print(f"{wf.current_device()}: µs per traced call, median (best) of 15 rounds")
    for name, (make, args, read) in cases().items():
        graphed, plain = wf.function(make()), wf.function(make())
        backend.plan_graph = lambda device, bounds, read_back=(): None
        try:  # the first call traces; the runner is made at the next
            for _ in range(3):
                plain(*args)
        finally:
            backend.plan_graph = graph_maker
        for _ in range(3):
            graphed(*args)
        for _ in range(200):
            plain(*args)
            graphed(*args)
        times: dict[str, list[float]] = {"plain": [], "graph": []}
        for _ in range(15):
            times["plain"].append(per_call(plain, args, read))
            times["graph"].append(per_call(graphed, args, read))
        p, g = statistics.median(times["plain"]), statistics.median(times["graph"])
        print(f"{name}: kernel by kernel {p:.2f} ({min(times['plain']):.2f}), one graph "
              f"{g:.2f} ({min(times['graph']):.2f}), ratio {g / p:.2f}")


if __name__ == "__main__":
    main()
