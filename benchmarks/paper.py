"""The fusion paper's evaluation (issue 7), on the GPU and on the CPU device.

    python benchmarks/paper.py [--parts chains glm] [--devices cuda:0 opencl:0] [--small]

``chains``: a chain of k = 1..10 element-wise operations, fused (one kernel) against
``wf.config(fuse=False)`` (one kernel per operation, the "sequence of basic kernels"), in two
forms. ``scalar``: x * c1 + c2 * ... (each operation reads one array and writes one; the fused
kernel moves 2 arrays and the sequence 2k, so the bytes ratio, the speedup's bound, is k).
``array``: a0 + a1 * a2 + ... over k + 1 arrays (fused: k + 2 arrays; the sequence: 3k; bound
3k / (k + 2)). Plotted with the bounds as ``paper-chains.png``.

``glm``: the value of ``wf.stats.normal_id_glm_lpdf`` (x of 100000 x 5000 and 10^7 x 2,
float64, scalar alpha and sigma) and of ``wf.stats.normal_lpdf`` over three arrays of 2^26
float64, against the hand-written CUDA and OpenCL kernels of ``handwritten.py`` and against the
peers that are installed (CuPy, torch, torch.compile, jax.jit), each written the natural way
(a matrix-vector product, then the element-wise work and a sum). ``--small`` (and the CPU)
use smaller sizes. Every result is checked against NumPy in float64 before it is timed.

Writes ``results/<device>/paper.json`` and ``paper.txt`` (and the plot) for the first device
given; timing as gpu.py (median of batches of 10 calls between synchronizations). The GLM
cases' implementations are timed in rounds, one batch of each per round, each round starting
with the next one: a GPU's clocks and a host's speed drift over a run, and timed one after
another the implementations met different conditions (their medians moved 1-2% between
passes in one process, and their order with them; docs/tuning-notes.md, 20 and 23).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
sys.path.insert(0, str(Path(__file__).parent))

from common import RESULTS, results_dir  # noqa: E402
from gpu import BATCH, _release_memory, timed_ms  # noqa: E402
from handwritten import LOG_SQRT_2PI, CudaKernels, OpenCLKernels  # noqa: E402

import weft as wf  # noqa: E402

# Chains ------------------------------------------------------------------------------------


def scalar_chain(k: int) -> tuple[Callable, int, float]:
    """(function of one array, inputs, bytes-ratio bound)."""
    def run(x):
        for i in range(k):
            x = x * 1.0001 if i % 2 == 0 else x + 0.5
        return x
    return run, 1, float(k)


def array_chain(k: int) -> tuple[Callable, int, float]:
    def run(*a):
        x = a[0]
        for i in range(1, k + 1):
            x = x + a[i] if i % 2 else x * a[i]
        return x
    return run, k + 1, 3 * k / (k + 2)


def chains(device: Any, n: int, dtype: Any, repeat: int, records: list[dict]) -> None:
    rng = np.random.default_rng(1)
    with wf.device(device):
        pool = [wf.asarray(rng.uniform(0.5, 1.5, n).astype(dtype)) for _ in range(11)]
        host = [p.to_numpy().astype(np.float64) for p in pool]
        for form, make in (("scalar", scalar_chain), ("array", array_chain)):
            for k in range(1, 11):
                fn, inputs, bound = make(k)
                args = pool[:inputs]
                want = fn(*host[:inputs])
                times = {}
                for fuse in (True, False):
                    with wf.config(fuse=fuse):
                        got = fn(*args).to_numpy()
                        np.testing.assert_allclose(got, want, rtol=1e-5)
                        times[fuse] = timed_ms(lambda fn=fn, args=args: fn(*args).eval(),
                                               wf.synchronize,
                                               repeat)
                records.append(dict(part="chains", device=str(device), form=form, k=k, n=n,
                                    dtype=np.dtype(dtype).name, fused_ms=times[True],
                                    unfused_ms=times[False],
                                    speedup=times[False] / times[True], bound=bound))
                print(f"  {device} {form} chain k={k}: fused {times[True]:.3f} ms, "
                      f"unfused {times[False]:.3f} ms, speedup "
                      f"{times[False] / times[True]:.2f} (bound {bound:.2f})", flush=True)


# GLM and normal density --------------------------------------------------------------------


def glm_reference(x, y, beta, alpha, sigma) -> float:
    z = (y - (alpha + x @ beta)) / sigma
    return float(-0.5 * np.dot(z, z) - y.size * math.log(sigma) - y.size * LOG_SQRT_2PI)


def normal_reference(y, mu, sigma) -> float:
    z = (y - mu) / sigma
    return float(np.sum(-0.5 * z * z - np.log(sigma)) - y.size * LOG_SQRT_2PI)


def glm_expression(xp_sum, xp_log, n):
    """The peers' GLM value, written the natural way in their own array module."""
    def value(x, y, beta, alpha, sigma):
        z = (y - (x @ beta + alpha)) / sigma
        return -0.5 * xp_sum(z * z) - n * math.log(sigma) - n * LOG_SQRT_2PI
    return value


def normal_expression(xp_sum, xp_log):
    def value(y, mu, sigma):
        z = (y - mu) / sigma
        return xp_sum(-0.5 * z * z - xp_log(sigma)) - y.shape[0] * LOG_SQRT_2PI
    return value


class Runner:
    """One implementation of one case: ``run()`` enqueues it, ``sync()`` waits, ``value()``
    brings the result back as a float."""

    def __init__(self, run: Callable, sync: Callable, value: Callable) -> None:
        self.run, self.sync, self.value = run, sync, value


def weft_runners(case: str, host: dict, devices: list[Any]) -> dict[str, Runner]:
    out = {}
    for device in devices:
        with wf.device(device):
            d = {k: wf.asarray(v) if isinstance(v, np.ndarray) else v for k, v in host.items()}
        if case.startswith("glm"):
            def make(d=d):
                return wf.stats.normal_id_glm_lpdf(d["y"], d["x"], d["alpha"], d["beta"],
                                                   d["sigma"])
        else:
            def make(d=d):
                return wf.stats.normal_lpdf(d["y"], d["mu"], d["sigma"])
        state: dict[str, Any] = {}

        def run(make=make, state=state):
            state["last"] = make().eval()

        def sync(device=device):
            with wf.device(device):
                wf.synchronize()
        name = "weft" if device.kind == "cuda" else f"weft-{device.kind}"
        out[name] = Runner(run, sync, lambda state=state: float(state["last"]))
    return out


def hand_runners(case: str, host: dict, devices: list[Any]) -> dict[str, Runner]:
    out: dict[str, Runner] = {}
    if any(d.kind == "cuda" for d in devices):
        import cupy as cp

        kernels = CudaKernels(cp)
        d = {k: cp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in host.items()}
        run = (kernels.glm(d["x"], d["y"], d["beta"], d["alpha"], d["sigma"])
               if case.startswith("glm") else kernels.normal(d["y"], d["mu"], d["sigma"]))
        state: dict[str, Any] = {}

        def run_cuda(run=run, state=state):
            state["last"] = run()
        out["hand-cuda"] = Runner(run_cuda, cp.cuda.get_current_stream().synchronize,
                                  lambda state=state: float(state["last"]))
    for device in devices:
        if device.kind != "opencl":
            continue
        kernels = OpenCLKernels(device)
        run = (kernels.glm(host["x"], host["y"], host["beta"], host["alpha"], host["sigma"])
               if case.startswith("glm") else
               kernels.normal(host["y"], host["mu"], host["sigma"]))
        out["hand-opencl"] = Runner(run, kernels.sync, run.value)
    return out


def peer_runners(case: str, host: dict) -> tuple[dict[str, Runner], dict[str, str]]:
    out: dict[str, Runner] = {}
    missing: dict[str, str] = {}
    arrays = [k for k, v in host.items() if isinstance(v, np.ndarray)]
    n = host["y"].size
    try:
        import cupy as cp

        d = {k: cp.asarray(v) if k in arrays else v for k, v in host.items()}
        fn = (glm_expression(cp.sum, cp.log, n) if case.startswith("glm")
              else normal_expression(cp.sum, cp.log))
        state: dict[str, Any] = {}

        def run_cupy(fn=fn, d=d, state=state):
            state["last"] = fn(**d)
        out["cupy"] = Runner(run_cupy, cp.cuda.get_current_stream().synchronize,
                             lambda state=state: float(state["last"]))
    except ImportError as e:
        missing["cupy"] = str(e)
    try:
        import torch

        if not torch.cuda.is_available():
            raise ImportError("torch without CUDA")
        d = {k: torch.from_numpy(v).cuda() if k in arrays else v for k, v in host.items()}
        fn = (glm_expression(torch.sum, torch.log, n) if case.startswith("glm")
              else normal_expression(torch.sum, torch.log))
        # Static shapes, as a program with one problem size compiles: dynamo caches per code
        # object, so with the default (dynamic=None) the second GLM case, a new shape for the
        # same function, was recompiled for symbolic shapes and ran 35x slower (3.1 ms).
        compiled = torch.compile(fn, dynamic=False)
        for name, f in (("torch", fn), ("torch.compile", compiled)):
            state = {}

            def run_torch(f=f, d=d, state=state):
                state["last"] = f(**d)
            out[name] = Runner(run_torch, torch.cuda.synchronize,
                               lambda state=state: float(state["last"]))
    except ImportError as e:
        missing["torch"] = str(e)
    try:
        import jax

        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp

        if jax.default_backend() != "gpu":
            raise ImportError("jax without a GPU backend")
        d = {k: jax.device_put(v) if k in arrays else v for k, v in host.items()}
        fn = (glm_expression(jnp.sum, jnp.log, n) if case.startswith("glm")
              else normal_expression(jnp.sum, jnp.log))
        scalars = [k for k in host if k not in arrays]
        jitted = jax.jit(fn, static_argnames=scalars)
        state = {}

        def run_jax(d=d, state=state):
            state["last"] = jitted(**d)
        out["jax.jit"] = Runner(run_jax, lambda: state["last"].block_until_ready(),
                                lambda: float(state["last"]))
    except ImportError as e:
        missing["jax"] = str(e)
    return out, missing


def interleaved_ms(runners: dict[str, Runner], repeat: int) -> dict[str, list[float]]:
    """Each runner's ms per call in each of ``repeat`` rounds; a round times one batch of
    BATCH calls of every runner, between synchronizations, starting with a different runner
    each round."""
    names = list(runners)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in runners.values():  # warm: nothing compiles or allocates inside a batch
        r.run()
        r.sync()
    for k in range(repeat):
        start = k % len(names)
        for name in names[start:] + names[:start]:
            r = runners[name]
            r.sync()
            t0 = time.perf_counter()
            for _ in range(BATCH):
                r.run()
            r.sync()
            times[name].append(1e3 * (time.perf_counter() - t0) / BATCH)
    return times


def glm_cases(small: bool, cpu: bool) -> list[tuple[str, dict]]:
    rng = np.random.default_rng(2)
    shapes = [(100_000, 5_000), (10_000_000, 2)]
    normal_n = 1 << 26
    if small:
        shapes, normal_n = [(2_000, 300), (100_000, 2)], 1 << 16
    elif cpu:
        shapes, normal_n = [(100_000, 500), (10_000_000, 2)], 1 << 24
    cases = []
    for n, k in shapes:
        x = rng.standard_normal((n, k)) / math.sqrt(k)
        beta = rng.standard_normal(k)
        alpha, sigma = 0.3, 1.7
        y = alpha + x @ beta + sigma * rng.standard_normal(n)
        cases.append((f"glm {n}x{k}", dict(y=y, x=x, alpha=alpha, beta=beta, sigma=sigma)))
    y = rng.standard_normal(normal_n)
    cases.append((f"normal_lpdf {normal_n}", dict(y=y, mu=rng.standard_normal(normal_n),
                                                  sigma=rng.uniform(0.5, 2.0, normal_n))))
    return cases


def glm(devices: list[Any], small: bool, repeat: int, records: list[dict],
        missing: dict[str, str]) -> None:
    cpu = not any(d.kind == "cuda" or not getattr(d.handle, "is_cpu", True) for d in devices)
    for case, host in glm_cases(small, cpu):
        want = (glm_reference(**host) if case.startswith("glm")
                else normal_reference(**host))
        arrays = [v for v in host.values() if isinstance(v, np.ndarray)]
        nbytes = sum(a.nbytes for a in arrays)  # each input read once
        runners = {**weft_runners(case, host, devices), **hand_runners(case, host, devices)}
        peers, why = ({}, {}) if cpu else peer_runners(case, host)
        runners.update(peers)
        missing.update(why)
        for name, r in runners.items():
            r.run()
            r.sync()
            got = r.value()
            if not math.isclose(got, want, rel_tol=1e-9):
                raise AssertionError(f"{case} {name}: {got!r} != {want!r}")
        for name, rounds in interleaved_ms(runners, repeat).items():
            # The middle half of the rounds shows how far apart two medians must be to differ.
            q1, ms, q3 = (statistics.quantiles(rounds, n=4, method="inclusive")
                          if len(rounds) > 1 else rounds * 3)
            records.append(dict(part="glm", case=case, impl=name, ms=ms, ms_q1=q1, ms_q3=q3,
                                gbps=nbytes / ms / 1e6))
            print(f"  {case} {name}: {ms:.3f} ms ({nbytes / ms / 1e6:.0f} GB/s)", flush=True)
        del runners, peers
        _release_memory()


# Output ------------------------------------------------------------------------------------


def table(records: list[dict]) -> str:
    lines = []
    chain_rows = [r for r in records if r["part"] == "chains"]
    if chain_rows:
        lines.append("chain            device     k  fused ms  unfused ms  speedup  bound")
        for r in chain_rows:
            lines.append(f"{r['form']:<16} {r['device']:<9} {r['k']:>2}  {r['fused_ms']:8.3f}"
                         f"  {r['unfused_ms']:10.3f}  {r['speedup']:7.2f}  {r['bound']:5.2f}")
    glm_rows = [r for r in records if r["part"] == "glm"]
    for case in dict.fromkeys(r["case"] for r in glm_rows):
        rows = [r for r in glm_rows if r["case"] == case]
        hand = min((r["ms"] for r in rows if r["impl"].startswith("hand")), default=None)
        lines.append(f"\n{case}")
        lines.append("impl             ms        GB/s   vs best hand-written   middle half (ms)")
        for r in sorted(rows, key=lambda r: r["ms"]):
            ratio = f"{r['ms'] / hand:.3f}" if hand else "-"
            spread = f"{r['ms_q1']:.3f}-{r['ms_q3']:.3f}" if "ms_q1" in r else ""
            lines.append(f"{r['impl']:<16} {r['ms']:8.3f}  {r['gbps']:6.0f}   {ratio:<20}"
                         f"   {spread}")
    return "\n".join(lines)


def plot(records: list[dict], path: Path, title: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in records if r["part"] == "chains"]
    if not rows:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=False)
    for ax, form in zip(axes, ("scalar", "array")):
        ks = list(range(1, 11))
        bound = [next(r["bound"] for r in rows if r["form"] == form and r["k"] == k)
                 for k in ks]
        ax.plot(ks, bound, "k--", label="bytes ratio (bound)")
        for device in dict.fromkeys(r["device"] for r in rows):
            pts = [r for r in rows if r["form"] == form and r["device"] == device]
            ax.plot([r["k"] for r in pts], [r["speedup"] for r in pts], "o-", label=device)
        ax.set_xlabel("operations in the chain (k)")
        ax.set_ylabel("fused speedup over fuse=False")
        ax.set_title(f"{form} chain")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", nargs="+", default=["chains", "glm"])
    parser.add_argument("--devices", nargs="+", help="weft devices (default: every GPU one, "
                        "else the default device)")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--small", action="store_true", help="tiny sizes: checks the harness")
    parser.add_argument("--merge", action="store_true",
                        help="keep the records of parts this run does not measure")
    args = parser.parse_args()
    if args.devices:
        devices = [wf.get_device(d) for d in args.devices]
    else:
        gpus = [d for d in wf.devices() if d.kind == "cuda" or not d.handle.is_cpu]
        devices = gpus or [wf.current_device()]
    title = f"{devices[0].name}, {datetime.date.today()}"
    slug = results_dir("gpu" if devices[0].kind == "cuda" else devices[0].kind,
                       devices[0].name).name
    if args.small:
        slug = "small-harness-check"
    out = RESULTS / slug
    out.mkdir(parents=True, exist_ok=True)
    records: list[dict] = []
    missing: dict[str, str] = {}
    if args.merge and (out / "paper.json").exists():
        old = json.loads((out / "paper.json").read_text())
        records = [r for r in old["records"] if r["part"] not in args.parts]
        missing = old["meta"].get("not_measured", {})
    print(f"weft paper evaluation on {title}: {[str(d) for d in devices]}")
    if "chains" in args.parts:
        for device in devices:
            gpu = device.kind == "cuda" or not device.handle.is_cpu
            n = (1 << 14) if args.small else (1 << 26) if gpu else (1 << 22)
            chains(device, n, np.float32, args.repeat, records)
    if "glm" in args.parts:
        glm(devices, args.small, args.repeat, records, missing)
    meta = {"device": title, "date": datetime.date.today().isoformat(),
            "devices": [str(d) for d in devices], "not_measured": missing}
    (out / "paper.json").write_text(json.dumps({"meta": meta, "records": records}, indent=1))
    text = table(records)
    notes = "".join(f"\nnot installed/usable: {k}: {v}" for k, v in missing.items())
    (out / "paper.txt").write_text(f"{title}\n{text}\n{notes}\n")
    print(text)
    if plot(records, out / "paper-chains.png", f"fusion against one kernel per operation, "
            f"{title}"):
        print(f"plot: {out / 'paper-chains.png'}")


if __name__ == "__main__":
    main()
