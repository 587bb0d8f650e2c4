"""A censored-data gradient: the value and gradient in the shape parameters of
``sum(log Q(shape, rate * t))`` (a gamma model's survival at censored times, as in a
survival analysis), weft's ``value_and_grad`` beside ``jax.jit(jax.value_and_grad)`` on the
same device kind, interleaved in rounds in one process. JAX differentiates ``gammaincc`` in
``a`` (its own series); ibeta's shape gradients have no JAX counterpart.

    python benchmarks/incomplete_gradients.py [N]

Prints per implementation the median and fastest round, ms per call.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import weft as wf


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    rng = np.random.default_rng(0)
    times_h = rng.gamma(3.0, 1.0, n)
    shape_h = rng.uniform(1.0, 6.0, n)
    times, shape = wf.asarray(times_h), wf.asarray(shape_h)

    def weft_loglik(shape):
        return wf.log(wf.gdtrc(1.3, shape, times)).sum()

    weft_step = wf.function(wf.value_and_grad(weft_loglik))

    def run_weft():
        value, grad = weft_step(shape)
        float(value)
        grad.to_numpy()

    implementations = {"weft": run_weft}
    try:
        import jax

        jax.config.update("jax_platforms", "cpu")
        jax.config.update("jax_enable_x64", True)
        jnp = jax.numpy
        times_j, shape_j = jnp.asarray(times_h), jnp.asarray(shape_h)
        jax_step = jax.jit(jax.value_and_grad(
            lambda s: jnp.sum(jnp.log(jax.scipy.special.gammaincc(s, 1.3 * times_j)))))

        def run_jax():
            value, grad = jax_step(shape_j)
            float(value)
            np.asarray(grad)

        implementations["jax.jit"] = run_jax
        want = jax_step(shape_j)
        got = weft_step(shape)
        print("agreement: value", abs(float(got[0]) / float(want[0]) - 1),
              "gradient", float(np.max(np.abs(got[1].to_numpy() / np.asarray(want[1]) - 1))))
    except ImportError:
        print("jax not installed: weft alone")
    rounds: dict[str, list[float]] = {name: [] for name in implementations}
    for fn in implementations.values():
        fn()
    for _ in range(7):
        for name, fn in implementations.items():
            start = time.perf_counter()
            for _ in range(3):
                fn()
            rounds[name].append((time.perf_counter() - start) / 3 * 1e3)
    print(f"device {wf.current_device().name}, n = {n}")
    for name, values in rounds.items():
        print(f"  {name:8s} {statistics.median(values):9.2f} ms (fastest {min(values):.2f})")


if __name__ == "__main__":
    main()
