"""The ad-hoc host path (no decorator): building a small expression, and building and
evaluating it, next to NumPy's same work and a traced function's call, interleaved in
rounds in one process. The label (first argument) names the checkout, so runs of two
checkouts alternated in turn compare them on a noisy host by their ratios to NumPy.

    PYTHONPATH=src python benchmarks/adhoc_calls.py head

Per call, µs, Python included: the median of 7 rounds of 2000 calls, a synchronize per
round.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from cases import chain10

import weft as wf


def per_call(fn, calls: int = 2000, synchronize=None) -> float:
    synchronize = synchronize or wf.synchronize
    for _ in range(100):
        fn()
    synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    synchronize()
    return (time.perf_counter() - t0) / calls * 1e6


def pyopencl_floor(size: int) -> tuple | None:
    """A launch of ``c*(a+b)`` through PyOpenCL alone, and its synchronize; None off OpenCL."""
    device = wf.current_device()
    if not str(device).startswith("opencl"):
        return None
    import pyopencl as cl

    same = [d for p in cl.get_platforms() if p.name.strip() == device.handle.platform
            for d in p.get_devices() if d.name == device.name]
    context = cl.Context(same[:1])
    queue = cl.CommandQueue(context)
    program = cl.Program(context, """
        __kernel void f(__global float *out, __global const float *a,
                        __global const float *b, float c) {
            int i = get_global_id(0);
            out[i] = c * (a[i] + b[i]);
        }""").build()
    kernel = program.f
    flags = cl.mem_flags.READ_WRITE
    a, b = (cl.Buffer(context, flags, 4 * size) for _ in range(2))
    c = np.float32(2.5)

    def launch() -> None:
        # The new buffer and the program held until the launch is enqueued (which retains
        # them): a kernel's arguments do not.
        out = cl.Buffer(context, flags, 4 * size)
        kernel.set_args(out, a, b, c)
        cl.enqueue_nd_range_kernel(queue, kernel, (size,), None)
        assert program is not None
    return launch, queue.finish


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "weft"
    rng = np.random.default_rng(1)
    an, bn = (rng.uniform(-1, 1, 1000).astype(np.float32) for _ in range(2))
    a, b = wf.asarray(an), wf.asarray(bn)
    y = wf.asarray(rng.standard_normal(1000))
    table = wf.asarray(rng.standard_normal(101))
    places = wf.asarray(rng.integers(0, 101, 1000))
    traced = wf.function(lambda a, b, c: c * (a + b))
    cases = {
        "numpy c*(a+b)": lambda: 2.5 * (an + bn),
        "numpy chain10": lambda: chain10(np, an),
        "build c*(a+b)": lambda: 2.5 * (a + b),
        "build chain10": lambda: chain10(wf, a),
        "adhoc c*(a+b)": lambda: (2.5 * (a + b)).eval(),
        "adhoc chain10": lambda: chain10(wf, a).eval(),
        "adhoc normal_lpdf": lambda: wf.stats.normal_lpdf(y, 0.3, 1.2).eval(),
        "adhoc gather": lambda: (wf.take(table, places) * 2.0).eval(),
        "traced c*(a+b)": lambda: traced(a, b, 2.5),
    }
    syncs = {}
    floor = pyopencl_floor(1000)
    if floor is not None:
        cases["pyopencl c*(a+b)"], syncs["pyopencl c*(a+b)"] = floor
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(7):
        for name, fn in cases.items():
            times[name].append(per_call(fn, synchronize=syncs.get(name)))
    print(label, " ".join(f"{k}={statistics.median(v):.1f}" for k, v in times.items()))


if __name__ == "__main__":
    main()
