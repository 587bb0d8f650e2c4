"""SciPy's distribution functions and the special functions around them, as compositions of
the op table's ops: lazy, fused with their neighbours, differentiable through their parts.

The cumulative distributions are incomplete gamma and beta functions of transformed
arguments, under SciPy's names and argument orders (``scipy.special.chdtr(v, x)`` is
``gammainc(v / 2, x / 2)``); the counts of the discrete ones (``pdtr``, ``bdtr``, ``nbdtr``)
are floored, as SciPy's. ``log_ndtr`` stays finite far into the lower tail; ``boxcox`` and
its inverses follow SciPy's limits at ``lmbda = 0``; the degree-argument trigonometric
functions are exact at multiples of 45 degrees. Arguments outside a function's domain give
NaN, as SciPy's. ``chdtri`` and ``pdtri`` invert through ``gammainccinv``, ``fdtri``,
``bdtri`` and ``nbdtri`` through ``betaincinv`` and ``betainccinv``.
"""

from __future__ import annotations

import math
from typing import Any

from . import dtypes as dt
from .array import Array, apply_op
from .creation import asarray

_NAN = math.nan


def _where(condition: Array, a: Any, b: Any, dtype: Any = None) -> Array:
    return apply_op("where", condition, a, b, dtype=dtype)


def _reals(*args: Any) -> list[Array]:
    """The arguments as arrays of one real dtype: the arrays' promoted, Python scalars
    taking it (as NumPy's weak scalars), the default real for integers."""
    weak = [dt.scalar_kind(a) for a in args if isinstance(a, (bool, int, float))]
    arrays = [asarray(a) for a in args]
    strong = [a.dtype for a, given in zip(arrays, args) if not isinstance(given, (bool, int,
                                                                                 float))]
    real = dt.real_of(dt.resolve(strong, weak))
    return [a.astype(real) if a.dtype is not real else a for a in arrays]


def _valid(value: Array, *conditions: Array) -> Array:
    """``value`` where every condition holds, NaN elsewhere (and where an argument is NaN:
    the comparisons are false there)."""
    ok = conditions[0]
    for c in conditions[1:]:
        ok = apply_op("logical_and", ok, c)
    return _where(ok, value, _NAN)


# Cumulative distributions -------------------------------------------------------------------


def chdtr(v: Any, x: Any) -> Array:
    """The chi-square distribution's CDF with ``v`` degrees of freedom at ``x``.

    >>> import weft as wf
    >>> round(float(wf.chdtr(2.0, 2.0)), 12)
    0.632120558829
    """
    v, x = _reals(v, x)
    return apply_op("gamma_p", v * 0.5, x * 0.5)


def chdtrc(v: Any, x: Any) -> Array:
    """The chi-square distribution's survival function (``1 - chdtr``, without the loss).

    >>> import weft as wf
    >>> round(float(wf.chdtrc(2.0, 2.0)), 12)
    0.367879441171
    """
    v, x = _reals(v, x)
    return apply_op("gamma_q", v * 0.5, x * 0.5)


def chdtri(v: Any, p: Any) -> Array:
    """The inverse of ``chdtrc`` in ``x``: the chi-square quantile of upper probability
    ``p`` (``chdtri(v, 0.05)`` is the 95% critical value).

    >>> import weft as wf
    >>> round(float(wf.chdtri(1.0, 0.05)), 10)
    3.8414588207
    """
    v, p = _reals(v, p)
    return 2.0 * apply_op("gamma_q_inv", v * 0.5, p)


def gdtr(a: Any, b: Any, x: Any) -> Array:
    """The gamma distribution's CDF at ``x``, rate ``a`` and shape ``b`` (SciPy's order).

    >>> import weft as wf
    >>> round(float(wf.gdtr(1.0, 1.0, 1.0)), 12)
    0.632120558829
    """
    a, b, x = _reals(a, b, x)
    return _valid(apply_op("gamma_p", b, a * x), x >= 0)


def gdtrc(a: Any, b: Any, x: Any) -> Array:
    """The gamma distribution's survival function (``1 - gdtr``).

    >>> import weft as wf
    >>> round(float(wf.gdtrc(1.0, 1.0, 1.0)), 12)
    0.367879441171
    """
    a, b, x = _reals(a, b, x)
    return _valid(apply_op("gamma_q", b, a * x), x >= 0)


def pdtr(k: Any, m: Any) -> Array:
    """The Poisson distribution's CDF: the probability of at most ``floor(k)`` events at
    mean ``m``.

    >>> import weft as wf
    >>> round(float(wf.pdtr(2, 1.0)), 12)
    0.919698602929
    """
    k, m = _reals(k, m)
    count = apply_op("floor", apply_op("maximum", k, 0))
    value = _where(m == 0, 1.0, apply_op("gamma_q", count + 1, m))
    return _valid(value, apply_op("logical_not", k < 0), m >= 0)


def pdtrc(k: Any, m: Any) -> Array:
    """The Poisson distribution's survival function: more than ``floor(k)`` events.

    >>> import weft as wf
    >>> round(float(wf.pdtrc(2, 1.0)), 12)
    0.080301397071
    """
    k, m = _reals(k, m)
    count = apply_op("floor", apply_op("maximum", k, 0))
    value = _where(m == 0, 0.0, apply_op("gamma_p", count + 1, m))
    return _valid(value, apply_op("logical_not", k < 0), m >= 0)


def pdtri(k: Any, y: Any) -> Array:
    """The inverse of ``pdtr`` in ``m``: the Poisson mean at which at most ``floor(k)``
    events have probability ``y``.

    >>> import weft as wf
    >>> round(float(wf.pdtri(2, 0.5)), 8)
    2.67406031

    At ``y = 1`` the mean is 0 (SciPy's: NaN).
    """
    k, y = _reals(k, y)
    count = apply_op("floor", apply_op("maximum", k, 0))
    return _valid(apply_op("gamma_q_inv", count + 1, y), apply_op("logical_not", k < 0))


def fdtr(dfn: Any, dfd: Any, x: Any) -> Array:
    """The F distribution's CDF at ``x`` with ``dfn`` and ``dfd`` degrees of freedom.

    >>> import weft as wf
    >>> round(float(wf.fdtr(2.0, 2.0, 1.0)), 12)
    0.5
    """
    dfn, dfd, x = _reals(dfn, dfd, x)
    # dfn x / (dfd + dfn x), written to give 1 at x = inf
    w = 1.0 / (1.0 + dfd / (dfn * x))
    return _valid(_where(x == math.inf, 1.0, apply_op("ibeta", dfn * 0.5, dfd * 0.5, w)),
                  dfn > 0, dfd > 0, x >= 0, _finite_degrees(dfn, dfd, x))


def fdtrc(dfn: Any, dfd: Any, x: Any) -> Array:
    """The F distribution's survival function (``1 - fdtr``).

    >>> import weft as wf
    >>> round(float(wf.fdtrc(2.0, 2.0, 3.0)), 12)
    0.25
    """
    dfn, dfd, x = _reals(dfn, dfd, x)
    w = 1.0 / (1.0 + dfn * x / dfd)  # dfd / (dfd + dfn x)
    return _valid(_where(x == math.inf, 0.0, apply_op("ibeta", dfd * 0.5, dfn * 0.5, w)),
                  dfn > 0, dfd > 0, x >= 0, _finite_degrees(dfn, dfd, x))


def _finite_degrees(dfn: Array, dfd: Array, x: Array) -> Array:
    """SciPy's F distribution takes infinite degrees of freedom only at ``x = inf``."""
    finite = apply_op("logical_and", apply_op("isfinite", dfn), apply_op("isfinite", dfd))
    return apply_op("logical_or", finite, x == math.inf)


def fdtri(dfn: Any, dfd: Any, p: Any) -> Array:
    """The inverse of ``fdtr`` in ``x``: the F distribution's quantile at probability ``p``.

    >>> import weft as wf
    >>> round(float(wf.fdtri(2.0, 3.0, 0.5)), 12)
    0.881101577952

    Solved for w = dfn x / (dfd + dfn x) below the median and for 1 - w above it, so that
    neither a tiny quantile nor a huge one comes from a difference with 1.
    """
    dfn, dfd, p = _reals(dfn, dfd, p)
    lower = p <= 0.5
    a, b = _where(lower, dfn * 0.5, dfd * 0.5), _where(lower, dfd * 0.5, dfn * 0.5)
    z = apply_op("ibeta_inv", a, b, _where(lower, p, 1 - p))  # w, or 1 - w
    ratio = _where(lower, z / (1 - z), (1 - z) / z)
    finite = apply_op("logical_and", apply_op("isfinite", dfn), apply_op("isfinite", dfd))
    return _valid(dfd / dfn * ratio, dfn > 0, dfd > 0, finite)


def bdtr(k: Any, n: Any, p: Any) -> Array:
    """The binomial distribution's CDF: at most ``floor(k)`` successes in ``n`` trials of
    probability ``p``.

    >>> import weft as wf
    >>> round(float(wf.bdtr(1, 3, 0.5)), 12)
    0.5
    """
    k, n, p = _reals(k, n, p)
    fk, fn = apply_op("floor", k), apply_op("floor", n)
    below = apply_op("ibeta", apply_op("maximum", fn - fk, 1.0), fk + 1, 1 - p)
    return _valid(_where(fk == fn, 1.0, below), fk >= 0, fk <= fn, p >= 0, p <= 1)


def bdtrc(k: Any, n: Any, p: Any) -> Array:
    """The binomial distribution's survival function: more than ``floor(k)`` successes.

    >>> import weft as wf
    >>> round(float(wf.bdtrc(1, 3, 0.5)), 12)
    0.5
    """
    k, n, p = _reals(k, n, p)
    fk, fn = apply_op("floor", k), apply_op("floor", n)
    above = apply_op("ibeta", fk + 1, apply_op("maximum", fn - fk, 1.0), p)
    value = _where(fk < 0, 1.0, _where(fk == fn, 0.0, above))
    return _valid(value, apply_op("logical_or", fk < 0, fk <= fn), p >= 0, p <= 1, n == n)


def bdtri(k: Any, n: Any, y: Any) -> Array:
    """The inverse of ``bdtr`` in ``p``: the success probability at which at most
    ``floor(k)`` successes in ``floor(n)`` trials have probability ``y``.

    >>> import weft as wf
    >>> round(float(wf.bdtri(2, 5, 0.3)), 12)
    0.610181649469
    """
    k, n, y = _reals(k, n, y)
    fk, fn = apply_op("floor", k), apply_op("floor", n)
    # bdtr = I_(1-p)(n - k, k + 1), so 1 - bdtr = I_p(k + 1, n - k): p from its upper tail.
    p = apply_op("ibetac_inv", fk + 1, apply_op("maximum", fn - fk, 1.0), y)
    return _valid(p, fk >= 0, fk < fn)


def nbdtr(k: Any, n: Any, p: Any) -> Array:
    """The negative binomial distribution's CDF: at most ``floor(k)`` failures before the
    ``n``-th success, successes of probability ``p``.

    >>> import weft as wf
    >>> round(float(wf.nbdtr(1, 2, 0.5)), 12)
    0.5
    """
    k, n, p = _reals(k, n, p)
    fk, fn = apply_op("floor", k), apply_op("floor", n)
    return _valid(apply_op("ibeta", fn, fk + 1, p), fk >= 0, fn > 0, p >= 0, p <= 1)


def nbdtri(k: Any, n: Any, y: Any) -> Array:
    """The inverse of ``nbdtr`` in ``p``: the success probability at which at most
    ``floor(k)`` failures before the ``floor(n)``-th success have probability ``y``.

    >>> import weft as wf
    >>> round(float(wf.nbdtri(2, 3, 0.5)), 12)
    0.5
    """
    k, n, y = _reals(k, n, y)
    fk, fn = apply_op("floor", k), apply_op("floor", n)
    return _valid(apply_op("ibeta_inv", fn, fk + 1, y), fk >= 0, fn > 0)


def nbdtrc(k: Any, n: Any, p: Any) -> Array:
    """The negative binomial distribution's survival function: more than ``floor(k)``
    failures.

    >>> import weft as wf
    >>> round(float(wf.nbdtrc(1, 2, 0.5)), 12)
    0.5
    """
    k, n, p = _reals(k, n, p)
    fk, fn = apply_op("floor", k), apply_op("floor", n)
    return _valid(apply_op("ibeta", fk + 1, fn, 1 - p), fk >= 0, fn > 0, p >= 0, p <= 1)


def log_ndtr(x: Any) -> Array:
    """``log(ndtr(x))``, the log of the standard normal CDF, accurate in both tails: from
    ``log1p(-ndtr(-x))`` above 0, and before ``ndtr`` underflows (float64 ``x < -37``,
    float32 ``x < -10``) from the tail's asymptotic series.

    >>> import weft as wf
    >>> [round(v, 6) for v in wf.log_ndtr(wf.asarray([-40.0, 0.0])).tolist()]
    [-804.608442, -0.693147]
    """
    (x,) = _reals(x)
    # Where Phi's type still holds it: below, its asymptotic series,
    # log Phi(x) = -x^2/2 - log(-x) - log(2 pi)/2 + log(1 - 1/x^2 + 3/x^4 - 15/x^6 + ...),
    # whose terms past |x| = 37 (float64) or 10 (float32) fall fast enough that six of
    # them reach every bit of the type.
    far_from = -37.0 if x.dtype.itemsize == 8 else -10.0
    upper = apply_op("log1p", -apply_op("Phi", -x))
    middle = apply_op("log", apply_op("Phi", apply_op("maximum", x, far_from)))
    t = 1.0 / (x * x)
    series = 1 + t * (-1 + t * (3 + t * (-15 + t * (105 + t * (-945 + t * 10395)))))
    far = -0.5 * x * x - apply_op("log", -x) - 0.5 * math.log(2 * math.pi) + apply_op(
        "log", series)
    return _where(x > 0, upper, _where(x < far_from, far, middle))


# Box-Cox -------------------------------------------------------------------------------------


def _boxcox_of_log(log_x: Array, lmbda: Array) -> Array:
    """``expm1(lmbda log_x) / lmbda``, ``log_x`` itself where ``lmbda`` is within 1e-19 of
    0 (SciPy's limit there)."""
    return _where(apply_op("abs", lmbda) < 1e-19, log_x,
                  apply_op("expm1", lmbda * log_x) / lmbda)


def _inverse_boxcox(y: Any, lmbda: Any, exp: str) -> Array:
    """``exp(log1p(lmbda y) / lmbda)`` (``exp`` the op: ``exp`` or ``expm1``), ``exp(y)``
    at ``lmbda = 0``."""
    y, lmbda = _reals(y, lmbda)
    return _where(lmbda == 0, apply_op(exp, y),
                  apply_op(exp, apply_op("log1p", lmbda * y) / lmbda))


def boxcox(x: Any, lmbda: Any) -> Array:
    """The Box-Cox transform ``(x**lmbda - 1) / lmbda``, ``log(x)`` at ``lmbda = 0``.

    >>> import weft as wf
    >>> wf.boxcox(wf.asarray([1.0, 4.0]), 0.5).tolist()
    [0.0, 2.0]
    """
    x, lmbda = _reals(x, lmbda)
    return _boxcox_of_log(apply_op("log", x), lmbda)


def boxcox1p(x: Any, lmbda: Any) -> Array:
    """The Box-Cox transform of ``1 + x``, accurate for small ``x``.

    >>> import weft as wf
    >>> wf.boxcox1p(wf.asarray([0.0, 3.0]), 0.5).tolist()
    [0.0, 2.0]
    """
    x, lmbda = _reals(x, lmbda)
    return _boxcox_of_log(apply_op("log1p", x), lmbda)


def inv_boxcox(y: Any, lmbda: Any) -> Array:
    """The inverse of ``boxcox``: ``(1 + lmbda * y) ** (1 / lmbda)``, ``exp(y)`` at 0.

    >>> import weft as wf
    >>> wf.inv_boxcox(wf.asarray([0.0, 2.0]), 0.5).tolist()
    [1.0, 4.0]
    """
    return _inverse_boxcox(y, lmbda, "exp")


def inv_boxcox1p(y: Any, lmbda: Any) -> Array:
    """The inverse of ``boxcox1p``.

    >>> import weft as wf
    >>> wf.inv_boxcox1p(wf.asarray([0.0, 2.0]), 0.5).tolist()
    [0.0, 3.0]
    """
    return _inverse_boxcox(y, lmbda, "expm1")


# Degrees, powers of ten, the gamma function's sign, beta and binomial coefficients ---------


def _octant(x: Array) -> tuple[Array, Array, Array]:
    """``x`` degrees as (quadrant 0-3, sine and cosine of the rest, in [0, 90) degrees):
    exact at multiples of 90 (the rest is 0 there, its sine exactly 0)."""
    turn = x - 360.0 * apply_op("floor", x / 360.0)
    quadrant = apply_op("floor", turn / 90.0)
    rest = (turn - 90.0 * quadrant) * (math.pi / 180.0)
    return quadrant, apply_op("sin", rest), apply_op("cos", rest)


def _sin_cos_degrees(x: Array) -> tuple[Array, Array]:
    q, s, c = _octant(x)
    sine = _where(q == 0, s, _where(q == 1, c, _where(q == 2, -s, -c)))
    cosine = _where(q == 0, c, _where(q == 1, -s, _where(q == 2, -c, s)))
    return sine, cosine


def sindg(x: Any) -> Array:
    """The sine of ``x`` degrees, exact at multiples of 90 (NaN at infinities, where
    SciPy's gives 0).

    >>> import weft as wf
    >>> wf.sindg(wf.asarray([90.0, 270.0, 450.0])).tolist()
    [1.0, -1.0, 1.0]
    """
    (x,) = _reals(x)
    return _sin_cos_degrees(x)[0]


def cosdg(x: Any) -> Array:
    """The cosine of ``x`` degrees, exact at multiples of 90.

    >>> import weft as wf
    >>> wf.cosdg(wf.asarray([0.0, 180.0, 360.0])).tolist()
    [1.0, -1.0, 1.0]
    """
    (x,) = _reals(x)
    return _sin_cos_degrees(x)[1]


def tandg(x: Any) -> Array:
    """The tangent of ``x`` degrees: exact at multiples of 45, infinite at odd multiples
    of 90 (as SciPy's).

    >>> import weft as wf
    >>> wf.tandg(wf.asarray([45.0, 90.0, 135.0])).tolist()
    [1.0, inf, -1.0]
    """
    (x,) = _reals(x)
    sine, cosine = _sin_cos_degrees(x)
    ratio = _exact_at_45(x, sine / cosine)
    return _where(cosine == 0, math.inf, ratio)


def cotdg(x: Any) -> Array:
    """The cotangent of ``x`` degrees: infinite at multiples of 180 (as SciPy's).

    >>> import weft as wf
    >>> wf.cotdg(wf.asarray([45.0, 135.0])).tolist()
    [1.0, -1.0]
    """
    (x,) = _reals(x)
    sine, cosine = _sin_cos_degrees(x)
    ratio = _exact_at_45(x, cosine / sine)
    return _where(sine == 0, math.inf, ratio)


def _exact_at_45(x: Array, ratio: Array) -> Array:
    """``ratio`` (a tangent or cotangent) rounded to +-1 at odd multiples of 45 degrees,
    where the sine and cosine of 45 round differently."""
    at_45 = apply_op("remainder", x, 90.0) == 45.0
    return _where(at_45, apply_op("sign", ratio), ratio)


def exp10(x: Any) -> Array:
    """``10 ** x``.

    >>> import weft as wf
    >>> wf.exp10(wf.asarray([1.0, 2.0])).tolist()
    [10.0, 100.0]
    """
    (x,) = _reals(x)
    return apply_op("power", 10.0, x)


def gammasgn(x: Any) -> Array:
    """The sign of the gamma function: 1 above 0 (and at +0), -1 where ``floor(x)`` is odd
    below it (and at -0), NaN at the poles (the non-positive integers) and at -inf.

    >>> import weft as wf
    >>> wf.gammasgn(wf.asarray([2.0, -0.5, -1.5])).tolist()
    [1.0, -1.0, 1.0]
    """
    (x,) = _reals(x)
    odd = apply_op("remainder", apply_op("floor", x), 2.0) == 1.0
    negative = _where(odd, -1.0, 1.0, x.dtype)
    below = _where(apply_op("floor", x) == x, _NAN, negative)
    zero = _where(apply_op("signbit", x), -1.0, 1.0, x.dtype)
    return _where(x > 0, 1.0, _where(x == 0, zero, _where(x == x, below, _NAN)))


def beta(a: Any, b: Any) -> Array:
    """The beta function ``gamma(a) gamma(b) / gamma(a + b)``: through ``lbeta`` where both
    arguments are positive (no overflow on the way), else with the gamma function's signs;
    0 where only ``a + b`` is a pole of the gamma function. NaN where ``a`` or ``b`` is one
    (a non-positive integer), where SciPy takes one-sided limits.

    >>> import weft as wf
    >>> [round(v, 12) for v in wf.beta(wf.asarray([1.0, 2.0]), 2.0).tolist()]
    [0.5, 0.166666666667]
    """
    a, b = _reals(a, b)
    positive = apply_op("exp", apply_op("lbeta", a, b))
    sign = gammasgn(a) * gammasgn(b) * gammasgn(a + b)
    magnitude = apply_op("exp", apply_op("lgamma", a) + apply_op("lgamma", b)
                         - apply_op("lgamma", a + b))
    both = apply_op("logical_and", a > 0, b > 0)
    # a + b at a pole of the gamma function, a and b not: 0 (the product's limit).
    finite = apply_op("logical_not", apply_op("logical_or", _pole(a), _pole(b)))
    general = _where(apply_op("logical_and", _pole(a + b), finite), 0.0, sign * magnitude)
    return _where(both, positive, general)


def _pole(x: Array) -> Array:
    """Where ``x`` is a pole of the gamma function: a non-positive integer."""
    return apply_op("logical_and", x <= 0, apply_op("floor", x) == x)


def binom(n: Any, k: Any) -> Array:
    """The binomial coefficient ``n choose k`` for real ``n`` and ``k``:
    ``1 / ((n + 1) beta(n - k + 1, k + 1))``, 0 where ``k`` or ``n - k`` is a negative
    integer (for integer ``n >= 0``: ``k`` outside ``[0, n]``); integers for integer
    arguments. At negative integer ``n`` SciPy's values (its limits) differ from weft's.

    >>> import weft as wf
    >>> [round(v, 12) for v in wf.binom(wf.asarray([5.0, 5.5]), 2.0).tolist()]
    [10.0, 12.375]
    """
    n, k = _reals(n, k)
    value = 1.0 / ((n + 1) * beta(n - k + 1, k + 1))
    whole = apply_op("logical_and", apply_op("floor", n) == n, apply_op("floor", k) == k)
    # 1 / inf: an argument of the beta function at a pole of gamma (k a negative integer,
    # or n - k one below 0), unless n itself is a negative integer (SciPy's NaN there).
    poles = apply_op("logical_or", _pole(k + 1), _pole(n - k + 1))
    outside = apply_op("logical_and", poles, apply_op("logical_not", _pole(n + 1)))
    # Integer arguments: an integer (the formula's last bits rounded away).
    value = _where(apply_op("logical_and", whole, n >= 0), apply_op("round", value), value)
    return _where(outside, 0.0, value)


__all__ = ["bdtr", "bdtrc", "bdtri", "beta", "binom", "boxcox", "boxcox1p", "chdtr", "chdtrc",
           "chdtri", "cosdg", "cotdg", "exp10", "fdtr", "fdtrc", "fdtri", "gammasgn", "gdtr",
           "gdtrc", "inv_boxcox", "inv_boxcox1p", "log_ndtr", "nbdtr", "nbdtrc", "nbdtri",
           "pdtr", "pdtrc", "pdtri", "sindg", "tandg"]
