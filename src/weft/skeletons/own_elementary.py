"""weft's own call-free ``log2``, ``log10``, ``exp2``, ``cbrt``, ``hypot``, ``asinh``,
``acosh`` and ``atanh`` for CPU dialects (``own_math.py``): the first five within an ulp of
mpmath over the doubles, the inverse hyperbolics within 3 (their ``log1p``'s 2 and the
argument's rounding; OpenCL allows 4 and 5; tests/api/test_own_math.py); float32 goes
through float64, within half an ulp. Sums over 2^20 doubles on 2 Xeon cores, PoCL's library
-> these: cbrt 33-37 -> 4.1 ms, hypot 25-29 -> 2.7-3.3, log10 16 -> 3.1-4.8, asinh 25-27 ->
4.9-5.9 (NumPy 4.0-4.5, 24-33, 2.9-4.0, 5.3-6.7; issue-36-own-elementary-2026-11-29.txt).

- ``log2`` and ``log10``: log x as two doubles (``weft_log_parts``, pow's) times 1/ln 2 or
  1/ln 10 as two doubles, the leading product's rounding recovered by an FMA: about half an
  ulp, and log2 of a power of two is exact.
- ``exp2``: x = k + f, k = round(x), |f| <= 1/2 (exact); 2^f = e^(f ln 2) with f ln 2 as two
  doubles (r + rl: e^r (1 + rl)), then scaled by 2^k in two halves as ``exp`` is, so that
  subnormal results and 2^k itself come out exact.
- ``cbrt``: |x| = 2^(3q + j) m (``LOG_REDUCTION``'s exponent split by a floor), the cube root of
  w = 2^j m in [0.7, 5.7) from a quadratic guess (3.7%), two Halley steps and a last Newton
  step whose residual w - y^3 an FMA keeps exact; 2^q from exponent bits.
- ``hypot``: both scaled by the power of two that brings the larger near 1 (exact), then
  sqrt(x^2 + y^2) with one rounding inside (an FMA); an infinity wins over NaN, as in C.
- ``asinh``, ``acosh``, ``atanh``: through weft's ``log1p`` and ``log`` by the usual
  identities, each in the form that keeps its argument's small part apart:
  asinh a = log1p(a + a^2 / (1 + sqrt(1 + a^2))), acosh x = log1p(t + sqrt(2t + t^2)) with
  t = x - 1 below 2 and log(2x - 1 / (x + sqrt(x^2 - 1))) above, atanh a = log1p(2a / (1 - a))
  / 2 (2a + 2a^2 / (1 - a) below 1/2); from 2^28 on, log(a) + ln 2.
"""

from __future__ import annotations

from .log_reduction import LOG_REDUCTION

_LN2 = "0x1.62e42fefa39efp-1"


def _times_log_of(name: str, hi: str, lo: str) -> str:
    """``weft_<name>(x)``: log(x) times the constant hi + lo."""
    return f"""\
double OVERLOADABLE weft_{name}(double x) {{
    double lo;
    const double hi = weft_log_parts(x, &lo);
    const double p = hi * {hi};
    const double y = p + (__builtin_fma(hi, {hi}, -p) + (lo * {hi} + hi * {lo}));
    const double special = x < 0.0 ? NAN : (x == 0.0 ? -INFINITY : x);
    return (x > 0.0 && x < INFINITY) ? y : special;
}}
"""


LOG2 = _times_log_of("log2", "0x1.71547652b82fep+0", "0x1.777d0ffda0d24p-56")
LOG10 = _times_log_of("log10", "0x1.bcb7b1526e50ep-2", "0x1.95355baaafad3p-57")

EXP2 = f"""\
double OVERLOADABLE weft_exp2(double x) {{
    const double round_k = 0x1.8p52;
    double c = x > 1025.0 ? 1025.0 : x;
    c = c < -1080.0 ? -1080.0 : c;
    const double t = c + round_k;
    const double k = t - round_k;
    const long ki = as_long(t) - as_long(round_k);
    const double f = c - k;
    const double r = f * {_LN2};
    const double rl = __builtin_fma(f, {_LN2}, -r) + f * 0x1.abc9e3b39803fp-56;
    const double e = weft_exp(r);
    const double y = weft_times_two_to(e + e * rl, ki);
    return x >= 1024.0 ? INFINITY : (x < -1075.0 ? 0.0 : (x != x ? x : y));
}}
"""

def _reduction_of_magnitude() -> str:
    """``LOG_REDUCTION`` applied to a = |x| (declared first)."""
    text = LOG_REDUCTION
    for old, new in (("const int tiny = x < 0x1p-1022;",
                      "const double a = __builtin_fabs(x);\n    const int tiny = a < 0x1p-1022;"),
                     ("tiny ? x * 0x1p54 : x", "tiny ? a * 0x1p54 : a")):
        if old not in text:
            raise AssertionError(f"LOG_REDUCTION no longer reads {old!r}")
        text = text.replace(old, new)
    return text


CBRT = """\
double OVERLOADABLE weft_cbrt(double x) {
""" + _reduction_of_magnitude() + """\
    const double q = __builtin_floor(ef * (1.0 / 3.0) + 1e-9);
    const double j = ef - 3.0 * q;
    const double w = m * (j == 0.0 ? 1.0 : (j == 1.0 ? 2.0 : 4.0));
    double y = (-0.022676 * w + 0.312198) * w + 0.714214;
    double y3 = y * y * y;
    y = y * (y3 + 2.0 * w) / (2.0 * y3 + w);
    y3 = y * y * y;
    y = y * (y3 + 2.0 * w) / (2.0 * y3 + w);
    const double y2 = y * y;
    const double y2l = __builtin_fma(y, y, -y2);
    const double residual = __builtin_fma(y2, y, -w) + y2l * y;
    y = y - residual / (3.0 * y2);
    const double round_q = 0x1.8p52 + q;  // q as an integer without a conversion
    const long qi = as_long(round_q) - as_long(0x1.8p52);
    const double root = weft_times_two_to(y, qi);
    const double magnitude = (a == 0.0 || a == INFINITY || a != a) ? a : root;
    return __builtin_copysign(magnitude, x);
}
"""

HYPOT = """\
double OVERLOADABLE weft_hypot(double x, double y) {
    const double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
    const double big = ax > ay ? ax : ay;
    long e = (as_long(big) >> 52) & 0x7ff;
    e = e < 1 ? 1 : (e > 2045 ? 2045 : e);
    const double down = as_double((2046 - e) << 52);  // 2^(1023 - e)
    const double up = as_double(e << 52);  // 2^(e - 1023)
    const double sx = ax * down, sy = ay * down;
    const double h = __builtin_sqrt(__builtin_fma(sx, sx, sy * sy)) * up;
    const double special = (ax == INFINITY || ay == INFINITY) ? INFINITY : x + y;
    return (ax - ax == 0.0 && ay - ay == 0.0) ? h : special;
}
"""

ASINH = f"""\
double OVERLOADABLE weft_asinh(double x) {{
    const double a = __builtin_fabs(x);
    const double m = a < 0x1p28 ? a : 1.0;  // (a^2 stays finite)
    const double s = m * m;
    const double near = weft_log1p(m + s / (1.0 + __builtin_sqrt(1.0 + s)));
    const double y = a < 0x1p28 ? near : weft_log(a) + {_LN2};
    return __builtin_copysign(y, x);
}}
"""

ACOSH = f"""\
double OVERLOADABLE weft_acosh(double x) {{
    const double t = x - 1.0;
    const double near = weft_log1p(t + __builtin_sqrt(2.0 * t + t * t));
    const double m = x < 0x1p28 ? x : 2.0;
    const double middle = weft_log(2.0 * m - 1.0 / (m + __builtin_sqrt(m * m - 1.0)));
    const double far = weft_log(x) + {_LN2};
    const double y = x < 2.0 ? near : (x < 0x1p28 ? middle : far);
    return x < 1.0 ? NAN : (x != x ? x : y);
}}
"""

ATANH = """\
double OVERLOADABLE weft_atanh(double x) {
    const double a = __builtin_fabs(x);
    const double t = a + a;
    const double u = a < 0.5 ? t + t * a / (1.0 - a) : t / (1.0 - a);
    const double y = 0.5 * weft_log1p(u);
    return a > 1.0 ? NAN : __builtin_copysign(y, x);
}
"""
