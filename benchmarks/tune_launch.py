"""Launch-configuration sweep for the CUDA backend's element-wise kernels.

    python benchmarks/tune_launch.py

Measures a few element-wise cases (as in gpu.py, same sizes and method) for each number of
elements per thread and, at one element per thread, each block size. The choices and what
they gave are written up in NOTES.md; results go to ``results/<device>/tune.json``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import gpu  # noqa: E402
from common import results_dir  # noqa: E402
from peers import WeftImpl  # noqa: E402

import weft as wf  # noqa: E402

SWEEP_CASES = ["c*(a+b)", "normal_pdf", "chain8", "transpose", "exp(A.T)+A"]


def main() -> None:
    cuda = [d for d in wf.devices() if d.kind == "cuda"]
    if not cuda:
        sys.exit("needs a CUDA device")
    device = cuda[0]
    wf.set_device(device)
    backend = device.backend
    usual = device.traits
    impl = WeftImpl("weft", device)
    rng = np.random.default_rng(0)
    variants = [(k, 256) for k in (1, 2, 4, 8)] + [(1, b) for b in (128, 512, 1024)]
    records = []
    cases = {c[0]: c for c in gpu.CASES}
    cases["copy"] = ("copy", lambda xp, a: a * 1.0, "a", "vector", 1, 1.0)
    for dtype in (np.float32, np.float64):
        for name in ["copy", *SWEEP_CASES]:
            _, fn, names, kind, outputs, _ = cases[name]
            n, side = gpu.sizes(dtype, False)
            host = gpu.host_inputs(names, kind, n, side, dtype, rng)
            data = impl.inputs(host)
            elements = next(iter(host.values())).size
            nbytes = (len(host) + outputs) * elements * np.dtype(dtype).itemsize
            for per_thread, block in variants:
                device.traits = replace(usual, per_thread=per_thread, per_thread_from=0)
                backend.block = block
                run = impl.prepare(fn, name)
                ms = gpu.timed_ms(lambda run=run, data=data: run(**data), impl.sync, 10)
                records.append(dict(case=name, dtype=np.dtype(dtype).name, n=elements,
                                    per_thread=per_thread, block=block, ms=ms,
                                    gbps=nbytes / ms / 1e6))
                print(f"{name:<12} {np.dtype(dtype).name:<8} per_thread={per_thread} "
                      f"block={block:<5} {ms:8.3f} ms {nbytes / ms / 1e6:8.1f} GB/s", flush=True)
            data = None
    device.traits, backend.block = usual, 256
    out = results_dir("gpu", device.name)
    out.mkdir(parents=True, exist_ok=True)
    (out / "tune.json").write_text(json.dumps(records, indent=1))


if __name__ == "__main__":
    main()
