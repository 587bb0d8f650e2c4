"""The modified Bessel function of the second kind of real order, K_v(x), as a kernel
helper: SciPy's ``kv`` and ``kve`` (e^x K_v(x)), and their derivative in the order.

K_v(x) is the integral over t > 0 of exp(-x cosh t) cosh(v t), for every real v and x > 0
(A&S 9.6.24), and dK_v/dv the integral of exp(-x cosh t) t sinh(v t). Both integrands are
entire and even in t, so the trapezoidal rule from 0 converges geometrically in the number
of nodes (as for K0 and K1, ``bessel_k.py``). The integrand's logarithm, v t - x (cosh t - 1)
for its growing half, peaks at t* = asinh(v / x), where its curvature is -sqrt(x^2 + v^2):
the step is half that width (and at most 0.2, for the double-exponential fall where x is
tiny; measured against mpmath on 360 points, a largest error of 5.9e-14, where steps of
0.35 of the width and at most 0.15 gave 4.6e-14 with 15-20% more nodes), the sum runs to
where the integrand is e^-46 of its peak (Newton's method on the concave logarithm, from a
bound right of that point), and every term is taken relative to the peak, so that neither a
huge K nor a huge e^x overflows before the result does.
Integer and half-integer orders up to 64 take the upward recurrence in the order instead
(from K_0 and K_1, or from K_1/2 = sqrt(pi / 2x) e^-x), of fixed cost per order: Matern
covariances' kv(3/2, r). On CPUs (``Dialect.branchy_forms``) so do other orders up to 64
where x <= 2, where the quadrature needs the most nodes, from Temme's series for K_mu and
K_(mu+1), |mu| <= 1/2; on GPUs that second path in one helper slowed every lane (the H200's
kv over mixed x, 4.97 -> 11.99 ms), so they keep the quadrature there. K is even in v;
SciPy's values off the domain: NaN for x < 0 and for an infinite order, +inf at x = 0, 0
at x = +inf (``kve`` too, where SciPy gives NaN; and from x = 1e15 on e^x K_v(x) is finite,
where SciPy's is NaN). Where the peak is too narrow for 100,000 nodes (orders beyond about
1e8), Laplace's method, within about 1 / hypot(x, v).
"""

from __future__ import annotations

from .bessel_jy import RGAMMA_EVEN, RGAMMA_ODD

_KV_HEAD = """\
{T} weft_bessel_kv_{S}({T} v, int scaled, int derivative, {T} x) {{
    if (isnan(x) || x < 0) return NAN;
    if (x == 0 && !derivative) return INFINITY;  // (SciPy's, whatever the order)
    if (isnan(v) || isinf(v)) return NAN;
    const {T} sign = derivative && v < 0 ? -1 : 1;  // (K is even in v, its derivative odd)
    v = fabs(v);
    if (x == 0) return v == 0 ? ({T})0 : sign * INFINITY;
    if (isinf(x)) return 0;
"""
_KV_RECURRENCE_SERIES = """\
    const int integer = v == floor(v), half_integer = v - 0.5{F} == floor(v);
    if (!derivative && v <= 64 && (integer || half_integer || x <= 2)) {{
        // Orders to 64 by the recurrence K_(u+1) = K_(u-1) + (2u / x) K_u upward, in e^x K:
        // from K_-1 = K_1 and K_0 (bessel_k.py) at integer orders, from K_-1/2 = K_1/2 =
        // sqrt(pi / 2x) e^-x at half-integer ones (Matern's 1/2, 3/2, 5/2), and at other
        // orders where x <= 2 from Temme's K_mu and K_(mu+1), |mu| <= 1/2. No
        // term cancels, so each step adds an ulp or two; an overflow stays infinite.
        {T} below, here, u0;
        int steps;
        if (integer) {{
            below = weft_bessel_k_{S}(1, 1, x);
            here = weft_bessel_k_{S}(0, 1, x);
            u0 = 0;
            steps = (int)v;
        }} else if (half_integer) {{
            here = below = sqrt(1.57079632679489661923{F} / x);
            u0 = 0.5{F};
            steps = (int)v;
        }} else {{
            const {T} n = floor(v + 0.5{F});
            u0 = v - n;
            weft_bessel_k_temme_{S}(u0, x, &below, &here);  // K_mu, K_(mu+1)
            if (n == 0) return scaled ? below * exp(x) : below;
            below *= exp(x);
            here *= exp(x);
            u0 += 1;
            steps = (int)n - 1;
        }}
        for (int k = 0; k < steps; ++k) {{
            const {T} above = below + (2 * (u0 + k) / x) * here;
            below = here;
            here = above;
        }}
        return scaled ? here : (x < {exp_range} ? here * exp(-x) : exp(log(here) - x));
    }}
"""
_KV_RECURRENCE_PLAIN = """\
    if (!derivative && v <= 64 && (v == floor(v) || v - 0.5{F} == floor(v))) {{
        // Integer and half-integer orders (Matern's 1/2, 3/2 and 5/2 among them): upward by
        // K_(u+1) = K_(u-1) + (2u / x) K_u from K_0 and K_-1 = K_1 (bessel_k.py) or from
        // K_1/2 = K_-1/2 = sqrt(pi / 2x) e^-x, in e^x K; no term cancels, so each step adds
        // an ulp or two. An overflow stays infinite.
        {T} below, here, u = v == floor(v) ? 0 : 0.5{F};
        if (u == 0) {{
            below = weft_bessel_k_{S}(1, 1, x);
            here = weft_bessel_k_{S}(0, 1, x);
        }} else {{
            here = below = sqrt(1.57079632679489661923{F} / x);
        }}
        for (; u < v; u += 1) {{
            const {T} above = below + (2 * u / x) * here;
            below = here;
            here = above;
        }}
        return scaled ? here : (x < {exp_range} ? here * exp(-x) : exp(log(here) - x));
    }}
"""
_KV_QUADRATURE = """\
    // (Products grouped so that x * sinh^2 stays finite where x is tiny: (x s) s.)
    const {T} ratio = v / x;
    const {T} peak = ratio > 1e30{F} ? log(2 * v) - log(x) : asinh(ratio);
    const {T} half_peak = sinh(0.5{F} * peak);
    const {T} top = v * peak - 2 * x * half_peak * half_peak;
    // The end: where v t - 2 x sinh^2(t/2) falls 46 below its peak. Past the peak it
    // falls at least as fast as hypot(x, v) (cosh s - 1) at distance s (x cosh t* is
    // hypot(x, v)), so the end lies at most 2 asinh(sqrt(23 / hypot)) beyond the peak
    // (log(92 / hypot) where that overflows); Newton's method on the concave logarithm
    // descends from there onto it.
    const {T} spread = hypot(x, v);
    {T} end = peak + (spread < 1e-30{F} ? log(({T})92) - log(spread)
                                         : 2 * asinh(sqrt(23 / spread)));
    for (int k = 0; k < 40; ++k) {{
        const {T} sh = sinh(0.5{F} * end);
        const {T} excess = v * end - 2 * x * sh * sh - (top - 46);
        const {T} slope = v - 2 * x * sh * cosh(0.5{F} * end);
        const {T} next = fmax(end - excess / slope, peak + 0.5{F} * (end - peak));
        if (!(next < end)) break;
        const int close = end - next <= 1e-6{F} * end;
        end = next;
        if (close) break;
    }}
    const {T} step = fmin(({T})0.2, 0.5{F} / sqrt(spread));
    // A peak too narrow for 100,000 nodes (orders beyond about 1e8): Laplace's method,
    // whose relative error, about 1 / hypot(x, v), is then below 1e-8 (and whose value
    // is inf or 0 in all but a sliver of those arguments). The e^-vt half mirrors the
    // e^vt half about 0, so half the Gaussian's area is exact where the peak nears 0 too.
    const {T} needed = ceil(end / step);
    {T} area;
    if (!(needed <= 100000)) {{
        area = 0.5{F} * sqrt(2 * 3.14159265358979323846{F} / spread) * (derivative ? peak : 1);
    }} else {{
        const int nodes = (int)needed;
        const {T} h = end / nodes;
        {T} sum = derivative ? ({T})0 : 0.5{F} * exp(-top);  // t = 0: weight 1/2, cosh 0 = 1
        for (int k = 1; k <= nodes; ++k) {{
            const {T} t = k * h;
            const {T} sh = sinh(0.5{F} * t);
            const {T} fall = -2 * x * sh * sh - top;
            const {T} grow = exp(v * t + fall), shrink = exp(-v * t + fall);
            sum += derivative ? 0.5{F} * t * (grow - shrink) : 0.5{F} * (grow + shrink);
        }}
        area = h * sum;
    }}
    // exp(log(h sum)) would cost |log| ulps: the product where e^scale is in range.
    const {T} scale = top - (scaled ? 0 : x);
    return sign * (fabs(scale) < {exp_range} ? area * exp(scale) : exp(scale + log(area)));
}}
"""


_TEMME = """\
void weft_bessel_k_temme_{S}({T} mu, {T} x, {T} *k_mu, {T} *k_next) {{
    // K_mu(x) and K_(mu+1)(x) for |mu| <= 1/2 and 0 < x <= 2 by Temme's series (J. Comp.
    // Phys. 19, 1975), whose terms fall like (x^2/4)^k / k!^2. With 1/Gamma(1 +- mu) = even
    // +- mu odd (bessel_jy.py's Taylor series), Temme's gamma1 = -odd and gamma2 = even
    // carry no cancellation at small mu.
    const {T} m2 = mu * mu;
    const {T} even = """ + RGAMMA_EVEN + """;
    const {T} odd = """ + RGAMMA_ODD + """;
    const {T} d = -log(0.5{F} * x), e = mu * d;  // e = mu log(2 / x)
    const {T} sinhc = e == 0 ? ({T})1 : sinh(e) / e;
    const {T} pi_mu = 3.14159265358979323846{F} * mu;
    const {T} ratio = mu == 0 ? ({T})1 : pi_mu / sin(pi_mu);
    {T} f = ratio * (-odd * cosh(e) + even * sinhc * d);
    const {T} power = exp(e);  // (x/2)^-mu
    {T} p = 0.5{F} * power / (even + mu * odd), q = 0.5{F} / (power * (even - mu * odd));
    const {T} step = 0.25{F} * x * x;
    {T} c = 1, sum = f, sum_next = p;
    for (int k = 1; k < 100; ++k) {{
        f = (k * f + p + q) / (k * k - m2);
        c *= step / k;
        p /= k - mu;
        q /= k + mu;
        const {T} term = c * f, term_next = c * (p - k * f);
        sum += term;
        sum_next += term_next;
        if (fabs(term) <= {special_eps} * fabs(sum)
            && fabs(term_next) <= {special_eps} * fabs(sum_next)) break;
    }}
    *k_mu = sum;
    *k_next = 2 * sum_next / x;
}}
"""


def _bessel_kv(series: bool) -> str:
    """The helper ``weft_bessel_kv``; ``series``: also orders that are neither integers nor
    half-integers where x <= 2, by Temme's series and the recurrence (CPUs only:
    ``Dialect.branchy_forms``)."""
    # (GPUs keep the plain text: the series' form with its loop counted in steps measured
    # 20% slower there, 4.52 -> 5.42 ms on the H200, even without the series.)
    recurrence = _KV_RECURRENCE_SERIES if series else _KV_RECURRENCE_PLAIN
    return _KV_HEAD + recurrence + _KV_QUADRATURE




BESSEL_KV: dict[str, str] = {
    "bessel_k_temme": _TEMME,
    "bessel_kv": _bessel_kv(False),
}
for _name, _scaled, _derivative in (("kv", 0, 0), ("kve", 1, 0), ("kv_dv", 0, 1),
                                    ("kve_dv", 1, 1)):
    BESSEL_KV[_name] = (
        f"{{T}} weft_{_name}_{{S}}({{T}} v, {{T}} x) {{{{\n"
        f"    return weft_bessel_kv_{{S}}(v, {_scaled}, {_derivative}, x);\n}}}}\n")

# The helpers' forms for dialects whose work-items run alone (``Dialect.branchy_forms``).
BESSEL_KV_BRANCHY: dict[str, str] = {"bessel_kv": _bessel_kv(True)}

BESSEL_KV_NEEDS: dict[str, tuple[str, ...]] = {
    "bessel_kv": ("bessel_k", "bessel_k_temme"),
    **{name: ("bessel_kv",) for name in ("kv", "kve", "kv_dv", "kve_dv")}}
