"""The scaled complementary error function e^(x^2) erfc(x) (SciPy's ``erfcx``) as a kernel
helper. From x = 2 on, Laplace's continued fraction erfc(x) = e^(-x^2) / sqrt(pi) /
(x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))) without the exponentials (57 terms at x = 2,
fewer beyond; within an ulp or two of mpmath); below 2, e^(x^2) erfc(x) with x^2 split exactly
into x2 + d (fma), so that e^(x^2) = e^x2 (1 + d) keeps its digits; below 0,
2 e^(x^2) - erfcx(-x), a difference of at most 1 against at least 2. +inf from about x = -26.6
(e^(x^2) overflows), 0 at +inf.
"""

from __future__ import annotations

ERFCX: dict[str, str] = {
    "erfcx": """\
{T} weft_erfcx_{S}({T} x) {{
    if (isnan(x)) return NAN;
    const {T} a = fabs(x);
    {T} positive;  // erfcx(|x|)
    if (a >= 2) {{
        if (isinf(a)) {{
            positive = 0;
        }} else {{
            const {T} tiny = {special_tiny};
            {T} f = a, c = a, d = 0;
            for (int k = 1; k <= 1000; ++k) {{
                const {T} numerator = 0.5{F} * k;
                d = 1 / (a + numerator * d);
                c = a + numerator / c;
                if (fabs(c) < tiny) c = tiny;
                const {T} delta = c * d;
                f *= delta;
                if (fabs(delta - 1) <= {special_eps}) break;
            }}
            positive = 0.56418958354775628695{F} / f;  // 1 / (sqrt(pi) f)
        }}
    }} else {{
        const {T} a2 = a * a, rest = fma(a, a, -a2);
        positive = exp(a2) * (1 + rest) * erfc(a);
    }}
    if (x >= 0) return positive;
    if (x < -27) return INFINITY;  // (2 e^(x^2) overflows from -26.64)
    const {T} x2 = x * x, rest = fma(x, x, -x2);
    return 2 * (exp(x2) * (1 + rest)) - positive;
}}
""",
}
