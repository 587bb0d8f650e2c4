"""The argument reduction that weft's own ``log`` and ``pow`` share (own_math.py,
own_pow.py): x = 2^e m with m in [sqrt(1/2), sqrt(2)), as C statements leaving ``ef`` (e as
a double), ``m`` and ``f = m - 1`` (exact), for a finite x > 0 named ``x``; subnormals are
scaled by 2^54 first.
"""

LOG_REDUCTION = """\
    const int tiny = x < 0x1p-1022;
    const double scaled = tiny ? x * 0x1p54 : x;
    const long bits = as_long(scaled);
    // The exponent as a double without an int64 conversion (AVX2 has none for vectors):
    // 2^52 + e is a double whose low bits are e.
    double ef = as_double(0x4330000000000000L | ((bits >> 52) & 0x7ff))
                - (0x1p52 + 1023.0 + (tiny ? 54.0 : 0.0));
    double m = as_double((bits & 0x000fffffffffffffL) | 0x3ff0000000000000L);
    const int high = m > 1.4142135623730951;
    m = high ? m * 0.5 : m;
    ef = high ? ef + 1.0 : ef;
    const double f = m - 1.0;
"""
