"""The associated Legendre function P_v^m(x) of integer order m and integer degree v as a
kernel helper: SciPy's ``lpmv`` (Ferrers' functions, with the Condon-Shortley phase).

P_m^m = (-1)^m (2m - 1)!! (1 - x^2)^(m/2), P_(m+1)^m = (2m + 1) x P_m^m, and upward
(n - m + 1) P_(n+1)^m = (2n + 1) x P_n^m - (n + m) P_(n-1)^m, which is stable for this
minimal-growth direction on [-1, 1]. A negative degree is P_(-v-1) = P_v; a negative order
P_v^(-m) = (-1)^m (v - m)! / (v + m)! P_v^m. SciPy's values elsewhere: 0 for m > v, NaN for
-m > v, for |x| > 1 unless m = 0 (a polynomial then, +-inf at +-inf), for an infinite order
or degree and for a non-integer order. Here NaN too for a non-integer degree (SciPy's
hypergeometric series) and for degrees beyond 1e7 (SciPy's values reach about 1e11), the
recurrence taking a step a degree.
"""

from __future__ import annotations

LEGENDRE: dict[str, str] = {
    "lpmv": """\
{T} weft_lpmv_{S}({T} m, {T} v, {T} x) {{
    if (isnan(m) || isnan(v) || isnan(x) || isinf(m) || isinf(v)) return NAN;
    if (m != floor(m) || v != floor(v)) return NAN;
    const {T} n = v < 0 ? -v - 1 : v;
    if (n > 1e7{F}) return NAN;  // (a loop step a degree)
    const {T} k = fabs(m);
    if (k > 0 && fabs(x) > 1) return NAN;
    if (isinf(x)) return n == 0 ? ({T})1 : x < 0 && fmod(n, ({T})2) == 1 ? -INFINITY : INFINITY;
    if (k > n) return m > 0 ? ({T})0 : NAN;
    const {T} root = sqrt(1 - x) * sqrt(1 + x);  // (1 - x^2)^(1/2), exact near +-1
    {T} low = 1;  // P_k^k
    for (int i = 1; i <= (int)k; ++i) low *= -(2 * i - 1) * root;
    {T} high = low;
    if (n > k) {{
        high = x * (2 * k + 1) * low;  // P_(k+1)^k
        for ({T} j = k + 1; j < n; j += 1) {{
            const {T} next = ((2 * j + 1) * x * high - (j + k) * low) / (j - k + 1);
            low = high;
            high = next;
        }}
    }}
    if (m < 0) {{
        // (-1)^k (n - k)! / (n + k)!
        {T} ratio = 1;
        for ({T} j = n - k + 1; j <= n + k; j += 1) ratio /= j;
        high *= ((int)k % 2 ? -ratio : ratio);
    }}
    return high;
}}
""",
}
