"""weft's own call-free ``pow`` for CPU dialects (``own_math.py``): x^y = e^(y log x) with
log x carried as two doubles, within 2 ulps of mpmath over the doubles (tested), and C's
special cases (those NumPy's ``power`` gives); float32 goes through float64.

log|x| = e ln 2 + 2 atanh(s), s = f / (2 + f), f = m - 1 for x = 2^e m, m in [sqrt(1/2),
sqrt(2)), as in ``log``; here 2 + f and the quotient keep their rounding errors (an FMA
recovers the quotient's), ln 2 is split so that e times its leading part is exact, and the
parts are summed without losing the low one. y times it is split again by an FMA, and
e^(h + l) takes l into exp's reduced argument (``weft_exp_sum``): e^h (1 + l) rounded twice,
and powers with exact results came out an ulp off (2.0 ** 4.0, 10.0 ** 7.0). The rounding
left, about 2^-61 of log|x|, costs |y log x| / 256 ulps: at most 3 where the result is
finite, well under one where it is near 1; with exp's own rounding, 2 ulps measured (NumPy's
pow: 1). A library pow cost PoCL 70 times a multiply: 2^20 doubles took 82 ms, now 10 (NumPy
4.5 on one core, with AVX-512). A compare choosing between two sums (the textbook fast
two-sum) made LLVM branch and kept the kernel scalar (25 ms); Knuth's two-sum has no compare.
"""

from .log_reduction import LOG_REDUCTION

# log(x) as two doubles (pow, log2 and log10 use it: own_math's helper "log_parts").
LOG_PARTS = """\
// log(x) as hi + *lo for finite x > 0.
double OVERLOADABLE weft_log_parts(double x, double* lo) {
""" + LOG_REDUCTION + """\
    const double u = 2.0 + f, ul = f - (u - 2.0);  // u + ul = 2 + f exactly
    const double s = f / u;
    const double sl = (__builtin_fma(-s, u, f) - s * ul) / u;  // s + sl = f / (2 + f)
    const double z = s * s;
    double r = 2.0 / 25.0;
    r = r * z + 2.0 / 23.0;
    r = r * z + 2.0 / 21.0;
    r = r * z + 2.0 / 19.0;
    r = r * z + 2.0 / 17.0;
    r = r * z + 2.0 / 15.0;
    r = r * z + 2.0 / 13.0;
    r = r * z + 2.0 / 11.0;
    r = r * z + 2.0 / 9.0;
    r = r * z + 2.0 / 7.0;
    r = r * z + 2.0 / 5.0;
    r = r * z + 2.0 / 3.0;
    const double tail = s * z * r;
    const double e_hi = ef * 0x1.62e42fefa3000p-1;  // exact: ln 2's leading 41 bits
    const double sum = e_hi + 2.0 * s;
    const double part = sum - e_hi;  // Knuth's two-sum: no compare, no branch
    const double carry = (e_hi - (sum - part)) + (2.0 * s - part);
    const double low = carry + (2.0 * sl + tail + ef * 0x1.3de6af278ece6p-42);
    const double hi = sum + low;
    *lo = (sum - hi) + low;
    return hi;
}
"""

POW = """\
double OVERLOADABLE weft_pow(double x, double y) {
    const double ax = __builtin_fabs(x);
    const int y_integer = __builtin_rint(y) == y;
    const int y_odd = y_integer && __builtin_fabs(y) < 0x1p53
        && __builtin_rint(y * 0.5) != y * 0.5;
    double lo;
    const double hi = weft_log_parts(ax, &lo);
    const double h = y * hi;
    const double l = __builtin_fma(y, hi, -h) + y * lo;
    const double magnitude = h > 710.0 ? INFINITY : (h < -746.0 ? 0.0 : weft_exp_sum(h, l));
    double r = x < 0.0 ? (y_integer ? (y_odd ? -magnitude : magnitude) : NAN) : magnitude;
    // x = +-0 or +-inf: 0^y and inf^-y are zeros, the others infinities, signed by x for
    // odd y (-0.0 included: its sign bit, not a compare).
    const double big = (ax == 0.0) == (y < 0.0) ? INFINITY : 0.0;
    r = ax == 0.0 || ax == INFINITY ? (as_long(x) < 0L && y_odd ? -big : big) : r;
    const double y_infinite = ax == 1.0 ? 1.0 : ((ax < 1.0) == (y < 0.0) ? INFINITY : 0.0);
    r = y == INFINITY || y == -INFINITY ? y_infinite : r;
    r = x != x || y != y ? x + y : r;
    return y == 0.0 || x == 1.0 ? 1.0 : r;
}
"""
