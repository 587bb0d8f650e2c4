"""wf.stats's GLMs against scipy.stats on every device: the normal, logistic and Poisson
GLMs with one predictor and many (the product written out in the density's kernel, or a
row reduction), scalar and vector intercepts and scales, float32, a scalar outcome, shape
errors naming the argument, and a non-finite linear predictor reported with its row."""

from __future__ import annotations

import os

import numpy as np
import pytest
from scipy import stats as st
from scipy.special import expit

import weft as wf

RNG = np.random.default_rng(17)
LARGE = os.environ.get("WEFT_TEST_PROFILE") == "large"


def _glm_data(n: int, k: int, dtype, vector_alpha: bool):
    x = RNG.normal(size=(n, k)).astype(dtype) / np.sqrt(k)
    beta = RNG.normal(size=k).astype(dtype)
    alpha = RNG.normal(size=n).astype(dtype) if vector_alpha else 0.3
    return x, beta, alpha


# One predictor and many (each pairing builds its three GLMs' kernels); three as well under
# WEFT_TEST_PROFILE=large.
GLM_WIDTHS = [1, 3, 40] if LARGE else [1, 40]


@pytest.mark.parametrize("k", GLM_WIDTHS, ids=[f"k{k}" for k in GLM_WIDTHS])
@pytest.mark.parametrize("vector_args", [False, True], ids=["scalars", "vectors"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_glms_match_scipy(device, k, vector_args, dtype):
    if dtype == np.float64 and not device.supports_fp64:
        pytest.skip("no float64 on this device")
    n = 301
    x, beta, alpha = _glm_data(n, k, dtype, vector_args)
    eta = np.asarray(alpha, dtype=np.float64) + x.astype(np.float64) @ beta.astype(np.float64)
    wx, wb = wf.asarray(x), wf.asarray(beta)
    wa = wf.asarray(alpha) if vector_args else alpha
    tol = {"rtol": 1e-10} if dtype == np.float64 else {"rtol": 1e-4}

    y = (eta + RNG.normal(size=n)).astype(dtype)
    sigma = RNG.uniform(0.5, 2.0, n).astype(dtype) if vector_args else 1.3
    got = wf.stats.normal_id_glm_lpdf(wf.asarray(y), wx, wa, wb,
                                      wf.asarray(sigma) if vector_args else sigma)
    np.testing.assert_allclose(float(got), st.norm.logpdf(y, eta, sigma).sum(), **tol)

    n01 = RNG.integers(0, 2, n)
    got = wf.stats.bernoulli_logit_glm_lpmf(wf.asarray(n01), wx, wa, wb)
    np.testing.assert_allclose(float(got), st.bernoulli.logpmf(n01, expit(eta)).sum(), **tol)

    counts = RNG.poisson(np.exp(eta))
    got = wf.stats.poisson_log_glm_lpmf(wf.asarray(counts), wx, wa, wb)
    np.testing.assert_allclose(float(got), st.poisson.logpmf(counts, np.exp(eta)).sum(), **tol)


def test_glm_scalar_outcome_broadcasts(device):
    x, beta, _ = _glm_data(50, 2, np.float64, False)
    got = wf.stats.normal_id_glm_lpdf(0.5, wf.asarray(x), 0.1, wf.asarray(beta), 2.0)
    np.testing.assert_allclose(float(got), st.norm.logpdf(0.5, 0.1 + x @ beta, 2.0).sum(),
                               rtol=1e-12)


def test_glm_shape_errors_name_the_argument(device):
    x = wf.asarray(RNG.normal(size=(10, 3)))
    beta = wf.asarray(RNG.normal(size=3))
    y = wf.asarray(RNG.normal(size=10))
    with pytest.raises(ValueError, match=r"beta must have shape \(3,\).*got \(4,\)"):
        wf.stats.normal_id_glm_lpdf(y, x, 0.0, wf.asarray(np.ones(4)), 1.0)
    with pytest.raises(ValueError, match=r"y must be a scalar or have shape \(10,\)"):
        wf.stats.normal_id_glm_lpdf(wf.asarray(np.ones(9)), x, 0.0, beta, 1.0)
    with pytest.raises(ValueError, match=r"alpha must be a scalar or have shape \(10,\)"):
        wf.stats.poisson_log_glm_lpmf(wf.asarray(np.ones(10, int)), x,
                                      wf.asarray(np.ones(3)), beta)
    with pytest.raises(ValueError, match="x must be a matrix"):
        wf.stats.bernoulli_logit_glm_lpmf(wf.asarray(np.ones(10, int)), beta, 0.0, beta)


@pytest.mark.parametrize("k", [2, 40])
def test_glm_reports_a_non_finite_predictor_with_its_row(device, k):
    x = RNG.normal(size=(20, k))
    x[13, 1] = np.nan
    y = wf.asarray(RNG.normal(size=20))
    with pytest.raises(ValueError, match=r"normal_id_glm_lpdf: the linear predictor .* "
                                         r"\(alpha \+ x @ beta\)\[13\] = nan"):
        float(wf.stats.normal_id_glm_lpdf(y, wf.asarray(x), 0.0,
                                          wf.asarray(np.ones(k)), 1.0))
