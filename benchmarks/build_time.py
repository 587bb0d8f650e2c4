"""First-call time (the kernel's build included) of small programs on PoCL, cold (empty
caches) and warm (a second process), with the lean build (``backends/opencl/
declarations.py``) and PoCL's own cache serving warm starts (the default), with weft's
binaries (``WEFT_OPENCL_KEEP_BINARIES=1``), and with the whole OpenCL C header and binaries
(``WEFT_OPENCL_LEAN_BUILD=0``: before), alternating:

    python benchmarks/build_time.py [rounds]

Two processes per setting and round, each calling every program once after a first build
that pays PoCL's start; the table gives the median seconds of each
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
import json, time, numpy as np
import weft as wf
wf.current_device()
a, b, c = (wf.asarray(np.linspace(0.5 + k, 2.0 + k, 1000)) for k in range(3))
A = wf.asarray(np.ones((64, 64)))
times = {{}}
t0 = time.perf_counter()
np.asarray(a + 1.0)  # PoCL's start (its first build loads LLVM's state): apart
times["first build: a+1"] = time.perf_counter() - t0
for name, program in {programs!r}.items():
    t0 = time.perf_counter()
    np.asarray(eval(program))
    times[name] = time.perf_counter() - t0
print(json.dumps(times))
"""


SETTINGS = {  # name -> environment
    "lean, source (default)": {},
    "lean, binaries": {"WEFT_OPENCL_KEEP_BINARIES": "1"},
    "whole header, binaries": {"WEFT_OPENCL_LEAN_BUILD": "0", "WEFT_OPENCL_KEEP_BINARIES": "1"},
}


def first_calls(setting: dict[str, str]) -> tuple[dict[str, float], dict[str, float]]:
    """Each program's first call, in order, in a fresh process with empty caches (cold),
    then in a second process with the caches the first left (warm)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "WEFT_CACHE_DIR": cache, "POCL_CACHE_DIR": cache + "/pocl",
               "WEFT_COMPILE_NOTICE": "0",
               "WEFT_DEVICE": os.environ.get("WEFT_DEVICE", "opencl:0"),
               "WEFT_OPENCL_LEAN_BUILD": "1", "WEFT_OPENCL_KEEP_BINARIES": "0", **setting}
        env.pop("WEFT_CACHE_IN_MEMORY", None)
        runs = [subprocess.run([sys.executable, "-c", _CHILD.format(programs=PROGRAMS)],
                               env=env, check=True, capture_output=True, text=True).stdout
                for _ in range(2)]
    cold, warm = (json.loads(out.splitlines()[-1]) for out in runs)
    return cold, warm


def main() -> None:
    rounds = int(sys.argv[1]) if sys.argv[1:] else 3
    times: dict[str, dict[str, list[float]]] = {}
    for _ in range(rounds):
        for setting, env in SETTINGS.items():
            cold, warm = first_calls(env)
            for start, calls in (("cold", cold), ("warm", warm)):
                for name, seconds in calls.items():
                    times.setdefault(f"{start} {name}", {s: [] for s in SETTINGS})[
                        setting].append(seconds)
    print(f"{'first call, s (median)':32}" + "".join(f"{s:>24}" for s in SETTINGS))
    for name, t in times.items():
        print(f"{name:32}" + "".join(f"{statistics.median(t[s]):24.3f}" for s in SETTINGS))
    print(json.dumps(times))


if __name__ == "__main__":
    main()
