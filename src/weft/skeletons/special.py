"""Device code for the special functions, as C templates per dtype (see helpers.py).

``{T}`` is the computation type, ``{S}`` the dtype suffix and ``{F}`` the literal suffix
(``f`` for float32, so float kernels never meet a double constant). ``NEEDS`` lists the
helpers each one calls; the renderer emits those first.

Methods (float64 aims at 1e-12 relative, float32 at 5e-6; docs/special.md has the measured
worst errors):

- digamma, trigamma: reflection below 0, the recurrence up to x >= 10 (as a sum of fixed
  length), then the asymptotic series with Bernoulli numbers through B14 (truncation below
  1e-16 there); straight-line code, which CPU devices vectorize.
- lbeta: lgamma sums while both arguments are below 10; otherwise Stirling's form with the
  large arguments' corrections subtracted analytically, so no two large lgammas cancel.
- erfinv, inv_Phi: polynomials in w = -log(1 - y^2) on five pieces (erfinv.py), in
  float64 for both dtypes.
- The logistic family and log1p_exp/log1m_exp: branches that never subtract close numbers.
- gamma_p, gamma_q: the power series of P below x = a + 1 (for a < 1, Q's own series, as
  1 - P cancels when a -> 0), the continued fraction of Q above; the prefactor
  x^a e^-x / Gamma(a + 1) in Stirling's form from a = 10.
- ibeta: the continued fraction below the mean, the symmetry I_x(a, b) = 1 - I_1-x(b, a)
  above; the prefactor x^a (1 - x)^b / B(a, b) in Stirling's form when a, b >= 10.
"""

import math

from .bessel import BESSEL, BESSEL_NEEDS, BESSEL_THROUGH_DOUBLE
from .elliptic_incomplete import ELLIPTIC_INCOMPLETE, ELLIPTIC_INCOMPLETE_NEEDS
from .elliptic_jacobi import ELLIPTIC_JACOBI, ELLIPTIC_JACOBI_NEEDS, ELLIPTIC_JACOBI_THROUGH_DOUBLE
from .erfcx import ERFCX
from .erfinv import ERFINV
from .exponential_integral import EXPONENTIAL_INTEGRAL, EXPONENTIAL_INTEGRAL_NEEDS
from .incomplete_derivatives import INCOMPLETE_DERIVATIVES, INCOMPLETE_DERIVATIVES_NEEDS
from .inverse_beta import INVERSE_BETA, INVERSE_BETA_NEEDS
from .inverse_gamma import INVERSE_GAMMA
from .legendre import LEGENDRE, LEGENDRE_NEEDS
from .sine_cosine_integral import SINE_COSINE_INTEGRAL, SINE_COSINE_INTEGRAL_NEEDS
from .zeta import ZETA, ZETA_NEEDS


def _pi_quarter() -> str:
    """``weft_sinpi_quarter`` and ``weft_cospi_quarter``: sin(pi t) and cos(pi t) for
    |t| <= 1/4, by their Taylor polynomials in z = pi t (to z^19 and z^18: below 1e-18)."""
    def nested(coefficients: list[float]) -> str:
        text = f"{coefficients[-1]!r}{{F}}"
        for c in reversed(coefficients[:-1]):
            text = f"{c!r}{{F}} + z2 * ({text})"
        return text

    sine = [(-1) ** k / math.factorial(2 * k + 1) for k in range(10)]
    cosine = [(-1) ** k / math.factorial(2 * k) for k in range(10)]
    head = ("    const {T} z = 3.14159265358979323846{F} * t;\n"
            "    const {T} z2 = z * z;\n")
    return (f"{{Q}}{{T}} weft_sinpi_quarter_{{S}}({{T}} t) {{{{\n{head}"
            f"    return z * ({nested(sine)});\n}}}}\n\n"
            f"{{Q}}{{T}} weft_cospi_quarter_{{S}}({{T}} t) {{{{\n{head}"
            f"    return {nested(cosine)};\n}}}}\n")


_PI_QUARTER = _pi_quarter()


def _fraction_steps(square: bool) -> str:
    """The statements adding 1 / (y + j) (``square``: 1 / (y + j)^2) to the fraction
    num / den for j = 0, 1, ... while y + j < 10, written out (a loop in a helper keeps it
    from being inlined on CPU devices, and a call keeps the kernel from vectorizing). ``n``
    counts the steps taken, so that the series starts at y + n, the first y + j that the
    steps' own rounding finds at 10 or beyond (y + 9 may round to 10 when y is just below
    1: ceil(10 - y) would then count a step not taken)."""
    factor = "(t * t)" if square else "t"
    steps = []
    for j in range(10):
        steps.append(f"    t = y + {j};\n"
                     f"    num = t < 10 ? num * {factor} + den : num;\n"
                     f"    den = t < 10 ? den * {factor} : den;\n"
                     f"    n = t < 10 ? n + 1 : n;\n")
    return "".join(steps)

SPECIAL: dict[str, str] = {
    # For digamma's and trigamma's reflections: sinpi and cospi are library calls, which
    # CPU devices do not vectorize.
    "pi_quarter": _PI_QUARTER,
    # Straight-line code (selects, no loop, no early return), so that a CPU device inlines
    # and vectorizes it and the kernels it joins (lgamma's gradients among them).
    "digamma": """\
{T} weft_digamma_{S}({T} x) {{
    const int reflect = x <= 0;
    const {T} y = reflect ? 1 - x : x;
    // Near the positive zero x0 the recurrence below cancels: the Taylor series there, with
    // y - x0 taken against x0 split in two parts (ROOTS).
    const {T} h = (y - {digamma_root_hi}{F}) - {digamma_root_lo}{F};
    const {T} near_root = h * (0.9676722454476214{F} + h * (-0.44276316898359214{F} + h * (
        0.2584997609556512{F} + h * (-0.16394270544240658{F} + h * (0.10782405069126239{F}
        + h * (-0.07219956125645476{F} + h * (0.048804288164143145{F} + h * (
        -0.033161126474847376{F} + h * 0.022597648232218125{F}))))))));
    // x <= 0: psi(x) = psi(1 - x) - pi cot(pi x), cot(pi x) from x's exact distance r to
    // the nearest integer: cos / sin of pi |r| up to 1/4, sin / cos of pi (1/2 - |r|)
    // beyond, so that no rounded argument sits near a zero of the quotient.
    const {T} r = x - rint(x);
    const {T} a = fabs(r);
    const int low = a <= 0.25{F};
    const {T} w = low ? a : 0.5{F} - a;
    const {T} s = weft_sinpi_quarter_{S}(w), c = weft_cospi_quarter_{S}(w);
    const {T} cot = copysign(low ? c / s : s / c, r);
    // psi(y) = psi(y + n) - sum_(j < n) 1 / (y + j), n the steps that reach 10, the sum
    // kept as one fraction (no division per step; every term positive).
    {T} num = 0, den = 1, n = 0, t;
""" + _fraction_steps(False) + """\
    const {T} sum = num / den;
    const {T} z = y + n;
    const {T} q = 1 / (z * z);
    const {T} series = q * (1.0{F} / 12 - q * (1.0{F} / 120 - q * (1.0{F} / 252 - q * (
        1.0{F} / 240 - q * (1.0{F} / 132 - q * (691.0{F} / 32760 - q / 12))))));
    const {T} far = (log(z) - 0.5{F} / z - series) - sum;
    const {T} value = fabs(h) < {digamma_radius}{F} ? near_root : far;
    {T} result = reflect ? value - 3.14159265358979323846{F} * cot : value;
    // Poles at the integers from 0 down (at 0, the infinity's sign is the zero's).
    const {T} pole = x == 0 ? (1 / x < 0 ? INFINITY : -INFINITY) : NAN;
    result = reflect && r == 0 ? pole : result;
    return x == INFINITY || x != x ? x : (x == -INFINITY ? NAN : result);
}}
""",
    "trigamma": """\
{T} weft_trigamma_{S}({T} x) {{
    // x <= 0: psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x), sin(pi x) from x's exact
    // distance r to the nearest integer.
    const int reflect = x <= 0;
    const {T} r = x - rint(x);
    const {T} a = fabs(r);
    const {T} s = a <= 0.25{F} ? weft_sinpi_quarter_{S}(a) : weft_cospi_quarter_{S}(0.5{F} - a);
    const {T} y = reflect ? 1 - x : x;
    {T} num = 0, den = 1, n = 0, t;  // sum_(j < n) 1 / (y + j)^2 as one fraction
""" + _fraction_steps(True) + """\
    const {T} sum = num / den;
    const {T} z = y + n;
    const {T} q = 1 / (z * z);
    const {T} series = q * (1.0{F} / 6 - q * (1.0{F} / 30 - q * (1.0{F} / 42 - q * (
        1.0{F} / 30 - q * (5.0{F} / 66 - q * (691.0{F} / 2730 - q * 7 / 6))))));
    const {T} value = sum + (1 + 0.5{F} / z + series) / z;
    {T} result = reflect ? 9.86960440108935861883{F} / (s * s) - value : value;
    result = reflect && r == 0 ? INFINITY : result;
    return x != x ? x : (x == INFINITY ? 0 : (x == -INFINITY ? INFINITY : result));
}}
""",
    # psi(1 + n) + Euler's gamma (the harmonic number H_n), which cancels for n near 0:
    # there the series sum_j (-1)^j zeta(j + 2) n^(j + 1) (16 terms reach 1e-17 below 0.1).
    "harmonic": """\
{T} weft_harmonic_{S}({T} n) {{
    if (!(fabs(n) < 0.1{F})) return weft_digamma_{S}(1 + n) + 0.57721566490153286061{F};
    const {T} zeta[16] = {{
        1.6449340668482264{F}, 1.2020569031595942{F}, 1.0823232337111381{F},
        1.0369277551433699{F}, 1.0173430619844491{F}, 1.0083492773819228{F},
        1.0040773561979443{F}, 1.0020083928260821{F}, 1.0009945751278181{F},
        1.0004941886041194{F}, 1.000246086553308{F}, 1.0001227133475785{F},
        1.0000612481350587{F}, 1.0000305882363070{F}, 1.0000152822594087{F},
        1.0000076371976379{F}}};
    {T} sum = 0;
    for (int j = 15; j >= 0; --j) sum = zeta[j] - n * sum;
    return n * sum;
}}
""",
    # psi''(x) for x > 1/2 to about 1e-9 (lchoose's series needs no more): the recurrence
    # psi''(x) = psi''(x + 1) - 2 / x^3 up to 8, then the asymptotic series.
    "tetragamma": """\
{T} weft_tetragamma_{S}({T} x) {{
    {T} sum = 0;
    while (x < 8) {{
        sum -= 2 / (x * x * x);
        x += 1;
    }}
    const {T} r = 1 / x;
    const {T} r2 = r * r;
    return sum - r2 * (1 + r * (1 + r * (0.5{F} - r2 * (1.0{F} / 6 - r2 * (1.0{F} / 6
        - r2 * 0.3{F})))));
}}
""",
    # lgamma(z) - ((z - 1/2) log z - z + log(2 pi) / 2), for z >= 10.
    "stirling_delta": """\
{T} weft_stirling_delta_{S}({T} z) {{
    const {T} r = 1 / (z * z);
    return (1.0{F} / 12 - r * (1.0{F} / 360 - r * (1.0{F} / 1260 - r * (1.0{F} / 1680 - r * (
        1.0{F} / 1188 - r * (691.0{F} / 360360 - r / 156)))))) / z;
}}
""",
    "lbeta": """\
{T} weft_lbeta_{S}({T} a, {T} b) {{
    if (isnan(a) || isnan(b)) return a + b;
    const {T} x = fmin(a, b);
    const {T} y = fmax(a, b);
    if (y == INFINITY && x > 0) return -INFINITY;
    if (x == 0) return INFINITY;
    if (x <= 0 || y < 10) return lgamma(a) + lgamma(b) - lgamma(a + b);
    const {T} share = x / (x + y);
    if (x < 10) {{
        // lgamma(y) - lgamma(x + y) in Stirling's form: no large terms cancel.
        return lgamma(x) + (y - 0.5{F}) * log1p(-share) + x * (1 - log(x + y))
            + (weft_stirling_delta_{S}(y) - weft_stirling_delta_{S}(x + y));
    }}
    return -0.5{F} * log(y) + 0.91893853320467274178{F} + (x - 0.5{F}) * log(share)
        + y * log1p(-share) + (weft_stirling_delta_{S}(x) + weft_stirling_delta_{S}(y)
        - weft_stirling_delta_{S}(x + y));
}}
""",
    "lchoose": """\
{T} weft_lchoose_{S}({T} n, {T} k) {{
    if (isnan(n) || isnan(k)) return n + k;
    if (k == 0 || k == n) return 0;
    if (n < -1 || k < -1 || k > n + 1) return NAN;
    // For k or n - k near 0 the value is near 0 and the lgamma terms cancel: there a Taylor
    // series in s = min(k, n - k) (lchoose is symmetric), of
    // f(s) = lgamma(n + 1) - lgamma(1 + s) - lgamma(n + 1 - s):
    // s (psi(n + 1) - psi(1)) - s^2 / 2 (psi'(1) + psi'(n + 1)) + s^3 / 6 (psi''(n + 1) -
    // psi''(1)); the omitted s^4 term is below 1e-12 of the first for |s| < 1e-4.
    const {T} s = fabs(k) <= fabs(n - k) ? k : n - k;
    if (fabs(s) < 1e-4{F} && n > -0.5{F}) {{
        const {T} first = weft_harmonic_{S}(n);
        const {T} second = 1.64493406684822643647{F} + weft_trigamma_{S}(n + 1);
        const {T} third = weft_tetragamma_{S}(n + 1) + 2.40411380631918857080{F};
        return s * (first - s * (0.5{F} * second - s * third / 6));
    }}
    return -log1p(n) - weft_lbeta_{S}(n - k + 1, k + 1);
}}
""",
    "logit": """\
{T} weft_logit_{S}({T} p) {{
    // Near 1/2, p / (1 - p) = 1 + (2p - 1) / (1 - p), and 2p - 1 is exact there.
    if (p >= 0.25{F} && p <= 0.75{F}) return log1p((2 * p - 1) / (1 - p));
    return log(p) - log1p(-p);
}}
""",
    # One exp of -|x| and selects, no branch (a CPU compiler vectorizes it: a logistic GLM's
    # density 19 -> 2 ms); log1p_exp's same exp(-fabs(x)) is computed once where both run.
    "inv_logit": """\
{T} weft_inv_logit_{S}({T} x) {{
    const {T} e = exp(-fabs(x));
    return x >= 0 ? 1 / (1 + e) : e / (1 + e);
}}
""",
    "log1p_exp": """\
{T} weft_log1p_exp_{S}({T} x) {{
    return (x > 0 ? x : ({T})0) + log1p(exp(-fabs(x)));
}}
""",
    "log1m_exp": """\
{T} weft_log1m_exp_{S}({T} x) {{
    if (x > 0) return NAN;
    if (x == 0) return -INFINITY;
    // log(1 - e^x): through expm1 near 0, through log1p once e^x is small.
    return x > -0.69314718055994530942{F} ? log(-expm1(x)) : log1p(-exp(x));
}}
""",
    "log_diff_exp": """\
{T} weft_log_diff_exp_{S}({T} a, {T} b) {{
    if (isnan(a) || isnan(b)) return a + b;
    if (b > a) return NAN;
    if (b == a) return a < INFINITY ? -INFINITY : NAN;  // e^inf - e^inf is undefined
    if (a == INFINITY || b == -INFINITY) return a;
    return a + weft_log1m_exp_{S}(b - a);
}}
""",
    # log(1 + u) - u, without cancelling for small u.
    "log1pmx": """\
{T} weft_log1pmx_{S}({T} u) {{
    if (!(fabs(u) < 0.25{F})) return log1p(u) - u;
    {T} power = u, sum = 0;
    for (int k = 2; k < 60; ++k) {{
        power *= -u;
        const {T} term = power / k;
        sum += term;
        if (fabs(term) <= {special_eps} * fabs(sum)) break;
    }}
    return sum;
}}
""",
    # lgamma(1 + a) for 0 <= a < 1, exact as a -> 0, where 1 + a would round: the series
    # -gamma a + sum_k (-1)^k zeta(k) a^k / k below 0.2 (24 terms reach 1e-17 there).
    "lgamma1p": """\
{T} weft_lgamma1p_{S}({T} a) {{
    if (a >= 0.2{F}) return lgamma(1 + a);
    const {T} coefficient[24] = {{
        0.8224670334241132{F}, -0.40068563438653143{F}, 0.27058080842778454{F},
        -0.207385551028674{F}, 0.16955717699740822{F}, -0.14404989676884614{F},
        0.12550966952474304{F}, -0.11133426586956469{F}, 0.10009945751278179{F},
        -0.09095401714582904{F}, 0.083353840546109{F}, -0.0769325164113522{F},
        0.07143294629536134{F}, -0.06666870588242046{F}, 0.06250095514121304{F},
        -0.05882397865868458{F}, 0.055555767627403614{F}, -0.05263167937961666{F},
        0.05000004769810169{F}, -0.04761907033014223{F}, 0.04545455629320467{F},
        -0.04347826605304026{F}, 0.04166666915034121{F}, -0.04000000119214014{F}}};
    {T} sum = 0;
    for (int k = 23; k >= 0; --k) sum = sum * a + coefficient[k];
    return a * (-0.57721566490153286061{F} + a * sum);
}}
""",
    # x^a e^-x / Gamma(a + 1). From a = 10, as exp(a log1pmx((x - a) / a) - delta(a)) /
    # sqrt(2 pi a): the terms a log x and x, each of order a, never meet.
    "gamma_prefix": """\
{T} weft_gamma_prefix_{S}({T} a, {T} x) {{
    if (a < 10) return exp(a * log(x) - x - lgamma(a + 1));
    const {T} u = (x - a) / a;
    // Far from the mean, 1 + u from u would lose digits; log(x / a) keeps them.
    const {T} t = fabs(u) < 0.25{F} ? weft_log1pmx_{S}(u) : log(x / a) - u;
    return exp(a * t - weft_stirling_delta_{S}(a)) / sqrt(6.28318530717958647693{F} * a);
}}
""",
    # P(a, x) (upper == 0) or Q(a, x), for 0 < a, x < inf. Below x = a + 1 the power series
    # of P; there, for a < 1, Q sums its own series, since 1 - P would cancel as a -> 0.
    # Above, the continued fraction of Q (modified Lentz).
    # Temme's uniform expansion, for a >= 1e6 where the series would take thousands of
    # terms: Q = erfc(eta sqrt(a / 2)) / 2 + R and P = erfc(-eta sqrt(a / 2)) / 2 - R, with
    # eta^2 / 2 = lambda - 1 - log(lambda), lambda = x / a, eta of the sign of lambda - 1,
    # R = exp(-a eta^2 / 2) / sqrt(2 pi a) (C0(eta) + C1(eta) / a). C2 / a^2 is below 1e-14.
    # Where the result is not negligible, a eta^2 / 2 < 750, so |eta| < 0.04: Taylor
    # polynomials of C1, and of C0 for |eta| < 1e-3 (C0 = 1 / (lambda - 1) - 1 / eta above).
    "gamma_temme": """\
{T} weft_gamma_temme_{S}({T} a, {T} x, int upper) {{
    const {T} u = (x - a) / a;
    const {T} half_eta2 = fabs(u) < 0.25{F} ? -weft_log1pmx_{S}(u) : u - log(x / a);
    const {T} eta = copysign(sqrt(2 * half_eta2), u);
    const {T} c0 = fabs(eta) < 1e-3{F}
        ? -1.0{F} / 3 + eta * (1.0{F} / 12 + eta * (-2.0{F} / 135 + eta * (1.0{F} / 864
            + eta * 3.527336860670194e-4{F})))
        : 1 / u - 1 / eta;
    // Beyond |eta| = 1, R underflows; the polynomial would give inf * 0 there.
    const {T} c1 = fabs(eta) >= 1 ? 0 : -1.0{F} / 540 + eta * (-1.0{F} / 288 + eta * (
        1.0{F} / 378 - eta * 9.9022633744855967e-4{F}));
    const {T} r = exp(-a * half_eta2) / sqrt(6.28318530717958647693{F} * a) * (c0 + c1 / a);
    const {T} z = eta * sqrt(a / 2);
    return upper ? 0.5{F} * erfc(z) + r : 0.5{F} * erfc(-z) - r;
}}
""",
    "gamma_pq": """\
{T} weft_gamma_pq_{S}({T} a, {T} x, int upper) {{
    if (a >= 1e6{F}) return weft_gamma_temme_{S}(a, x, upper);
    if (x < a + 1) {{
        if (upper && a < 1) {{
            // Q = 1 - x^a / Gamma(a + 1) - x^a / Gamma(a) sum_n>=1 (-x)^n / (n! (a + n)).
            const {T} t = a * log(x) - weft_lgamma1p_{S}(a);
            {T} power = 1, sum = 0;
            for (int n = 1; n < 400; ++n) {{
                power *= -x / n;
                const {T} term = power / (a + n);
                sum += term;
                if (fabs(term) <= {special_eps} * fabs(sum)) break;
            }}
            return -expm1(t) - a * exp(t) * sum;
        }}
        {T} term = 1, sum = 1;
        for (int n = 1; n < {special_steps}; ++n) {{
            term *= x / (a + n);
            sum += term;
            if (term <= {special_eps} * sum) break;
        }}
        const {T} p = weft_gamma_prefix_{S}(a, x) * sum;
        return upper ? 1 - p : p;
    }}
    {T} b = x + 1 - a, c = 1 / {special_tiny}, d = 1 / b, h = d;
    for (int i = 1; i < {special_steps}; ++i) {{
        const {T} an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (fabs(d) < {special_tiny}) d = {special_tiny};
        c = b + an / c;
        if (fabs(c) < {special_tiny}) c = {special_tiny};
        d = 1 / d;
        const {T} delta = d * c;
        h *= delta;
        if (fabs(delta - 1) <= {special_eps}) break;
    }}
    const {T} q = a * weft_gamma_prefix_{S}(a, x) * h;
    return upper ? q : 1 - q;
}}
""",
    "gamma_p": """\
{T} weft_gamma_p_{S}({T} a, {T} x) {{
    if (isnan(a) || isnan(x)) return a + x;
    if (a < 0 || x < 0 || (a == 0 && x == 0) || (isinf(a) && isinf(x))) return NAN;
    if (a == 0 || isinf(x)) return 1;
    if (x == 0 || isinf(a)) return 0;
    return weft_gamma_pq_{S}(a, x, 0);
}}
""",
    "gamma_q": """\
{T} weft_gamma_q_{S}({T} a, {T} x) {{
    if (isnan(a) || isnan(x)) return a + x;
    if (a < 0 || x < 0 || (a == 0 && x == 0) || (isinf(a) && isinf(x))) return NAN;
    if (a == 0 || isinf(x)) return 0;
    if (x == 0 || isinf(a)) return 1;
    return weft_gamma_pq_{S}(a, x, 1);
}}
""",
    # x^a y^b / B(a, b) with y = 1 - x. While a or b is below 10, from logs and lbeta; then as
    # sqrt(a / (2 pi c)) sqrt(b) exp(a log1pmx(u) + b log1pmx(v) + delta(c) - delta(a)
    # - delta(b)), c = a + b, u = xc / a - 1, v = yc / b - 1 = -ua / b: the linear terms
    # a u + b v cancel exactly.
    "ibeta_prefix": """\
{T} weft_ibeta_prefix_{S}({T} a, {T} b, {T} x, {T} y) {{
    if (a < 10 || b < 10) {{
        const {T} log_x = x <= 0.5{F} ? log(x) : log1p(-y);
        const {T} log_y = x <= 0.5{F} ? log1p(-x) : log(y);
        return exp(a * log_x + b * log_y - weft_lbeta_{S}(a, b));
    }}
    const {T} c = a + b;
    // x c - a = x b - y a: no product of order c, which would round at the scale of a.
    const {T} u = (x * b - y * a) / a;
    const {T} v = -u * a / b;
    // Far from the mean, 1 + u and 1 + v from u and v would lose digits; x and y keep them.
    const {T} tu = fabs(u) < 0.25{F} ? weft_log1pmx_{S}(u) : log(x * c / a) - u;
    const {T} tv = fabs(v) < 0.25{F} ? weft_log1pmx_{S}(v) : log(y * c / b) - v;
    return sqrt(a / (6.28318530717958647693{F} * c)) * sqrt(b)
        * exp(a * tu + b * tv + weft_stirling_delta_{S}(c) - weft_stirling_delta_{S}(a)
              - weft_stirling_delta_{S}(b));
}}
""",
    # I_x(a, b) from its continued fraction (modified Lentz), for x below the mean; NaN if it
    # does not converge within special_steps.
    "ibeta_cf": """\
{T} weft_ibeta_cf_{S}({T} a, {T} b, {T} x, {T} y) {{
    {T} c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < {special_tiny}) d = {special_tiny};
    d = 1 / d;
    {T} h = d;
    for (int m = 1; m < {special_steps}; ++m) {{
        const int m2 = 2 * m;
        // Each step as a product of ratios, which stay finite for a or b up to 1e308.
        {T} step = m / (a - 1 + m2) * ((b - m) * x / (a + m2));
        d = 1 + step * d;
        if (fabs(d) < {special_tiny}) d = {special_tiny};
        c = 1 + step / c;
        if (fabs(c) < {special_tiny}) c = {special_tiny};
        d = 1 / d;
        h *= d * c;
        step = -(a + m) / (a + m2) * ((a + b + m) * x / (a + 1 + m2));
        d = 1 + step * d;
        if (fabs(d) < {special_tiny}) d = {special_tiny};
        c = 1 + step / c;
        if (fabs(c) < {special_tiny}) c = {special_tiny};
        d = 1 / d;
        const {T} delta = d * c;
        h *= delta;
        if (fabs(delta - 1) <= {special_eps}) return weft_ibeta_prefix_{S}(a, b, x, y) * h / a;
    }}
    // About sqrt(max(a, b)) steps are needed near the mean: beyond a, b ~ 1e9 the budget runs
    // out there, and an unconverged fraction is not an answer.
    return NAN;
}}
""",
    # I_x(a, b) for a >= 15 and b < 40, where the continued fraction loses digits below the
    # mean (6e-12 at a = 1e5, b = 10): DiDonato and Morris's expansion for large a (BGRAT,
    # ACM TOMS 708) at b0 = b - floor(b) in (0, 1], then up to b by I_x(a, b + 1) =
    # I_x(a, b) + x^a y^b / (b B(a, b)), whose terms are all positive. The prefactor's
    # Gamma(a + b0) / Gamma(a) comes from Stirling's series, not a difference of lgammas of
    # order a. -1 where the expansion does not apply (far in the tail, e^-z underflows).
    "ibeta_bgrat": """\
{T} weft_ibeta_bgrat_{S}({T} a, {T} b, {T} x, {T} y) {{
    int n = (int)floor(b);
    {T} b0 = b - n;
    if (b0 == 0) {{
        n -= 1;
        b0 = 1;
    }}
    {T} term = weft_ibeta_prefix_{S}(a, b0, x, y) / b0;
    {T} rising = 0;
    for (int k = 0; k < n; ++k) {{
        rising += term;
        term *= y * (a + b0 + k) / (b0 + k + 1);
    }}
    const {T} lnx = log1p(-y);
    const {T} bm1 = b0 - 1;
    const {T} nu = a + 0.5{F} * bm1;
    const {T} z = -nu * lnx;
    // r = e^-z z^b0 / Gamma(b0), u = r Gamma(a + b0) / (Gamma(a) nu^b0)
    const {T} r = b0 * exp(b0 * log(z) - z - weft_lgamma1p_{S}(b0));
    const {T} u = r * exp((a - 0.5{F}) * log1p(b0 / a) + b0 * log1p((b0 + 1) / (2 * nu)) - b0
                          - weft_stirling_delta_{S}(a) + weft_stirling_delta_{S}(a + b0));
    if (!(r > 0) || !(u > 0)) return -1;
    const {T} v = 0.25{F} / (nu * nu);
    const {T} t2 = 0.25{F} * lnx * lnx;
    {T} j = weft_gamma_q_{S}(b0, z) / r;
    {T} sum = j, t = 1, cn = 1;
    {T} c[30], d[30];
    int n2 = 0;
    for (int m = 1; m <= 30; ++m) {{
        const {T} bp2n = b0 + n2;
        j = (bp2n * (bp2n + 1) * j + (z + bp2n + 1) * t) * v;
        n2 += 2;
        t *= t2;
        cn /= n2 * (n2 + 1);
        c[m - 1] = cn;
        {T} s = 0, coefficient = b0 - m;
        for (int i = 1; i < m; ++i) {{
            s += coefficient * c[i - 1] * d[m - i - 1];
            coefficient += b0;
        }}
        d[m - 1] = bm1 * cn + s / m;
        const {T} dj = d[m - 1] * j;
        sum += dj;
        if (!(sum > 0)) return -1;
        if (fabs(dj) <= {special_eps} * sum) break;
    }}
    return u * sum + rising;
}}
""",
    # I_x(a, b) for x at or below the mean a / (a + b).
    "ibeta_lower": """\
{T} weft_ibeta_lower_{S}({T} a, {T} b, {T} x, {T} y) {{
    if (a >= 15 && b < 200 && y <= 0.3{F}) {{
        const {T} expanded = weft_ibeta_bgrat_{S}(a, b, x, y);
        if (expanded >= 0) return expanded;
    }}
    return weft_ibeta_cf_{S}(a, b, x, y);
}}
""",
    "ibeta": """\
{T} weft_ibeta_{S}({T} a, {T} b, {T} x) {{
    if (isnan(a) || isnan(b) || isnan(x)) return a + b + x;
    if (a < 0 || b < 0 || x < 0 || x > 1) return NAN;
    if ((a == 0 && b == 0) || (isinf(a) && isinf(b))) return NAN;
    if (x == 0) return 0;
    if (x == 1) return 1;
    if (a == 0 || isinf(b)) return 1;
    if (b == 0 || isinf(a)) return 0;
    const {T} y = 1 - x;
    if (x * (a + b + 2) > a + 1) return 1 - weft_ibeta_lower_{S}(b, a, y, x);
    return weft_ibeta_lower_{S}(a, b, x, y);
}}
""",
}

SPECIAL.update(INVERSE_GAMMA)  # (inverse_gamma.py: its own module for its size)
SPECIAL.update(ERFINV)  # (erfinv.py: its polynomials' coefficients are data)
SPECIAL.update({**ERFCX, **ELLIPTIC_INCOMPLETE, **ELLIPTIC_JACOBI})  # (their own modules)
SPECIAL.update(INVERSE_BETA)  # (inverse_beta.py: its own module for its size)
SPECIAL.update(ZETA)  # (zeta.py: the zeta family and polygamma)
SPECIAL.update(EXPONENTIAL_INTEGRAL)  # (exponential_integral.py: E1, Ei, E_n)
SPECIAL.update({**BESSEL, **LEGENDRE})  # (bessel.py: K, J, Y, I; legendre.py: P_v^m)
SPECIAL.update(SINE_COSINE_INTEGRAL)  # (sine_cosine_integral.py: Si and Ci)
SPECIAL.update(INCOMPLETE_DERIVATIVES)  # (incomplete_derivatives.py: in shape parameters)

# Constants per dtype. A constant split into a rounded part and the rest, for arguments near
# it: the positive zero of digamma, 1.46163214496836234126265954232572132846819620400644...;
# the Taylor coefficients above are polygamma(k, x0) / k! (SciPy, float64). The series and
# continued fractions stop at a relative step of special_eps (half an ulp), guard their
# denominators with special_tiny, and give up after special_steps terms (enough for
# arguments up to about 1e8, where about sqrt(a) terms are needed); exp of less than exp_range.
ROOTS: dict[str, dict[str, str]] = {
    "float64": {"digamma_root_hi": "1.4616321449683622", "digamma_root_lo": "9.549995429965697e-17",
                "digamma_radius": "0.05", "special_eps": "1.1102230246251565e-16",
                "special_tiny": "1e-300", "special_steps": "100000", "exp_range": "700.0"},
    # float32's recurrence cancels over a wider range; nine terms still reach 1e-7 at 0.25.
    "float32": {"digamma_root_hi": "1.4616321325302124", "digamma_root_lo": "1.243815006546356e-08",
                "digamma_radius": "0.25", "special_eps": "5.9604645e-08f",
                "special_tiny": "1e-30f", "special_steps": "100000", "exp_range": "80.0f"},
}

NEEDS: dict[str, tuple[str, ...]] = {
    "digamma": ("pi_quarter",),
    "trigamma": ("pi_quarter",),
    "lbeta": ("stirling_delta",),
    "harmonic": ("digamma",),
    "lchoose": ("stirling_delta", "lbeta", "harmonic", "trigamma", "tetragamma"),
    "log_diff_exp": ("log1m_exp",),
    "erfinv": ("erfinv_core",),
    "inv_Phi": ("erfinv_core",),
    "gamma_prefix": ("log1pmx", "stirling_delta"),
    "gamma_temme": ("log1pmx",),
    "gamma_pq": ("lgamma1p", "gamma_prefix", "gamma_temme"),
    "gamma_p": ("gamma_pq",),
    "gamma_q": ("gamma_pq",),
    "gamma_inv": ("gamma_pq", "gamma_prefix", "inv_Phi", "lgamma1p"),
    "gamma_p_inv": ("gamma_inv",),
    "gamma_q_inv": ("gamma_inv",),
    "ibeta_prefix": ("log1pmx", "stirling_delta", "lbeta"),
    "ibeta_cf": ("ibeta_prefix",),
    "ibeta_bgrat": ("ibeta_prefix", "lgamma1p", "stirling_delta", "gamma_q"),
    "ibeta_lower": ("ibeta_cf", "ibeta_bgrat"),
    "ibeta": ("ibeta_lower",),
    **INVERSE_BETA_NEEDS,
    **ZETA_NEEDS,
    **EXPONENTIAL_INTEGRAL_NEEDS,
    **BESSEL_NEEDS, **ELLIPTIC_INCOMPLETE_NEEDS, **ELLIPTIC_JACOBI_NEEDS,
    **SINE_COSINE_INTEGRAL_NEEDS, **LEGENDRE_NEEDS,
    **INCOMPLETE_DERIVATIVES_NEEDS,
}

# Special functions whose float32 forms compute in double on devices that have it (name ->
# arity): their float32 arithmetic loses about |exponent| ulps in the prefactors, up to 1e-3
# relative, against the 5e-6 asked; one double evaluation rounds once. Without doubles they
# compute in float (docs/special.md gives those errors).
THROUGH_DOUBLE: dict[str, int] = {
    "gamma_p": 2, "gamma_q": 2, "ibeta": 3, "lbeta": 2, "lchoose": 2, "gamma_p_inv": 2,
    "gamma_q_inv": 2, "erfinv": 1, "inv_Phi": 1, "ibeta_inv": 3, "ibetac_inv": 3, "zeta": 2,
    "riemann_zeta": 1, "zetac": 1, "polygamma": 2, "zeta_ds": 2, "gamma_p_da": 2, "ibeta_da": 3,
    "ibeta_db": 3, "exp1": 1, "expi": 1, "expn": 2, "si": 1, "ci": 1, "lpmv": 3, "erfcx": 1,
    "ellipkinc": 2, "ellipeinc": 2, **ELLIPTIC_JACOBI_THROUGH_DOUBLE, **BESSEL_THROUGH_DOUBLE}

WIDE_FLOAT32 = """\
float weft_{name}_f32({params}) {{
    return (float)weft_{name}_f64({args});
}}
"""
