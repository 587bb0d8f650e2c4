"""weft's own call-free ``atan``, ``atan2``, ``asin`` and ``acos`` for CPU dialects
(``own_math.py``): atan and atan2 within 2 ulps of mpmath over the doubles, asin and acos
within 3 (OpenCL allows 5, 6, 4 and 4; tests/api/test_own_math.py); float32 goes through
float64, within half an ulp. Over 2^20 doubles on 2 Xeon cores, a sum of atan took 33-40 ms
through PoCL's library and takes 3.6-4.5 now (NumPy 3.5-4.6; results/opencl-pthread-Intel-R-
Xeon-R-Processor/issue-36-own-elementary-2026-11-29.txt).

- ``atan``: a = |x| is brought to |t| <= tan(pi/8) by atan(a) = pi/2 + atan(-1/a) above
  tan(3pi/8) and atan(a) = pi/4 + atan((a - 1)/(a + 1)) above tan(pi/8); atan(t) is its odd
  Taylor series, t + t z P(z) with z = t^2 <= 0.1716 (21 terms: the first one left out is
  below 2^-58 of the result). pi/2 and pi/4 are added as two doubles, the low part first.
- ``atan2(y, x)``: atan(|y| / |x|) (a quotient of 0/0 read as 0, inf/inf as 1), taken from pi
  where x's sign bit is set (pi in two doubles), signed as y. IEEE's special cases follow:
  atan2(+-0, -0) = +-pi, atan2(+-inf, -inf) = +-3pi/4, and so on.
- ``asin(x) = atan2(x, sqrt(1 - x^2))`` and ``acos(x) = atan2(sqrt(1 - x^2), x)``, 1 - x^2
  rounded once (an FMA); |x| > 1 gives NaN through the square root.
"""

from __future__ import annotations

from .polynomial import horner

# atan(t) = t + t z P(z): P's coefficients (-1)^n / (2n + 1), n = 21 down to 1.
_ATAN_SERIES = [f"{'-' if n % 2 else ''}1.0 / {2 * n + 1}.0" for n in range(21, 0, -1)]

ATAN = f"""\
double OVERLOADABLE weft_atan(double x) {{
    const double a = __builtin_fabs(x);
    const int far = a > 2.414213562373095;  // tan(3 pi / 8)
    const int middle = a > 0.41421356237309503;  // tan(pi / 8)
    const double t = far ? -1.0 / a : (middle ? (a - 1.0) / (a + 1.0) : a);
    const double base_hi = far ? 0x1.921fb54442d18p+0 : (middle ? 0x1.921fb54442d18p-1 : 0.0);
    const double base_lo = far ? 0x1.1a62633145c07p-54 : (middle ? 0x1.1a62633145c07p-55 : 0.0);
    const double z = t * t;
{horner(_ATAN_SERIES, "z", "p")}
    const double y = base_hi + (t + (t * z * p + base_lo));
    return x != x ? x : __builtin_copysign(y, x);
}}
"""

ATAN2 = """\
double OVERLOADABLE weft_atan2(double y, double x) {
    const double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
    const double ratio = (ax == INFINITY && ay == INFINITY) ? 1.0
        : (ay == 0.0 ? 0.0 : ay / ax);
    const double theta = weft_atan(ratio);
    const double turned = as_long(x) < 0L
        ? (0x1.921fb54442d18p+1 - theta) + 0x1.1a62633145c07p-53 : theta;
    return x != x || y != y ? x + y : __builtin_copysign(turned, y);
}
"""

ASIN = """\
double OVERLOADABLE weft_asin(double x) {
    return weft_atan2(x, __builtin_sqrt(__builtin_fma(-x, x, 1.0)));
}
"""

ACOS = """\
double OVERLOADABLE weft_acos(double x) {
    return weft_atan2(__builtin_sqrt(__builtin_fma(-x, x, 1.0)), x);
}
"""
