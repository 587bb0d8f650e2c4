"""The Jacobi elliptic functions sn, cn, dn and the amplitude ph = am(u|m) of parameter m
(SciPy's ``ellipj``, one internal op each) as kernel helpers.

For 0 < m < 1, by the arithmetic-geometric mean (descending Landen transformation, A&S
16.4): a_0 = 1, b_0 = sqrt(1 - m), c_0 = sqrt(m); a_(n+1) = (a_n + b_n) / 2, b_(n+1) =
sqrt(a_n b_n), c_(n+1) = (a_n - b_n) / 2 until c_N / a_N is below the rounding (quadratic:
at most 16 steps for any m a double holds short of 1). Then phi_N = 2^N a_N u and back down,
phi_(n-1) = (phi_n + asin(c_n sin(phi_n) / a_n)) / 2; ph = phi_0, sn = sin ph, cn = cos ph,
and dn = sqrt(cn^2 + (1 - m) sn^2) (1 - m sn^2 without its cancellation near m = 1). At
m = 0: sin u, cos u, 1, u. Next to m = 1 the amplitude is close to pi/2 over most of a
quarter period, where the mean's asin steps lose digits of cn and dn (1e-13 absolute at
1 - m = 2e-15): there the first-order expansion in 1 - m about tanh u, sech u, sech u and
the Gudermannian atan(sinh u) (A&S 16.15) is used, but only while its next term, about
0.1 (1 - m)^2 e^(2|u|), is below the rounding (SciPy uses it for every 1 - m < 1e-9, and
its values fail once (1 - m) e^(2|u|) is not small: cn = -3.4e30 at u = 100,
1 - m = 1e-12). NaN off 0 <= m <= 1, at u = +-inf and at NaN, as SciPy.
"""

from __future__ import annotations

PARTS = ("sn", "cn", "dn", "ph")

ELLIPTIC_JACOBI: dict[str, str] = {
    "ellipj": """\
void weft_ellipj_{S}({T} u, {T} m, {T} *sn, {T} *cn, {T} *dn, {T} *ph) {{
    if (isnan(u) || isnan(m) || isinf(u) || m < 0 || m > 1) {{
        *sn = *cn = *dn = *ph = NAN;
        return;
    }}
    if (m == 0) {{
        *sn = sin(u);
        *cn = cos(u);
        *dn = 1;
        *ph = u;
        return;
    }}
    const {T} rest = 1 - m;
    if (rest * rest * exp(2 * fabs(u)) < 1e-15{F}) {{
        // Next to m = 1 (A&S 16.15, first order in 1 - m; the next term is about
        // 0.1 (1 - m)^2 e^(2|u|) of the value), and at m = 1 itself.
        const {T} t = tanh(u), sech = 1 / cosh(u), sinh_cosh = sinh(u) * cosh(u);
        const {T} lag = 0.25{F} * rest * (sinh_cosh - u), lead = 0.25{F} * rest * (sinh_cosh + u);
        *sn = t + lag * sech * sech;
        *cn = sech - lag * t * sech;
        *dn = sech + lead * t * sech;
        *ph = atan(sinh(u)) + lag * sech;
        return;
    }}
    const {T} eps = sizeof({T}) == 8 ? 1.1102230246251565e-16{F} : 5.9604645e-08{F};
    {T} a[17], c[17];
    {T} b = sqrt(rest), scale = 1;
    a[0] = 1;
    c[0] = sqrt(m);
    int n = 0;
    while (n < 16 && c[n] > eps * a[n]) {{
        c[n + 1] = 0.5{F} * (a[n] - b);
        const {T} next_b = sqrt(a[n] * b);
        a[n + 1] = 0.5{F} * (a[n] + b);
        b = next_b;
        scale *= 2;
        ++n;
    }}
    {T} phi = scale * a[n] * u;
    for (; n > 0; --n) phi = 0.5{F} * (phi + asin(c[n] * sin(phi) / a[n]));
    const {T} s = sin(phi), co = cos(phi);
    *sn = s;
    *cn = co;
    *dn = sqrt(co * co + rest * s * s);
    *ph = phi;
}}
""",
    **{f"ellipj_{part}": f"""\
{{T}} weft_ellipj_{part}_{{S}}({{T}} u, {{T}} m) {{{{
    {{T}} sn, cn, dn, ph;
    weft_ellipj_{{S}}(u, m, &sn, &cn, &dn, &ph);
    return {part};
}}}}
""" for part in PARTS},
}

ELLIPTIC_JACOBI_NEEDS: dict[str, tuple[str, ...]] = {
    f"ellipj_{part}": ("ellipj",) for part in PARTS}
