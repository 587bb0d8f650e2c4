"""weft's sin and chain6 on a CUDA GPU next to CuPy's ``sin`` and ``cupy.fuse``, and a copy
for the memory's rate: on GPUs the trigonometric functions still choose their huge-argument
reduction by a select (the CPU walk takes two passes instead), and this shows whether that
costs anything there. 2^26 elements, median of 5 rounds of 20 calls, ms.

    WEFT_DEVICE=cuda:0 PYTHONPATH=src python benchmarks/gpu_trig.py
"""

from __future__ import annotations

import statistics
import time

import cupy as cp
import numpy as np

import weft as wf


def cupy_chain6(v):
    return cp.sin(v) * 2.0 + cp.cos(v) * v - v * 0.5 + 1.0


def main() -> None:
    fused = cp.fuse(cupy_chain6)
    times: dict[tuple[str, str], list[float]] = {}
    for dtype in (np.float32, np.float64):
        xn = np.random.default_rng(0).uniform(-1, 1, 1 << 26).astype(dtype)
        x, xc = wf.asarray(xn), cp.asarray(xn)
        cases = {"weft sin": lambda x=x: wf.sin(x).eval(),
                 "cupy sin": lambda xc=xc: cp.sin(xc),
                 "weft chain6": lambda x=x: (wf.sin(x) * 2.0 + wf.cos(x) * x - x * 0.5
                                             + 1.0).eval(),
                 "cupy chain6 (fuse)": lambda xc=xc: fused(xc),
                 "weft copy": lambda x=x: (x * 1.0).eval()}
        for _ in range(5):
            for name, fn in cases.items():
                fn()
                wf.synchronize()
                cp.cuda.Device().synchronize()
                t0 = time.perf_counter()
                for _ in range(20):
                    fn()
                wf.synchronize()
                cp.cuda.Device().synchronize()
                times.setdefault((name, np.dtype(dtype).name), []).append(
                    (time.perf_counter() - t0) / 20 * 1e3)
    for (name, dtype), v in times.items():
        print(f"{name:22s} {dtype:8s} {statistics.median(v):.3f} ms")


if __name__ == "__main__":
    main()
