"""More log densities for ``wf.stats``, in Stan's parametrizations, built as stats.py builds
its own: checked arguments, one fused sum, a template for repeated calls, each equal to the
``scipy.stats`` log density summed (its reference in the tests), and differentiable in every
real argument through the op table's rules.

Where a density is zero (outside the support: a negative ``y`` of a positive distribution)
its log is ``-inf``, as SciPy's; the branch not taken computes on a harmless value so that
its gradient is zero, not NaN. Two arguments that must be ordered (``uniform_lpdf``'s
bounds, ``binomial_lpmf``'s ``n`` and ``N``) are checked together: on the host at once for
Python scalars, in the kernel for arrays (and for the values of a repeated call).

>>> import weft as wf
>>> round(float(wf.stats.lognormal_lpdf(wf.asarray([0.5, 2.0]), 0.0, 1.0)), 6)
-2.31833
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .array import Array
from .bessel_i01 import i0e
from .composites import xlog1py
from .creation import broadcast_to
from .matrix import check
from .stats import (
    _HALF_LOG_TWO_PI,
    BINARY,
    COUNT,
    FINITE,
    NOT_NAN,
    POSITIVE_FINITE,
    UNIT_INTERVAL,
    _broadcast_sum,
    _Call,
    _f,
    _real,
    _remembered,
    _Rule,
    _Scalar,
)
from .traced import plain

__all__ = ["lognormal_lpdf", "cauchy_lpdf", "logistic_lpdf", "double_exponential_lpdf",
           "weibull_lpdf", "inv_gamma_lpdf", "chi_square_lpdf", "uniform_lpdf",
           "von_mises_lpdf", "poisson_lpmf", "bernoulli_lpmf", "binomial_lpmf",
           "binomial_logit_lpmf", "neg_binomial_2_lpmf", "multi_normal_cholesky_lpdf"]

NON_NEGATIVE_FINITE = _Rule("non-negative and finite", lambda v: 0 <= v < math.inf,
                            lambda a: (a >= 0) & (a < math.inf))


def _reals(c: _Call, rules: dict[str, _Rule]) -> list[Array]:
    """The arguments named in ``rules`` (in call order), each checked by its rule, as Arrays
    of the result type; after checking that all of the call's arguments broadcast."""
    c.shape(*c.values)
    return [_real(c, c.checked(key, rule)) for key, rule in rules.items()]


def _positive_part(y: Array, zero_inside: bool = False) -> tuple[Array, Array]:
    """Whether ``y`` is outside a positive support (y <= 0, or y < 0 where ``zero_inside``),
    and ``y`` with 1 there: the value the density's formula reads, finite with a zero
    gradient where it is not used."""
    outside = y < 0 if zero_inside else y <= 0
    return outside, _f("where", outside, 1.0, y)


def _ordered(c: _Call, low: str, high: str, values: tuple[Array, Array], strict: bool,
             words: str) -> Array:
    """The checked argument ``high`` (``values``: both checked arguments), broadcast to the
    call's shape, with ``low < high`` (or ``<=``) checked too: on the host when both are
    Python scalars, and in the kernel always (a repeated call's new values are checked
    there)."""
    holds = (lambda a, b: a < b) if strict else (lambda a, b: a <= b)
    lo, hi = c[low], c[high]
    if isinstance(lo, _Scalar) and isinstance(hi, _Scalar):
        a, b = plain(lo.value), plain(hi.value)
        if not holds(a, b):
            raise ValueError(f"{c.name}: {high} must be {words} {low}, got {low} = {a!r} "
                             f"and {high} = {b!r}")
    shape = c.shape(*c.values)
    lo_, hi_ = (broadcast_to(v, shape) for v in values)
    return check(hi_, holds(lo_, hi_),
                 f"{c.name}: {high} must be {words} {low}; {high}{{index}} = {{value}}")


@_remembered
def lognormal_lpdf(y: Any, mu: Any, sigma: Any, *, dtype: Any = None) -> Array:
    """Σ log LogNormal(y | mu, sigma): ``scipy.stats.lognorm.logpdf(y, sigma,
    scale=exp(mu)).sum()``. ``y`` not NaN (``y <= 0`` has density 0), ``mu`` finite,
    ``sigma`` positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.lognormal_lpdf(wf.asarray([1.0]), 0.0, 1.0)), 6)
    -0.918939
    """
    c = _Call("lognormal_lpdf", dtype, {"y": y, "mu": mu, "sigma": sigma})
    y_, mu_, sigma_ = _reals(c, {"y": NOT_NAN, "mu": FINITE, "sigma": POSITIVE_FINITE})
    outside, inside = _positive_part(y_)
    log_y = _f("log", inside)
    z = (log_y - mu_) / sigma_
    terms = -_HALF_LOG_TWO_PI - _f("log", sigma_) - log_y - 0.5 * z * z
    return _broadcast_sum(c, _f("where", outside, -math.inf, terms), "y", "mu", "sigma")


@_remembered
def cauchy_lpdf(y: Any, mu: Any, sigma: Any, *, dtype: Any = None) -> Array:
    """Σ log Cauchy(y | mu, sigma): ``scipy.stats.cauchy.logpdf(y, mu, sigma).sum()``. ``y``
    not NaN, ``mu`` finite, ``sigma`` positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.cauchy_lpdf(wf.asarray([0.0]), 0.0, 1.0)), 6)
    -1.14473
    """
    c = _Call("cauchy_lpdf", dtype, {"y": y, "mu": mu, "sigma": sigma})
    y_, mu_, sigma_ = _reals(c, {"y": NOT_NAN, "mu": FINITE, "sigma": POSITIVE_FINITE})
    z = (y_ - mu_) / sigma_
    terms = -math.log(math.pi) - _f("log", sigma_) - _f("log1p", z * z)
    return _broadcast_sum(c, terms, "y", "mu", "sigma")


@_remembered
def logistic_lpdf(y: Any, mu: Any, sigma: Any, *, dtype: Any = None) -> Array:
    """Σ log Logistic(y | mu, sigma): ``scipy.stats.logistic.logpdf(y, mu, sigma).sum()``,
    as -|z| - 2 log1p(exp(-|z|)) - log(sigma) (no overflow in either tail).

    >>> import weft as wf
    >>> round(float(wf.stats.logistic_lpdf(wf.asarray([0.0]), 0.0, 1.0)), 6)
    -1.386294
    """
    c = _Call("logistic_lpdf", dtype, {"y": y, "mu": mu, "sigma": sigma})
    y_, mu_, sigma_ = _reals(c, {"y": NOT_NAN, "mu": FINITE, "sigma": POSITIVE_FINITE})
    size = _f("abs", (y_ - mu_) / sigma_)
    terms = -size - 2.0 * _f("log1p", _f("exp", -size)) - _f("log", sigma_)
    return _broadcast_sum(c, terms, "y", "mu", "sigma")


@_remembered
def double_exponential_lpdf(y: Any, mu: Any, sigma: Any, *, dtype: Any = None) -> Array:
    """Σ log Laplace(y | mu, sigma): ``scipy.stats.laplace.logpdf(y, mu, sigma).sum()``.

    >>> import weft as wf
    >>> round(float(wf.stats.double_exponential_lpdf(wf.asarray([1.0]), 0.0, 1.0)), 6)
    -1.693147
    """
    c = _Call("double_exponential_lpdf", dtype, {"y": y, "mu": mu, "sigma": sigma})
    y_, mu_, sigma_ = _reals(c, {"y": NOT_NAN, "mu": FINITE, "sigma": POSITIVE_FINITE})
    terms = -math.log(2.0) - _f("log", sigma_) - _f("abs", y_ - mu_) / sigma_
    return _broadcast_sum(c, terms, "y", "mu", "sigma")


@_remembered
def weibull_lpdf(y: Any, alpha: Any, sigma: Any, *, dtype: Any = None) -> Array:
    """Σ log Weibull(y | shape alpha, scale sigma): ``scipy.stats.weibull_min.logpdf(y,
    alpha, scale=sigma).sum()``. ``y`` not NaN (negative ``y`` has density 0), ``alpha`` and
    ``sigma`` positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.weibull_lpdf(wf.asarray([1.0]), 2.0, 1.0)), 6)
    -0.306853
    """
    c = _Call("weibull_lpdf", dtype, {"y": y, "alpha": alpha, "sigma": sigma})
    y_, alpha_, sigma_ = _reals(c, {"y": NOT_NAN, "alpha": POSITIVE_FINITE,
                                    "sigma": POSITIVE_FINITE})
    outside, inside = _positive_part(y_, zero_inside=True)
    ratio = inside / sigma_
    terms = (_f("log", alpha_) - _f("log", sigma_) + _f("xlogy", alpha_ - 1.0, ratio)
             - _f("power", ratio, alpha_))
    return _broadcast_sum(c, _f("where", outside, -math.inf, terms), "y", "alpha", "sigma")


@_remembered
def inv_gamma_lpdf(y: Any, alpha: Any, beta: Any, *, dtype: Any = None) -> Array:
    """Σ log InvGamma(y | shape alpha, scale beta): ``scipy.stats.invgamma.logpdf(y, alpha,
    scale=beta).sum()``. ``y`` not NaN (``y <= 0`` has density 0), ``alpha`` and ``beta``
    positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.inv_gamma_lpdf(wf.asarray([1.0]), 2.0, 1.0)), 6)
    -1.0
    """
    c = _Call("inv_gamma_lpdf", dtype, {"y": y, "alpha": alpha, "beta": beta})
    y_, alpha_, beta_ = _reals(c, {"y": NOT_NAN, "alpha": POSITIVE_FINITE,
                                   "beta": POSITIVE_FINITE})
    outside, inside = _positive_part(y_)
    terms = (alpha_ * _f("log", beta_) - _f("lgamma", alpha_)
             - (alpha_ + 1.0) * _f("log", inside) - beta_ / inside)
    return _broadcast_sum(c, _f("where", outside, -math.inf, terms), "y", "alpha", "beta")


@_remembered
def chi_square_lpdf(y: Any, nu: Any, *, dtype: Any = None) -> Array:
    """Σ log ChiSquare(y | nu): ``scipy.stats.chi2.logpdf(y, nu).sum()``. ``y`` not NaN
    (negative ``y`` has density 0), ``nu`` positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.chi_square_lpdf(wf.asarray([1.0]), 3.0)), 6)
    -1.418939
    """
    c = _Call("chi_square_lpdf", dtype, {"y": y, "nu": nu})
    y_, nu_ = _reals(c, {"y": NOT_NAN, "nu": POSITIVE_FINITE})
    outside, inside = _positive_part(y_, zero_inside=True)
    half = 0.5 * nu_
    terms = (_f("xlogy", half - 1.0, inside) - 0.5 * inside - half * math.log(2.0)
             - _f("lgamma", half))
    return _broadcast_sum(c, _f("where", outside, -math.inf, terms), "y", "nu")


@_remembered
def uniform_lpdf(y: Any, alpha: Any, beta: Any, *, dtype: Any = None) -> Array:
    """Σ log Uniform(y | alpha, beta): ``scipy.stats.uniform.logpdf(y, alpha, beta -
    alpha).sum()``: ``-inf`` outside [alpha, beta]. ``alpha`` and ``beta`` finite with
    ``alpha < beta``.

    >>> import weft as wf
    >>> round(float(wf.stats.uniform_lpdf(wf.asarray([0.5, 1.5]), 0.0, 2.0)), 6)
    -1.386294
    """
    c = _Call("uniform_lpdf", dtype, {"y": y, "alpha": alpha, "beta": beta})
    y_, alpha_, beta_ = _reals(c, {"y": NOT_NAN, "alpha": FINITE, "beta": FINITE})
    beta_ = _ordered(c, "alpha", "beta", (alpha_, beta_), True, "greater than")
    terms = _f("where", (y_ < alpha_) | (y_ > beta_), -math.inf, -_f("log", beta_ - alpha_))
    return _broadcast_sum(c, terms, "y", "alpha", "beta")


@_remembered
def von_mises_lpdf(y: Any, mu: Any, kappa: Any, *, dtype: Any = None) -> Array:
    """Σ log VonMises(y | mu, kappa): ``scipy.stats.vonmises.logpdf(y, kappa, loc=mu).sum()``,
    as kappa (cos(y - mu) - 1) - log(2 pi i0e(kappa)), finite for any ``kappa``. ``y`` and
    ``mu`` finite, ``kappa`` non-negative and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.von_mises_lpdf(wf.asarray([0.0]), 0.0, 1.0)), 6)
    -1.073791
    """
    c = _Call("von_mises_lpdf", dtype, {"y": y, "mu": mu, "kappa": kappa})
    y_, mu_, kappa_ = _reals(c, {"y": FINITE, "mu": FINITE, "kappa": NON_NEGATIVE_FINITE})
    terms = (kappa_ * (_f("cos", y_ - mu_) - 1.0) - math.log(2 * math.pi)
             - _f("log", i0e(kappa_)))
    return _broadcast_sum(c, terms, "y", "mu", "kappa")


@_remembered
def poisson_lpmf(n: Any, lam: Any, *, dtype: Any = None) -> Array:
    """Σ log Poisson(n | lam): ``scipy.stats.poisson.logpmf(n, lam).sum()``. ``n`` a
    non-negative integer, ``lam`` non-negative and finite (``lam = 0`` gives P(0) = 1).

    >>> import weft as wf
    >>> round(float(wf.stats.poisson_lpmf(wf.asarray([0, 3]), 1.5)), 6)
    -3.575364
    """
    c = _Call("poisson_lpmf", dtype, {"n": n, "lam": lam})
    n_, lam_ = _reals(c, {"n": COUNT, "lam": NON_NEGATIVE_FINITE})
    terms = _f("xlogy", n_, lam_) - lam_ - _f("lgamma", n_ + 1.0)
    return _broadcast_sum(c, terms, "n", "lam")


@_remembered
def bernoulli_lpmf(n: Any, theta: Any, *, dtype: Any = None) -> Array:
    """Σ log Bernoulli(n | theta): ``scipy.stats.bernoulli.logpmf(n, theta).sum()``. ``n``
    0 or 1, ``theta`` in [0, 1].

    >>> import weft as wf
    >>> round(float(wf.stats.bernoulli_lpmf(wf.asarray([0, 1]), 0.25)), 6)
    -1.673976
    """
    c = _Call("bernoulli_lpmf", dtype, {"n": n, "theta": theta})
    n_, theta_ = _reals(c, {"n": BINARY, "theta": UNIT_INTERVAL})
    terms = _f("xlogy", n_, theta_) + xlog1py(1.0 - n_, -theta_)
    return _broadcast_sum(c, terms, "n", "theta")


def _binomial_counts(c: _Call) -> tuple[Array, Array, Array]:
    """``n``, ``N`` (``n <= N`` checked) and log C(N, n) of a binomial call."""
    n_, big_n = _reals(c, {"n": COUNT, "N": COUNT})
    big_n = _ordered(c, "n", "N", (n_, big_n), False, "at least")
    return n_, big_n, _f("lchoose", big_n, n_)


@_remembered
def binomial_lpmf(n: Any, N: Any, theta: Any, *, dtype: Any = None) -> Array:  # noqa: N803
    """Σ log Binomial(n | N, theta): ``scipy.stats.binom.logpmf(n, N, theta).sum()``. ``n``
    and ``N`` non-negative integers with ``n <= N``, ``theta`` in [0, 1].

    >>> import weft as wf
    >>> round(float(wf.stats.binomial_lpmf(wf.asarray([2, 5]), 10, 0.3)), 6)
    -3.728492
    """
    c = _Call("binomial_lpmf", dtype, {"n": n, "N": N, "theta": theta})
    (theta_,) = _reals(c, {"theta": UNIT_INTERVAL})
    n_, big_n, log_choose = _binomial_counts(c)
    terms = log_choose + _f("xlogy", n_, theta_) + xlog1py(big_n - n_, -theta_)
    return _broadcast_sum(c, terms, "n", "N", "theta")


@_remembered
def binomial_logit_lpmf(n: Any, N: Any, alpha: Any, *, dtype: Any = None) -> Array:  # noqa: N803
    """Σ log Binomial(n | N, inv_logit(alpha)): ``scipy.stats.binom.logpmf(n, N,
    expit(alpha)).sum()``, without forming the probability. ``alpha`` finite.

    >>> import weft as wf
    >>> round(float(wf.stats.binomial_logit_lpmf(wf.asarray([2, 5]), 10, 0.0)), 6)
    -4.526852
    """
    c = _Call("binomial_logit_lpmf", dtype, {"n": n, "N": N, "alpha": alpha})
    (alpha_,) = _reals(c, {"alpha": FINITE})
    n_, big_n, log_choose = _binomial_counts(c)
    terms = (log_choose + n_ * _f("log_inv_logit", alpha_)
             + (big_n - n_) * _f("log1m_inv_logit", alpha_))
    return _broadcast_sum(c, terms, "n", "N", "alpha")


@_remembered
def neg_binomial_2_lpmf(n: Any, mu: Any, phi: Any, *, dtype: Any = None) -> Array:
    """Σ log NegBinomial2(n | mean mu, dispersion phi) (variance mu + mu^2 / phi):
    ``scipy.stats.nbinom.logpmf(n, phi, phi / (mu + phi)).sum()``. log C(n + phi - 1, n) is
    -lbeta(phi, n + 1) - log(n + phi), and phi log(phi / (mu + phi)) is -phi log1p(mu /
    phi): no two large terms cancel as phi grows (the Poisson limit). ``n`` a non-negative
    integer, ``mu`` non-negative and finite, ``phi`` positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.neg_binomial_2_lpmf(wf.asarray([0, 4]), 2.0, 3.0)), 6)
    -4.022066
    """
    c = _Call("neg_binomial_2_lpmf", dtype, {"n": n, "mu": mu, "phi": phi})
    n_, mu_, phi_ = _reals(c, {"n": COUNT, "mu": NON_NEGATIVE_FINITE, "phi": POSITIVE_FINITE})
    terms = (-_f("lbeta", phi_, n_ + 1.0) - _f("log", n_ + phi_)
             + _f("xlogy", n_, mu_) - n_ * _f("log", mu_ + phi_)
             - phi_ * _f("log1p", mu_ / phi_))
    return _broadcast_sum(c, terms, "n", "mu", "phi")


def multi_normal_cholesky_lpdf(y: Any, mu: Any, L: Any, *, dtype: Any = None) -> Array:  # noqa: N803
    """Σ log MultiNormal(y | mu, L L^T) over the rows of ``y`` (shape (k,) or (n, k)), with
    ``L`` the (k, k) Cholesky factor of the covariance (its lower triangle read):
    ``scipy.stats.multivariate_normal.logpdf(y, mu, L @ L.T).sum()``, as -1/2 |L^-1 (y -
    mu)|^2 - n Σ log diag(L) - n k/2 log 2 pi, one triangular solve for all the rows. ``y``
    not NaN, ``mu`` ((k,) or as ``y``) finite, the diagonal of ``L`` positive and finite.

    >>> import weft as wf
    >>> L = wf.asarray([[1.0, 0.0], [0.5, 2.0]])
    >>> round(float(wf.stats.multi_normal_cholesky_lpdf(wf.asarray([0.3, -1.0]), 0.0, L)), 6)
    -2.741337
    """
    from .linalg import solve_triangular
    from .matrix import diagonal

    name = "multi_normal_cholesky_lpdf"
    c = _Call(name, dtype, {"y": y, "mu": mu, "L": L})
    factor = c["L"]
    if not isinstance(factor, Array) or factor.ndim != 2 or factor.shape[0] != factor.shape[1]:
        raise ValueError(f"{name}: L must be a square matrix, got shape {np.shape(factor)}")
    k = factor.shape[0]
    y_ = _real(c, c.checked("y", NOT_NAN))
    if y_.ndim not in (1, 2) or y_.shape[-1] != k:
        raise ValueError(f"{name}: y must have shape ({k},) or (n, {k}) to match L of shape "
                         f"{factor.shape}, got {y_.shape}")
    mu_ = _real(c, c.checked("mu", FINITE))
    if mu_.shape not in ((), (k,), y_.shape):
        raise ValueError(f"{name}: mu must be a scalar or have shape ({k},) or {y_.shape}, "
                         f"got {mu_.shape}")
    diag = check(diagonal(factor.astype(c.dtype)), POSITIVE_FINITE.device,
                 f"{name}: the diagonal of L must be positive and finite; "
                 "L[i, i] at i = {index} is {value}")
    rows = 1 if y_.ndim == 1 else y_.shape[0]
    residual = broadcast_to(y_ - mu_, (rows, k)) if y_.ndim == 2 else (y_ - mu_)[None, :]
    z = solve_triangular(factor.astype(c.dtype), residual.T, lower=True)
    log_det = _f("log", diag).sum(dtype=c.dtype)
    return ((-0.5 * (z * z).sum(dtype=c.dtype)) - rows * log_det
            - rows * k * _HALF_LOG_TWO_PI).astype(c.dtype)

