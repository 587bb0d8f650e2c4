"""The spherical Bessel functions j_n and y_n of integer order as kernel helpers (internal ops
``sph_jn`` and ``sph_yn``; ``spherical_bessel.py`` gives SciPy's ``spherical_jn`` and
``spherical_yn`` with ``derivative=``).

Through the cylindrical functions of order n + 1/2 every element ran the general J_v and Y_v
(continued fractions of about x terms, 100 times j0's cost on a GPU). Here, as SciPy's own
loops do:

- y_n for every x > 0 by the recurrence c_(k+1) = (2k + 1) / x c_k - c_(k-1) upward from
  y_0 = -cos x / x and y_1 = (y_0 - sin x) / x: y_n is the recurrence's dominant solution, so
  the rounding does not grow; once y overflows it stays infinite.
- j_n for x > n by the same recurrence from j_0 = sin x / x and j_1 = (j_0 - cos x) / x
  (beyond its turning point j_n is not dominated); for x <= n, where j_n is the minimal
  solution, by Miller's algorithm: the recurrence downward from an order past n, scaled to
  j_0 and j_1 (SciPy takes J_(n + 1/2) there, whose cost on a GPU is the slowest lane's);
  below x = 1e-8, the series' two terms x^n / (2n + 1)!! (1 - x^2 / (4n + 6)), where the
  values would underflow first.

Both take n truncated toward zero, NaN for n < 0, infinite or NaN, and SciPy's parities and
limits: j_n(-x) = (-1)^n j_n(x), y_n(-x) = (-1)^(n + 1) y_n(x), 0 at +-inf, j_n(0) = 1 for
n = 0 and 0 otherwise, y_n(0) = -inf. Orders beyond 2^20 keep the cylindrical functions.
"""

from __future__ import annotations

SPHERICAL_BESSEL: dict[str, str] = {
    "sph_jn": """\
{T} weft_sph_jn_{S}({T} n, {T} z) {{
    if (isnan(n) || isinf(n) || isnan(z)) return NAN;
    const {T} m = trunc(n);
    if (m < 0) return NAN;
    if (isinf(z)) return 0;
    if (z == 0) return m == 0 ? 1 : 0;
    const {T} x = fabs(z);
    const {T} sign = z < 0 && fmod(m, ({T})2) != 0 ? -1 : 1;
    if (x < 1e-8{F})  // x^m / (2m + 1)!! (1 - x^2 / (4m + 6)); 0 long before order 2^20
        return sign * weft_bessel_small_{S}((int)fmin(m, ({T})1048576), 0.5{F}, x);
    if (m > 1048576)
        return sign * sqrt(1.57079632679489661923{F} / x) * weft_jv_{S}(m + 0.5{F}, x);
    const {T} j0 = sin(x) / x, j1 = (j0 - cos(x)) / x;
    if (m > 0 && x <= m) return sign * weft_bessel_downward_{S}((int)m, 0.5{F}, x, j0, j1);
    return sign * weft_bessel_upward_{S}((int)m, 0.5{F}, x, j0, j1);
}}
""",
    "sph_yn": """\
{T} weft_sph_yn_{S}({T} n, {T} z) {{
    if (isnan(n) || isinf(n) || isnan(z)) return NAN;
    const {T} m = trunc(n);
    if (m < 0) return NAN;
    if (isinf(z)) return 0;
    if (z == 0) return -INFINITY;
    const {T} x = fabs(z);
    const {T} sign = z < 0 && fmod(m, ({T})2) == 0 ? -1 : 1;
    if (m > 1048576)
        return sign * sqrt(1.57079632679489661923{F} / x) * weft_yv_{S}(m + 0.5{F}, x);
    const {T} y0 = -cos(x) / x;
    return sign * weft_bessel_upward_{S}((int)m, 0.5{F}, x, y0, (y0 - sin(x)) / x);
}}
""",
}

SPHERICAL_BESSEL_NEEDS: dict[str, tuple[str, ...]] = {
    "sph_jn": ("jv", "bessel_upward", "bessel_downward", "bessel_small"),
    "sph_yn": ("yv", "bessel_upward")}
# (jv and yv serve orders beyond 2^20 only.)
