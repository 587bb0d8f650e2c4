"""The per-call overhead suite: time per call, Python included, of small cached calls where
the host path, not the kernel, decides the speed (issue 35).

    python benchmarks/overhead.py [--rounds 7] [--calls 1000]

Cases (1000 elements each): ``c*(a+b)`` (float32), ``normal_lpdf`` (the sum of a normal log
density, float64; weft calls ``wf.stats.normal_lpdf``, the others write the formula out), a
10-op element-wise ``chain10`` (float32), and ``mcmc``: ``float(normal_lpdf(...))`` per
iteration, evaluate and read back. Implementations: weft's ad-hoc lazy expressions, weft's
traced functions (``wf.function``; its ``normal_lpdf`` takes mu and sigma as float
arguments, as an MCMC loop does), and every peer found: NumPy on a CPU device, and on a GPU
CuPy, ``cupy.fuse``, torch, ``torch.compile`` and ``jax.jit``. Implementations run
interleaved, round by round, in one process; the table gives each one's median over the
rounds. Writes ``results/<device>/overhead.{txt,json}``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from common import results_dir  # noqa: E402
from peers import Impl, WeftImpl, find_impls, numpy_namespace  # noqa: E402

import weft as wf  # noqa: E402

N = 1000
MU, SIGMA = 0.3, 1.2
HALF_LOG_TWO_PI = 0.5 * math.log(2 * math.pi)


def c_times_a_plus_b(xp, a, b):
    return 2.5 * (a + b)


def normal_lpdf(xp, y):
    z = (y - MU) / SIGMA
    return xp.sum(-0.5 * z * z - math.log(SIGMA) - HALF_LOG_TWO_PI)


def chain10(xp, a):
    x = a
    for k in range(5):
        x = xp.exp(x * 0.001) if k % 2 else x * 1.0001 + 0.5
        x = x - 0.25
    return x


CASES: dict[str, tuple[Callable, dict[str, Any]]] = {
    "c*(a+b)": (c_times_a_plus_b, {"a": np.float32, "b": np.float32}),
    "normal_lpdf": (normal_lpdf, {"y": np.float64}),
    "chain10": (chain10, {"a": np.float32}),
    "mcmc": (normal_lpdf, {"y": np.float64}),
}


class WeftAdHoc(WeftImpl):
    """weft without a decorator: the expression is built at every call (weft's densities
    through ``wf.stats``)."""

    def prepare(self, fn, case):
        if case in ("normal_lpdf", "mcmc"):
            read = float if case == "mcmc" else wf.Array.eval
            return lambda y: read(wf.stats.normal_lpdf(y, MU, SIGMA))
        ns = self.ns
        return lambda **kw: fn(ns, **kw).eval()


class WeftTraced(WeftImpl):
    """weft's traced functions (``wf.function``)."""

    def prepare(self, fn, case):
        if case in ("normal_lpdf", "mcmc"):
            lp = wf.function(lambda y, mu, sigma: wf.stats.normal_lpdf(y, mu, sigma))
            if case == "mcmc":
                return lambda y: float(lp(y, MU, SIGMA))
            return lambda y: lp(y, MU, SIGMA)
        ns = self.ns
        traced = wf.function(lambda *args: fn(ns, *args))
        return lambda **kw: traced(*kw.values())


class NumPyImpl(Impl):
    name = "numpy"

    def __init__(self) -> None:
        self.ns = numpy_namespace()

    def inputs(self, host):
        return dict(host)

    def prepare(self, fn, case):
        ns = self.ns
        if case == "mcmc":
            return lambda **kw: float(fn(ns, **kw))
        return lambda **kw: fn(ns, **kw)

    def sync(self):
        pass


def with_reads(impl: Impl) -> Impl:
    """A GPU peer whose ``mcmc`` case reads the float back (``float`` of its 0-d result)."""
    prepare = impl.prepare

    def prepared(fn, case):
        run = prepare(fn, "normal_lpdf" if case == "mcmc" else case)
        if run is None or case != "mcmc":
            return run
        return lambda **kw: float(run(**kw))
    impl.prepare = prepared
    return impl


def implementations() -> list[Impl]:
    device = wf.current_device()
    found = [WeftAdHoc("weft", device), WeftTraced("weft.function", device)]
    if device.kind == "cuda":
        peers, _ = find_impls(None, small=True)
        found += [with_reads(p) for p in peers if not p.name.startswith("weft")]
    else:
        found.append(NumPyImpl())
    return found


def measure(impls: list[Impl], rounds: int, calls: int) -> list[dict]:
    rng = np.random.default_rng(5)
    prepared: list[tuple[str, Impl, Callable, dict]] = []
    for case, (fn, names) in CASES.items():
        host = {k: rng.uniform(-1, 1, N).astype(t) for k, t in names.items()}
        for impl in impls:
            run = impl.prepare(fn, case)
            if run is None:
                continue
            data = impl.inputs(host)
            for _ in range(50):  # compile and trace, then warm
                run(**data)
            impl.sync()
            prepared.append((case, impl, run, data))
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        for case, impl, run, data in prepared:
            t0 = time.perf_counter()
            for _ in range(calls):
                run(**data)
            impl.sync()
            times.setdefault((case, impl.name), []).append(
                (time.perf_counter() - t0) / calls * 1e6)
    return [dict(case=case, impl=name, us=statistics.median(v), us_min=min(v), n=N)
            for (case, name), v in times.items()]


def table(records: list[dict], device: str) -> str:
    names = list(dict.fromkeys(r["impl"] for r in records))
    lines = [f"# Per-call time, µs (median of rounds; min), {device}, {date.today()}",
             f"# host: {platform.processor() or platform.machine()}, "
             f"python {platform.python_version()}", "",
             "| case | " + " | ".join(names) + " |",
             "|---|" + "---|" * len(names)]
    for case in CASES:
        row = {r["impl"]: r for r in records if r["case"] == case}
        cells = [f"{row[n]['us']:.1f} ({row[n]['us_min']:.1f})" if n in row else "—"
                 for n in names]
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--out", default="overhead", help="result file name (no suffix)")
    args = parser.parse_args()
    device = wf.current_device()
    records = measure(implementations(), args.rounds, args.calls)
    kind = "gpu" if device.kind == "cuda" else device.kind
    text = table(records, f"{device} ({device.name})")
    print(text)
    out = results_dir(kind, device.name)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{args.out}.txt").write_text(text)
    (out / f"{args.out}.json").write_text(json.dumps(records, indent=1))


if __name__ == "__main__":
    main()
