"""Device code for the special functions, as C templates per dtype (see helpers.py).

``{T}`` is the computation type, ``{S}`` the dtype suffix and ``{F}`` the literal suffix
(``f`` for float32, so float kernels never meet a double constant). ``NEEDS`` lists the
helpers each one calls; the renderer emits those first.

Methods (float64 aims at 1e-12 relative, float32 at 5e-6; docs/special.md has the measured
worst errors):

- digamma, trigamma: reflection below 0, the recurrence up to x >= 10, then the asymptotic
  series with Bernoulli numbers through B14 (truncation below 1e-16 there).
- lbeta: lgamma sums while both arguments are below 10; otherwise Stirling's form with the
  large arguments' corrections subtracted analytically, so no two large lgammas cancel.
- erfinv, inv_Phi: the inverse of erf on [0, 0.5] from its series, of erfc on (0, 0.5]
  from Abramowitz & Stegun 26.2.23 (error below 4.5e-4), each refined by three Halley steps
  on the device's own erf/erfc (cubic convergence: 1e-3, 1e-9, then rounding).
- The logistic family and log1p_exp/log1m_exp: branches that never subtract close numbers.
"""

SPECIAL: dict[str, str] = {
    "digamma": """\
{T} weft_digamma_{S}({T} x) {{
    if (isnan(x) || x == INFINITY) return x;
    if (x == -INFINITY) return NAN;
    // Near the positive zero x0 the recurrence below cancels: use the Taylor series there,
    // with x - x0 taken against x0 split in two parts (ROOTS).
    const {T} h = (x - {digamma_root_hi}{F}) - {digamma_root_lo}{F};
    if (fabs(h) < {digamma_radius}{F}) {{
        return h * (0.9676722454476214{F} + h * (-0.44276316898359214{F} + h * (
            0.2584997609556512{F} + h * (-0.16394270544240658{F} + h * (0.10782405069126239{F}
            + h * (-0.07219956125645476{F} + h * (0.048804288164143145{F} + h * (
            -0.033161126474847376{F} + h * 0.022597648232218125{F}))))))));
    }}
    {T} result = 0;
    if (x <= 0) {{
        if (x == floor(x)) return x == 0 ? (signbit(x) ? INFINITY : -INFINITY) : NAN;
        // psi(x) = psi(1 - x) - pi / tan(pi x)
        result = -3.14159265358979323846{F} * cospi(x) / sinpi(x);
        x = 1 - x;
    }}
    while (x < 10) {{
        result -= 1 / x;
        x += 1;
    }}
    const {T} r = 1 / (x * x);
    const {T} series = r * (1.0{F} / 12 - r * (1.0{F} / 120 - r * (1.0{F} / 252 - r * (
        1.0{F} / 240 - r * (1.0{F} / 132 - r * (691.0{F} / 32760 - r / 12))))));
    return result + (log(x) - 0.5{F} / x - series);
}}
""",
    "trigamma": """\
{T} weft_trigamma_{S}({T} x) {{
    if (isnan(x)) return x;
    if (x == INFINITY) return 0;
    if (x == -INFINITY) return INFINITY;
    {T} reflected = 0;
    const bool negative = x <= 0;
    if (negative) {{
        if (x == floor(x)) return INFINITY;
        // psi1(x) = pi^2 / sin^2(pi x) - psi1(1 - x)
        const {T} s = sinpi(x);
        reflected = 9.86960440108935861883{F} / (s * s);
        x = 1 - x;
    }}
    {T} sum = 0;
    while (x < 10) {{
        sum += 1 / (x * x);
        x += 1;
    }}
    const {T} r = 1 / (x * x);
    const {T} series = r * (1.0{F} / 6 - r * (1.0{F} / 30 - r * (1.0{F} / 42 - r * (
        1.0{F} / 30 - r * (5.0{F} / 66 - r * (691.0{F} / 2730 - r * 7 / 6))))));
    const {T} value = sum + (1 + 0.5{F} / x + series) / x;
    return negative ? reflected - value : value;
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
    "inv_logit": """\
{T} weft_inv_logit_{S}({T} x) {{
    if (x >= 0) return 1 / (1 + exp(-x));
    const {T} e = exp(x);
    return e / (1 + e);
}}
""",
    "log1p_exp": """\
{T} weft_log1p_exp_{S}({T} x) {{
    return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
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
    if (b > a || a == INFINITY) return b == a && a < INFINITY ? -INFINITY : NAN;
    if (b == a) return -INFINITY;
    if (b == -INFINITY) return a;
    return a + weft_log1m_exp_{S}(b - a);
}}
""",
    # erf(z) = a for 0 <= a <= 1/2.
    "erf_solve": """\
{T} weft_erf_solve_{S}({T} a) {{
    const {T} a2 = a * a;
    {T} z = 0.88622692545275801365{F} * a * (1 + a2 * (0.26179938779914943654{F}
        + a2 * 0.14393173084921978{F}));
    for (int k = 0; k < 3; ++k) {{
        const {T} u = (erf(z) - a) / (1.12837916709551257390{F} * exp(-z * z));
        z -= u / (1 + z * u);
    }}
    return z;
}}
""",
    # erfc(z) = c for 0 < c <= 1/2.
    "erfc_solve": """\
{T} weft_erfc_solve_{S}({T} c) {{
    const {T} t = sqrt(-2 * log(c / 2));
    {T} z = 0.70710678118654752440{F} * (t - (2.515517{F} + t * (0.802853{F} + t * 0.010328{F}))
        / (1 + t * (1.432788{F} + t * (0.189269{F} + t * 0.001308{F}))));
    for (int k = 0; k < 3; ++k) {{
        const {T} slope = 1.12837916709551257390{F} * exp(-z * z);
        if (slope == 0) break;
        const {T} u = (c - erfc(z)) / slope;
        z -= u / (1 + z * u);
    }}
    return z;
}}
""",
    "erfinv": """\
{T} weft_erfinv_{S}({T} y) {{
    const {T} a = fabs(y);
    if (isnan(y) || a > 1) return NAN;
    if (a == 1) return copysign(({T})INFINITY, y);
    const {T} z = a <= 0.5{F} ? weft_erf_solve_{S}(a) : weft_erfc_solve_{S}(1 - a);
    return copysign(z, y);
}}
""",
    "inv_Phi": """\
{T} weft_inv_Phi_{S}({T} p) {{
    if (isnan(p) || p < 0 || p > 1) return NAN;
    if (p == 0) return -INFINITY;
    if (p == 1) return INFINITY;
    if (p >= 0.25{F} && p <= 0.75{F}) {{
        const {T} d = 2 * p - 1;  // exact here
        return 1.41421356237309504880{F} * copysign(weft_erf_solve_{S}(fabs(d)), d);
    }}
    const {T} tail = 1.41421356237309504880{F} * weft_erfc_solve_{S}(2 * (p < 0.5{F} ? p : 1 - p));
    return p < 0.5{F} ? -tail : tail;
}}
""",
}

# Constants per dtype. A constant split into a rounded part and the rest, for arguments near
# it: the
# positive zero of digamma, 1.46163214496836234126265954232572132846819620400644...; the
# Taylor coefficients above are polygamma(k, x0) / k! (SciPy, float64).
ROOTS: dict[str, dict[str, str]] = {
    "float64": {"digamma_root_hi": "1.4616321449683622", "digamma_root_lo": "9.549995429965697e-17",
                "digamma_radius": "0.05"},
    # float32's recurrence cancels over a wider range; nine terms still reach 1e-7 at 0.25.
    "float32": {"digamma_root_hi": "1.4616321325302124", "digamma_root_lo": "1.243815006546356e-08",
                "digamma_radius": "0.25"},
}

NEEDS: dict[str, tuple[str, ...]] = {
    "lbeta": ("stirling_delta",),
    "lchoose": ("stirling_delta", "lbeta"),
    "log_diff_exp": ("log1m_exp",),
    "erfinv": ("erf_solve", "erfc_solve"),
    "inv_Phi": ("erf_solve", "erfc_solve"),
}
