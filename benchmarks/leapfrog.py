"""An HMC leapfrog step of a Bayesian logistic regression (examples/hmc_logistic.py's model),
per step with Python included: weft three ways against NumPy and jax.jit, in interleaved
rounds of 240 steps (20 trajectories of 12), the median of the rounds. The weft ways: each
update evaluated (the example before 2026-12-02), the updates lazy around a traced value and
gradient, and the whole step traced (the example now). Every way ends at the same position.

    python benchmarks/leapfrog.py [--rows 2000] [--device cuda:0]
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import weft as wf

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "hmc_logistic.py"
STEP = 0.002
STEPS = 240


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("hmc_logistic", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def weft_ways(x: np.ndarray, y: np.ndarray) -> dict[str, Callable[[np.ndarray], Any]]:
    example = _example()
    value_and_grad = example.make_log_density(x, y)
    leapfrog = example.make_leapfrog(value_and_grad)

    def evaluated(theta, p, g):
        p = (p + 0.5 * STEP * g).eval()
        theta = (theta + STEP * p).eval()
        lp, g = value_and_grad(theta)
        return theta, (p + 0.5 * STEP * g).eval(), lp, g

    def lazy(theta, p, g):
        p = p + g * (0.5 * STEP)
        theta = theta + p * STEP
        lp, g = value_and_grad(theta)
        return theta, p + g * (0.5 * STEP), lp, g

    def traced(theta, p, g):
        return leapfrog(theta, p, g, STEP)

    def run(step: Callable) -> Callable[[np.ndarray], Any]:
        def steps(start: np.ndarray) -> np.ndarray:
            theta, p = wf.asarray(start), wf.asarray(np.full(start.size, 0.1))
            _, g = value_and_grad(theta)
            for _ in range(STEPS):
                theta, p, lp, g = step(theta, p, g)
            float(lp)
            return theta.to_numpy()
        return steps

    return {"weft, each update evaluated": run(evaluated),
            "weft, lazy updates, traced gradient": run(lazy),
            "weft, traced leapfrog": run(traced)}


def numpy_way(x: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], Any]:
    def value_and_grad(theta):
        eta = theta[0] + x @ theta[1:]
        d = y - 1 / (1 + np.exp(-eta))
        lp = np.sum(y * eta - np.logaddexp(0, eta)) - 0.5 * np.sum(theta**2) / 2.5**2
        return lp, np.concatenate([[d.sum()], x.T @ d]) - theta / 2.5**2

    def steps(start: np.ndarray) -> np.ndarray:
        theta, p = start.copy(), np.full(start.size, 0.1)
        _, g = value_and_grad(theta)
        for _ in range(STEPS):
            p = p + 0.5 * STEP * g
            theta = theta + STEP * p
            lp, g = value_and_grad(theta)
            p = p + 0.5 * STEP * g
        return theta

    return steps


def jax_way(x: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], Any] | None:
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    jax.config.update("jax_enable_x64", True)
    xj, yj = jnp.asarray(x), jnp.asarray(y)

    def log_density(theta):
        eta = theta[0] + xj @ theta[1:]
        return (jnp.sum(yj * eta - jnp.logaddexp(0.0, eta))
                - 0.5 * jnp.sum(theta**2) / 2.5**2)

    value_and_grad = jax.value_and_grad(log_density)

    @jax.jit
    def leapfrog(theta, p, g):
        p = p + 0.5 * STEP * g
        theta = theta + STEP * p
        lp, g = value_and_grad(theta)
        return theta, p + 0.5 * STEP * g, lp, g

    def steps(start: np.ndarray) -> np.ndarray:
        theta, p = jnp.asarray(start), jnp.full(start.size, 0.1)
        _, g = value_and_grad(theta)
        for _ in range(STEPS):
            theta, p, lp, g = leapfrog(theta, p, g)
        float(lp)
        return np.asarray(theta)

    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--device", help="a weft device (default: the current one)")
    args = parser.parse_args()
    if args.device:
        wf.set_device(args.device)
    truth = np.array([0.5, 1.0, -2.0, 0.25])
    x, y = _example().simulate(args.rows, truth)
    ways = weft_ways(x, y)
    ways["numpy"] = numpy_way(x, y)
    jax_steps = jax_way(x, y)
    if jax_steps is not None:
        import jax

        ways[f"jax.jit leapfrog ({jax.devices()[0].platform})"] = jax_steps
    start = np.zeros(truth.size)
    ends = {name: steps(start) for name, steps in ways.items()}  # compiles, traces
    reference = ends["numpy"]
    for name, end in ends.items():
        np.testing.assert_allclose(end, reference, rtol=1e-9, err_msg=name)
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.rounds):
        for name, steps in ways.items():
            begin = time.perf_counter()
            steps(start)
            times[name].append((time.perf_counter() - begin) / STEPS * 1e6)
    print(f"{wf.current_device()}: logistic regression {args.rows} x {truth.size - 1}, "
          f"µs per leapfrog step (median of {args.rounds} interleaved rounds, min-max)")
    for name, found in times.items():
        print(f"  {name:38s} {np.median(found):8.1f}  ({min(found):.1f}-{max(found):.1f})")


if __name__ == "__main__":
    main()
