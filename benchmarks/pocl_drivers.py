"""A small launch and its blocking read on PoCL's two CPU drivers, raw PyOpenCL: ``pthread``
(weft's CPU device: work-groups on worker threads) and ``basic`` (commands run on the
calling thread). One process per driver, since PoCL reads ``POCL_DEVICES`` when it starts:

    python benchmarks/pocl_drivers.py

(docs/tuning-notes.md, 33: the case for a small-launch companion device.)
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np

_SOURCE = """__kernel void total(__global const double* x, __global double* out, int n) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += x[i];
    out[0] = s;
}"""


def measure(driver: str) -> None:
    """Per-call µs of one-work-item launches (alone, and each followed by a blocking read
    of the result) over 10^3 and 10^5 doubles: the median of 5 rounds of 2000."""
    import pyopencl as cl

    device = cl.get_platforms()[0].get_devices()[0]
    context = cl.Context([device])
    queue = cl.CommandQueue(context)
    kernel = cl.Program(context, _SOURCE).build().total
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    for n in (1000, 100000):
        x = cl.Buffer(context, flags, hostbuf=np.ones(n))
        out_buffer = cl.Buffer(context, cl.mem_flags.READ_WRITE, 8)
        out = np.empty(1)
        for read in (False, True):
            rounds = []
            for _ in range(5):
                started = time.perf_counter()
                for _ in range(2000):
                    kernel(queue, (1,), (1,), x, out_buffer, np.int32(n))
                    if read:
                        cl.enqueue_copy(queue, out, out_buffer)
                queue.finish()
                rounds.append((time.perf_counter() - started) / 2000 * 1e6)
            what = "launch + read" if read else "launch"
            print(f"{driver:8} {device.name[:24]:24} n={n:<7} {what:14} "
                  f"{sorted(rounds)[2]:7.1f} us")


def main() -> None:
    if len(sys.argv) > 1:
        measure(sys.argv[1])
        return
    for driver in ("pthread", "basic"):
        subprocess.run([sys.executable, __file__, driver], check=True,
                       env={**os.environ, "POCL_DEVICES": driver})


if __name__ == "__main__":
    main()
