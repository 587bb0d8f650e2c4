"""Where a small call's time goes: cProfile over many cached calls, and for reductions the
host time per call next to the GPU time (CUDA events) and the number of kernels.

    python benchmarks/profile_call.py [--calls 20000] [--top 25] [--case three|glm]

``--case glm`` profiles ``wf.stats.normal_id_glm_lpdf`` on 1000 x 2 instead of the 3-op call
(host-bound on a GPU: the time per call is the host's).

Prints to stdout; used to find the per-call overhead (docs/tuning-notes.md).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np

import weft as wf


def three(a, b, c):
    return (a * b + c) * 2.0


def per_call(fn, calls: int) -> float:
    for _ in range(200):
        fn()
    wf.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    wf.synchronize()
    return (time.perf_counter() - t0) / calls * 1e6


def gpu_time(fn, calls: int) -> float | None:
    """Mean device time per call from CUDA events on weft's own stream (None off CUDA)."""
    device = wf.current_device()
    if device.kind != "cuda":
        return None
    import cupy

    stream = device.handle.stream()
    fn()
    wf.synchronize()
    start = cupy.cuda.Event()
    end = cupy.cuda.Event()
    start.record(stream)
    for _ in range(calls):
        fn()
    end.record(stream)
    end.synchronize()
    return cupy.cuda.get_elapsed_time(start, end) / calls * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--case", choices=["three", "glm"], default="three")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    print("device:", wf.current_device(), wf.current_device().name)
    if args.case == "glm":
        x = wf.asarray(rng.standard_normal((1000, 2)))
        y = wf.asarray(rng.standard_normal(1000))
        beta = wf.asarray(rng.standard_normal(2))

        def small() -> None:
            wf.stats.normal_id_glm_lpdf(y, x, 0.3, beta, 1.2).eval()
    else:
        a, b, c = (wf.asarray(rng.uniform(-1, 1, 1000).astype(np.float32)) for _ in range(3))

        def small() -> None:
            three(a, b, c).eval()

    print(f"{args.case} on 1000 rows: {per_call(small, args.calls):.1f} us per call (host)")
    gpu = gpu_time(small, 2000)
    if gpu is not None:
        print(f"  device time per call: {gpu:.1f} us")
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.calls):
        small()
    wf.synchronize()
    profile.disable()
    pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)
    if args.case == "glm":
        return

    matrix = wf.asarray(rng.standard_normal((8192, 8192)).astype(np.float32))
    x = wf.asarray(rng.standard_normal(1 << 27).astype(np.float32))
    cases = {
        "tril_sum": lambda: wf.sum(wf.tril(matrix)).eval(),
        "rowwise_sum": lambda: wf.sum(matrix, axis=1).eval(),
        "colwise_sum": lambda: wf.sum(matrix, axis=0).eval(),
        "full_sum": lambda: wf.sum(x).eval(),
        "transpose": lambda: wf.multiply(matrix.T, 1).eval(),
    }
    # Launches counted at the backend: a cache lookup is not always a launch (planning asks
    # about a compiled kernel's occupancy).
    backend = wf.current_device().backend
    launch = backend.launch
    launched = [0]

    def counting(*args, **kwargs):
        launched[0] += 1
        return launch(*args, **kwargs)

    backend.launch = counting
    for name, fn in cases.items():
        before = launched[0]
        fn()
        wf.synchronize()
        kernels = launched[0] - before
        host = per_call(fn, 50)
        gpu = gpu_time(fn, 50)
        gpu_text = "" if gpu is None else f", device {gpu:.1f} us"
        print(f"{name}: host {host:.1f} us per call{gpu_text}, {kernels} kernel(s)")


if __name__ == "__main__":
    main()
