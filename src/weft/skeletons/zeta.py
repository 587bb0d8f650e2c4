"""The zeta family as kernel helpers: Hurwitz's zeta function ``zeta(s, q)`` (SciPy's
``zeta(x, q)``), Riemann's (``riemann_zeta``, SciPy's ``zeta(x)``), ``zetac`` (Riemann's
less one, without cancellation for large arguments) and ``polygamma(n, x)``.

All rest on one Euler-Maclaurin sum (``zeta_series``): the first terms (q + k)^-s directly,
until the base is at least 10 and ten terms are in, then the integral of the rest, half
the next term, and corrections B_2j / (2j)! (s)_(2j-1) w^(-s-2j+1) at the last base w
(the Bernoulli numbers' coefficients below are exact fractions rounded once). The sum is the
analytic continuation for every real s but 1, so Riemann's function below 1 uses it down to
s = -1/2 (below, its direct terms cancel: 2e-13 at -0.96); further down, the reflection
zeta(s) = 2^s pi^(s-1) sin(pi s / 2) Gamma(1 - s) zeta(1 - s).
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial


def _bernoulli_even(count: int) -> list[Fraction]:
    """B_2, B_4, ... B_2count (the Akiyama-Tanigawa table)."""
    numbers, row = [], []
    for m in range(2 * count + 1):
        row.append(Fraction(1, m + 1))
        for j in range(m, 0, -1):
            row[j - 1] = j * (row[j - 1] - row[j])
        numbers.append(row[0])
    return [numbers[2 * j] for j in range(1, count + 1)]


# Corrections after the integral: B_2j / (2j)!, j = 1..12 (with twelve, the worst error
# against 100-digit mpmath over the tests' s and q is 2.4e-15; large s end in the direct
# terms before any correction).
_CORRECTIONS = [float(b / factorial(2 * j + 2)) for j, b in enumerate(_bernoulli_even(12))]
_TABLE = ", ".join(f"{c!r}{{F}}" for c in _CORRECTIONS)

ZETA: dict[str, str] = {
    # sum_{k >= 0} (q + k)^-s for s != 1; where s > 1 the direct terms stop once the next
    # one and the integral after it (at most term w / (s - 1)) no longer count. Negative q
    # (callers allow it for integer s only) walks up to 10 first.
    "zeta_series": """\
{T} weft_zeta_series_{S}({T} s, {T} q) {{
    const {T} corrections[12] = {{""" + _TABLE + """}};
    {T} sum = 0;
    {T} w = q;
    for (int k = 0; k < 10 || w < 10; ++k, w += 1) {{
        const {T} term = pow(w, -s);
        sum += term;
        if (s > 1 && w >= 1 && fabs(term) * (1 + w / (s - 1)) <= {special_eps} * fabs(sum))
            return sum;
    }}
    const {T} power = pow(w, -s);
    {T} tail = w * power / (s - 1) + 0.5{F} * power;
    {T} factor = s * power / w;
    for (int j = 0; j < 12; ++j) {{
        const {T} correction = corrections[j] * factor;
        tail += correction;
        if (fabs(correction) <= {special_eps} * fabs(sum + tail)) break;
        factor *= (s + (2 * j + 1)) * (s + (2 * j + 2)) / (w * w);
    }}
    return sum + tail;
}}
""",
    # d/ds of the same sum, term by term: -log(q + k) (q + k)^-s directly, then the
    # integral's w^(1-s) (-log w / (s - 1) - 1 / (s - 1)^2), half the next term's, and the
    # corrections' B_2j / (2j)! w^(-s-2j+1) (P' - P log w) for P = (s)_(2j-1), carried
    # with its derivative by the product rule. The direct terms stop once the next one and
    # the integral after it no longer count, as in zeta_series. s >= -1/2 but 1, and q > 0
    # (the gradient of zeta(s, q) in s; of Riemann's from -1/2, its reflection below): NaN
    # elsewhere, where the direct terms cancel (1e-10 off at s = -2.5).
    "zeta_ds": """\
{T} weft_zeta_ds_{S}({T} s, {T} q) {{
    if (isnan(s) || isnan(q)) return s + q;
    if (q <= 0 || s < -0.5{F}) return NAN;
    if (s == 1) return -INFINITY;
    const {T} corrections[12] = {{""" + _TABLE + """}};
    {T} sum = -0.0{F};  // (terms that underflow keep their sign: -0 + -0 is -0)
    {T} w = q;
    for (int k = 0; k < 10 || w < 10; ++k, w += 1) {{
        const {T} lw = log(w);
        const {T} term = -lw * pow(w, -s);
        sum += term;
        if (s > 1 && w > 1 && fabs(term) * (1 + w / (s - 1) * (1 + 1 / ((s - 1) * lw)))
                <= {special_eps} * fabs(sum))
            return sum;
    }}
    const {T} lw = log(w), power = pow(w, -s), d = 1 / (s - 1);
    {T} tail = w * power * (-lw * d - d * d) - 0.5{F} * lw * power;
    {T} scaled = power / w;  // w^(-s-2j-1)
    {T} rising = s, rising_ds = 1;  // (s)_(2j+1) and its derivative
    for (int j = 0; j < 12; ++j) {{
        const {T} correction = corrections[j] * scaled * (rising_ds - lw * rising);
        tail += correction;
        if (fabs(correction) <= {special_eps} * fabs(sum + tail)) break;
        const {T} a = s + (2 * j + 1), b = s + (2 * j + 2);
        rising_ds = rising_ds * a * b + rising * (a + b);
        rising *= a * b;
        scaled /= w * w;
    }}
    return sum + tail;
}}
""",
    # SciPy's domain: s > 1 (1 is a pole); q > 0, or q a negative non-integer with s an
    # integer (q <= 0 an integer is a pole). Beyond q = -2^20 the walk up to 10 is not taken:
    # NaN. Far out, the sum's first terms in closed form.
    "zeta": """\
{T} weft_zeta_{S}({T} s, {T} q) {{
    if (isnan(s) || isnan(q)) return s + q;
    if (s == 1) return INFINITY;
    if (s < 1) return NAN;
    if (q <= 0) {{
        if (q == floor(q)) return INFINITY;
        if (s != floor(s) || q < -1048576) return NAN;
    }}
    if (q > 1e8{F}) {{
        if (s == INFINITY) return 0;
        return pow(q, 1 - s) * (1 / (s - 1) + 0.5{F} / q + s / (12 * q * q));
    }}
    return weft_zeta_series_{S}(s, q);
}}
""",
    "riemann_zeta": """\
{T} weft_riemann_zeta_{S}({T} x) {{
    if (isnan(x) || x == -INFINITY) return x + NAN;
    if (x == 1) return INFINITY;
    if (x >= -0.5{F}) return weft_zeta_series_{S}(x, 1);
    const {T} halved = 0.5{F} * x;
    if (halved == floor(halved)) return 0;  // the trivial zeros
    const {T} reflected = weft_zeta_series_{S}(1 - x, 1);
    const {T} sine = sinpi(halved);
    if (x > -170) {{
        return sine * pow(6.28318530717958647693{F}, x) * tgamma(1 - x) * reflected
            * 0.31830988618379067154{F};
    }}
    // Gamma(1 - x) alone overflows: the powers and it together, in logs.
    return sine * reflected * exp(x * 1.83787706640934548356{F} + lgamma(1 - x)
                                  - 1.14472988584940017414{F});
}}
""",
    # zeta(x) - 1: for x > 1 the sum from 2, so nothing cancels as zeta(x) -> 1.
    "zetac": """\
{T} weft_zetac_{S}({T} x) {{
    if (isnan(x)) return x;
    if (x == 1) return INFINITY;
    if (x > 1) return weft_zeta_series_{S}(x, 2);
    return weft_riemann_zeta_{S}(x) - 1;
}}
""",
    # SciPy's: psi for n = 0, else (-1)^(n + 1) n! zeta(n + 1, x) for integer n >= 1 (NaN
    # otherwise; (-1)^inf is 1, as NumPy's power says).
    "polygamma": """\
{T} weft_polygamma_{S}({T} n, {T} x) {{
    if (isnan(n) || isnan(x)) return n + x;
    if (n == 0) return weft_digamma_{S}(x);
    if (n < 0 || n != floor(n)) return NAN;
    const {T} sign = fmod(n, ({T})2) == 0 ? -1 : 1;
    return sign * tgamma(n + 1) * weft_zeta_{S}(n + 1, x);
}}
""",
}

ZETA_NEEDS: dict[str, tuple[str, ...]] = {
    "zeta": ("zeta_series",),
    "riemann_zeta": ("zeta_series",),
    "zetac": ("zeta_series", "riemann_zeta"),
    "polygamma": ("digamma", "zeta_series", "zeta"),
}
