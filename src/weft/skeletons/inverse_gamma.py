"""The inverses of the regularized incomplete gamma functions in x, as kernel helpers
(``gamma_p_inv``, ``gamma_q_inv``: SciPy's ``gammaincinv`` and ``gammainccinv``), beside
the forward functions of special.py, whose helpers they call (``gamma_pq``,
``gamma_prefix``, ``inv_Phi``, ``lgamma1p``).
"""

INVERSE_GAMMA: dict[str, str] = {
    # x with P(a, x) = p (upper == 0) or Q(a, x) = p. Solved on the smaller tail (a target
    # of at most 1/2, so its digits are the caller's) by Newton's iteration on the log of
    # the tail, which stays well scaled down to targets of 1e-300: each step moves by
    # log(F / p) F / F', F' the gamma density, at most tenfold either way. Started from
    # Wilson and Hilferty's normal approximation of x^(1/3) near the middle, from P's
    # leading term x^a / Gamma(a + 1) in the lower tail, and from Q's, x^(a-1) e^-x /
    # Gamma(a), in the upper.
    "gamma_inv": """\
{T} weft_gamma_inv_{S}({T} a, {T} p, int upper) {{
    if (isnan(a) || isnan(p)) return a + p;
    if (a < 0 || p < 0 || p > 1) return NAN;
    if (p == (upper ? 1 : 0)) return 0;
    if (p == (upper ? 0 : 1)) return INFINITY;
    if (a == 0 || isinf(a)) return NAN;
    if (p > 0.5{F}) {{
        p = 1 - p;
        upper = !upper;
    }}
    const {T} log_p = log(p);
    // Where the answer lies: the lower tail's probability, and its upper's (one of them
    // is p, exact; the other 1 - p, good enough to choose a start).
    const {T} lower = upper ? 1 - p : p;
    const {T} log_upper = upper ? log_p : log1p(-p);
    const {T} z = weft_inv_Phi_{S}(p);
    const {T} s = 1 / (9 * a);
    const {T} t = 1 - s + (upper ? -z : z) * sqrt(s);
    {T} x = a * t * t * t;
    const int deep_lower = a < 1 ? lower < 1 - a * (0.253{F} + 0.12{F} * a) : t <= 0.2{F};
    if (deep_lower) {{
        x = exp((log(lower) + weft_lgamma1p_{S}(a)) / a);
    }} else if (a < 1 || t > 3) {{
        x = fmax(1.0{F}, -log_upper);
        for (int k = 0; k < 4; ++k) x = -log_upper - lgamma(a) + (a - 1) * log(x);
        if (!(x > 0)) x = 1;
    }}
    for (int i = 0; i < 400; ++i) {{
        const {T} f = weft_gamma_pq_{S}(a, x, upper);
        const {T} density = weft_gamma_prefix_{S}(a, x) * a / x;
        if (!(f > 0) || !(density > 0)) {{
            // The tail underflowed: far too deep; come back toward the middle.
            x = upper ? 0.5{F} * x : 2 * x;
            continue;
        }}
        const {T} change = (log(f) - log_p) * f / density;
        {T} next = upper ? x + change : x - change;
        next = fmin(fmax(next, 0.01{F} * x), 100 * x);
        if (fabs(next - x) <= 4 * {special_eps} * next) return next;
        x = next;
    }}
    return x;
}}
""",
    "gamma_p_inv": """\
{T} weft_gamma_p_inv_{S}({T} a, {T} p) {{
    return weft_gamma_inv_{S}(a, p, 0);
}}
""",
    "gamma_q_inv": """\
{T} weft_gamma_q_inv_{S}({T} a, {T} q) {{
    return weft_gamma_inv_{S}(a, q, 1);
}}
""",
}
