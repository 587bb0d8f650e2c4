"""weft's own ``exp``, ``log``, ``log1p``, ``expm1``, ``sin``, ``cos``, ``tan`` (trig.py),
``lgamma``, ``tgamma`` (own_lgamma.py), ``erf``, ``erfc`` (own_erf.py), ``pow``
(own_pow.py), ``atan``, ``atan2``, ``asin``, ``acos`` (own_inverse_trig.py), ``log2``,
``log10``, ``exp2``, ``cbrt``, ``hypot``, ``asinh``, ``acosh``, ``atanh``
(own_elementary.py), ``tanh``, ``sinh``,
``cosh``, ``isnan``, ``isfinite`` and ``isinf``, written without a single library call, and
``sqrt fabs floor ceil trunc rint fmin fmax copysign`` through the compiler's builtins (single
instructions), for dialects that ask for them (``Dialect.own_math``: the OpenCL dialect of
CPU devices). A kernel that calls one gets float64 and float32 versions under one overloaded
name and a macro sending the library's name to it, so op templates and helpers (the special
functions' too) use them unchanged.

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
  first); with f = m - 1 (exact) and s = f / (2 + f), log m = 2 atanh(s) = f - f^2/2 +
  s (f^2/2 + R(s^2)), R from the odd series, so that the exact f carries the result and only
  a small correction is rounded; e ln 2 added in two parts. Negative arguments give NaN,
  zero gives -inf, inf stays inf.
- ``log1p``: from ``log`` of the rounded 1 + x, with the rounding corrected (Goldberg).
- ``expm1``: exp's reduction x = k ln 2 + r, then (2^k - 1) + 2^k expm1(r) with expm1(r) from
  its Taylor polynomial (no log: twice as fast as Kahan's correction of the rounded exp(x)).

Accuracy over the whole ranges (tests/api/test_own_math.py; float64 against NumPy, float32
against the float64 value): ``exp`` 1 ulp (float32: 2), ``log`` 1 (float32: 0.8), ``log1p``
and ``expm1`` 2 (float32, through float64: 0.5); within OpenCL's bounds for the builtins.
"""

from __future__ import annotations

import re

from . import trig as _reduction
from .log_reduction import LOG_REDUCTION
from .own_elementary import ACOSH, ASINH, ATANH, CBRT, EXP2, HYPOT, LOG2, LOG10
from .own_erf import ERF, ERF_KERNELS, ERFC
from .own_inverse_trig import ACOS, ASIN, ATAN, ATAN2
from .own_lgamma import LGAMMA, LGAMMA_PARTS, TGAMMA
from .own_pow import LOG_PARTS, POW
from .polynomial import horner


def _builtin(name: str, arity: int = 1) -> dict[str, str]:
    """``name`` through the compiler's builtin, which becomes one instruction where the
    library's function stays a call (PoCL: rint over 2^24 float64 131.6 ms against 14.3,
    sqrt 25.3 against 12.8, floor 33.2 against 11.5)."""
    params = ("x", "y")[:arity]
    out = {}
    for dtype, ctype, suffix in (("float64", "double", ""), ("float32", "float", "f")):
        args = ", ".join(f"{ctype} {p}" for p in params)
        out[dtype] = (f"{ctype} OVERLOADABLE weft_{name}({args}) {{ return "
                      f"__builtin_{name}{suffix}({', '.join(params)}); }}\n")
    return out


def _through_double(name: str, arity: int = 1) -> str:
    """The float32 version of ``name`` that computes its float64 version and rounds."""
    params = ("x", "y")[:arity]
    return (f"float OVERLOADABLE weft_{name}({', '.join(f'float {p}' for p in params)}) {{\n"
            f"    return (float)weft_{name}({', '.join(f'(double){p}' for p in params)});\n}}\n")


def _exp_double(signature: str, plus_low: str) -> str:
    """The float64 exp as ``signature``: x = k ln 2 + r, then e^r by its Taylor polynomial
    times 2^k; ``plus_low`` adds to r a low part of the argument (pow's e^(h + l)), which a
    product e^h (1 + l) would round twice (2.0 ** 4.0 came out as 16 less an ulp)."""
    return f"""\
double OVERLOADABLE {signature} {{
    const double round_k = 0x1.8p52;
    double c = x > 709.8 ? 709.8 : x;
    c = c < -745.2 ? -745.2 : c;
    const double t = c * 1.4426950408889634 + round_k;
    const double k = t - round_k;
    const long ki = as_long(t) - as_long(round_k);
    const double r = (c - k * 0x1.62e42fee00000p-1) - k * 0x1.a39ef35793c76p-33{plus_low};
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
    const double y = weft_times_two_to(p, ki);
    return x > 709.782712893384 ? INFINITY : (x < -745.1332191019412 ? 0.0 : y);
}}
"""


# name -> C source of its float64 and float32 versions (one overloaded name).
_VERSIONS: dict[str, dict[str, str]] = {
    # y 2^k for -2044 < k < 2046, from exponent bits in two halves (each a normal double),
    # so that results down to the subnormals and up to the largest double come out right.
    "times_two_to": {"float64": """\
double OVERLOADABLE weft_times_two_to(double y, long k) {
    const long first = k >> 1;  // ("half" is a type in OpenCL C)
    return y * as_double((first + 1023) << 52) * as_double((k - first + 1023) << 52);
}
"""},
    "exp": {
        "float64": _exp_double("weft_exp(double x)", ""),
        "float32": """\
float OVERLOADABLE weft_exp(float x) {
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
}
""",
    },
    "log": {
        "float64": """\
double OVERLOADABLE weft_log(double x) {
""" + LOG_REDUCTION + """\
    const double s = f / (2.0 + f);
    const double z = s * s;
    double r = 2.0 / 23.0;
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
    r = r * z;
    const double half_square = 0.5 * f * f;
    const double y = ef * 0x1.62e42fee00000p-1
        + (f - (half_square - (s * (half_square + r) + ef * 0x1.a39ef35793c76p-33)));
    const double special = x < 0.0 ? NAN : (x == 0.0 ? -INFINITY : x);
    return (x > 0.0 && x < INFINITY) ? y : special;
}
""",
        "float32": """\
float OVERLOADABLE weft_log(float x) {
    const int tiny = x < 0x1p-126f;
    const float scaled = tiny ? x * 0x1p24f : x;
    const int bits = as_int(scaled);
    int e = ((bits >> 23) & 0xff) - 127 - (tiny ? 24 : 0);
    float m = as_float((bits & 0x007fffff) | 0x3f800000);
    const int high = m > 1.41421354f;
    m = high ? m * 0.5f : m;
    e = high ? e + 1 : e;
    const float f = m - 1.0f;
    const float s = f / (2.0f + f);
    const float z = s * s;
    float r = 2.0f / 11.0f;
    r = r * z + 2.0f / 9.0f;
    r = r * z + 2.0f / 7.0f;
    r = r * z + 2.0f / 5.0f;
    r = r * z + 2.0f / 3.0f;
    r = r * z;
    const float half_square = 0.5f * f * f;
    const float ef = (float)e;
    const float y = ef * 0x1.62e4p-1f
        + (f - (half_square - (s * (half_square + r) + ef * 0x1.7f7d1cp-20f)));
    const float special = x < 0.0f ? NAN : (x == 0.0f ? -INFINITY : x);
    return (x > 0.0f && x < INFINITY) ? y : special;
}
""",
    },
    # log(1 + x) from log of the rounded 1 + x, corrected by x / ((1 + x) - 1), which
    # holds the rounding (Goldberg): within an ulp or two of log1p wherever log is.
    "log1p": {
        "float64": """\
double OVERLOADABLE weft_log1p(double x) {
    const double u = 1.0 + x;
    const double logu = weft_log(u);  // computed either way: selects, not branches
    const double y = u == 1.0 ? x : logu * (x / (u - 1.0));
    return x == INFINITY ? x : y;
}
""",
        "float32": _through_double("log1p"),
    },
    # exp(x) - 1 = 2^k (1 + e) - 1 with x = k ln 2 + r as in exp and e = expm1(r) from its
    # Taylor polynomial (r + r^2 P(r)): (2^k - 1) + 2^k e, where 2^k - 1 is exact, while 2^k
    # is near 1; beyond 2^60, (1 + e) 2^k in two halves. No log (Kahan's correction of the
    # rounded exp(x) needed one): twice as fast. float32 goes through float64: within half
    # an ulp then.
    "expm1": {
        "float64": """\
double OVERLOADABLE weft_expm1(double x) {
    const double round_k = 0x1.8p52;
    double c = x > 709.8 ? 709.8 : x;
    c = c < -40.0 ? -40.0 : c;  // expm1 rounds to -1 from -37.5 on
    const double t = c * 1.4426950408889634 + round_k;
    const double k = t - round_k;
    const long ki = as_long(t) - as_long(round_k);
    const double r = (c - k * 0x1.62e42fee00000p-1) - k * 0x1.a39ef35793c76p-33;
""" + horner([f"1.0 / {f}.0" for f in (87178291200, 6227020800, 479001600, 39916800, 3628800,
                                       362880, 40320, 5040, 720, 120, 24, 6, 2)], "r", "p") + """
    const double e = r + r * r * p;
    const long capped = ki < 60L ? ki : 60L;
    const double two_k = as_double((capped + 1023L) << 52);
    const double near = (two_k - 1.0) + two_k * e;
    const double far = weft_times_two_to(1.0 + e, ki);
    const double y = k > 60.0 ? far : near;
    return x > 709.782712893384 ? INFINITY : (x == 0.0 || x != x ? x : y);
}
""",
        "float32": _through_double("expm1"),
    },
    # tanh from expm1(2|x|): u / (u + 2) is tanh exactly, and keeps expm1's relative
    # accuracy for tiny x; from 22 on, tanh rounds to 1.
    "tanh": {
        "float64": """\
double OVERLOADABLE weft_tanh(double x) {
    const double a = __builtin_fabs(x);
    const double u = weft_expm1(2.0 * __builtin_fmin(a, 22.0));
    const double t = a < 22.0 ? u / (u + 2.0) : 1.0;
    return x != x ? x : __builtin_copysign(t, x);
}
""",
        "float32": _through_double("tanh"),
    },
    # sinh and cosh below 22 from expm1 (sinh: u + u / (u + 1) = e^a - e^-a, no
    # cancelling) and exp; from 22 on, e^a / 2 as (e^(a/2) / 2) e^(a/2), finite up to
    # sinh's own overflow at 710.48.
    "sinh": {
        "float64": """\
double OVERLOADABLE weft_sinh(double x) {
    const double a = __builtin_fabs(x);
    const double u = weft_expm1(__builtin_fmin(a, 22.0));
    const double w = weft_exp(0.5 * a);
    const double s = a < 22.0 ? 0.5 * (u + u / (u + 1.0)) : (0.5 * w) * w;
    return x != x ? x : __builtin_copysign(s, x);
}
""",
        "float32": _through_double("sinh"),
    },
    "cosh": {
        "float64": """\
double OVERLOADABLE weft_cosh(double x) {
    const double a = __builtin_fabs(x);
    const double e = weft_exp(__builtin_fmin(a, 22.0));
    const double w = weft_exp(0.5 * a);
    const double c = a < 22.0 ? 0.5 * (e + 1.0 / e) : (0.5 * w) * w;
    return x != x ? x : c;
}
""",
        "float32": _through_double("cosh"),
    },
    # Compares, not library calls: NaN is the value unequal to itself, and x - x is 0
    # exactly for finite x (NaN for infinities and NaN).
    "isnan": {
        "float64": "int OVERLOADABLE weft_isnan(double x) { return x != x; }\n",
        "float32": "int OVERLOADABLE weft_isnan(float x) { return x != x; }\n",
    },
    "isfinite": {
        "float64": "int OVERLOADABLE weft_isfinite(double x) { return x - x == 0.0; }\n",
        "float32": "int OVERLOADABLE weft_isfinite(float x) { return x - x == 0.0f; }\n",
    },
    "isinf": {
        "float64": "int OVERLOADABLE weft_isinf(double x) { return x == INFINITY || "
                   "x == -INFINITY; }\n",
        "float32": "int OVERLOADABLE weft_isinf(float x) { return x == INFINITY || "
                   "x == -INFINITY; }\n",
    },
    **{name: _builtin(name) for name in ("sqrt", "fabs", "floor", "ceil", "trunc", "rint")},
    **{name: _builtin(name, 2) for name in ("fmin", "fmax", "copysign")},
}

# sin and cos share one argument reduction, emitted once with the table it reads.
_VERSIONS["reduce_half_pi"] = {"float64": _reduction.SHARED}
_VERSIONS["sin"] = {"float64": _reduction.SIN}  # (float64 and float32 versions)
_VERSIONS["cos"] = {"float64": _reduction.COS}
_VERSIONS["tan"] = {"float64": _reduction.TAN}
_VERSIONS["reduce_half_pi_fast"] = {"float64": _reduction.REDUCE_HALF_PI_FAST}
for _name, _source in _reduction.FAST.items():
    _VERSIONS[f"{_name}_fast"] = {"float64": _source}
_VERSIONS["erf_kernels"] = {"float64": ERF_KERNELS}
_VERSIONS["log_parts"] = {"float64": LOG_PARTS}
_VERSIONS["exp_sum"] = {"float64": _exp_double("weft_exp_sum(double x, double lo)", " + lo")}
_VERSIONS["lgamma_parts"] = {"float64": LGAMMA_PARTS}
for _name, _source, _arity in (
        ("lgamma", LGAMMA, 1), ("tgamma", TGAMMA, 1), ("erf", ERF, 1), ("erfc", ERFC, 1),
        ("pow", POW, 2),
        ("atan", ATAN, 1), ("atan2", ATAN2, 2), ("asin", ASIN, 1), ("acos", ACOS, 1),
        ("log2", LOG2, 1), ("log10", LOG10, 1), ("exp2", EXP2, 1), ("cbrt", CBRT, 1),
        ("hypot", HYPOT, 2), ("asinh", ASINH, 1), ("acosh", ACOSH, 1), ("atanh", ATANH, 1)):
    _VERSIONS[_name] = {"float64": _source, "float32": _through_double(_name, _arity)}

# What each calls directly: emitted first (``own_math_source`` follows the calls through).
_NEEDS = {"exp": ("times_two_to",), "exp_sum": ("times_two_to",),
          "expm1": ("times_two_to",), "log1p": ("log",),
          "sin": ("reduce_half_pi",), "cos": ("reduce_half_pi",), "tan": ("reduce_half_pi",),
          "reduce_half_pi_fast": ("reduce_half_pi",), "sin_fast": ("reduce_half_pi_fast",),
          "cos_fast": ("reduce_half_pi_fast",), "tan_fast": ("reduce_half_pi_fast",),
          "lgamma": ("log", "lgamma_parts"), "lgamma_parts": ("reduce_half_pi",),
          "tgamma": ("exp", "log_parts", "lgamma_parts"), "erf": ("exp", "erf_kernels"),
          "erfc": ("exp", "erf_kernels"), "pow": ("exp_sum", "log_parts"), "tanh": ("expm1",),
          "sinh": ("expm1", "exp"), "cosh": ("exp",), "atan2": ("atan",), "asin": ("atan2",),
          "acos": ("atan2",), "log2": ("log_parts",), "log10": ("log_parts",),
          "exp2": ("exp", "times_two_to"), "cbrt": ("times_two_to",), "asinh": ("log1p",),
          "acosh": ("log1p",), "atanh": ("log1p",)}
_ORDER = ("times_two_to", "exp", "exp_sum", "log", "log1p", "expm1", "tanh", "sinh", "cosh",
          "reduce_half_pi", "sin", "cos", "tan", "reduce_half_pi_fast", "sin_fast", "cos_fast",
          "tan_fast", "lgamma_parts", "lgamma", "erf_kernels", "erf",
          "erfc", "log_parts", "pow", "tgamma", "log2", "log10", "exp2", "cbrt", "hypot", "asinh",
          "acosh", "atanh", "atan", "atan2", "asin", "acos", "isnan", "isfinite", "isinf", "sqrt",
          "fabs", "floor", "ceil", "trunc", "rint", "fmin", "fmax", "copysign")
_HELPERS = frozenset({"times_two_to", "exp_sum", "reduce_half_pi", "erf_kernels",
                      "log_parts", "lgamma_parts", "reduce_half_pi_fast", "sin_fast",
                      "cos_fast", "tan_fast"})  # no macro
NAMES = frozenset(_ORDER) - _HELPERS
# The functions a CPU row band may still write out once per column (render/reduce.py):
# the compiler vectorizes those copies. A copy of any other own function's body it does
# not (sums of 2^21 float64 on 2 Xeon cores, copies -> loop: log1p 17.7 -> 4.7 ms, expm1
# 40 -> 10, tanh 50 -> 13, lgamma 50 -> 12; exp 1.9 -> 3.6 and log 3.5 -> 5.6 the other
# way), and the copies multiplied the build time (student_t_lpdf 11.3 -> 4.3 s).
COPYABLE = frozenset({"exp", "log", "isnan", "isfinite", "isinf", "sqrt", "fabs", "floor",
                      "ceil", "trunc", "rint", "fmin", "fmax", "copysign"})
_ARITY = {"fmin": 2, "fmax": 2, "copysign": 2, "pow": 2, "atan2": 2, "hypot": 2}


def own_math_source(names: frozenset[str], used: str) -> str:
    """The definitions, for both floating types, of the functions among ``names`` that
    ``used`` (a kernel's text) calls, and of what they call, each followed by a macro that
    sends the library name to weft's version: ops and helpers alike then call it. Empty
    when ``used`` calls none of them.

    >>> "weft_exp" in own_math_source(frozenset({"exp"}), "y = exp(x);")
    True
    """
    code = re.sub(r"//[^\n]*", "", used)  # a comment's "log(x)" calls nothing
    wanted = {name for name in names if re.search(rf"\b{name}\(", code)}
    # An element walk's first pass calls the trigonometric functions' fast versions by name.
    wanted |= {f"{name}_fast" for name in _reduction.FAST if f"weft_{name}_fast(" in code}
    pending = list(wanted)
    while pending:
        for needed in _NEEDS.get(pending.pop(), ()):
            if needed not in wanted:
                wanted.add(needed)
                pending.append(needed)
    if not wanted:
        return ""
    # (their double versions need the dialect's fp64 preamble, which the kernel then has)
    text = "#define OVERLOADABLE __attribute__((overloadable, always_inline))\n"
    for name in _ORDER:
        if name in wanted:
            text += "".join(_VERSIONS[name].values())
    for name in _ORDER:
        if name in wanted and name in names:
            # The library may define the name as a macro itself (PoCL does).
            params = ", ".join(("x", "y")[:_ARITY.get(name, 1)])
            text += f"#undef {name}\n#define {name}({params}) weft_{name}({params})\n"
    return text + "\n"
