"""Device code for ``wf.random``: Philox 4x32-10 and the draws, as C templates.

``philox.py`` is the same algorithm in NumPy, operation for operation; the two must change
together. Every floating-point step goes through ``WEFT_ADD WEFT_SUB WEFT_MUL WEFT_DIV
WEFT_SQRT`` (the dialects define them so that no compiler contracts them into a fused
multiply-add: CUDA's ``__dadd_rn`` family, OpenCL's ``FP_CONTRACT OFF``), all in double, so
every device gives the same bits. Constants come from ``philox.py`` through ``repr``.

Helpers take ``{U32} {U64} {I64}`` for the dialect's integer types, ``{Q}`` for its function
qualifier and ``{T} {S}`` for the op's computation type (the draw is made in double and
rounded once to ``{T}``). The helpers without ``{S}`` are emitted once per kernel.
"""

import re

from .. import philox as px


def _double(value: float) -> str:
    text = repr(float(value))
    return text if ("." in text or "e" in text or "inf" in text) else text + ".0"


def _horner(name: str, coefficients: list[float], x: str) -> str:
    """C statements leaving the polynomial in ``name``, in philox._poly's order."""
    lines = [f"    double {name} = {_double(coefficients[-1])};"]
    for c in reversed(coefficients[:-1]):
        lines.append(f"    {name} = WEFT_ADD(WEFT_MUL({name}, {x}), {_double(c)});")
    return "\n".join(lines).replace("{", "{{").replace("}", "}}")


def _philox_rounds() -> str:
    """The ten rounds of Philox 4x32-10, one after another (the key bumped between them)."""
    lines = []
    for r in range(10):
        if r:
            lines += ["    k0 += 0x9E3779B9u;", "    k1 += 0xBB67AE85u;"]
        lines += ["    p0 = ({U64})0xD2511F53u * c0;", "    p1 = ({U64})0xCD9E8D57u * c2;",
                  "    c0 = ({U32})(p1 >> 32) ^ c1 ^ k0;", "    c1 = ({U32})p1;",
                  "    c2 = ({U32})(p0 >> 32) ^ c3 ^ k1;", "    c3 = ({U32})p0;"]
    return "\n".join(lines)  # (format fields {U32} and {U64}, no braces of its own)


RANDOM: dict[str, str] = {
    "philox": """\
typedef struct {{ {U32} k0, k1, lo, hi, n, stream; }} weft_stream;

{Q}weft_stream weft_stream_at({U32} k0, {U32} k1, {I64} i, {U32} stream) {{
    weft_stream s;
    s.k0 = k0;
    s.k1 = k1;
    s.lo = ({U32})(({U64})i & 0xFFFFFFFFu);
    s.hi = ({U32})(({U64})i >> 32);
    s.n = 0;
    s.stream = stream;
    return s;
}}

// One Philox 4x32-10 block for counters (lo, hi, n, stream); n then counts it as used.
// The ten rounds are written out: a loop inside a kernel's work-item loop keeps a CPU's
// compiler from vectorizing the work-items (PoCL vectorizes innermost loops only).
{Q}void weft_philox(weft_stream *s, {U32} *w) {{
    {U32} c0 = s->lo, c1 = s->hi, c2 = s->n, c3 = s->stream, k0 = s->k0, k1 = s->k1;
    {U64} p0, p1;
PHILOX_ROUNDS
    w[0] = c0;
    w[1] = c1;
    w[2] = c2;
    w[3] = c3;
    s->n += 1;
}}

// Two doubles on [0, 1) with 53 random bits each.
{Q}void weft_uniform_pair(weft_stream *s, double *a, double *b) {{
    {U32} w[4];
    weft_philox(s, w);
    *a = (double)((({U64})w[0] << 21) | (w[1] >> 11)) * 1.1102230246251565e-16;
    *b = (double)((({U64})w[2] << 21) | (w[3] >> 11)) * 1.1102230246251565e-16;
}}

// A double on (0, 1): an odd multiple of 2^-53.
{Q}double weft_open_uniform(weft_stream *s) {{
    {U32} w[4];
    weft_philox(s, w);
    const {U64} bits = (({U64})w[0] << 20) | (w[1] >> 12);
    return (double)(bits * 2 + 1) * 1.1102230246251565e-16;
}}
""",
    "rlog": """\
// log(x) for finite x > 0 with weft's own series, the same on every device.
{Q}double weft_rlog(double x) {{
    // frexp from the bits (a library call keeps a CPU's compiler from vectorizing); a
    // subnormal x is first scaled into the normal range by 2^54.
    const int tiny = x < 2.2250738585072014e-308;
    union {{ double d; {U64} u; }} v;
    v.d = tiny ? WEFT_MUL(x, 18014398509481984.0) : x;
    int e = (int)((v.u >> 52) & 0x7FF) - 1022 - (tiny ? 54 : 0);
    v.u = (v.u & ({U64})0x000FFFFFFFFFFFFF) | ({U64})0x3FE0000000000000;
    double m = v.d;
    if (m < SQRT_HALF) {{
        m = WEFT_MUL(m, 2.0);
        e -= 1;
    }}
    const double f = WEFT_DIV(WEFT_SUB(m, 1.0), WEFT_ADD(m, 1.0));
    const double f2 = WEFT_MUL(f, f);
LOG_POLY
    const double twice = WEFT_ADD(f, f);
    const double series = WEFT_ADD(twice, WEFT_MUL(WEFT_MUL(twice, f2), p));
    const double ed = (double)e;
    return WEFT_ADD(WEFT_ADD(WEFT_MUL(ed, LN2_HI), series), WEFT_MUL(ed, LN2_LO));
}}
""",
    "rexp": """\
// exp(x) with weft's own polynomial, the same on every device.
{Q}double weft_rexp(double x) {{
    if (x < -745.2) return 0.0;
    if (x > 709.8) return INFINITY;
    if (isnan(x)) return x;
    const double k = floor(WEFT_ADD(WEFT_MUL(x, INV_LN2), 0.5));
    const double r = WEFT_SUB(WEFT_SUB(x, WEFT_MUL(k, LN2_HI)), WEFT_MUL(k, LN2_LO));
EXP_POLY
    return ldexp(p, (int)k);
}}
""",
    "rlogfact": """\
// log(k!) for whole k >= 0: exact products to 15!, Stirling's series above.
{Q}double weft_rlogfact(double k) {{
    if (k < 16) {{
        double product = 1.0;
        for (int j = 2; j < 16; ++j) {{
            if (k >= j) product = WEFT_MUL(product, (double)j);
        }}
        return weft_rlog(product);
    }}
    const double x = WEFT_ADD(k, 1.0);
    const double ix = WEFT_DIV(1.0, x);
    const double ix2 = WEFT_MUL(ix, ix);
    const double tail = WEFT_SUB(C12, WEFT_MUL(ix2, WEFT_SUB(C360, WEFT_MUL(ix2,
        WEFT_SUB(C1260, WEFT_MUL(ix2, C1680))))));
    return WEFT_ADD(WEFT_ADD(WEFT_SUB(WEFT_MUL(WEFT_SUB(x, 0.5), weft_rlog(x)), x),
                             0.91893853320467278), WEFT_MUL(ix, tail));
}}
""",
    "cos_turns": """\
// cos(2 pi t) for t in [0, 1): the nearest quarter turn taken out exactly, then weft's own
// polynomials on the rest, the same on every device (and no call: a CPU vectorizes it).
{Q}double weft_cos_turns(double t) {{
    const int quarter = (int)WEFT_ADD(WEFT_MUL(t, 4.0), 0.5);
    const double r = WEFT_SUB(t, WEFT_MUL((double)quarter, 0.25));
    const double y = WEFT_MUL(r, TWO_PI);
    const double y2 = WEFT_MUL(y, y);
COS_POLY
SIN_POLY
    const double s = WEFT_MUL(y, sp);
    // Two selects, not a chain of three: a compiler makes a chain a switch, which a CPU's
    // vectorizer refuses.
    const double y_q = (quarter & 1) ? s : c;
    return ((quarter + 1) & 2) ? -y_q : y_q;
}}
""",
    "rnormal": """\
// Box-Muller from one block: a radius from an open uniform (52 bits), an angle from a
// uniform on [0, 1) (53 bits). No rejection loop: straight-line code a CPU vectorizes.
{Q}double weft_rnormal(weft_stream *s) {{
    {U32} w[4];
    weft_philox(s, w);
    const {U64} bits = (({U64})w[0] << 20) | (w[1] >> 12);
    const double u = (double)(bits * 2 + 1) * 1.1102230246251565e-16;
    const double t = (double)((({U64})w[2] << 21) | (w[3] >> 11)) * 1.1102230246251565e-16;
    return WEFT_MUL(WEFT_SQRT(WEFT_MUL(-2.0, weft_rlog(u))), weft_cos_turns(t));
}}
""",
    "rgamma": """\
// Marsaglia and Tsang; below alpha = 1, Gamma(alpha + 1) U^(1 / alpha).
{Q}double weft_rgamma(weft_stream *s, double alpha) {{
    const int small = alpha < 1.0;
    const double a = small ? WEFT_ADD(alpha, 1.0) : alpha;
    const double d = WEFT_SUB(a, ONE_THIRD);
    const double c = WEFT_DIV(1.0, WEFT_SQRT(WEFT_MUL(d, 9.0)));
    double result;
    for (;;) {{
        const double z = weft_rnormal(s);
        const double t = WEFT_ADD(WEFT_MUL(z, c), 1.0);
        const double v = WEFT_MUL(WEFT_MUL(t, t), t);
        const double u = weft_open_uniform(s);
        if (t > 0.0) {{
            const double z2 = WEFT_MUL(z, z);
            const double bound = WEFT_ADD(WEFT_MUL(z2, 0.5),
                WEFT_MUL(d, WEFT_ADD(WEFT_SUB(1.0, v), weft_rlog(v))));
            if (u < WEFT_SUB(1.0, WEFT_MUL(0.0331, WEFT_MUL(z2, z2))) || weft_rlog(u) < bound) {{
                result = WEFT_MUL(d, v);
                break;
            }}
        }}
    }}
    if (small) {{
        const double u = weft_open_uniform(s);
        result = WEFT_MUL(result, weft_rexp(WEFT_DIV(weft_rlog(u), alpha)));
    }}
    return result;
}}
""",
    "rpoisson": """\
// Knuth's product of uniforms below lam = 10, Hormann's PTRS from 10; -1 for a bad lam.
{Q}{I64} weft_rpoisson(weft_stream *s, double lam) {{
    if (!(lam >= 0 && lam < 1e15)) return -1;
    if (lam < 10) {{
        const double limit = weft_rexp(-lam);
        double product = 1.0;
        {I64} count = 0;
        for (;;) {{
            product = WEFT_MUL(product, weft_open_uniform(s));
            if (product <= limit) return count;
            count += 1;
        }}
    }}
    const double slam = WEFT_SQRT(lam);
    const double loglam = weft_rlog(lam);
    const double b = WEFT_ADD(WEFT_MUL(slam, 2.53), 0.931);
    const double a = WEFT_SUB(WEFT_MUL(b, 0.02483), 0.059);
    const double inv_alpha = WEFT_ADD(1.1239, WEFT_DIV(1.1328, WEFT_SUB(b, 3.4)));
    const double vr = WEFT_SUB(0.9277, WEFT_DIV(3.6224, WEFT_SUB(b, 2.0)));
    for (;;) {{
        double u0, v;
        weft_uniform_pair(s, &u0, &v);
        const double u = WEFT_SUB(u0, 0.5);
        const double us = WEFT_SUB(0.5, fabs(u));
        const double safe_us = us > 0 ? us : 0.5;
        const double k = floor(WEFT_ADD(WEFT_ADD(WEFT_MUL(WEFT_ADD(WEFT_DIV(WEFT_ADD(a, a),
            safe_us), b), u), lam), 0.43));
        if (us >= 0.07 && v <= vr) return ({I64})k;
        if (k < 0 || (us < 0.013 && v > us) || us <= 0 || v <= 0) continue;
        const double lhs = WEFT_SUB(WEFT_ADD(weft_rlog(v), weft_rlog(inv_alpha)),
            weft_rlog(WEFT_ADD(WEFT_DIV(a, WEFT_MUL(safe_us, safe_us)), b)));
        const double rhs = WEFT_SUB(WEFT_ADD(-lam, WEFT_MUL(k, loglam)), weft_rlogfact(k));
        if (lhs <= rhs) return ({I64})k;
    }}
}}
""",
    "rbinomial": """\
// Inversion while n min(p, 1 - p) < 10, Hormann's BTRS above; -1 for a bad n or p.
{Q}{I64} weft_rbinomial(weft_stream *s, double n, double p) {{
    if (!(n >= 0 && n < 9007199254740992.0 && floor(n) == n && p >= 0 && p <= 1)) return -1;
    const int flip = p > 0.5;
    const double q_small = flip ? WEFT_SUB(1.0, p) : p;
    const double q_large = WEFT_SUB(1.0, q_small);
    {I64} result = 0;
    if (WEFT_MUL(n, q_small) < 10) {{
        if (q_small > 0 && n > 0) {{
            const double ratio = WEFT_DIV(q_small, q_large);
            const double step = WEFT_MUL(WEFT_ADD(n, 1.0), ratio);
            const double first = weft_rexp(WEFT_MUL(n, weft_rlog(q_large)));
            int found = 0;
            while (!found) {{
                double u = weft_open_uniform(s);
                double prob = first;
                double k = 0.0;
                for (;;) {{
                    if (u < prob) {{
                        result = ({I64})k;
                        found = 1;
                        break;
                    }}
                    u = WEFT_SUB(u, prob);
                    k = WEFT_ADD(k, 1.0);
                    prob = WEFT_MUL(prob, WEFT_SUB(WEFT_DIV(step, k), ratio));
                    if (!(k <= n)) break;  // rounding left u above the last term: a new u
                }}
            }}
        }}
    }} else {{
        const double spq = WEFT_SQRT(WEFT_MUL(WEFT_MUL(n, q_small), q_large));
        const double b = WEFT_ADD(WEFT_MUL(spq, 2.53), 1.15);
        const double a = WEFT_ADD(WEFT_SUB(WEFT_MUL(b, 0.0248), 0.0873), WEFT_MUL(q_small, 0.01));
        const double c = WEFT_ADD(WEFT_MUL(n, q_small), 0.5);
        const double vr = WEFT_SUB(0.92, WEFT_DIV(4.2, b));
        const double alpha = WEFT_MUL(WEFT_ADD(WEFT_DIV(5.1, b), 2.83), spq);
        const double lpq = weft_rlog(WEFT_DIV(q_small, q_large));
        const double m = floor(WEFT_MUL(WEFT_ADD(n, 1.0), q_small));
        const double h = WEFT_ADD(weft_rlogfact(m), weft_rlogfact(WEFT_SUB(n, m)));
        for (;;) {{
            double u0, v;
            weft_uniform_pair(s, &u0, &v);
            const double u = WEFT_SUB(u0, 0.5);
            const double us = WEFT_SUB(0.5, fabs(u));
            const double safe_us = us > 0 ? us : 0.5;
            const double k = floor(WEFT_ADD(WEFT_MUL(WEFT_ADD(WEFT_DIV(WEFT_ADD(a, a), safe_us),
                b), u), c));
            if (k < 0 || k > n || us <= 0) continue;
            if (us >= 0.07 && v <= vr) {{
                result = ({I64})k;
                break;
            }}
            if (v <= 0) continue;
            const double lhs = weft_rlog(WEFT_DIV(WEFT_MUL(v, alpha),
                WEFT_ADD(WEFT_DIV(a, WEFT_MUL(safe_us, safe_us)), b)));
            const double rhs = WEFT_ADD(WEFT_SUB(WEFT_SUB(h, weft_rlogfact(k)),
                weft_rlogfact(WEFT_SUB(n, k))), WEFT_MUL(WEFT_SUB(k, m), lpq));
            if (lhs <= rhs) {{
                result = ({I64})k;
                break;
            }}
        }}
    }}
    return flip ? ({I64})n - result : result;
}}
""",
    # The ops: key words, the element's flat index, then the parameters.
    "random_uniform": """\
{Q}{T} weft_random_uniform_{S}({U32} k0, {U32} k1, {I64} i, {T} low, {T} high) {{
    weft_stream s = weft_stream_at(k0, k1, i, 0);
    double u, unused;
    weft_uniform_pair(&s, &u, &unused);
    return ({T})WEFT_ADD((double)low, WEFT_MUL(WEFT_SUB((double)high, (double)low), u));
}}
""",
    "random_normal": """\
{Q}{T} weft_random_normal_{S}({U32} k0, {U32} k1, {I64} i, {T} loc, {T} scale) {{
    if (!(scale >= 0)) return NAN;
    weft_stream s = weft_stream_at(k0, k1, i, 0);
    return ({T})WEFT_ADD((double)loc, WEFT_MUL((double)scale, weft_rnormal(&s)));
}}
""",
    "random_exponential": """\
{Q}{T} weft_random_exponential_{S}({U32} k0, {U32} k1, {I64} i, {T} rate) {{
    if (!(rate > 0)) return NAN;
    weft_stream s = weft_stream_at(k0, k1, i, 0);
    return ({T})WEFT_DIV(-weft_rlog(weft_open_uniform(&s)), (double)rate);
}}
""",
    "random_gamma": """\
{Q}{T} weft_random_gamma_{S}({U32} k0, {U32} k1, {I64} i, {T} alpha, {T} scale) {{
    if (!(alpha > 0 && alpha < INFINITY && scale > 0)) return NAN;
    weft_stream s = weft_stream_at(k0, k1, i, 0);
    return ({T})WEFT_MUL(weft_rgamma(&s, (double)alpha), (double)scale);
}}
""",
    "random_beta": """\
{Q}{T} weft_random_beta_{S}({U32} k0, {U32} k1, {I64} i, {T} a, {T} b) {{
    if (!(a > 0 && b > 0 && a < INFINITY && b < INFINITY)) return NAN;
    weft_stream first = weft_stream_at(k0, k1, i, 0);
    weft_stream second = weft_stream_at(k0, k1, i, 1);
    const double x = weft_rgamma(&first, (double)a);
    const double y = weft_rgamma(&second, (double)b);
    return ({T})WEFT_DIV(x, WEFT_ADD(x, y));
}}
""",
    "random_bernoulli": """\
{Q}bool weft_random_bernoulli_{S}({U32} k0, {U32} k1, {I64} i, {T} p) {{
    weft_stream s = weft_stream_at(k0, k1, i, 0);
    double u, unused;
    weft_uniform_pair(&s, &u, &unused);
    return u < (double)p;
}}
""",
    "random_poisson": """\
{Q}{I64} weft_random_poisson_{S}({U32} k0, {U32} k1, {I64} i, {T} lam) {{
    weft_stream s = weft_stream_at(k0, k1, i, 0);
    return weft_rpoisson(&s, (double)lam);
}}
""",
    "rintegers": """\
// Whole numbers in [low, high): Lemire's multiply-and-reject on the first 64 bits of a block
// (exact; a block is rejected with probability below (high - low) / 2^64); -1 for bounds
// that are not whole numbers with low < high within 2^53.
{Q}{I64} weft_rintegers(weft_stream *s, double low, double high) {{
    if (!(low < high && fabs(low) <= 9007199254740992.0 && fabs(high) <= 9007199254740992.0
          && floor(low) == low && floor(high) == high)) return -1;
    const {U64} span = ({U64})(({I64})high - ({I64})low);
    const {U64} threshold = (({U64})0 - span) % span;
    for (;;) {{
        {U32} w[4];
        weft_philox(s, w);
        const {U64} x = (({U64})w[0] << 32) | w[1];
        if (x * span >= threshold) {{
            const {U64} a_lo = x & 0xFFFFFFFFu, a_hi = x >> 32;
            const {U64} b_lo = span & 0xFFFFFFFFu, b_hi = span >> 32;
            const {U64} p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo;
            const {U64} middle = (p0 >> 32) + (p1 & 0xFFFFFFFFu) + (p2 & 0xFFFFFFFFu);
            const {U64} high_bits = a_hi * b_hi + (p1 >> 32) + (p2 >> 32) + (middle >> 32);
            return ({I64})low + ({I64})high_bits;
        }}
    }}
}}
""",
    "random_integers": """\
{Q}{I64} weft_random_integers_{S}({U32} k0, {U32} k1, {I64} i, {T} low, {T} high) {{
    weft_stream s = weft_stream_at(k0, k1, i, 0);
    return weft_rintegers(&s, (double)low, (double)high);
}}
""",
    "random_binomial": """\
{Q}{I64} weft_random_binomial_{S}({U32} k0, {U32} k1, {I64} i, {T} n, {T} p) {{
    weft_stream s = weft_stream_at(k0, k1, i, 0);
    return weft_rbinomial(&s, (double)n, (double)p);
}}
""",
}

_CONSTANTS = {
    "SQRT_HALF": px.SQRT_HALF, "LN2_HI": px.LN2_HI, "LN2_LO": px.LN2_LO,
    "INV_LN2": px.INV_LN2, "TWO_PI": px.TWO_PI, "ONE_THIRD": 1.0 / 3, "C12": 1.0 / 12,
    "C360": 1.0 / 360, "C1260": 1.0 / 1260, "C1680": 1.0 / 1680,
}
RANDOM["philox"] = RANDOM["philox"].replace("PHILOX_ROUNDS", _philox_rounds())
RANDOM["rlog"] = RANDOM["rlog"].replace("LOG_POLY", _horner("p", px.LOG_COEFFICIENTS, "f2"))
RANDOM["rexp"] = RANDOM["rexp"].replace("EXP_POLY", _horner("p", px.EXP_COEFFICIENTS, "r"))
RANDOM["cos_turns"] = (RANDOM["cos_turns"]
                       .replace("COS_POLY", _horner("c", px.COS_COEFFICIENTS, "y2"))
                       .replace("SIN_POLY", _horner("sp", px.SIN_COEFFICIENTS, "y2")))
for _name in RANDOM:
    for _constant, _value in _CONSTANTS.items():
        RANDOM[_name] = re.sub(rf"\b{_constant}\b", _double(_value), RANDOM[_name])

RANDOM_NEEDS: dict[str, tuple[str, ...]] = {
    "rlog": (), "rexp": (), "rlogfact": ("rlog",), "cos_turns": (),
    "rnormal": ("philox", "rlog", "cos_turns"),
    "rgamma": ("rnormal", "rexp"), "rpoisson": ("philox", "rexp", "rlogfact"),
    "rbinomial": ("philox", "rexp", "rlogfact"),
    "random_uniform": ("philox",), "random_normal": ("rnormal",),
    "random_exponential": ("philox", "rlog"), "random_gamma": ("rgamma",),
    "random_beta": ("rgamma",), "random_bernoulli": ("philox",),
    "random_poisson": ("rpoisson",), "random_binomial": ("rbinomial",),
    "rintegers": ("philox",), "random_integers": ("rintegers",),
}

# Helpers that do not depend on the op's dtype: one copy per kernel.
DTYPE_FREE = frozenset(name for name in RANDOM if not name.startswith("random_"))
