"""The Jacobi elliptic functions sn, cn, dn and the amplitude ph = am(u|m) of parameter m
(SciPy's ``ellipj``) as kernel helpers of four internal ops: ``ellipj_ph`` (u, m) runs the
mean below, and ``ellipj_sn``, ``ellipj_cn``, ``ellipj_dn`` (u, m, ph) take its result, so that
the four in one kernel run the mean once.

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

PARTS = ("sn", "cn", "dn", "ph")  # SciPy's order

ELLIPTIC_JACOBI: dict[str, str] = {
    "ellipj_near_one": """\
int weft_ellipj_near_one_{S}({T} u, {T} m) {{
    // Where the expansion about m = 1 holds to the rounding (its next term is about
    // 0.1 (1 - m)^2 e^(2|u|) of the value); m = 1 itself included.
    const {T} rest = 1 - m;
    return rest * rest * exp(2 * fabs(u)) < 1e-15{F};
}}
""",
    "ellipj_ph": """\
{T} weft_ellipj_ph_{S}({T} u, {T} m) {{
    // am(u|m) for 0 <= m <= 1 (NaN elsewhere, at u = +-inf and at NaN).
    if (isnan(u) || isnan(m) || isinf(u) || m < 0 || m > 1) return NAN;
    if (m == 0) return u;
    const {T} rest = 1 - m;
    if (weft_ellipj_near_one_{S}(u, m)) {{
        const {T} sech = 1 / cosh(u);
        return atan(sinh(u)) + 0.25{F} * rest * (sinh(u) * cosh(u) - u) * sech;
    }}
    // The mean's steps, keeping c_n / a_n for the way back down.
    const {T} eps = sizeof({T}) == 8 ? 1.1102230246251565e-16{F} : 5.9604645e-08{F};
    {T} ratio[17];
    {T} a = 1, b = sqrt(rest), c = sqrt(m), scale = 1;
    int n = 0;
    while (n < 16 && c > eps * a) {{
        c = 0.5{F} * (a - b);
        const {T} next_b = sqrt(a * b);
        a = 0.5{F} * (a + b);
        b = next_b;
        scale *= 2;
        ratio[++n] = c / a;
    }}
    {T} phi = scale * a * u;
    for (; n > 0; --n) phi = 0.5{F} * (phi + asin(ratio[n] * sin(phi)));
    return phi;
}}
""",
    "ellipj_from_amplitude": """\
void weft_ellipj_from_amplitude_{S}({T} u, {T} m, {T} ph, {T} *sn, {T} *cn, {T} *dn) {{
    // sn, cn, dn from the amplitude ph = am(u|m) (weft_ellipj_ph's); next to m = 1, where
    // cn and dn are small and cos(ph) would lose their digits, from the expansion itself.
    if (isnan(ph)) {{
        *sn = *cn = *dn = NAN;
        return;
    }}
    if (m == 0) {{
        *sn = sin(u);
        *cn = cos(u);
        *dn = 1;
        return;
    }}
    const {T} rest = 1 - m;
    if (weft_ellipj_near_one_{S}(u, m)) {{
        // (A&S 16.15, first order in 1 - m.)
        const {T} t = tanh(u), sech = 1 / cosh(u), sinh_cosh = sinh(u) * cosh(u);
        const {T} lag = 0.25{F} * rest * (sinh_cosh - u), lead = 0.25{F} * rest * (sinh_cosh + u);
        *sn = t + lag * sech * sech;
        *cn = sech - lag * t * sech;
        *dn = sech + lead * t * sech;
        return;
    }}
    const {T} s = sin(ph), c = cos(ph);
    *sn = s;
    *cn = c;
    *dn = sqrt(c * c + rest * s * s);
}}
""",
    **{f"ellipj_{part}": f"""\
{{T}} weft_ellipj_{part}_{{S}}({{T}} u, {{T}} m, {{T}} ph) {{{{
    {{T}} sn, cn, dn;
    weft_ellipj_from_amplitude_{{S}}(u, m, ph, &sn, &cn, &dn);
    return {part};
}}}}
""" for part in ("sn", "cn", "dn")},
}

ELLIPTIC_JACOBI_NEEDS: dict[str, tuple[str, ...]] = {
    "ellipj_ph": ("ellipj_near_one",),
    "ellipj_from_amplitude": ("ellipj_near_one",),
    **{f"ellipj_{part}": ("ellipj_from_amplitude",) for part in ("sn", "cn", "dn")}}
# name -> arity of the ops among them (their float32 forms round the float64 value).
ELLIPTIC_JACOBI_THROUGH_DOUBLE: dict[str, int] = {"ellipj_ph": 2, "ellipj_sn": 3,
                                                  "ellipj_cn": 3, "ellipj_dn": 3}
