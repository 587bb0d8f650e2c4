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
covariances' kv(3/2, r). K is even in v; SciPy's values off the domain: NaN for x < 0 and
for an infinite order, +inf at x = 0, 0 at x = +inf (``kve`` too, where SciPy gives NaN;
and from x = 1e15 on e^x K_v(x) is finite, where SciPy's is NaN). Where the peak is too
narrow for 100,000 nodes (orders beyond about 1e8), Laplace's method, within about
1 / hypot(x, v).
"""

from __future__ import annotations

BESSEL_KV: dict[str, str] = {
    "bessel_kv": """\
{T} weft_bessel_kv_{S}({T} v, int scaled, int derivative, {T} x) {{
    if (isnan(x) || x < 0) return NAN;
    if (x == 0 && !derivative) return INFINITY;  // (SciPy's, whatever the order)
    if (isnan(v) || isinf(v)) return NAN;
    const {T} sign = derivative && v < 0 ? -1 : 1;  // (K is even in v, its derivative odd)
    v = fabs(v);
    if (x == 0) return v == 0 ? ({T})0 : sign * INFINITY;
    if (isinf(x)) return 0;
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
""",
}
for _name, _scaled, _derivative in (("kv", 0, 0), ("kve", 1, 0), ("kv_dv", 0, 1),
                                    ("kve_dv", 1, 1)):
    BESSEL_KV[_name] = (
        f"{{T}} weft_{_name}_{{S}}({{T}} v, {{T}} x) {{{{\n"
        f"    return weft_bessel_kv_{{S}}(v, {_scaled}, {_derivative}, x);\n}}}}\n")

BESSEL_KV_NEEDS: dict[str, tuple[str, ...]] = {
    "bessel_kv": ("bessel_k",),
    **{name: ("bessel_kv",) for name in ("kv", "kve", "kv_dv", "kve_dv")}}
