"""Row walks against the passes they replace: the traced value and gradient of the logistic
and normal GLMs (a walk reads ``x`` once; the passes read it for ``x @ beta``, then for
``x.T @ d``), with NumPy's gradient alone beside them on the CPU. ``--passes`` makes the
scheduler join nothing (the session before the walk), so two processes, one with it,
alternated, compare the two on a noisy host.

    PYTHONPATH=src python benchmarks/row_walks.py [--passes] [--rows N] [--cols K]
                                                  [--device D]

Per call, ms: the median of ``--repeat`` synchronized calls after one warm-up call.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import weft as wf


def median_ms(fn, repeat: int) -> float:
    fn()
    wf.synchronize()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        wf.synchronize()
        times.append(time.perf_counter() - start)
    return float(np.median(times)) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", action="store_true", help="join nothing (the passes)")
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--cols", type=int, default=5000)
    parser.add_argument("--device")
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    if args.passes:
        from weft import compiler

        compiler.rowwalk.joined = lambda steps, *_: steps
    if args.device:
        wf.set_device(args.device)
    rng = np.random.default_rng(0)
    xh = rng.standard_normal((args.rows, args.cols)) / np.sqrt(args.cols)
    yb = (rng.random(args.rows) < 0.5).astype(np.int32)
    yn = rng.standard_normal(args.rows)
    bh = rng.standard_normal(args.cols)
    x, beta = wf.asarray(xh), wf.asarray(bh)
    y_bernoulli, y_normal = wf.asarray(yb), wf.asarray(yn)  # (outside: an upload inside a
    # traced function makes it run as plain Python)
    logistic = wf.function(wf.value_and_grad(
        lambda b, a: wf.stats.bernoulli_logit_glm_lpmf(y_bernoulli, x, a, b),
        argnums=(0, 1)))
    normal = wf.function(wf.value_and_grad(
        lambda b, a, s: wf.stats.normal_id_glm_lpdf(y_normal, x, a, b, s),
        argnums=(0, 1, 2)))
    label = "passes" if args.passes else "walk"
    device = wf.current_device()
    def read(value_and_grads: tuple) -> None:
        # The value and the gradient read back: a read waits for the kernels it needs
        # only, and the gradient's may still run after the value's.
        value, grads = value_and_grads
        float(value)
        grads[0].to_numpy()

    for name, call in (("logistic", lambda: read(logistic(beta, 0.1))),
                       ("normal", lambda: read(normal(beta, 0.1, 1.3)))):
        ms = median_ms(call, args.repeat)
        print(f"{label} {device} {name} {args.rows} x {args.cols}: {ms:.3f} ms")
    if device.target.traits.is_cpu:
        def numpy_gradient() -> np.ndarray:
            eta = 0.1 + xh @ bh
            s = 2.0 * yb - 1
            return xh.T @ (s / (1 + np.exp(s * eta)))
        start = time.perf_counter()
        for _ in range(args.repeat):
            numpy_gradient()
        ms = (time.perf_counter() - start) / args.repeat * 1e3
        print(f"numpy logistic gradient alone {args.rows} x {args.cols}: {ms:.3f} ms")


if __name__ == "__main__":
    main()
