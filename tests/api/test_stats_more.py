"""densities.py's log densities (wf.stats) against scipy.stats on every device: each
with every argument an array and every one a Python scalar (float64; all patterns with
WEFT_TEST_PROFILE=large), all arrays in float32, outside and on the edges of the supports,
bad arguments (ordered pairs included, in repeated calls too), and gradients against
central differences, with test_stats.py's and test_grad.py's harnesses."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as st
from scipy.special import expit
from test_grad import COUNTS, Y, _check
from test_stats import LARGE, PATTERNS, check_bad_argument, check_density, check_edges

import weft as wf

MORE_DENSITIES = {
    "lognormal_lpdf": (("positive", "real", "positive"),
                       lambda y, m, s: st.lognorm.logpdf(y, s, scale=np.exp(m))),
    "cauchy_lpdf": (("real", "real", "positive"), lambda y, m, s: st.cauchy.logpdf(y, m, s)),
    "logistic_lpdf": (("real", "real", "positive"),
                      lambda y, m, s: st.logistic.logpdf(y, m, s)),
    "double_exponential_lpdf": (("real", "real", "positive"),
                                lambda y, m, s: st.laplace.logpdf(y, m, s)),
    "weibull_lpdf": (("positive", "positive", "positive"),
                     lambda y, a, s: st.weibull_min.logpdf(y, a, scale=s)),
    "inv_gamma_lpdf": (("positive", "positive", "positive"),
                       lambda y, a, b: st.invgamma.logpdf(y, a, scale=b)),
    "chi_square_lpdf": (("positive", "positive"), lambda y, nu: st.chi2.logpdf(y, nu)),
    "uniform_lpdf": (("unit", "low", "high"), lambda y, a, b: st.uniform.logpdf(y, a, b - a)),
    "von_mises_lpdf": (("real", "real", "positive"),
                       lambda y, m, k: st.vonmises.logpdf(y, k, loc=m)),
    "poisson_lpmf": (("count", "positive"), lambda n, lam: st.poisson.logpmf(n, lam)),
    "bernoulli_lpmf": (("binary", "unit"), lambda n, t: st.bernoulli.logpmf(n, t)),
    "binomial_lpmf": (("count", "trials", "unit"), lambda n, m, t: st.binom.logpmf(n, m, t)),
    "binomial_logit_lpmf": (("count", "trials", "logit"),
                            lambda n, m, a: st.binom.logpmf(n, m, expit(a))),
    "neg_binomial_2_lpmf": (("count", "positive", "positive"),
                            lambda n, mu, phi: st.nbinom.logpmf(n, phi, phi / (mu + phi))),
}

# Every density with every argument an array in float64. float32 where a special function
# computes in double and rounds (its own float32 path otherwise), and Python scalars (the
# host's checks and a repeated call's template) where two arguments are checked together.
# Every pattern of every density with WEFT_TEST_PROFILE=large.
FLOAT32 = {"inv_gamma_lpdf", "chi_square_lpdf", "von_mises_lpdf", "binomial_lpmf",
           "binomial_logit_lpmf", "neg_binomial_2_lpmf"}
SCALARS = {"uniform_lpdf", "binomial_lpmf"}
CASES = [(name, pattern, dtype) for name in MORE_DENSITIES for pattern in PATTERNS
         for dtype in (np.float64, np.float32)
         if LARGE or (pattern, dtype) == ("all arrays", np.float64)
         or (name in FLOAT32 and (pattern, dtype) == ("all arrays", np.float32))
         or (name in SCALARS and (pattern, dtype) == ("all scalars", np.float64))]


@pytest.mark.parametrize(
    "name, pattern, dtype", CASES,
    ids=[f"{n}-{p}-{'f64' if d == np.float64 else 'f32'}" for n, p, d in CASES])
def test_density_matches_scipy(device, name, pattern, dtype):
    check_density(device, MORE_DENSITIES[name], name, pattern, dtype)


EDGES = [
    (wf.stats.lognormal_lpdf, ([0.0, -1.0, np.inf], [0.0] * 3, [1.0] * 3),
     lambda y, m, s: st.lognorm.logpdf(y, s, scale=np.exp(m))),
    (wf.stats.weibull_lpdf, ([0.0, 0.0, -1.0], [1.0, 2.0, 2.0], [2.0] * 3),
     lambda y, a, s: st.weibull_min.logpdf(y, a, scale=s)),
    (wf.stats.weibull_lpdf, ([0.0], [0.5], [2.0]),
     lambda y, a, s: st.weibull_min.logpdf(y, a, scale=s)),
    (wf.stats.inv_gamma_lpdf, ([0.0, -2.0], [2.0, 2.0], [1.0, 1.0]),
     lambda y, a, b: st.invgamma.logpdf(y, a, scale=b)),
    (wf.stats.chi_square_lpdf, ([0.0, 0.0, -1.0], [2.0, 4.0, 3.0]),
     lambda y, nu: st.chi2.logpdf(y, nu)),
    (wf.stats.uniform_lpdf, ([-1.0, 2.0, 0.5], [-1.0] * 3, [2.0] * 3),
     lambda y, a, b: st.uniform.logpdf(y, a, b - a)),
    (wf.stats.uniform_lpdf, ([2.5], [-1.0], [2.0]),
     lambda y, a, b: st.uniform.logpdf(y, a, b - a)),
    (wf.stats.poisson_lpmf, ([0, 2], [0.0, 0.0]), lambda n, lam: st.poisson.logpmf(n, lam)),
    (wf.stats.bernoulli_lpmf, ([0, 1, 1], [0.0, 1.0, 0.0]),
     lambda n, t: st.bernoulli.logpmf(n, t)),
    (wf.stats.binomial_lpmf, ([0, 5, 5], [5, 5, 7], [0.0, 1.0, 1.0]),
     lambda n, m, t: st.binom.logpmf(n, m, t)),
    (wf.stats.neg_binomial_2_lpmf, ([0, 3, 2], [0.0, 0.0, 1.5], [2.0, 2.0, 1e9]),
     lambda n, mu, phi: st.nbinom.logpmf(n, phi, phi / (mu + phi))),
    (wf.stats.von_mises_lpdf, ([0.3, 3.0], [0.0, -3.0], [0.0, 500.0]),
     lambda y, m, k: st.vonmises.logpdf(y, k, loc=m)),
]


def test_edges_of_the_supports_match_scipy(device):
    check_edges(EDGES)


BAD = [
    ("lognormal_lpdf", ([0.5, 1.0, 2.0], 0.0, 1.0), 2, 0.0, "positive and finite"),
    ("cauchy_lpdf", ([0.5, 1.0, 2.0], 0.0, 1.0), 1, np.nan, "finite"),
    ("weibull_lpdf", ([0.5, 1.0, 2.0], 2.0, 1.0), 1, -1.0, "positive and finite"),
    ("uniform_lpdf", ([0.5, 1.0, 1.5], 0.0, 2.0), 2, -1.0, "greater than alpha"),
    ("von_mises_lpdf", ([0.5, 1.0, 2.0], 0.0, 1.0), 2, -1.0, "non-negative and finite"),
    ("poisson_lpmf", ([0, 1, 4], 1.5), 1, -0.5, "non-negative and finite"),
    ("binomial_lpmf", ([1, 2, 3], 10, 0.3), 1, 0, "at least n"),
    ("binomial_lpmf", ([1, 2, 3], 10, 0.3), 2, 1.5, r"in \[0, 1\]"),
    ("neg_binomial_2_lpmf", ([0, 1, 4], 2.0, 3.0), 2, 0.0, "positive and finite"),
]
ARG_NAMES = {"lognormal_lpdf": ("y", "mu", "sigma"), "cauchy_lpdf": ("y", "mu", "sigma"),
             "weibull_lpdf": ("y", "alpha", "sigma"), "uniform_lpdf": ("y", "alpha", "beta"),
             "von_mises_lpdf": ("y", "mu", "kappa"), "poisson_lpmf": ("n", "lam"),
             "binomial_lpmf": ("n", "N", "theta"), "neg_binomial_2_lpmf": ("n", "mu", "phi")}


@pytest.mark.parametrize("case", BAD, ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in BAD])
def test_bad_arguments_raise_naming_argument_index_and_value(device, case):
    check_bad_argument(case, ARG_NAMES)


def test_ordered_arguments_are_checked_in_repeated_calls_too(device):
    """uniform_lpdf's bounds and binomial_lpmf's n <= N: a first call with Python scalars is
    checked on the host; a repeated call, rebuilt from its template, in the kernel."""
    y, n = wf.asarray([0.5, 1.0]), wf.asarray([1, 2])
    assert float(wf.stats.uniform_lpdf(y, 0.0, 2.0)) == pytest.approx(-2 * np.log(2.0))
    with pytest.raises(ValueError, match="beta must be greater than alpha"):
        float(wf.stats.uniform_lpdf(y, 3.0, 2.0))
    np.testing.assert_allclose(float(wf.stats.binomial_lpmf(n, 6, 0.3)),
                               st.binom.logpmf([1, 2], 6, 0.3).sum(), rtol=1e-12)
    with pytest.raises(ValueError, match=r"N must be at least n; N\[1\]"):
        float(wf.stats.binomial_lpmf(n, 1, 0.3))


GRADIENTS = {
"lognormal": (lambda y, mu, s: wf.stats.lognormal_lpdf(y, mu, s), Y, Y - 0.5, Y + 1),
"cauchy": (lambda y, mu, s: wf.stats.cauchy_lpdf(y, mu, s), Y, Y[::-1].copy(), Y + 1),
"logistic": (lambda y, mu, s: wf.stats.logistic_lpdf(y, mu, s), Y, Y[::-1].copy(), Y + 1),
"double_exponential": (lambda y, mu, s: wf.stats.double_exponential_lpdf(y, mu, s),
                       Y, Y[::-1].copy() + 0.05, Y + 1),
"weibull": (lambda y, a, s: wf.stats.weibull_lpdf(y, a, s), Y, Y + 1, Y + 0.5),
"inv_gamma": (lambda y, a, b: wf.stats.inv_gamma_lpdf(y, a, b), Y, Y + 1, Y + 0.5),
"chi_square": (lambda y, nu: wf.stats.chi_square_lpdf(y, nu), Y, Y + 2),
"uniform": (lambda a, b: wf.stats.uniform_lpdf(wf.asarray(Y), a, b), Y - 1, Y + 1),
"von_mises": (lambda y, mu, k: wf.stats.von_mises_lpdf(y, mu, k), Y, Y - 0.3, Y + 1),
"poisson": (lambda lam: wf.stats.poisson_lpmf(wf.asarray(COUNTS * 3), lam), Y + 0.5),
"bernoulli": (lambda t: wf.stats.bernoulli_lpmf(wf.asarray(COUNTS), t), Y),
"binomial": (lambda t: wf.stats.binomial_lpmf(wf.asarray(COUNTS * 3), 7, t), Y),
"binomial_logit": (lambda a: wf.stats.binomial_logit_lpmf(wf.asarray(COUNTS * 3), 7, a),
                   Y - 0.5),
"neg_binomial_2": (lambda mu, phi: wf.stats.neg_binomial_2_lpmf(wf.asarray(COUNTS * 3),
                                                                 mu, phi), Y + 0.5, Y + 1),
}


@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_against_finite_differences(device, name):
    f, *args = GRADIENTS[name]
    _check(f, *args, rtol=2e-5, atol=1e-6)


def test_multi_normal_cholesky_matches_scipy_and_differentiates(device):
    """Rows of y against one mean or a mean per row, one vector, a scalar mean and float32,
    the upper triangle of L never read, a bad diagonal and bad shapes named, and the
    gradient in y, mu and L against central differences."""
    rng = np.random.default_rng(9)
    k = 3
    a = rng.standard_normal((k, k))
    cov = a @ a.T + k * np.eye(k)
    factor = np.linalg.cholesky(cov)
    y, mu = rng.standard_normal((40, k)), rng.standard_normal(k)
    means = rng.standard_normal((40, k))
    density = wf.stats.multi_normal_cholesky_lpdf
    upper = factor + np.triu(np.full((k, k), 7.0), 1)
    cases = [((y, mu, factor), st.multivariate_normal.logpdf(y, mu, cov).sum()),
             ((y[0], mu, factor), st.multivariate_normal.logpdf(y[0], mu, cov)),
             ((y, means, factor),
              sum(st.multivariate_normal.logpdf(y[i], means[i], cov) for i in range(40))),
             ((y, 0.5, factor), st.multivariate_normal.logpdf(y, np.full(k, 0.5), cov).sum()),
             ((y, mu, upper), st.multivariate_normal.logpdf(y, mu, cov).sum())]
    for args, want in cases:
        got = density(*(wf.asarray(v) if isinstance(v, np.ndarray) else v for v in args))
        np.testing.assert_allclose(float(got), want, rtol=1e-12)
    single = density(*(wf.asarray(v.astype(np.float32)) for v in (y, mu, factor)))
    assert single.dtype == wf.float32
    np.testing.assert_allclose(float(single), cases[0][1], rtol=2e-6)
    bad = factor.copy()
    bad[1, 1] = -1.0
    with pytest.raises(ValueError, match=r"the diagonal of L must be positive and finite; "
                                         r"L\[i, i\] at i = \[1\] is -1.0"):
        float(density(wf.asarray(y), wf.asarray(mu), wf.asarray(bad)))
    with pytest.raises(ValueError, match=r"y must have shape \(2,\) or \(n, 2\)"):
        density(wf.asarray(y), wf.asarray(mu), wf.asarray(factor[:2, :2]))
    with pytest.raises(ValueError, match="L must be a square matrix"):
        density(wf.asarray(y), wf.asarray(mu), wf.asarray(factor[:2]))
    _check(lambda v, m, lo: density(v, m, lo), y[:4], mu, np.tril(factor), rtol=2e-5, atol=1e-6)



@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_checked_sums_of_cosines_with_huge_angles(device, dtype):
    """von_mises_lpdf's checked sum: on CPUs its band walks in two passes (the first through
    the fast cos, noting a huge angle; then again, the check's note reset). Huge angles
    planted at a part's ends and inside it give SciPy's value, and an infinite one among
    them still names its own index."""
    rng = np.random.default_rng(31)
    y = rng.uniform(-3, 3, 5000)
    y[[0, 1, 2047, 2048, 4999]] = [1e30, -3e20, 2.0**52, 7e15, -(2.0**50)]
    y = y.astype(dtype)
    got = float(wf.stats.von_mises_lpdf(wf.asarray(y), 0.3, 2.0))
    angle = (y - dtype(0.3)).astype(np.float64)  # as the kernel rounds it
    want = st.vonmises.logpdf(angle, 2.0).sum()
    assert got == pytest.approx(want, rel=1e-12 if dtype == np.float64 else 1e-5)
    if device.kind == "opencl" and device.handle.is_cpu:
        source = wf.kernel_source(wf.stats.von_mises_lpdf(wf.asarray(y), 0.3, 2.0))
        assert "int weft_huge = 0;" in source and "failed = 0;" in source
    y[3000] = np.inf
    with pytest.raises(ValueError, match=r"y must be finite; y\[3000\] = inf"):
        float(wf.stats.von_mises_lpdf(wf.asarray(y), 0.3, 2.0))
