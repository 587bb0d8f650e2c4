"""weft's own ``exp`` and ``log``, written without a single library call, for dialects that
ask for them (``Dialect.own_math``: the OpenCL dialect of CPU devices).

Why: PoCL's kernel library is not inlined into kernels on some x86 hosts, and one call in a
kernel's body stops its vectorizer, so each ``exp`` cost a scalar call per element. Written
out with only arithmetic, selects and bit casts, the whole body vectorizes: a float64 normal
density over 2^24 elements took 34.6-36.7 ms instead of 130-141 (2 Zen 3 cores; benchmarks/
results/opencl-pthread-AMD-EPYC/issue-36-own-math.txt).

The methods are the textbook ones:

- ``exp``: x = k ln 2 + r with k = round(x / ln 2) (by adding and subtracting 1.5 * 2^52, no
  ``rint``), ln 2 split in two parts (Cody and Waite) so that k ln 2 is exact, exp(r) on
  |r| <= ln 2 / 2 by its Taylor polynomial (degree 13 in float64, 7 in float32), and the
  scale 2^k built in two halves from exponent bits, so that results down to the smallest
  subnormal and up to the largest finite value come out right. Arguments past the overflow
  or underflow thresholds give inf or 0; NaN stays NaN.
- ``log``: x = 2^e m with m in [sqrt(1/2), sqrt(2)) from the bits (subnormals scaled by 2^54
  first), log m = 2 atanh(s) with s = (m - 1) / (m + 1) by its odd series, and e ln 2 added
  in two parts. Negative arguments give NaN, zero gives -inf, inf stays inf.

Accuracy, against NumPy (itself within an ulp of the correctly rounded value): at most 1 ulp
for ``exp`` and 2 for ``log`` over their whole ranges (tests/api/test_own_math.py), within
OpenCL's bounds for the builtins (3 ulp).
"""

from __future__ import annotations

# dtype name -> C source; {Q} is the dialect's function qualifier.
OWN_MATH: dict[str, dict[str, str]] = {
    "exp": {
        "float64": """\
{Q}inline double weft_exp_f64(double x) {{
    const double round_k = 0x1.8p52;
    double c = x > 709.8 ? 709.8 : x;
    c = c < -745.2 ? -745.2 : c;
    const double t = c * 1.4426950408889634 + round_k;
    const double k = t - round_k;
    const long ki = as_long(t) - as_long(round_k);
    const double r = (c - k * 0x1.62e42fee00000p-1) - k * 0x1.a39ef35793c76p-33;
    double p = 1.0 / 6227020800.0;
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    const long k1 = ki >> 1;
    const double y = p * as_double((k1 + 1023) << 52) * as_double((ki - k1 + 1023) << 52);
    return x > 709.782712893384 ? INFINITY : (x < -745.1332191019412 ? 0.0 : y);
}}
""",
        "float32": """\
{Q}inline float weft_exp_f32(float x) {{
    const float round_k = 0x1.8p23f;
    float c = x > 89.0f ? 89.0f : x;
    c = c < -104.0f ? -104.0f : c;
    const float t = c * 1.44269502f + round_k;
    const float k = t - round_k;
    const int ki = as_int(t) - as_int(round_k);
    const float r = (c - k * 0x1.62e4p-1f) - k * 0x1.7f7d1cp-20f;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    const int k1 = ki >> 1;
    const float y = p * as_float((k1 + 127) << 23) * as_float((ki - k1 + 127) << 23);
    return x > 88.72283935546875f ? INFINITY : (x < -103.97208404541016f ? 0.0f : y);
}}
""",
    },
    "log": {
        "float64": """\
{Q}inline double weft_log_f64(double x) {{
    const int tiny = x < 0x1p-1022;
    const double scaled = tiny ? x * 0x1p54 : x;
    const long bits = as_long(scaled);
    long e = ((bits >> 52) & 0x7ff) - 1023 - (tiny ? 54 : 0);
    double m = as_double((bits & 0x000fffffffffffffL) | 0x3ff0000000000000L);
    const int high = m > 1.4142135623730951;
    m = high ? m * 0.5 : m;
    e = high ? e + 1 : e;
    const double s = (m - 1.0) / (m + 1.0);
    const double s2 = s * s;
    double p = 1.0 / 23.0;
    p = p * s2 + 1.0 / 21.0;
    p = p * s2 + 1.0 / 19.0;
    p = p * s2 + 1.0 / 17.0;
    p = p * s2 + 1.0 / 15.0;
    p = p * s2 + 1.0 / 13.0;
    p = p * s2 + 1.0 / 11.0;
    p = p * s2 + 1.0 / 9.0;
    p = p * s2 + 1.0 / 7.0;
    p = p * s2 + 1.0 / 5.0;
    p = p * s2 + 1.0 / 3.0;
    const double ef = (double)e;
    const double y = ef * 0x1.62e42fee00000p-1 + (2.0 * s + (2.0 * s * s2 * p
                                                   + ef * 0x1.a39ef35793c76p-33));
    const double special = x < 0.0 ? NAN : (x == 0.0 ? -INFINITY : x);
    return (x > 0.0 && x < INFINITY) ? y : special;
}}
""",
        "float32": """\
{Q}inline float weft_log_f32(float x) {{
    const int tiny = x < 0x1p-126f;
    const float scaled = tiny ? x * 0x1p24f : x;
    const int bits = as_int(scaled);
    int e = ((bits >> 23) & 0xff) - 127 - (tiny ? 24 : 0);
    float m = as_float((bits & 0x007fffff) | 0x3f800000);
    const int high = m > 1.41421354f;
    m = high ? m * 0.5f : m;
    e = high ? e + 1 : e;
    const float s = (m - 1.0f) / (m + 1.0f);
    const float s2 = s * s;
    float p = 1.0f / 11.0f;
    p = p * s2 + 1.0f / 9.0f;
    p = p * s2 + 1.0f / 7.0f;
    p = p * s2 + 1.0f / 5.0f;
    p = p * s2 + 1.0f / 3.0f;
    const float ef = (float)e;
    const float y = ef * 0x1.62e4p-1f + (2.0f * s + (2.0f * s * s2 * p
                                         + ef * 0x1.7f7d1cp-20f));
    const float special = x < 0.0f ? NAN : (x == 0.0f ? -INFINITY : x);
    return (x > 0.0f && x < INFINITY) ? y : special;
}}
""",
    },
}
