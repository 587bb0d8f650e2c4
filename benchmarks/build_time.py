"""First-call time (the kernel's build included) of small programs on PoCL, with the lean
build (``backends/opencl/declarations.py``) and with the whole OpenCL C header
(``WEFT_OPENCL_LEAN_BUILD=0``), in fresh processes with empty caches, alternating:

    python benchmarks/build_time.py [rounds]

One process per program, setting and round; the table gives the median seconds of each
(results/opencl-pthread-AMD-EPYC/build-time-lean-header-2026-11-30.txt).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile

PROGRAMS = {
    "c*(a+b)": "c * (a + b)",
    "sum(exp(a)*b+c)": "wf.sum(wf.exp(a) * b + c)",
    "normal_lpdf": "wf.stats.normal_lpdf(a, b, c)",
    "exp(A.T)+A": "wf.exp(A.T) + A",
    "cumsum(a)": "wf.cumsum(a)",
    "rng.normal": "wf.random.default_rng(1).normal(size=1000)",
    "grad normal_lpdf": "wf.grad(lambda m: wf.stats.normal_lpdf(a, m, c))(b)",
    "lgamma(a)+fmod(a,b)": "wf.lgamma(a) + wf.fmod(a, b)",
}

_CHILD = """
import time, numpy as np
t0 = time.perf_counter()
import weft as wf
wf.get_device()
a, b, c = (wf.asarray(np.linspace(0.5 + k, 2.0 + k, 1000)) for k in range(3))
A = wf.asarray(np.ones((64, 64)))
t1 = time.perf_counter()
np.asarray({program})
print(time.perf_counter() - t1)
"""


def first_call(program: str, lean: bool) -> float:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "WEFT_CACHE_DIR": cache, "POCL_CACHE_DIR": cache + "/pocl",
               "POCL_KERNEL_CACHE": "0", "WEFT_COMPILE_NOTICE": "0",
               "WEFT_OPENCL_LEAN_BUILD": "1" if lean else "0", "WEFT_DEVICE": "opencl:0"}
        out = subprocess.run([sys.executable, "-c", _CHILD.format(program=program)], env=env,
                             check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def main() -> None:
    rounds = int(sys.argv[1]) if sys.argv[1:] else 3
    times: dict[str, dict[str, list[float]]] = {p: {"lean": [], "whole": []} for p in PROGRAMS}
    for _ in range(rounds):
        for name, program in PROGRAMS.items():
            for lean in (True, False):
                times[name]["lean" if lean else "whole"].append(first_call(program, lean))
    print(f"{'program':24} {'lean s':>8} {'whole header s':>15} {'ratio':>6}")
    for name, t in times.items():
        lean, whole = statistics.median(t["lean"]), statistics.median(t["whole"])
        print(f"{name:24} {lean:8.3f} {whole:15.3f} {whole / lean:6.2f}")
    print(json.dumps(times))


if __name__ == "__main__":
    main()
