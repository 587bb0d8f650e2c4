"""Where a small traced call's time goes, layer by layer: the whole call (``wf.function``),
its trace's replay with the result arrays (``Trace.run``), the replay alone (``Replay.run``:
allocation, the generated runner, the launch), and the bare launch of the same kernel with
its holes already set (the floor); then cProfile over many calls.

    python benchmarks/profile_call.py [--case c*(a+b)|normal_lpdf|chain10|mcmc] [--calls N]

``mcmc`` adds the read of the result: ``float(normal_lpdf(y, mu, sigma))`` per call.

Wall time per call, the median of rounds, Python included, after a synchronize per round.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

import numpy as np

import weft as wf


def per_call(fn, calls: int, rounds: int = 7) -> float:
    """µs per call: the median over ``rounds`` of ``calls`` back-to-back calls."""
    for _ in range(200):
        fn()
    times = []
    for _ in range(rounds):
        wf.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        wf.synchronize()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(times)


def chain10(a):
    x = a
    for k in range(5):
        x = wf.exp(x * 0.001) if k % 2 else x * 1.0001 + 0.5
        x = x - 0.25
    return x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", default="c*(a+b)",
                        choices=["c*(a+b)", "normal_lpdf", "chain10", "mcmc"])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    device = wf.current_device()
    print(f"device: {device} ({device.name}); case {args.case}")
    if args.case == "c*(a+b)":
        a, b = (wf.asarray(rng.uniform(-1, 1, 1000).astype(np.float32)) for _ in range(2))
        traced = wf.function(lambda a, b, c: c * (a + b))
        call_args = (a, b, 2.5)
    elif args.case in ("normal_lpdf", "mcmc"):
        y = wf.asarray(rng.standard_normal(1000))
        traced = wf.function(lambda y, mu, sigma: wf.stats.normal_lpdf(y, mu, sigma))
        call_args = (y, 0.3, 1.2)
    else:
        a = wf.asarray(rng.uniform(-1, 1, 1000).astype(np.float32))
        traced = wf.function(chain10)
        call_args = (a,)
    traced(*call_args)
    trace = next(iter(traced.plans.values()))
    replay = trace.replay
    inputs = [v._node.attrs.storage if isinstance(v, wf.Array) else v
              for v in [call_args[k] for k in trace.inputs]]
    leaves = list(call_args)
    layers = {
        "wf.function call": lambda: traced(*call_args),
        "Trace.run": lambda: trace.run(leaves),
        "Replay.run": lambda: replay.run(inputs),
    }
    if args.case == "mcmc":
        result = traced(*call_args)
        layers = {"float(call)": lambda: float(traced(*call_args)), **layers,
                  "float(result)": lambda: float(result)}
    for name, fn in layers.items():
        print(f"  {name:<18} {per_call(fn, args.calls):8.2f} us")
    profile = cProfile.Profile()
    profile.enable()
    profiled = layers.get("float(call)", layers["wf.function call"])
    for _ in range(args.calls):
        profiled()
    wf.synchronize()
    profile.disable()
    pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
