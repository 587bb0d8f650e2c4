"""Hamiltonian Monte Carlo for a Bayesian logistic regression, written with weft.

The log density is ``wf.stats.bernoulli_logit_glm_lpmf`` plus normal priors; its value and
gradient come from one traced call (``wf.function(wf.value_and_grad(...))``), and a whole
leapfrog step around it is traced too (``leapfrog``), so each step replays the same two
kernels with new positions, momenta and step size. On simulated data the posterior means
land near the coefficients that made the data.

    python examples/hmc_logistic.py [--rows 2000] [--samples 600]
"""

from __future__ import annotations

import argparse

import numpy as np

import weft as wf


def simulate(rows: int, truth: np.ndarray, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, truth.size - 1))
    eta = truth[0] + x @ truth[1:]
    y = (rng.random(rows) < 1 / (1 + np.exp(-eta))).astype(np.float64)
    return x, y


def make_log_density(x: np.ndarray, y: np.ndarray):
    """theta = (alpha, beta...) -> (log density, its gradient), one traced call."""
    x_dev, y_dev = wf.asarray(x), wf.asarray(y)

    def log_density(theta):
        alpha, beta = theta[0], theta[1:]
        prior = wf.stats.normal_lpdf(theta, 0.0, 2.5)
        return wf.stats.bernoulli_logit_glm_lpmf(y_dev, x_dev, alpha, beta) + prior

    return wf.function(wf.value_and_grad(log_density))


def make_leapfrog(value_and_grad):
    """One leapfrog step, traced whole: the position's update is part of the traced
    gradient's expression, and the step size is a run-time value (``g * 0.5 * step``, not
    ``0.5 * step``: Python arithmetic on it would key the trace by its value)."""

    @wf.function
    def leapfrog(theta, p, g, step):
        p = p + g * 0.5 * step
        theta = theta + p * step
        lp, g = value_and_grad(theta)
        return theta, p + g * 0.5 * step, lp, g

    return leapfrog


def hmc(value_and_grad, start: np.ndarray, samples: int, step: float = 0.02,
        leapfrogs: int = 12, seed: int = 1) -> np.ndarray:
    """Plain HMC with a unit mass matrix: ``samples`` draws after as many warm-up ones."""
    rng = np.random.default_rng(seed)
    leapfrog = make_leapfrog(value_and_grad)
    theta = wf.asarray(start)
    lp, grad = value_and_grad(theta)
    lp = float(lp)
    draws = []
    for _ in range(2 * samples):
        momentum = wf.asarray(rng.standard_normal(start.size))
        energy = lp - 0.5 * float((momentum * momentum).sum())
        new, p, g = theta, momentum, grad
        for _ in range(leapfrogs):
            new, p, new_lp, g = leapfrog(new, p, g, step)
        new_energy = float(new_lp) - 0.5 * float((p * p).sum())
        if np.log(rng.random()) < new_energy - energy:
            theta, lp, grad = new, float(new_lp), g
        draws.append(theta.to_numpy())
    return np.array(draws[samples:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=600)
    args = parser.parse_args()
    truth = np.array([0.5, 1.0, -2.0, 0.25])
    x, y = simulate(args.rows, truth)
    draws = hmc(make_log_density(x, y), np.zeros(truth.size), args.samples)
    print("truth:          ", truth)
    print("posterior mean: ", draws.mean(axis=0).round(3))
    print("posterior sd:   ", draws.std(axis=0).round(3))


if __name__ == "__main__":
    main()
