"""The GPU benchmark: weft (CUDA and OpenCL) and every installed peer, side by side, in one run.

    python benchmarks/gpu.py [--cases c*(a+b) chain8] [--impls weft cupy] [--repeat 10]

Cases and implementations carry fixed names so that runs compare over time (issue 4):
cases ``copy c*(a+b) normal_pdf normal_lpdf_sum chain8 lgamma+digamma colwise_sum rowwise_sum
transpose exp(A.T)+A tril_sum overhead_3op first_compile disk_cache_load``; implementations ``weft``
(CUDA backend), ``weft-opencl`` (NVIDIA's OpenCL driver), ``weft-unfused`` (``fuse=False``),
``cupy``, ``cupy.fuse``, ``torch``, ``torch.compile``, ``jax.jit``.

Method (../shared/PERFORMANCE.md): random data; every implementation's result is checked
against a float64 reference first (computed by CuPy on the GPU, or NumPy without it); then
the median over ``--repeat`` batches of 10 calls, each batch timed on the host from a
synchronized start to a synchronized end. GB/s counts the fewest bytes a case must move;
``frac_copy`` divides by the device-to-device copy (``cudaMemcpyAsync``) of the same run.
Writes ``results/<device>/latest.json`` (records ``case impl dtype n ms gbps frac_copy``),
``latest.txt`` and ``latest.png``; partial results are written after every case.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # JAX would take 75% of memory

sys.path.insert(0, str(Path(__file__).parent))

from common import RESULTS, results_dir  # noqa: E402
from peers import (  # noqa: E402
    Impl,
    WeftImpl,
    cupy_namespace,
    find_impls,
    numpy_namespace,
)

import weft as wf  # noqa: E402

INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
BATCH = 10


# Cases, written once against a small namespace each library provides ----------------------


def c_times_a_plus_b(xp, a, b):
    return 3.0 * (a + b)


def normal_pdf(xp, y, mu, sigma):
    z = (y - mu) / sigma
    return xp.exp(-0.5 * z * z) * INV_SQRT_2PI / sigma


def normal_lpdf_sum(xp, y, mu, sigma):
    z = (y - mu) / sigma
    return xp.sum(-0.5 * z * z - xp.log(sigma) - LOG_SQRT_2PI)


def chain8(xp, x):
    return ((((((x * 1.5 + 0.25) * x - 0.5) * x + 2.0) * x - 1.0) * x + 0.75) * x - 0.125) * x


def colwise_sum(xp, a):
    return xp.sum(a, 0)


def rowwise_sum(xp, a):
    return xp.sum(a, 1)


def transpose(xp, a):
    return xp.transpose_copy(a)


def lgamma_plus_digamma(xp, z):
    return xp.lgamma(z) + xp.digamma(z)


def exp_at_plus_a(xp, a):
    return xp.exp(xp.t(a)) + a


def tril_sum(xp, a):
    return xp.sum(xp.tril(a))


# name, function, input names, kind ("vector" or "matrix"), outputs, fraction of input read
CASES: list[tuple[str, Callable, str, str, int, float]] = [
    ("c*(a+b)", c_times_a_plus_b, "a b", "vector", 1, 1.0),
    ("normal_pdf", normal_pdf, "y mu sigma", "vector", 1, 1.0),
    ("normal_lpdf_sum", normal_lpdf_sum, "y mu sigma", "vector", 0, 1.0),
    ("chain8", chain8, "x", "vector", 1, 1.0),
    ("lgamma+digamma", lgamma_plus_digamma, "z", "vector", 1, 1.0),
    ("colwise_sum", colwise_sum, "a", "matrix", 0, 1.0),
    ("rowwise_sum", rowwise_sum, "a", "matrix", 0, 1.0),
    ("transpose", transpose, "a", "matrix", 1, 1.0),
    ("exp(A.T)+A", exp_at_plus_a, "a", "matrix", 1, 1.0),
    ("tril_sum", tril_sum, "a", "matrix", 0, 0.5),  # the stored triangle, about half
]


# Measuring ---------------------------------------------------------------------------------


def timed_ms(run: Callable[[], Any], sync: Callable[[], None], repeat: int) -> float:
    """Median over ``repeat`` batches of BATCH calls, per call, in ms."""
    run()
    sync()
    times = []
    for _ in range(repeat):
        sync()
        t0 = time.perf_counter()
        for _ in range(BATCH):
            run()
        sync()
        times.append((time.perf_counter() - t0) / BATCH)
    return 1e3 * statistics.median(times)


def host_inputs(names: str, kind: str, n: int, side: int, dtype: Any,
                rng: np.random.Generator) -> dict[str, np.ndarray]:
    out = {}
    for k in names.split():
        shape = (side, side) if kind == "matrix" else (n,)
        if k == "sigma":
            out[k] = rng.uniform(0.5, 2.0, shape).astype(dtype)
        elif k == "z":  # special functions: positive arguments, across the recurrence's range
            out[k] = rng.uniform(0.1, 20.0, shape).astype(dtype)
        elif k in ("y", "mu"):
            out[k] = rng.standard_normal(shape).astype(dtype)
        else:
            out[k] = rng.uniform(-1.0, 1.0, shape).astype(dtype)
    return out


def reference(fn: Callable, host: dict[str, np.ndarray]) -> np.ndarray:
    """The case in float64, on the GPU through CuPy when it is there (NumPy would take
    seconds per case at these sizes)."""
    try:
        import cupy as cp
    except ImportError:
        return fn(numpy_namespace(), **{k: v.astype(np.float64) for k, v in host.items()})
    ns = cupy_namespace(cp)
    return cp.asnumpy(fn(ns, **{k: cp.asarray(v, dtype=cp.float64) for k, v in host.items()}))


def device_copy(n: int, dtype: Any, repeat: int) -> float | None:
    """ms for a device-to-device copy of n elements (cudaMemcpyAsync), or None."""
    try:
        import cupy as cp
    except ImportError:
        return None
    a = cp.random.random(n, dtype=np.float64).astype(dtype)
    b = cp.empty_like(a)
    stream = cp.cuda.get_current_stream()

    def run():
        b.data.copy_from_device_async(a.data, a.nbytes, stream)
    return timed_ms(run, stream.synchronize, repeat)


def _release_memory() -> None:
    import gc

    gc.collect()
    for module, action in (("cupy", lambda m: m.get_default_memory_pool().free_all_blocks()),
                           ("torch", lambda m: m.cuda.empty_cache())):
        if module in sys.modules:
            try:
                action(sys.modules[module])
            except Exception:  # noqa: BLE001 - best effort between cases
                pass


def sizes(dtype: Any, small: bool) -> tuple[int, int]:
    """Vector length and matrix side: 2^27 float32 / 2^26 float64 and 8192² (issue 4)."""
    if small:
        return 1 << 16, 256
    return ((1 << 27) if dtype == np.float32 else (1 << 26)), 8192


def bench_case(name, fn, names, kind, outputs, fraction, dtype, impls, repeat, copy_gbps,
               rng, records, skipped, small=False):
    n, side = sizes(dtype, small)
    host = host_inputs(names, kind, n, side, dtype, rng)
    elements = next(iter(host.values())).size
    itemsize = np.dtype(dtype).itemsize
    nbytes = (len(host) * fraction + outputs) * elements * itemsize
    expected = reference(fn, host)
    rtol, atol = (2e-5, 2e-4) if dtype == np.float32 else (1e-9, 1e-9)
    if not outputs:  # sums: float32 peers accumulate in float32
        rtol, atol = (1e-4, 1e-2) if dtype == np.float32 else (1e-9, 1e-6)
    for impl in impls:
        run = impl.prepare(fn, name)
        if run is None:
            skipped.append(f"{name} {np.dtype(dtype).name} {impl.name}: not expressible")
            continue
        try:
            data = impl.inputs(host)
            got = impl.to_host(run(**data))
            np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)
            ms = timed_ms(lambda run=run, data=data: run(**data), impl.sync, repeat)
        except Exception as e:  # noqa: BLE001 - a peer failing is reported, not fatal
            skipped.append(f"{name} {np.dtype(dtype).name} {impl.name}: "
                           f"{type(e).__name__}: {str(e)[:300]}")
            continue
        finally:
            data = None
            _release_memory()
        gbps = nbytes / ms / 1e6
        records.append(dict(case=name, impl=impl.name, dtype=np.dtype(dtype).name, n=elements,
                            ms=ms, gbps=gbps, frac_copy=gbps / copy_gbps if copy_gbps else None))
        print(f"  {name:<16} {np.dtype(dtype).name:<8} {impl.name:<14} {ms:9.3f} ms "
              f"{gbps:8.1f} GB/s", flush=True)


def overhead(impls: list[Impl], records: list[dict], skipped: list[str]) -> None:
    """Per-call time of a cached 3-op expression on 1000 float32 elements, Python included."""
    rng = np.random.default_rng(5)
    host = {k: rng.uniform(-1, 1, 1000).astype(np.float32) for k in "abc"}

    def three(xp, a, b, c):
        return (a * b + c) * 2.0

    for impl in impls:
        run = impl.prepare(three, "c*(a+b)")
        if run is None:
            continue
        try:
            data = impl.inputs(host)
            for _ in range(100):
                run(**data)
            impl.sync()
            times = []
            for _ in range(7):
                t0 = time.perf_counter()
                for _ in range(1000):
                    run(**data)
                impl.sync()
                times.append((time.perf_counter() - t0) / 1000)
            ms = 1e3 * statistics.median(times)
        except Exception as e:  # noqa: BLE001
            skipped.append(f"overhead_3op {impl.name}: {type(e).__name__}: {str(e)[:200]}")
            continue
        records.append(dict(case="overhead_3op", impl=impl.name, dtype="float32", n=1000,
                            ms=ms, gbps=None, frac_copy=None))
        print(f"  overhead_3op     float32  {impl.name:<14} {ms * 1e3:9.2f} us", flush=True)


_COMPILE_SCRIPT = {
    "weft": """
import time, numpy as np, weft as wf
wf.set_device({device!r})
x = wf.asarray(np.linspace(0.1, 1.0, 1 << 20).astype(np.float32))
(x + 1).to_numpy()  # the device is up: what follows is the new kernel alone
t0 = time.perf_counter()
y = (wf.log1p(x) * 0.75 - wf.sqrt(x) / 3.0).to_numpy()
print("MS", (time.perf_counter() - t0) * 1e3, wf.cache_info())
""",
    "cupy.fuse": """
import time, numpy as np, cupy as cp
x = cp.asarray(np.linspace(0.1, 1.0, 1 << 20).astype(np.float32))
(x + 1).get()
f = cp.fuse(lambda x: cp.log1p(x) * 0.75 - cp.sqrt(x) / 3.0)
t0 = time.perf_counter()
f(x).get()
print("MS", (time.perf_counter() - t0) * 1e3)
""",
    "torch.compile": """
import time, numpy as np, torch
x = torch.from_numpy(np.linspace(0.1, 1.0, 1 << 20).astype(np.float32)).cuda()
(x + 1).cpu()
f = torch.compile(lambda x: torch.log1p(x) * 0.75 - torch.sqrt(x) / 3.0)
t0 = time.perf_counter()
f(x).cpu()
print("MS", (time.perf_counter() - t0) * 1e3)
""",
    "jax.jit": """
import time, numpy as np, jax, jax.numpy as jnp
x = jax.device_put(np.linspace(0.1, 1.0, 1 << 20).astype(np.float32))
np.asarray(x + 1)
f = jax.jit(lambda x: jnp.log1p(x) * 0.75 - jnp.sqrt(x) / 3.0)
t0 = time.perf_counter()
np.asarray(f(x))
print("MS", (time.perf_counter() - t0) * 1e3)
""",
}


def compile_times(impls: list[Impl], records: list[dict], skipped: list[str]) -> None:
    """A new kernel's time to first result in a fresh process with empty caches
    (first_compile), then the same in another fresh process with the caches kept
    (disk_cache_load)."""
    for impl in impls:
        key = "weft" if isinstance(impl, WeftImpl) else impl.name
        if key not in _COMPILE_SCRIPT or (isinstance(impl, WeftImpl) and not impl.fuse):
            continue
        device = str(impl.device) if isinstance(impl, WeftImpl) else ""
        script = _COMPILE_SCRIPT[key].format(device=device)
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, WEFT_CACHE_DIR=cache, CUPY_CACHE_DIR=cache,
                       TORCHINDUCTOR_CACHE_DIR=cache, TRITON_CACHE_DIR=cache + "/triton",
                       XLA_PYTHON_CLIENT_PREALLOCATE="false")
            for case in ("first_compile", "disk_cache_load"):
                if case == "disk_cache_load" and key == "jax.jit":
                    break  # JAX keeps no disk cache unless configured to
                try:
                    out = subprocess.run([sys.executable, "-c", script], env=env, text=True,
                                         capture_output=True, timeout=300, check=True).stdout
                    ms = float(re.search(r"MS ([0-9.eE+-]+)", out).group(1))
                except Exception as e:  # noqa: BLE001
                    skipped.append(f"{case} {impl.name}: {type(e).__name__}: {str(e)[-300:]}")
                    continue
                records.append(dict(case=case, impl=impl.name, dtype="float32", n=1 << 20,
                                    ms=ms, gbps=None, frac_copy=None))
                print(f"  {case:<16} float32  {impl.name:<14} {ms:9.2f} ms", flush=True)


# Output ------------------------------------------------------------------------------------


def table(records: list[dict]) -> str:
    best: dict[tuple[str, str], float] = {}
    for r in records:
        if not r["impl"].startswith("weft") and r["case"] != "copy":
            key = (r["case"], r["dtype"])
            best[key] = min(best.get(key, math.inf), r["ms"])
    lines = [f"{'case':<16} {'dtype':<8} {'n':>10} {'impl':<14} {'ms':>10} {'GB/s':>8} "
             f"{'of copy':>8} {'best peer/this':>15}"]
    for r in records:
        peer = best.get((r["case"], r["dtype"]))
        ratio = f"{peer / r['ms']:14.2f}x" if peer and r["impl"].startswith("weft") else ""
        gbps = f"{r['gbps']:8.1f}" if r["gbps"] else f"{'':8}"
        frac = f"{r['frac_copy']:8.2f}" if r["frac_copy"] else f"{'':8}"
        lines.append(f"{r['case']:<16} {r['dtype']:<8} {r['n']:>10} {r['impl']:<14} "
                     f"{r['ms']:10.4f} {gbps} {frac} {ratio:>15}")
    return "\n".join(lines)


def plot(records: list[dict], path: Path, title: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in records if r["gbps"] and r["case"] != "copy"]
    if not rows:
        return False
    fig, axes = plt.subplots(2, 1, figsize=(13, 8))
    for ax, dtype in zip(axes, ("float32", "float64")):
        sub = [r for r in rows if r["dtype"] == dtype]
        cases = list(dict.fromkeys(r["case"] for r in sub))
        impls = list(dict.fromkeys(r["impl"] for r in sub))
        width = 0.8 / max(len(impls), 1)
        for k, impl in enumerate(impls):
            vals = [next((r["gbps"] for r in sub if r["case"] == c and r["impl"] == impl), 0)
                    for c in cases]
            ax.bar(np.arange(len(cases)) + k * width, vals, width, label=impl)
        for r in records:
            if r["case"] == "copy" and r["dtype"] == dtype and r["impl"] == "cupy":
                ax.axhline(r["gbps"], color="grey", ls="--", lw=0.8)
        ax.set_xticks(np.arange(len(cases)) + 0.4 - width / 2)
        ax.set_xticklabels(cases, fontsize=8)
        ax.set_ylabel(f"GB/s, {dtype}")
        ax.legend(fontsize=7, ncol=4)
    axes[0].set_title(f"{title} (dashed: device copy)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def write(records: list[dict], skipped: list[str], missing: dict[str, str], title: str,
          slug: str) -> Path:
    out = RESULTS / slug
    out.mkdir(parents=True, exist_ok=True)
    meta = {"device": title, "date": datetime.date.today().isoformat(),
            "python": platform.python_version(), "numpy": np.__version__,
            "not_measured": missing, "skipped": skipped}
    (out / "latest.json").write_text(json.dumps({"meta": meta, "records": records}, indent=1))
    notes = "\n".join(f"skipped: {s}" for s in skipped)
    notes += "".join(f"\nnot installed/usable: {k}: {v}" for k, v in missing.items())
    (out / "latest.txt").write_text(f"{title} {meta['date']}\n{table(records)}\n{notes}\n")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", help="case names (default: all)")
    parser.add_argument("--impls", nargs="+", help="implementation names (default: all)")
    parser.add_argument("--dtypes", nargs="+", default=["float32", "float64"])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--small", action="store_true",
                        help="tiny sizes, CPU OpenCL allowed: checks the harness, not speed")
    parser.add_argument("--merge", action="store_true",
                        help="keep the records of latest.json that this run does not measure "
                             "(one benchmark split over several calls of the same machine)")
    args = parser.parse_args()
    impls, missing = find_impls(set(args.impls) if args.impls else None, args.small)
    if not impls:
        sys.exit(f"nothing to measure: {missing}")
    cuda = [d for d in wf.devices() if d.kind == "cuda"]
    gpu_name = cuda[0].name if cuda else wf.devices()[0].name
    title = f"{gpu_name}, {datetime.date.today()}"
    slug = results_dir("gpu", gpu_name).name
    if args.small:
        slug = "small-harness-check"
    wanted = set(args.cases) if args.cases else None
    records: list[dict] = []
    skipped: list[str] = []
    previous = RESULTS / slug / "latest.json"
    if args.merge and previous.exists():
        old = json.loads(previous.read_text())
        once = ("overhead_3op", "first_compile", "disk_cache_load")  # float32 only
        measured_once = {c for c in once if wanted is None or c in wanted}
        records = [r for r in old["records"]
                   if (r["case"] in once and r["case"] not in measured_once)
                   or (r["case"] not in once and (r["dtype"] not in args.dtypes or (
                       wanted is not None and r["case"] not in wanted | {"copy"})))]
        skipped = [x for x in old["meta"].get("skipped", [])
                   if not any(f" {d} " in x for d in args.dtypes)]
    rng = np.random.default_rng(0)
    print(f"weft GPU benchmark on {title}; implementations: {[i.name for i in impls]}")
    for dtype in (np.dtype(d).type for d in args.dtypes):
        n = sizes(dtype, args.small)[0]
        copy_ms = device_copy(n, dtype, args.repeat)
        copy_gbps = None
        if copy_ms:
            copy_gbps = 2 * n * np.dtype(dtype).itemsize / copy_ms / 1e6
            records.append(dict(case="copy", impl="cupy", dtype=np.dtype(dtype).name, n=n,
                                ms=copy_ms, gbps=copy_gbps, frac_copy=1.0))
            print(f"  copy {np.dtype(dtype).name}: {copy_gbps:.0f} GB/s", flush=True)
        if wanted is None or "copy" in wanted:
            bench_case("copy", lambda xp, a: a * 1.0, "a", "vector", 1, 1.0, dtype,
                       [i for i in impls if isinstance(i, WeftImpl) and i.fuse], args.repeat,
                       copy_gbps, rng, records, skipped, args.small)
        for name, fn, names, kind, outputs, fraction in CASES:
            if wanted is None or name in wanted:
                bench_case(name, fn, names, kind, outputs, fraction, dtype, impls, args.repeat,
                           copy_gbps, rng, records, skipped, args.small)
                write(records, skipped, missing, title, slug)
    if wanted is None or "overhead_3op" in wanted:
        overhead(impls, records, skipped)
    if wanted is None or wanted & {"first_compile", "disk_cache_load"}:
        compile_times(impls, records, skipped)
    out = write(records, skipped, missing, title, slug)
    print(table(records))
    for s in skipped:
        print("skipped:", s)
    if plot(records, out / "latest.png", title):
        print(f"plot: {out / 'latest.png'}")
    print(f"results: {out / 'latest.json'}")


if __name__ == "__main__":
    main()
