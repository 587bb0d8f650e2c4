"""Every benchmark case, as data: its inputs, the computation written once against a small
namespace each implementation provides (``impls.py``), and the fewest bytes it must move
(every input read once, every output written once; a triangular sum reads only its triangle).

A case runs wherever its namespace functions exist; ``weft`` overrides the computation for
weft where weft has a library function for it (``wf.stats``), ``numexpr`` is its numexpr
string, and ``hand`` names its hand-written kernel (``handwritten.py``).

>>> CASES["c*(a+b)"].inputs(np.random.default_rng(0), 8, np.float32)["a"].shape
(8,)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
MU, SIGMA = 0.3, 1.2  # the overhead cases' density parameters


@dataclass(frozen=True)
class Case:
    name: str
    fn: Callable[..., Any]  # fn(xp, **inputs): the computation on namespace xp
    inputs: Callable[[np.random.Generator, int, Any], dict[str, Any]]  # (rng, n, dtype)
    outputs: int = 1  # output arrays as large as an input (0: reductions to few values)
    read_fraction: float = 1.0  # of each input (a triangle: about half)
    numexpr: str | None = None
    weft: Callable[..., Any] | None = None  # weft's own way, on weft inputs
    weft_floats: tuple[tuple[str, float], ...] = ()  # more arguments of ``weft``: floats
    hand: str | None = None  # the hand-written kernel: a method of handwritten's kernel sets
    read_back: bool = False  # each call reads its 0-d result as a float (an MCMC loop)
    setup: Callable[..., dict[str, Any]] | None = None  # setup(xp, **inputs), untimed
    streams: int | None = None  # else: every input read once, ``outputs`` written
    bound: float | None = None  # a chain's bound on the fused speedup: the bytes ratio
    tolerance: tuple[float, float] | None = None  # (rtol, atol) against the reference
    reference: Callable[..., Any] | None = None  # reference(**inputs), else fn on NumPy
    # Inputs to differentiate: the case computes the value and its gradient with respect to
    # them (value_and_grad), compared as one flat array [value, *gradients].
    grad: tuple[str, ...] = ()

    def nbytes(self, host: dict[str, Any]) -> float:
        """The fewest bytes the case moves."""
        arrays = [v for v in host.values() if isinstance(v, np.ndarray) and v.dtype != bool]
        if not arrays:
            return 0.0  # (draws made inside the call)
        largest = max(a.nbytes for a in arrays)
        if self.streams is not None:
            return self.streams * largest
        return sum(a.nbytes for a in arrays) * self.read_fraction + self.outputs * largest


# Inputs --------------------------------------------------------------------------------


def uniform(names: str, low: float = -1.0, high: float = 1.0):
    def make(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, Any]:
        return {k: rng.uniform(low, high, n).astype(dtype) for k in names.split()}
    return make


def square(names: str = "a"):
    """Square matrices of about ``n`` elements (side 2^floor(log2(n) / 2))."""
    def make(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, Any]:
        side = 1 << (max(n.bit_length() - 1, 0) // 2)
        return {k: rng.uniform(-1.0, 1.0, (side, side)).astype(dtype) for k in names.split()}
    return make


def normal_inputs(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, Any]:
    return {"y": rng.standard_normal(n).astype(dtype), "mu": rng.standard_normal(n).astype(dtype),
            "sigma": rng.uniform(0.5, 2.0, n).astype(dtype)}


def glm_inputs(columns: int):
    """A normal linear model with ``n`` rows of ``columns`` predictors (``n`` rounded to
    whole rows), scalar alpha and sigma."""
    def make(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, Any]:
        rows = max(n // columns, 1)
        x = (rng.standard_normal((rows, columns)) / math.sqrt(columns)).astype(dtype)
        beta = rng.standard_normal(columns).astype(dtype)
        alpha, sigma = 0.3, 1.7
        y = (alpha + x @ beta + sigma * rng.standard_normal(rows)).astype(dtype)
        return {"x": x, "y": y, "beta": beta, "alpha": alpha, "sigma": sigma}
    return make


def mask_inputs(pattern: str):
    """In-place masked add (dst = lhs + rhs where selected): the mask's pattern decides
    which 32-byte sectors a store covers whole."""
    def make(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, Any]:
        selected = {"all set": np.ones(n, bool),
                    "runs of 256": (np.arange(n) // 256) % 2 == 0,
                    "random 50%": rng.random(n) < 0.5,
                    "none": None}[pattern]
        data = {k: rng.standard_normal(n).astype(dtype) for k in ("dst", "lhs", "rhs")}
        if selected is not None:
            data["selected"] = selected
        return data
    return make


# Computations --------------------------------------------------------------------------


def normal_pdf(xp, y, mu, sigma):
    z = (y - mu) / sigma
    return xp.exp(-0.5 * z * z) * INV_SQRT_2PI / sigma


def normal_lpdf_sum(xp, y, mu, sigma):
    z = (y - mu) / sigma
    return xp.sum(-0.5 * z * z - xp.log(sigma) - LOG_SQRT_2PI)


def chain6(xp, x):
    return xp.sin(x) * 2.0 + xp.cos(x) * x - x * 0.5 + 1.0


def chain8(xp, x):
    return ((((((x * 1.5 + 0.25) * x - 0.5) * x + 2.0) * x - 1.0) * x + 0.75) * x - 0.125) * x


def chain10(xp, a):
    x = a
    for k in range(5):
        x = xp.exp(x * 0.001) if k % 2 else x * 1.0001 + 0.5
        x = x - 0.25
    return x


def glm_lpdf(xp, x, y, beta, alpha, sigma):
    """The normal linear model's log density written the natural way: a matrix-vector
    product, then the element-wise work and a sum."""
    z = (y - (x @ beta + alpha)) / sigma
    n = y.shape[0]
    log_sigma = math.log(sigma) if isinstance(sigma, float) else xp.log(sigma)  # (a gradient's)
    return -0.5 * xp.sum(z * z) - n * log_sigma - n * LOG_SQRT_2PI


def normal_lpdf_total(xp, y, mu, sigma):
    z = (y - mu) / sigma
    return xp.sum(-0.5 * z * z - xp.log(sigma)) - y.shape[0] * LOG_SQRT_2PI


def fixed_normal_lpdf(xp, y):
    """A density at fixed parameters (the overhead suite's: peers write it out)."""
    z = (y - MU) / SIGMA
    return xp.sum(-0.5 * z * z - math.log(SIGMA) - LOG_SQRT_2PI)


def scalar_chain(k: int):
    """x * c1 + c2 * ...: fused, 2 arrays move; one kernel per operation, 2k (bound k)."""
    def run(xp, x):
        for i in range(k):
            x = x * 1.0001 if i % 2 == 0 else x + 0.5
        return x
    return run


def array_chain(k: int):
    """a0 + a1 * a2 + ...: fused, k + 2 arrays move; one kernel per operation, 3k."""
    def run(xp, **a):
        x = a["a0"]
        for i in range(1, k + 1):
            x = x + a[f"a{i}"] if i % 2 else x * a[f"a{i}"]
        return x
    return run


def masked_add(xp, dst, lhs, rhs, selected=None):
    xp.masked_add(dst, lhs, rhs, selected)
    return dst


def _weft_glm(x, y, beta, alpha, sigma):
    import weft as wf

    return wf.stats.normal_id_glm_lpdf(y, x, alpha, beta, sigma)


def _weft_normal(y, mu, sigma):
    import weft as wf

    return wf.stats.normal_lpdf(y, mu, sigma)


def _weft_fixed_normal(y, mu, sigma):
    import weft as wf

    return wf.stats.normal_lpdf(y, mu, sigma)


def logistic_inputs_of(columns: int):
    """A logistic regression: ``n`` elements as rows of ``columns`` predictors, 0/1
    outcomes, one coefficient vector and an intercept (a sampler's current point)."""
    def make(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, Any]:
        rows = max(n // columns, 1)
        x = (rng.standard_normal((rows, columns)) / math.sqrt(columns / 10)).astype(dtype)
        beta = (rng.standard_normal(columns) / 3).astype(dtype)
        y = (rng.random(rows) < 1 / (1 + np.exp(-(x @ beta + 0.2)))).astype(dtype)
        return {"x": x, "y": y, "beta": beta, "alpha": 0.2}
    return make


logistic_inputs = logistic_inputs_of(10)


def logistic_lpmf(xp, x, y, beta, alpha):
    """The logistic regression's log likelihood, written out: Σ y·η − log(1 + e^η)."""
    eta = x @ beta + alpha
    return xp.sum(y * eta - xp.logaddexp(0.0, eta))


def _weft_logistic_glm(x, y, beta, alpha):
    import weft as wf

    return wf.stats.bernoulli_logit_glm_lpmf(y, x, alpha, beta)


def pipeline_inputs(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, Any]:
    """Data of ``n`` elements as rows of 200 correlated columns, and a right-hand side."""
    rows = max(n // 200, 400)
    mix = rng.standard_normal((200, 200)) / 15
    x = (rng.standard_normal((rows, 200)) @ (np.eye(200) + mix) * 3 + 1).astype(dtype)
    return {"x": x, "b": rng.standard_normal(200).astype(dtype)}


def standardize_cov_solve(xp, x, b):
    """Standardize the columns, their correlation matrix, its Cholesky factor, and a
    triangular solve: the front of a regression or a Gaussian-process fit."""
    z = x - xp.mean(x, 0)
    z = z / xp.sqrt(xp.mean(z * z, 0))
    c = (xp.t(z) @ z) / (x.shape[0] - 1)
    return xp.solve_triangular(xp.cholesky(c), b)


def option_inputs(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, Any]:
    return {"spot": 100.0, "strike": 105.0, "rate": 0.03, "vol": 0.25, "paths": n}


def option_price(xp, spot, strike, rate, vol, paths):
    """A European call by Monte Carlo: the discounted mean payoff over ``paths`` draws of
    the year-end price under geometric Brownian motion."""
    z = xp.normal(paths)
    end = spot * xp.exp((rate - 0.5 * vol * vol) + vol * z)
    return math.exp(-rate) * xp.mean(xp.maximum(end - strike, 0.0))


def black_scholes_call(spot, strike, rate, vol, paths):
    """The exact price ``option_price`` estimates."""
    from scipy.stats import norm

    d1 = (math.log(spot / strike) + rate + 0.5 * vol * vol) / vol
    return spot * norm.cdf(d1) - strike * math.exp(-rate) * norm.cdf(d1 - vol)


def _mask_setup(xp, dst, lhs, rhs, selected=None):
    return dict(dst=dst, lhs=lhs, rhs=rhs,
                selected=None if selected is None else xp.bitmask(selected))


def _bool_mask_setup(xp, dst, lhs, rhs, selected=None):
    return dict(dst=dst, lhs=lhs, rhs=rhs, selected=xp.asarray(selected))


def _glm_value_and_grad(x, y, beta, alpha, sigma):
    """The normal linear model's value and its gradient in alpha, beta, sigma (float64)."""
    r = y - (x @ beta + alpha)
    n = y.shape[0]
    value = -0.5 * np.sum((r / sigma) ** 2) - n * math.log(sigma) - n * LOG_SQRT_2PI
    return np.concatenate([[value, np.sum(r) / sigma ** 2], x.T @ r / sigma ** 2,
                           [-n / sigma + np.sum(r * r) / sigma ** 3]])


def _logistic_value_and_grad(x, y, beta, alpha):
    """The logistic regression's value and its gradient in beta and alpha (float64)."""
    eta = x @ beta + alpha
    residual = y - 1 / (1 + np.exp(-eta))
    return np.concatenate([[np.sum(y * eta - np.logaddexp(0.0, eta))], x.T @ residual,
                           [np.sum(residual)]])


def _normal_value_and_grad(y, mu, sigma):
    z = (y - mu) / sigma
    return np.concatenate([[np.sum(-0.5 * z * z - np.log(sigma)) - y.size * LOG_SQRT_2PI],
                           z / sigma, (z * z - 1) / sigma])


# The table -----------------------------------------------------------------------------

_LIST = [
    Case("copy", lambda xp, a: a * 1.0, uniform("a")),
    Case("c*(a+b)", lambda xp, a, b: 3.0 * (a + b), uniform("a b"), numexpr="3.0 * (a + b)"),
    Case("normal_pdf", normal_pdf, normal_inputs,
         numexpr=f"exp(-0.5 * ((y - mu) / sigma)**2) * {INV_SQRT_2PI!r} / sigma"),
    Case("chain6", chain6, uniform("x"), numexpr="sin(x) * 2.0 + cos(x) * x - x * 0.5 + 1.0"),
    Case("chain8", chain8, uniform("x"),
         numexpr="((((((x * 1.5 + 0.25) * x - 0.5) * x + 2.0) * x - 1.0) * x + 0.75) * x "
                 "- 0.125) * x"),
    Case("normal_lpdf_sum", normal_lpdf_sum, normal_inputs, outputs=0,
         numexpr=f"sum(-0.5 * ((y - mu) / sigma)**2 - log(sigma) - {LOG_SQRT_2PI!r})"),
    Case("lgamma+digamma", lambda xp, z: xp.lgamma(z) + xp.digamma(z), uniform("z", 0.1, 20.0)),
    # One special function each (weft's own call-free versions on CPU devices).
    Case("lgamma", lambda xp, z: xp.lgamma(z), uniform("z", 0.1, 30.0)),
    Case("erfc", lambda xp, z: xp.erfc(z), uniform("z", -6.0, 6.0)),
    Case("Phi", lambda xp, z: xp.ndtr(z), uniform("z", -6.0, 6.0)),
    Case("erfinv", lambda xp, p: xp.erfinv(p), uniform("p", -1.0, 1.0)),
    Case("x**y", lambda xp, a, b: a ** b, uniform("a b", 0.1, 3.0), numexpr="a**b"),
    Case("tanh", lambda xp, z: xp.tanh(z), uniform("z", -5.0, 5.0), numexpr="tanh(z)"),
    Case("colwise_sum", lambda xp, a: xp.sum(a, 0), square(), outputs=0),
    Case("rowwise_sum", lambda xp, a: xp.sum(a, 1), square(), outputs=0),
    Case("transpose", lambda xp, a: xp.transpose_copy(a), square()),
    Case("exp(A.T)+A", lambda xp, a: xp.exp(xp.t(a)) + a, square()),
    Case("tril_sum", lambda xp, a: xp.sum(xp.tril(a)), square(), outputs=0, read_fraction=0.5),
    # Per-call overhead: small cached calls (1000 elements), where the host path decides.
    Case("small c*(a+b)", lambda xp, a, b: 2.5 * (a + b), uniform("a b")),
    # weft calls ``wf.stats.normal_lpdf`` with mu and sigma as float arguments (a traced
    # function's are kernel arguments, as an MCMC loop's parameters); the peers write the
    # density out with them as constants.
    Case("small normal_lpdf", fixed_normal_lpdf, uniform("y"), outputs=0,
         weft=_weft_fixed_normal, weft_floats=(("mu", MU), ("sigma", SIGMA))),
    Case("small chain10", chain10, uniform("a")),
    Case("mcmc", fixed_normal_lpdf, uniform("y"), outputs=0, weft=_weft_fixed_normal,
         weft_floats=(("mu", MU), ("sigma", SIGMA)), read_back=True),
    # The fusion paper's evaluation: log densities against hand-written kernels and peers.
    Case("glm wide", glm_lpdf, glm_inputs(5000), outputs=0, weft=_weft_glm, hand="glm"),
    Case("glm narrow", glm_lpdf, glm_inputs(2), outputs=0, weft=_weft_glm, hand="glm"),
    Case("normal_lpdf", normal_lpdf_total, normal_inputs, outputs=0, weft=_weft_normal,
         hand="normal_lpdf"),
    # Bit masks: an in-place add, three streams, against the same add unmasked.
    Case("add, no mask", masked_add, mask_inputs("none"), setup=_mask_setup,
         hand="masked_add", streams=3),
    *(Case(f"add, bit mask, {p}", masked_add, mask_inputs(p), setup=_mask_setup,
           hand="masked_add", streams=3) for p in ("all set", "runs of 256", "random 50%")),
    *(Case(f"add, bool mask, {p}", masked_add, mask_inputs(p), setup=_bool_mask_setup,
           streams=3) for p in ("all set", "runs of 256", "random 50%")),
    # Issue 36's realistic programs, as a new user writes them.
    Case("logistic glm", logistic_lpmf, logistic_inputs, outputs=0, weft=_weft_logistic_glm),
    Case("logistic by hand", logistic_lpmf, logistic_inputs, outputs=0),
    Case("standardize+cov+cholesky+solve", standardize_cov_solve, pipeline_inputs, outputs=0,
         tolerance=(1e-6, 1e-8)),
    # Random draws differ between generators: compared with the exact Black-Scholes price,
    # which 10^7 paths reach to about 0.1% (4 * 10^4, a harness check, to about 1%).
    Case("option price", option_price, option_inputs, outputs=0, tolerance=(5e-2, 0.0),
         reference=black_scholes_call),
    # Issue 37: a value with its gradient (the GLMs' and a density's), against autodiff peers.
    Case("glm value+grad wide", glm_lpdf, glm_inputs(5000), outputs=0, weft=_weft_glm,
         grad=("alpha", "beta", "sigma"), reference=_glm_value_and_grad, tolerance=(1e-7, 1e-6)),
    Case("glm value+grad narrow", glm_lpdf, glm_inputs(2), outputs=0, weft=_weft_glm,
         grad=("alpha", "beta", "sigma"), reference=_glm_value_and_grad, tolerance=(1e-7, 1e-6)),
    Case("logistic value+grad wide", logistic_lpmf, logistic_inputs_of(5000), outputs=0,
         weft=_weft_logistic_glm, grad=("beta", "alpha"), reference=_logistic_value_and_grad,
         tolerance=(1e-7, 1e-6)),
    Case("logistic value+grad narrow", logistic_lpmf, logistic_inputs_of(2), outputs=0,
         weft=_weft_logistic_glm, grad=("beta", "alpha"), reference=_logistic_value_and_grad,
         tolerance=(1e-7, 1e-6)),
    Case("normal_lpdf value+grad", normal_lpdf_total, normal_inputs, outputs=2,
         weft=_weft_normal, grad=("mu", "sigma"), reference=_normal_value_and_grad,
         tolerance=(1e-7, 1e-6)),
    # Issue 38: scans, arg-reductions and sorts, against the libraries' own (float32 sums
    # drift in every library: the check here is loose; the tests hold weft to NumPy).
    Case("cumsum", lambda xp, a: xp.cumsum(a), uniform("a"), tolerance=(1e-3, 1.0)),
    Case("cumsum rows", lambda xp, a: xp.cumsum(a, 1), square(), tolerance=(1e-3, 1.0)),
    Case("cumsum columns", lambda xp, a: xp.cumsum(a, 0), square(), tolerance=(1e-3, 1.0)),
    Case("argmax", lambda xp, a: xp.argmax(a), uniform("a"), outputs=0),
    Case("argmax rows", lambda xp, a: xp.argmax(a, 1), square(), outputs=0),
    Case("argmax columns", lambda xp, a: xp.argmax(a, 0), square(), outputs=0),
    Case("sort", lambda xp, a: xp.sort(a), uniform("a")),
    # Chains of k operations, for fused against one kernel per operation.
    *(Case(f"scalar chain {k}", scalar_chain(k), uniform("x", 0.5, 1.5), bound=float(k))
      for k in range(1, 11)),
    *(Case(f"array chain {k}", array_chain(k),
           uniform(" ".join(f"a{i}" for i in range(k + 1)), 0.5, 1.5), bound=3 * k / (k + 2))
      for k in range(1, 11)),
]

CASES: dict[str, Case] = {c.name: c for c in _LIST}
