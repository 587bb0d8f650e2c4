"""The modified Bessel function of the first kind of real order as a kernel helper: SciPy's
``iv`` and ``ive`` (e^-|x| I_v(x)), and their derivatives in the order.

For v >= 0 and 0 < x < inf: where x >= 25 and x > 1000 v^2, the asymptotic expansion
e^-x I_v(x) ~ (1 - (m - 1) / 8x + (m - 1)(m - 9) / (2! (8x)^2) - ...) / sqrt(2 pi x),
m = 4 v^2, whose terms fall below 1e-18 before they grow. Else, where x <= 30 or
x^2 <= 4 (v + 1) (and v < 169), the power series, of positive terms (about x + 20 of them;
within 5e-15 of mpmath). Elsewhere the ratio
f = I_(v+1) / I_v by its continued fraction (positive terms; about 6 sqrt(x) of them) and the
Wronskian I_v K_(v+1) + I_(v+1) K_v = 1/x give e^-x I_v = 1 / (x (e^x K_(v+1) + f e^x K_v)),
a sum of positive terms, with K from ``bessel_kv.py``: I keeps K's relative accuracy (the
series again where K_(v+1) overflows). Negative orders by I_-a = I_a + (2/pi) sin(a pi)
K_a; x < 0 for integer orders by the parity (-1)^v, NaN otherwise.
"""

from __future__ import annotations

from .bessel_jy import order_derivative

BESSEL_IV: dict[str, str] = {
    "bessel_iv_series": """\
{T} weft_bessel_iv_series_{S}({T} v, {T} x) {{
    // I_v(x) = (x/2)^v / Gamma(v + 1) sum (x^2/4)^k / (k! (v + 1)_k): positive terms, falling
    // from the first where x^2 <= 4 (v + 1); the lead through logarithms beyond Gamma's range.
    const {T} q = 0.25{F} * x * x;
    {T} term = 1, sum = 1;
    for (int k = 1; k < 1000 && term > {special_eps} * sum; ++k) {{
        term *= q / (k * (v + k));
        sum += term;
    }}
    const {T} lead = v < 169 ? pow(0.5{F} * x, v) / tgamma(v + 1)
                             : exp(v * log(0.5{F} * x) - lgamma(v + 1));
    return lead * sum;
}}
""",
    "bessel_iv": """\
{T} weft_bessel_iv_{S}({T} v, {T} x, int scaled) {{
    // I_v(x), or e^-x I_v(x) where scaled, for v >= 0 and 0 < x < inf.
    {T} value;
    if (x >= 25 && x > 1000 * v * v) {{
        const {T} m = 4 * v * v;
        {T} term = 1, sum = 1;
        for (int k = 1; k < 100; ++k) {{
            const {T} odd = 2 * k - 1;
            term *= -(m - odd * odd) / (8 * k * x);
            sum += term;
            if (fabs(term) <= {special_eps} * 1e-2{F}) break;
        }}
        value = sum / sqrt(2 * 3.14159265358979323846{F} * x);
    }} else if (v < 169 && (x <= 30 || x * x <= 4 * (v + 1))) {{
        value = weft_bessel_iv_series_{S}(v, x) * exp(-x);
    }} else {{
        const {T} tiny = {special_tiny};
        {T} f = tiny, c = tiny, d = 0;
        for (int k = 1; k <= {special_steps}; ++k) {{
            const {T} b = 2 * (v + k) / x;
            d = 1 / (b + d);
            c = b + 1 / c;
            const {T} delta = c * d;
            f *= delta;
            if (fabs(delta - 1) <= {special_eps}) break;
        }}
        const {T} k_v = weft_bessel_kv_{S}(v, 1, 0, x), k_up = weft_bessel_kv_{S}(v + 1, 1, 0, x);
        value = 1 / (x * (k_up + f * k_v));
        if (isinf(k_up)) value = weft_bessel_iv_series_{S}(v, x) * exp(-x);
    }}
    if (scaled) return value;
    const {T} growth = exp(x);  // (exp(x + log(value)) would cost x ulps)
    return isinf(growth) ? exp(x + log(value)) : value * growth;
}}
""",
    "bessel_iv_real": """\
{T} weft_bessel_iv_real_{S}({T} v, {T} x, int scaled) {{
    // SciPy's iv and ive: NaN for x < 0 unless v is an integer (parity (-1)^v); at x = 0, 1
    // for v = 0, 0 for v > 0 or an integer, +-inf for other v < 0 (the sign of
    // 1 / Gamma(v + 1); SciPy: +inf); at x = +-inf the limits (SciPy: NaN); 0 at an infinite
    // order for finite x (SciPy's iv; its ive: NaN).
    if (isnan(v) || isnan(x)) return NAN;
    if (isinf(v)) return isinf(x) ? NAN : 0;
    const int integer = v == floor(v);
    if (x < 0 && !integer) return NAN;
    const {T} sign = x < 0 && fmod(v, ({T})2) != 0 ? -1 : 1;
    x = fabs(x);
    if (x == 0) {{
        if (v == 0) return 1;
        if (v > 0 || integer) return 0;
        const {T} z = floor(v + 1);
        return z < 0 && fmod(z, ({T})2) != 0 ? -INFINITY : INFINITY;
    }}
    if (isinf(x)) return scaled ? 0 : sign * INFINITY;
    const {T} a = fabs(v);
    {T} value = weft_bessel_iv_{S}(a, x, scaled);
    const {T} s = v < 0 && !integer ? sinpi(a) : 0;
    if (s != 0) {{  // I_-a = I_a + (2/pi) sin(a pi) K_a
        const {T} k = weft_bessel_kv_{S}(a, scaled, 0, x);
        value += 0.63661977236758134308{F} * s * (scaled ? k * exp(-2 * x) : k);
    }}
    return sign * value;
}}
""",
    "iv": "{T} weft_iv_{S}({T} v, {T} x) {{\n    return weft_bessel_iv_real_{S}(v, x, 0);\n}}\n",
    "ive": "{T} weft_ive_{S}({T} v, {T} x) {{\n    return weft_bessel_iv_real_{S}(v, x, 1);\n}}\n",
    # d/dv as jv's (bessel_jy.py).
    **{f"{name}_dv": order_derivative(name) for name in ("iv", "ive")},
}

BESSEL_IV_NEEDS: dict[str, tuple[str, ...]] = {
    "bessel_iv": ("bessel_kv", "bessel_iv_series"), "bessel_iv_real": ("bessel_iv", "bessel_kv"),
    "iv": ("bessel_iv_real",), "ive": ("bessel_iv_real",), "iv_dv": ("iv",),
    "ive_dv": ("ive",),
}
