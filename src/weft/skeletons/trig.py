"""weft's own ``sin`` and ``cos`` for CPU dialects (``own_math.py``): call-free, and correct
over the whole range of doubles and floats (within an ulp of mpmath; tested).

The argument is reduced to x = q pi/2 + r, |r| <~ pi/4, with r kept as a double-double
(``rh + rl``):

- for |x| < 2^50, q = round(x 2/pi) (by adding and subtracting 1.5 * 2^52), and r = x - q pi/2
  with pi/2 in four doubles (212 bits), each product's rounding error recovered exactly by an
  FMA (``__builtin_fma``: one instruction, not a call) and the terms added as double-doubles
  (Cody and Waite's reduction, carried far enough for q up to 2^51);
- beyond, x = M 2^E (M the integer of its significand) times 2/pi is needed only modulo 4:
  the bits of 2/pi worth less than 2^(2-E) (Payne and Hanek). They are taken from 2/pi's
  binary fraction as four 52-bit integers at the bit E asks for, multiplied by M exactly (an
  FMA gives each product's low half), and the parts summed modulo 4 as double-doubles, far
  enough that the doubles nearest a multiple of pi/2 (within 5e-19 of one) still come out
  right.

Both reductions are computed for every element and one is selected (a kernel's work-items
run as vector lanes: a branch would go both ways anyway). sin and cos of r come from their
Taylor polynomials (to r^19 and r^18: below 10^-19 of the result on |r| <= pi/4) with rl's
first-order term, cos's 1 - r^2/2 formed so that its rounding error is carried; the quadrant,
q mod 4, swaps them and sets the sign. Tiny arguments give sin(x) = x exactly (so -0.0
stays); infinities and NaN give NaN.

float32 arguments have their own reduction and shorter series, evaluated in double (half an
ulp after rounding): below 2^28, q pi/2 is taken off by three FMAs; beyond, x 2/pi modulo 4
is an integer product of the float's 24-bit significand and 104 bits of 2/pi, from one of
two pairs of words picked by selects, so PoCL vectorizes float32 kernels that use sin or
cos (2^24 floats on 2 Xeon cores: sin 72 -> 25 ms, NumPy 24; 12 without the large path,
which every lane computes). A float64's may lie in any of 17 words, read from a table:
gathers, which kept PoCL's loop over work-items scalar; the element walk's own loop
(``elementwise.WALK``) vectorizes them (``chain6`` over 2^24 doubles on 2 Zen 4 cores:
305 -> 146 ms, numba 239). Picking the words by selects instead was tried: LLVM turned the
select tree into branches and short vectors, which the vectorizer refuses.
"""

from __future__ import annotations

from .polynomial import horner

# 2/pi's binary fraction, 64 bits a word, after one word of zeros (so that a window may start
# before its first bit): word k holds the bits worth 2^-(64(k-1)+1) ... 2^-64k. Checked
# against mpmath in the tests.
TWO_OVER_PI_WORDS = (
    0x0000000000000000, 0xa2f9836e4e441529, 0xfc2757d1f534ddc0, 0xdb6295993c439041,
    0xfe5163abdebbc561, 0xb7246e3a424dd2e0, 0x06492eea09d1921c, 0xfe1deb1cb129a73e,
    0xe88235f52ebb4484, 0xe99c7026b45f7e41, 0x3991d639835339f4, 0x9c845f8bbdf9283b,
    0x1ff897ffde05980f, 0xef2f118b5a0a6d1f, 0x6d367ecf27cb09b7, 0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b, 0x3d0739f78a5292ea, 0x6bfb5fb11f8d5d08, 0x56033046fc7b6bab,
    0xf0cfbc209af4361d, 0xa9e391615ee61b08,
)
# pi/2 as four doubles whose sum carries 212 bits of it.
HALF_PI_PARTS = ("0x1.921fb54442d18p+0", "0x1.1a62633145c07p-54", "-0x1.f1976b7ed8fbcp-110",
                 "0x1.4cf98e804177dp-164")

_TABLE = ",\n    ".join(", ".join(f"0x{w:016x}UL" for w in TWO_OVER_PI_WORDS[k:k + 4])
                       for k in range(0, len(TWO_OVER_PI_WORDS), 4))
_P1, _P2, _P3, _P4 = HALF_PI_PARTS
_W = [f"0x{w:016x}UL" for w in TWO_OVER_PI_WORDS]

REDUCE_HALF_PI = f"""\
__constant ulong weft_two_over_pi[{len(TWO_OVER_PI_WORDS)}] = {{
    {_TABLE}
}};

// 64 bits of 2/pi's fraction from the one worth 2^-j on: a window of the words first and
// next, where the bit lies in first at (j + 63) mod 64.
ulong OVERLOADABLE weft_two_over_pi_window(int j, ulong first, ulong next) {{
    const int s = (j + 63) & 63;
    return (first << s) | ((next >> 1) >> (63 - s));
}}

// The window's first 52 bits, as a double.
double OVERLOADABLE weft_two_over_pi_bits(int j, ulong first, ulong next) {{
    const ulong window = weft_two_over_pi_window(j, first, next);
    return as_double(0x4330000000000000UL | (window >> 12)) - 0x1p52;
}}

// |x| < 2^50: x = q pi/2 + (*rh + *rl); returns q. (Cody and Waite, as double-doubles.)
long OVERLOADABLE weft_reduce_medium(double x, double* rh, double* rl) {{
    const double round_k = 0x1.8p52;
    const double p1 = {_P1}, p2 = {_P2}, p3 = {_P3}, p4 = {_P4};
    const double t = x * 0x1.45f306dc9c883p-1 + round_k;
    const double q = t - round_k;
    const double a = q * p1, ae = __builtin_fma(q, p1, -a);
    const double b = q * p2, be = __builtin_fma(q, p2, -b);
    const double c = q * p3, ce = __builtin_fma(q, p3, -c);
    const double s0 = x - a;  // exact: a is within a factor 2 of x, or 0
    const double h = s0 - ae;
    double hv = h - s0;
    const double e1 = (s0 - (h - hv)) + (-ae - hv);
    const double h2 = h - b;
    hv = h2 - h;
    const double e2 = (h - (h2 - hv)) + (-b - hv);
    const double lo = e1 + e2 - be - c - ce - q * p4;
    *rh = h2 + lo;
    *rl = lo - (*rh - h2);
    return as_long(t) - as_long(round_k);
}}

// |x| = m 2^E (m an integer): x 2/pi modulo 4 from the bits of 2/pi worth 2^-(E-1) and
// less, given as the 52-bit parts g0..g3 (each product with m exact as a double-double,
// scaled by 2^-50, 2^-102, 2^-154 and 2^-206); x = q pi/2 + (*rh + *rl); returns q.
// (Payne and Hanek.)
long OVERLOADABLE weft_reduce_large(double x, double m, double g0, double g1, double g2,
                                    double g3, double* rh, double* rl) {{
    const double round_k = 0x1.8p52;
    const double p1 = {_P1}, p2 = {_P2};
    const double h0 = m * g0, l0 = __builtin_fma(m, g0, -h0);
    const double k1 = m * g1, l1 = __builtin_fma(m, g1, -k1);
    const double k2 = m * g2, l2 = __builtin_fma(m, g2, -k2);
    const double w0 = h0 * 0x1p-50;
    const double w0m = w0 - 4.0 * __builtin_floor(w0 * 0.25);  // exact: modulo 4
    const double L0 = l0 * 0x1p-50, K1 = k1 * 0x1p-102;
    const double sum = w0m + L0;
    double hv = sum - w0m;
    double err = (w0m - (sum - hv)) + (L0 - hv);
    const double sum2 = sum + K1;
    hv = sum2 - sum;
    err += (sum - (sum2 - hv)) + (K1 - hv);
    // The nearest integer of the sum, taken modulo 4 as an integer: wrapping the sum itself
    // into [0, 4) would round away its last bit.
    const double tq = sum2 + round_k;
    const double f = sum2 - (tq - round_k);  // exact, in [-1/2, 1/2]
    // The rest, about 2^-49 at most, as a double-double too: a sum rounded at 2^-102 would
    // be seen where x lies within 2^-61 of a multiple of pi/2 (which doubles come to).
    const double K2 = k2 * 0x1p-154, L1 = l1 * 0x1p-102;
    const double rest = K2 + L1;
    hv = rest - K2;
    const double rest_lo = (K2 - (rest - hv)) + (L1 - hv) + l2 * 0x1p-154
                           + (m * g3) * 0x1p-206;
    const double lo = err + rest;
    hv = lo - err;
    const double lo_lo = (err - (lo - hv)) + (rest - hv) + rest_lo;
    const double u = f + lo;
    hv = u - f;
    const double v = (f - (u - hv)) + (lo - hv) + lo_lo;
    const double ph = u * p1;
    const double pl = __builtin_fma(u, p1, -ph) + (u * p2 + v * p1);
    const double sign = x < 0.0 ? -1.0 : 1.0;
    *rh = sign * (ph + pl);
    *rl = sign * (pl - ((ph + pl) - ph));
    const long q = as_long(tq) - as_long(round_k);
    return x < 0.0 ? -q : q;
}}

// x = q pi/2 + (*rh + *rl): returns q mod 4. Both reductions are computed (a kernel's
// work-items are vector lanes) and one is taken.
int OVERLOADABLE weft_reduce_half_pi(double x, double* rh, double* rl) {{
    const int big = __builtin_fabs(x) >= 0x1p50;
    double mh, ml, lh, ll;
    const long qm = weft_reduce_medium(big ? 0.0 : x, &mh, &ml);
    // |x| = m 2^E, E >= -2 here (other lanes reduce 2^50 and are not taken).
    const long bits = as_long(big ? __builtin_fabs(x) : 0x1p50);
    const double m = as_double((bits & 0x000fffffffffffffL) | 0x4330000000000000L);
    const int j0 = (int)((bits >> 52) & 0x7ff) - 1076;  // E - 1
    // (Four separate values, not an array: PoCL keeps a private array in memory per
    // work-item, which stops the vectorizer.)
    const int a0 = (j0 + 63) >> 6, a1 = (j0 + 115) >> 6, a2 = (j0 + 167) >> 6;
    const int a3 = (j0 + 219) >> 6;
    const double g0 = weft_two_over_pi_bits(j0, weft_two_over_pi[a0], weft_two_over_pi[a0 + 1]);
    const double g1 = weft_two_over_pi_bits(j0 + 52, weft_two_over_pi[a1],
                                            weft_two_over_pi[a1 + 1]);
    const double g2 = weft_two_over_pi_bits(j0 + 104, weft_two_over_pi[a2],
                                            weft_two_over_pi[a2 + 1]);
    const double g3 = weft_two_over_pi_bits(j0 + 156, weft_two_over_pi[a3],
                                            weft_two_over_pi[a3 + 1]);
    const long ql = weft_reduce_large(big ? x : 0x1p50, m, g0, g1, g2, g3, &lh, &ll);
    *rh = big ? lh : mh;
    *rl = big ? ll : ml;
    return (int)((big ? ql : qm) & 3);
}}

// A float's reduction, x = q pi/2 + *r, returns q mod 4; r as one double, off by less than
// 2^-52 |r| + 2^-76, and |r| >= 2^-29.2 for every float of 1/2 or more (the float nearest
// a multiple of pi/2: scripts/hardest-float-reductions), so r is good to 2^-46 of itself.
// |x| < 2^28: r = x - q pi/2 by three FMAs on pi/2's first three parts (each product exact,
// each difference rounded once relative to itself).
// Beyond: x = m 2^E (m < 2^24, 5 <= E <= 104); x 2/pi modulo 4 is m times 2/pi's bits from the
// one worth 2^-(E-1), an integer product modulo 2^64 (64 bits of them) plus m times the next
// 40 bits (exact in 64 bits): the fraction's error is below m 2^-102 <= 2^-78. The words are
// picked by selects (table reads would be gathers, which keep PoCL from vectorizing).
int OVERLOADABLE weft_reduce_half_pi_float(float x, double* r) {{
    const double round_k = 0x1.8p52;
    const int big = __builtin_fabsf(x) >= 0x1p28f;
    const double xm = big ? 0.0 : (double)x;
    const double t = xm * 0x1.45f306dc9c883p-1 + round_k;
    const double q = t - round_k;
    const double rm = __builtin_fma(-q, {_P3}, __builtin_fma(-q, {_P2},
                                    __builtin_fma(-q, {_P1}, xm)));
    const uint bits = as_uint(big ? __builtin_fabsf(x) : 0x1p28f);
    const ulong m = (bits & 0x007fffffU) | 0x00800000U;
    const int j = (int)((bits >> 23) & 0xff) - 151;  // E - 1, from 4 to 103
    const int second = j > 64, third = j + 64 > 128;
    const ulong high = weft_two_over_pi_window(j, second ? {_W[2]} : {_W[1]},
                                               second ? {_W[3]} : {_W[2]});
    const ulong next = weft_two_over_pi_window(j + 64, third ? {_W[3]} : {_W[2]},
                                               third ? {_W[4]} : {_W[3]}) >> 24;
    const ulong low = m * next;  // < 2^64
    const ulong top = m * high + (low >> 40);  // x 2/pi modulo 4, in units of 2^-62
    const ulong ql = (top + (1UL << 61)) >> 62;
    const long f = (long)(top - (ql << 62));  // the rest, in [-2^61, 2^61)
    const double rl = ((double)f + (double)(low & 0xffffffffffUL) * 0x1p-40)
                      * (0x1.921fb54442d18p+0 * 0x1p-62);
    *r = big ? (x < 0.0f ? -rl : rl) : rm;
    const int qb = x < 0.0f ? -(int)ql : (int)ql;
    return (big ? qb : (int)(as_long(t) - as_long(round_k))) & 3;
}}
"""


# sin r = r + r^3 S(r^2), cos r = 1 - r^2/2 + r^4 C(r^2): Taylor coefficients, highest first
# (S from -1/19! to -1/3!, C from 1/20! to 1/4!, alternating in sign).
_S = [f"{'' if k % 2 else '-'}1.0 / {_f}.0" for k, _f in zip(
    range(8, -1, -1), (121645100408832000, 355687428096000, 1307674368000, 6227020800,
                        39916800, 362880, 5040, 120, 6))]
_C = [f"{'-' if k % 2 else ''}1.0 / {_f}.0" for k, _f in zip(
    range(8, -1, -1), (2432902008176640000, 6402373705728000, 20922789888000, 87178291200,
                        479001600, 3628800, 40320, 720, 24))]

_KERNELS = f"""\
// sin and cos of r = rh + rl, |r| <~ pi/4.
double OVERLOADABLE weft_sin_kernel(double rh, double rl) {{
    const double z = rh * rh;
{horner(_S, "z", "p")}
    return rh + (rh * z * p + (rl - 0.5 * z * rl));
}}

double OVERLOADABLE weft_cos_kernel(double rh, double rl) {{
    const double z = rh * rh;
{horner(_C, "z", "p")}
    const double hz = 0.5 * z;
    const double w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + (z * z * p - rh * rl));
}}

// A float's: its reduced argument as one double, and the series to r^11 and r^10 (their
// remainders below 2^-32 of the result on |r| <= pi/4).
double OVERLOADABLE weft_sin_kernel_float(double r) {{
    const double z = r * r;
{horner(_S[-5:], "z", "p")}
    return r + r * z * p;
}}

double OVERLOADABLE weft_cos_kernel_float(double r) {{
    const double z = r * r;
{horner(_C[-4:], "z", "p")}
    return (1.0 - 0.5 * z) + z * z * p;
}}
"""

# What sin and cos share: the reduction, and the kernels on the reduced argument.
SHARED = REDUCE_HALF_PI + _KERNELS


def _on_the_reduction(name: str, value: str, small: tuple[str, str] | None,
                      fast: bool = False) -> str:
    """``weft_<name>`` for double and float from the shared reductions: ``value`` (C
    statements) leaves the result ``v`` as a double from the kernels' ``s`` and ``c`` and the
    quadrant ``q``; ``small`` (double and float thresholds) returns x itself below them (so
    -0.0 stays); infinities and NaN give NaN. ``fast``: ``weft_<name>_fast(x, huge)`` on
    the reductions without the huge path (``REDUCE_HALF_PI_FAST``), right below ``HUGE``
    and noting in ``*huge`` an argument that is not."""
    out = ""
    double_reduce, float_reduce = (("_fast", "_fast") if fast else ("", "_float"))
    for ctype, suffix, fabs, threshold, reduce, kernels in (
            ("double", "", "__builtin_fabs", 0,
             "    double rh, rl;\n"
             f"    const int q = weft_reduce_half_pi{double_reduce}(x, &rh, &rl);\n",
             "weft_sin_kernel(rh, rl), c = weft_cos_kernel(rh, rl)"),
            ("float", "f", "__builtin_fabsf", 1,
             f"    double r;\n    const int q = weft_reduce_half_pi{float_reduce}(x, &r);\n",
             "weft_sin_kernel_float(r), c = weft_cos_kernel_float(r)")):
        result = "v" if ctype == "double" else "(float)v"
        if small is not None:
            result = f"{fabs}(x) < {small[threshold]} ? x : {result}"
        signature = f"weft_{name}({ctype} x)"
        if fast:
            signature = f"weft_{name}_fast({ctype} x, int* huge)"
            # (NaN is not noted: both versions return it, whatever the reduction gives.)
            reduce = f"    *huge |= {fabs}(x) >= {HUGE[threshold]};\n" + reduce
        out += (f"{ctype} OVERLOADABLE {signature} {{\n"
                f"{reduce}"
                f"    const double s = {kernels};\n"
                f"{value}"
                f"    const {ctype} y = {result};\n"
                f"    return x - x == 0.0{suffix} ? y : x - x;\n}}\n")
    return out


# Below these (double, float) the reductions take no huge path: ``REDUCE_HALF_PI_FAST`` and
# the ``_fast`` functions serve a CPU element walk's first pass (render/frame.py), which
# notes any argument at or above them and then walks its run again with the general ones.
# The huge path is chosen by a select, so it was computed for every element (its double
# version reads a table: gathers). Two passes took sin over 2^24 elements on PoCL from
# 119-127 to 42-48 ms in float64 and 44-51 to 18-25 in float32 (every argument huge: 1.2-1.4x
# slower; results/opencl-pthread-AMD-EPYC/issue-36-trig-walks-2026-11-30.txt).
HUGE = ("0x1p50", "0x1p28f")
REDUCE_HALF_PI_FAST = f"""\
int OVERLOADABLE weft_reduce_half_pi_fast(double x, double* rh, double* rl) {{
    return (int)(weft_reduce_medium(x, rh, rl) & 3);
}}
int OVERLOADABLE weft_reduce_half_pi_fast(float x, double* r) {{
    const double round_k = 0x1.8p52;
    const double t = (double)x * 0x1.45f306dc9c883p-1 + round_k;
    const double q = t - round_k;
    *r = __builtin_fma(-q, {_P3}, __builtin_fma(-q, {_P2}, __builtin_fma(-q, {_P1}, (double)x)));
    return (int)(as_long(t) - as_long(round_k)) & 3;
}}
"""


# Each function's result from the kernels' s and c, and where it returns x itself.
_RESULTS = {
    "sin": ("    const double u = (q & 1) ? c : s;\n"
            "    const double v = (q & 2) ? -u : u;\n", ("0x1p-26", "0x1p-13f")),
    "cos": ("    const double u = (q & 1) ? s : c;\n"
            "    const double v = ((q + 1) & 2) ? -u : u;\n", None),
    # tan: sin / cos of r, or -cos / sin in odd quadrants (each within about half an ulp, so
    # the quotient within about 1.5).
    "tan": ("    const double v = (q & 1) ? -c / s : s / c;\n", ("0x1p-27", "0x1p-14f")),
}
SIN, COS, TAN = (_on_the_reduction(name, *_RESULTS[name]) for name in ("sin", "cos", "tan"))
FAST = {name: _on_the_reduction(name, *result, fast=True) for name, result in _RESULTS.items()}


def helpers_with_branches(names: list[str], helpers: str) -> str:
    """``helpers`` (special functions' device code) calling ``names`` (of sin, cos, tan)
    through ``weft_<name>_branchy``: the fast version, and the general one only for a huge
    argument. A helper is scalar code with branches of its own, where the general versions'
    select computed the huge path on every call; outside the helpers the names are the
    general versions again (an element walk vectorizes their select, not a branch)."""
    defined = "".join(
        f"{ctype} OVERLOADABLE weft_{name}_branchy({ctype} x) {{\n"
        f"    int huge = 0;\n    const {ctype} y = weft_{name}_fast(x, &huge);\n"
        f"    return huge ? weft_{name}(x) : y;\n}}\n"
        for name in names for ctype in ("double", "float"))
    to_branches = "".join(f"#undef {n}\n#define {n}(x) weft_{n}_branchy(x)\n" for n in names)
    back = "".join(f"#undef {n}\n#define {n}(x) weft_{n}(x)\n" for n in names)
    return defined + to_branches + helpers + back
