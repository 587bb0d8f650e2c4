"""The exponential integrals as kernel helpers: ``exp1`` (E1), ``expi`` (Ei) and ``expn``
(E_n), SciPy's names and domains.

E_n(x) = integral from 1 to infinity of e^(-xt) / t^n dt. Below x = 1 each is its power
series (with the log and psi terms of the series' singular index); above, its continued
fraction e^-x / (x + n - 1 * n / (x + n + 2 - 2 (n + 1) / (x + n + 4 - ...))), evaluated
forwards (Lentz's way) until a step changes it by less than half an ulp. Ei(x) for x > 0
is the series gamma + log x + sum x^k / (k k!) (positive terms) up to 50 and Ei's
asymptotic series e^x / x sum k! / x^k beyond (its least term, near k = x, is below 1e-20
there); for x < 0 it is -E1(-x). Near Ei's positive zero, 0.3725..., the series' first
terms cancel: the error there is absolute, about 1e-16.
"""

from __future__ import annotations

EXPONENTIAL_INTEGRAL: dict[str, str] = {
    # E_n(x) for x > 1, integer n >= 1.
    "expint_fraction": """\
{T} weft_expint_fraction_{S}({T} n, {T} x) {{
    {T} b = x + n;
    {T} c = 1 / {special_tiny};
    {T} d = 1 / b;
    {T} h = d;
    for (int i = 1; i < 1000; ++i) {{
        const {T} a = -i * (n - 1 + i);
        b += 2;
        d = 1 / (a * d + b);
        c = b + a / c;
        const {T} step = c * d;
        h *= step;
        if (fabs(step - 1) <= {special_eps}) break;
    }}
    return h * exp(-x);
}}
""",
    # E_n(x) for 0 < x <= 1, integer n >= 1: the series, whose index n - 1 term carries
    # -log x + psi(n).
    "expint_series": """\
{T} weft_expint_series_{S}({T} n, {T} x) {{
    const {T} log_x = log(x);
    {T} sum = n == 1 ? -log_x - 0.57721566490153286061{F} : 1 / (n - 1);
    {T} power = 1;
    for (int i = 1; i < 1000; ++i) {{
        power *= -x / i;
        const {T} term = i == n - 1 ? power * (weft_digamma_{S}(n) - log_x)
                                    : -power / (i - n + 1);
        sum += term;
        if (fabs(term) <= {special_eps} * fabs(sum) && (i >= n - 1 || power == 0)) break;
    }}
    return sum;
}}
""",
    "exp1": """\
{T} weft_exp1_{S}({T} x) {{
    if (isnan(x)) return x;
    if (x < 0) return NAN;
    if (x == 0) return INFINITY;
    if (x == INFINITY) return 0;
    return x <= 1 ? weft_expint_series_{S}(1, x) : weft_expint_fraction_{S}(1, x);
}}
""",
    # SciPy truncates a real n toward zero; n < 0 (and n past int's range) is NaN.
    "expn": """\
{T} weft_expn_{S}({T} n, {T} x) {{
    if (isnan(n) || isnan(x)) return n + x;
    n = trunc(n);
    if (n < 0 || n > 2147483647 || x < 0) return NAN;
    if (x == 0) return n <= 1 ? INFINITY : 1 / (n - 1);
    if (x == INFINITY) return 0;
    if (n == 0) return exp(-x) / x;
    return x <= 1 ? weft_expint_series_{S}(n, x) : weft_expint_fraction_{S}(n, x);
}}
""",
    "expi": """\
{T} weft_expi_{S}({T} x) {{
    if (isnan(x)) return x;
    if (x == 0) return -INFINITY;
    if (x < 0) return -weft_exp1_{S}(-x);
    if (x <= 50) {{
        {T} sum = 0;
        {T} power = 1;
        for (int k = 1; k < 1000; ++k) {{
            power *= x / k;
            const {T} term = power / k;
            sum += term;
            if (term <= {special_eps} * sum) break;
        }}
        return 0.57721566490153286061{F} + log(x) + sum;
    }}
    if (x == INFINITY) return x;
    {T} sum = 1;
    {T} term = 1;
    for (int k = 1; k < 60; ++k) {{
        const {T} next = term * k / x;
        if (next >= term) break;
        term = next;
        sum += term;
        if (term <= {special_eps} * sum) break;
    }}
    // e^x / x as two halves: finite up to Ei's own overflow near x = 716.
    const {T} root = exp(0.5{F} * x);
    return root * (root / x * sum);
}}
""",
}

EXPONENTIAL_INTEGRAL_NEEDS: dict[str, tuple[str, ...]] = {
    "expint_series": ("digamma",),
    "exp1": ("digamma", "expint_series", "expint_fraction"),
    "expn": ("digamma", "expint_series", "expint_fraction"),
    "expi": ("digamma", "expint_series", "expint_fraction", "exp1"),
}
