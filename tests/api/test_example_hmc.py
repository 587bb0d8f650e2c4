"""The HMC example (examples/hmc_logistic.py) on simulated data: the posterior means of a
Bayesian logistic regression, sampled with weft's traced value and gradient, land within a
few posterior standard deviations of the coefficients that made the data."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hmc_logistic.py"


def test_hmc_recovers_the_coefficients():
    spec = importlib.util.spec_from_file_location("hmc_logistic", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    truth = np.array([0.5, 1.0, -2.0, 0.25])
    x, y = example.simulate(2000, truth)
    draws = example.hmc(example.make_log_density(x, y), np.zeros(truth.size), samples=80)
    assert np.unique(draws[:, 0]).size > 20  # the chain moves
    mean, sd = draws.mean(axis=0), draws.std(axis=0)
    assert np.all(np.abs(mean - truth) < 4 * sd + 0.05), (mean, sd)
