"""The Bessel functions of the first and second kinds of real order as kernel helpers:
SciPy's ``jv`` and ``yv`` (orders 0 and 1 and ``yn`` have their own fixed-cost forms in
``bessel_jy01.py``).

For v >= 0 and 0 < x < inf, the order splits as v = n + mu with n an integer and |mu| <= 1/2,
and Y_mu, Y_(mu+1) come from one of three sources by the size of x:

- x <= 2: Temme's series (J. Comp. Phys. 19, 1975), whose terms fall like (x^2/4)^k / k!^2.
  It needs 1/Gamma(1 + mu) and 1/Gamma(1 - mu), and their difference over mu, without
  cancellation: both come from the Taylor series of 1/Gamma(1 + z) (coefficients to z^21,
  below 1e-18 at |z| = 1/2), split into its even and odd parts.
- 2 < x < 25: Steed's method. The continued fraction for (J' + iY') / (J + iY) = p + iq
  (Barnett et al., Comp. Phys. Comm. 8, 1974) converges fast once x > 2; with the one for
  f = J'/J (whose denominators' signs give J's sign) and the Wronskian
  J Y' - J' Y = 2 / (pi x), they give J_mu, Y_mu and Y'_mu.
- x >= 25: Hankel's asymptotic expansion, for J and Y at mu and mu + 1: its terms fall
  below 1e-17 long before they start to grow (near k = 2x).

Y_v follows by the forward recurrence, stable in that direction for every x (it stops
once Y overflows: Y_v is then -inf and J_v 0). J_v comes from the Wronskian at order v,
J_v = (2 / (pi x)) / (Y'_v - f_v Y_v), with f_v = J'_v / J_v by its continued fraction: no
cancellation, so J_v keeps a relative error of a few ulps where it is tiny (v >> x) and
an absolute one of a few ulps of the envelope near its zeros. For x > 2 and v < x, where
that fraction would need about x terms, J runs the recurrence forward beside Y from
Steed's or Hankel's J_mu, J_(mu+1) (neutrally stable below the turning point v = x). The
cost grows with v (one step per order) and, below x = 25, with x (the fractions' terms).
"""

from __future__ import annotations

# The Taylor coefficients of 1/Gamma(1 + z) at 0, from mpmath to 20 digits (c_0 = 1,
# c_1 = Euler's gamma); tests/api/test_bessel_jy.py checks them against mpmath.
RGAMMA_TAYLOR = (
    1.0, 0.57721566490153286061, -0.65587807152025388108, -0.042002635034095235529,
    0.1665386113822914895, -0.042197734555544336748, -0.0096219715278769735621,
    0.0072189432466630995424, -0.0011651675918590651121, -0.00021524167411495097282,
    0.00012805028238811618615, -2.0134854780788238656e-05, -1.2504934821426706573e-06,
    1.1330272319816958824e-06, -2.0563384169776071035e-07, 6.1160951044814158179e-09,
    5.0020076444692229301e-09, -1.1812745704870201446e-09, 1.0434267116911005105e-10,
    7.782263439905071254e-12, -3.6968056186422057082e-12, 5.100370287454475979e-13)


def _horner(coefficients: tuple[float, ...], variable: str) -> str:
    text = f"{coefficients[-1]!r}{{F}}"
    for c in reversed(coefficients[:-1]):
        text = f"{c!r}{{F}} + {variable} * ({text})"
    return text


def order_derivative(name: str) -> str:
    """The helper ``weft_<name>_dv``: d/dv of ``weft_<name>(v, x)`` by central differences at
    steps h and h/2, Richardson-combined (an error of about h^4 / 480 times the fifth
    derivative in v, and eps / h of rounding)."""
    return f"""\
{{T}} weft_{name}_dv_{{S}}({{T}} v, {{T}} x) {{{{
    const {{T}} h = sizeof({{T}}) == 8 ? 1e-3{{F}} : 5e-2{{F}};
    const {{T}} up = v + h, down = v - h, up2 = v + 0.5{{F}} * h, down2 = v - 0.5{{F}} * h;
    const {{T}} wide = (weft_{name}_{{S}}(up, x) - weft_{name}_{{S}}(down, x)) / (up - down);
    const {{T}} narrow = (weft_{name}_{{S}}(up2, x) - weft_{name}_{{S}}(down2, x)) / (up2 - down2);
    return (4 * narrow - wide) / 3;
}}}}
"""


# 1/Gamma(1 +- mu) = RGAMMA_EVEN +- mu RGAMMA_ODD, as expressions in m2 = mu^2 (Temme's
# series here and in bessel_kv.py).
RGAMMA_EVEN = _horner(RGAMMA_TAYLOR[0::2], "m2")
RGAMMA_ODD = _horner(RGAMMA_TAYLOR[1::2], "m2")

BESSEL_JY: dict[str, str] = {
    "bessel_y_temme": """\
void weft_bessel_y_temme_{S}({T} mu, {T} x, {T} unit, {T} *y_mu, {T} *y_next) {{
    // Y_mu(x) and Y_(mu+1)(x) for |mu| <= 1/2 and 0 < x <= 2, by Temme's series.
    const {T} pi = 3.14159265358979323846{F};
    const {T} m2 = mu * mu;
    // 1/Gamma(1 +- mu) = even +- mu odd; Temme's gamma1 = -odd, gamma2 = even.
    const {T} even = """ + RGAMMA_EVEN + """;
    const {T} odd = """ + RGAMMA_ODD + """;
    const {T} rgamma_plus = even + mu * odd, rgamma_minus = even - mu * odd;
    const {T} d = -log(0.5{F} * x), e = mu * d;
    const {T} sinhc = e == 0 ? ({T})1 : sinh(e) / e;
    const {T} pi_mu = pi * mu;
    const {T} ratio = mu == 0 ? ({T})1 : pi_mu / sin(pi_mu);
    {T} f = 0.63661977236758134308{F} * ratio * (-odd * cosh(e) + even * sinhc * d);
    const {T} power = exp(e);  // (x/2)^-mu
    {T} p = power / (rgamma_plus * pi), q = 1 / (power * pi * rgamma_minus);
    const {T} half_angle = 0.5{F} * pi_mu;
    const {T} sinc = half_angle == 0 ? ({T})1 : sin(half_angle) / half_angle;
    const {T} r = pi * half_angle * sinc * sinc;  // (2 / mu) sin^2(pi mu / 2)
    const {T} step = -0.25{F} * x * x;
    {T} c = 1, sum = f + r * q, sum_next = p;
    for (int k = 1; k < 100; ++k) {{
        f = (k * f + p + q) / (k * k - m2);
        c *= step / k;
        p /= k - mu;
        q /= k + mu;
        const {T} term = c * (f + r * q), term_next = c * p - k * term;
        sum += term;
        sum_next += term_next;
        if (fabs(term) <= {special_eps} * fabs(sum)
            && fabs(term_next) <= {special_eps} * fabs(sum_next)) break;
    }}
    // (Y_(mu+1) ~ x^-(mu+1) overflows for tiny x: both come out times unit.)
    *y_mu = -sum * unit;
    *y_next = -2 * sum_next * (unit / x);
}}
""",
    "bessel_j_ratio": """\
{T} weft_bessel_j_ratio_{S}({T} v, {T} x, {T} *sign) {{
    // J'_v(x) / J_v(x) by its continued fraction (modified Lentz), and the sign of J_v(x): the
    // fraction's denominators follow the forward recurrence from J_v's order, whose dominant
    // solution carries J_v's sign.
    const {T} tiny = {special_tiny};
    {T} h = v / x, s = 1, d = 0;
    if (fabs(h) < tiny) h = tiny;
    {T} c = h;
    for (int k = 1; k <= {special_steps}; ++k) {{
        const {T} b = 2 * (v + k) / x;
        d = b - d;
        if (fabs(d) < tiny) d = tiny;
        c = b - 1 / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        const {T} delta = c * d;
        h *= delta;
        if (d < 0) s = -s;
        if (fabs(delta - 1) <= {special_eps}) break;
    }}
    *sign = s;
    return h;
}}
""",
    "bessel_jy_steed": """\
void weft_bessel_jy_steed_{S}({T} mu, {T} x, {T} *p, {T} *q) {{
    // p + iq = (J'_mu + i Y'_mu) / (J_mu + i Y_mu) for x > 2: -1/(2x) + i + (i/x) a_1 / (b_1 +
    // a_2 / (b_2 + ...)) with a_k = (k - 1/2)^2 - mu^2 and b_k = 2 (x + ik), by Lentz's method
    // in complex arithmetic.
    const {T} tiny = {special_tiny};
    {T} fr = tiny, fi = 0, cr = tiny, ci = 0, dr = 0, di = 0;
    for (int k = 1; k <= {special_steps}; ++k) {{
        const {T} a = (k - 0.5{F}) * (k - 0.5{F}) - mu * mu;
        const {T} br = 2 * x, bi = 2 * ({T})k;
        dr = br + a * dr;
        di = bi + a * di;
        if (fabs(dr) + fabs(di) < tiny) dr = tiny;
        // C = b + a / C and D = 1 / D, each quotient scaled by its larger part.
        const {T} cs = fmax(fabs(cr), fabs(ci)), cu = cr / cs, cv = ci / cs;
        const {T} cw = (a / cs) / (cu * cu + cv * cv);
        cr = br + cw * cu;
        ci = bi - cw * cv;
        if (fabs(cr) + fabs(ci) < tiny) cr = tiny;
        const {T} ds = fmax(fabs(dr), fabs(di)), du = dr / ds, dv = di / ds;
        const {T} dw = 1 / (ds * (du * du + dv * dv));
        dr = dw * du;
        di = -dw * dv;
        const {T} er = cr * dr - ci * di, ei = cr * di + ci * dr;
        const {T} next_r = fr * er - fi * ei;
        fi = fr * ei + fi * er;
        fr = next_r;
        if (fabs(er - 1) + fabs(ei) <= {special_eps}) break;
    }}
    *p = -0.5{F} / x - fi / x;
    *q = 1 + fr / x;
}}
""",
    "bessel_jy_hankel": """\
void weft_bessel_jy_hankel_{S}({T} nu, {T} x, {T} *j, {T} *y) {{
    // J_nu(x) and Y_nu(x) for x >= 25 and |nu| <= 3/2 or x > 1000 nu^2, where the terms
    // fall below 1e-18 before they grow, by Hankel's expansion: sqrt(2 / (pi x))
    // (P cos chi - Q sin chi) and (P sin chi + Q cos chi), chi = x - (nu / 2 + 1/4) pi.
    const {T} m = 4 * nu * nu;
    {T} p = 1, q = 0, term = 1;
    for (int k = 1; k < 100; ++k) {{
        const {T} odd = 2 * k - 1;
        term *= (m - odd * odd) / (8 * k * x);
        // Signs + - - + by k mod 4: Q takes the odd terms, P the even ones.
        const {T} signed_term = (k & 2) ? -term : term;
        if (k & 1) q += signed_term; else p += signed_term;
        if (fabs(term) <= {special_eps} * 1e-2{F}) break;
    }}
    const {T} shift = (0.5{F} * nu + 0.25{F}) * 3.14159265358979323846{F};
    const {T} cx = cos(x), sx = sin(x), cs = cos(shift), ss = sin(shift);
    const {T} cos_chi = cx * cs + sx * ss, sin_chi = sx * cs - cx * ss;
    const {T} amplitude = sqrt(0.63661977236758134308{F} / x);
    *j = amplitude * (p * cos_chi - q * sin_chi);
    *y = amplitude * (p * sin_chi + q * cos_chi);
}}
""",
    "bessel_jy": """\
{T} weft_bessel_jy_{S}({T} v, {T} x, int need_j, {T} *y_out) {{
    // Y_v(x), and J_v(x) when need_j, for v >= 0 and 0 < x < inf: returns J_v (0 unless
    // need_j) and writes Y_v.
    const {T} n = floor(v + 0.5{F});
    const {T} mu = v - n;
    const {T} wronskian = 0.63661977236758134308{F} / x;  // 2 / (pi x)
    if (x >= 25 && x > 1000 * v * v) {{  // Hankel's terms fall from the start: no recurrence
        {T} j;
        weft_bessel_jy_hankel_{S}(v, x, &j, y_out);
        return need_j ? j : 0;
    }}
    if (n > 1048576) {{
        // Below x = v / 2, J_v < (e / 4)^v and |Y_v| > (4 / e)^v / v; between that and
        // 1000 v^2 weft has no uniform expansion in the order yet (docs/special.md).
        *y_out = x < 0.5{F} * v ? -INFINITY : NAN;
        return x < 0.5{F} * v ? 0 : NAN;
    }}
    const int hankel = x >= 25;
    // Y runs as y 2^e (e a multiple of `step`), so that neither Y_(v+1) nor Y_(mu+1) at
    // tiny x overflows before Y_v and J_v are known.
    const int wide = sizeof({T}) == 8, step = wide ? 600 : 60;
    const {T} shrink = ldexp(({T})1, -step);
    int e = x < ldexp(({T})1, wide ? -332 : -33) ? (wide ? step : 2 * step) : 0;
    {T} j_lo = 0, j_hi = 0, y_lo, y_hi;
    if (x <= 2) {{
        weft_bessel_y_temme_{S}(mu, x, ldexp(({T})1, -e), &y_lo, &y_hi);
    }} else if (!hankel) {{
        {T} sign, p, q;
        const {T} f = weft_bessel_j_ratio_{S}(mu, x, &sign);
        weft_bessel_jy_steed_{S}(mu, x, &p, &q);
        const {T} gamma = (p - f) / q;  // Y_mu / J_mu
        const {T} j = sign * sqrt(wronskian / (q + gamma * (p - f)));
        y_lo = gamma * j;
        y_hi = mu / x * y_lo - (p * y_lo + q * j);  // Y_(mu+1) = (mu/x) Y_mu - Y'_mu
        j_lo = j;
        j_hi = (mu / x - f) * j;  // J_(mu+1) = (mu/x) J_mu - J'_mu
    }} else {{
        weft_bessel_jy_hankel_{S}(mu, x, &j_lo, &y_lo);
        weft_bessel_jy_hankel_{S}(mu + 1, x, &j_hi, &y_hi);
    }}
    // Below the turning point (v < x) J runs forward beside Y from Steed's or Hankel's
    // pair; elsewhere (and from Temme's series) it comes from the Wronskian at order v.
    const int forward_j = need_j && x > 2 && v < x;
    {T} order = mu + 1, y_below = 0;
    for ({T} k = 0; k < n; k += 1) {{
        const {T} scale = 2 * order / x;
        const {T} y_up = scale * y_hi - y_lo;
        if (forward_j) {{
            const {T} j_up = scale * j_hi - j_lo;
            j_lo = j_hi;
            j_hi = j_up;
        }}
        y_below = y_lo;
        y_lo = y_hi;
        y_hi = y_up;
        order += 1;
        // Y grows from here on: once a scaled Y below order v overflows, or 2^e passes
        // 2^(3 step), Y_v is -inf and J_v 0. (Y_(v+1) alone overflowing leaves Y_v.)
        if (isinf(y_hi)) {{
            if (k + 1 < n) e = 8 * step;
            break;
        }}
        if (fabs(y_hi) > 1 / shrink) {{
            y_below *= shrink;
            y_lo *= shrink;
            y_hi *= shrink;
            e += step;
            if (e > 4 * step) break;
        }}
    }}
    if (e > 4 * step) {{
        *y_out = -INFINITY;
        return 0;
    }}
    *y_out = ldexp(y_lo, e);
    if (!need_j) return 0;
    if (forward_j) return j_lo;
    {T} sign;
    const {T} f = weft_bessel_j_ratio_{S}(v, x, &sign);
    // x Y'_v = x Y_(v-1) - v Y_v, or v Y_v - x Y_(v+1) where no step was taken (Y_(v+1) may
    // have overflowed in the last step); times x, so that v/x at tiny x does not overflow.
    const {T} x_y_dash = n > 0 ? x * y_below - v * y_lo : v * y_lo - x * y_hi;
    return ldexp(0.63661977236758134308{F} / (x_y_dash - x * f * y_lo), -e);
}}
""",
    "jv": """\
{T} weft_jv_{S}({T} v, {T} x) {{
    // SciPy's jv: NaN for x < 0 unless v is an integer (J_n(-x) = (-1)^n J_n(x)); at x = 0,
    // 1 for v = 0, 0 for v > 0 or an integer, +-inf for other v < 0 (the sign of
    // 1 / Gamma(v + 1)); 0 at x = inf (SciPy: NaN); at an infinite order SciPy's 0, or NaN
    // for x < 0 and x = inf.
    if (isnan(v) || isnan(x)) return NAN;
    if (isinf(v)) return x < 0 || isinf(x) ? NAN : 0;
    const int integer = v == floor(v);
    const int odd = integer && fmod(v, ({T})2) != 0;
    if (x < 0 && !integer) return NAN;
    const {T} sign = x < 0 && odd ? -1 : 1;
    x = fabs(x);
    if (x == 0) {{
        if (v == 0) return 1;
        if (v > 0 || integer) return 0;
        const {T} z = floor(v + 1);  // Gamma(v + 1) < 0 where floor(v + 1) < 0 is odd
        return z < 0 && fmod(z, ({T})2) != 0 ? -INFINITY : INFINITY;
    }}
    if (isinf(x)) return 0;
    const {T} a = fabs(v);
    {T} y;
    // (Integer orders to 64 by the recurrence in the order: bessel_integer.py.)
    const {T} j = integer && a <= 64 ? weft_bessel_jn_integer_{S}((int)a, x)
                                     : weft_bessel_jy_{S}(a, x, 1, &y);
    if (v >= 0) return sign * j;
    if (integer) return sign * (odd ? -j : j);
    // J_-a = cos(a pi) J_a - sin(a pi) Y_a; a zero factor drops its term (Y may be -inf).
    const {T} c = cospi(a), s = sinpi(a);
    return (c == 0 ? 0 : c * j) - (s == 0 ? 0 : s * y);
}}
""",
    "yv": """\
{T} weft_yv_{S}({T} v, {T} x) {{
    // SciPy's yv: NaN for x < 0; -inf at x = 0 for v >= 0, and for
    // v < 0 the limit of sin(a pi) J_a + cos(a pi) Y_a (a = -v): +-inf, or 0 at half-integers
    // (SciPy: +-inf there); 0 at x = inf (SciPy: NaN); at an infinite order SciPy's -inf at
    // x = 0, NaN elsewhere.
    if (isnan(v) || isnan(x) || x < 0) return NAN;
    if (isinf(v)) return x == 0 ? -INFINITY : NAN;  // (SciPy's)
    const {T} a = fabs(v);
    const int integer = v == floor(v);
    const int odd = integer && fmod(a, ({T})2) != 0;
    const {T} c = v < 0 ? cospi(a) : 1, s = v < 0 ? sinpi(a) : 0;
    if (x == 0) {{
        if (v >= 0 || (integer && !odd)) return -INFINITY;
        if (integer) return INFINITY;
        return c == 0 ? 0 : (c > 0 ? -INFINITY : INFINITY);
    }}
    if (isinf(x)) return 0;
    if (integer && a <= 1048576) {{  // (by the recurrence in the order: bessel_integer.py)
        const {T} y = weft_bessel_yn_integer_{S}((int)a, x);
        return v < 0 && odd ? -y : y;
    }}
    {T} y;
    const {T} j = weft_bessel_jy_{S}(a, x, v < 0 && !integer, &y);
    if (v >= 0) return y;
    if (integer) return odd ? -y : y;
    // Y_-a = sin(a pi) J_a + cos(a pi) Y_a; a zero factor drops its term.
    return (s == 0 ? 0 : s * j) + (c == 0 ? 0 : c * y);
}}
""",
    **{f"{name}_dv": order_derivative(name) for name in ("jv", "yv")},
}

_CORE = ("bessel_y_temme", "bessel_j_ratio", "bessel_jy_steed", "bessel_jy_hankel")
BESSEL_JY_NEEDS: dict[str, tuple[str, ...]] = {
    "bessel_jy": _CORE,
    "jv": ("bessel_jy", "bessel_jn_integer"), "yv": ("bessel_jy", "bessel_yn_integer"),
    "jv_dv": ("jv",), "yv_dv": ("yv",),
}
