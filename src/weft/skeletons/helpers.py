"""Device helper functions, as C templates instantiated per dtype.

``{T}`` is the computation type, ``{U}`` its unsigned counterpart (integers), ``{S}`` the dtype
suffix that makes the name unique (``weft_floordiv_i32``), ``{F}`` the suffix of a real literal
(``f`` for float32). The renderer emits each helper that a kernel uses once, before the kernel,
after the helpers it needs (``NEEDS``). The special functions live in special.py, the random
draws in random.py.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .bessel_kv import BESSEL_KV_BRANCHY
from .random import DTYPE_FREE, RANDOM, RANDOM_NEEDS
from .special import NEEDS, ROOTS, SPECIAL, THROUGH_DOUBLE, WIDE_FLOAT32

if TYPE_CHECKING:
    from ..dialect import Dialect
    from ..dtypes import DType

HELPERS: dict[str, str] = {
    # NumPy integer floor division: x // 0 == 0 and MIN // -1 wraps to MIN (C would trap).
    "floordiv_int": """\
{T} weft_floordiv_{S}({T} a, {T} b) {{
    if (b == 0) return 0;
    if (b == -1) return ({T})(({U})0 - ({U})a);
    {T} q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}}
""",
    "floordiv_uint": """\
{T} weft_floordiv_{S}({T} a, {T} b) {{
    return b == 0 ? 0 : a / b;
}}
""",
    # NumPy integer remainder takes the sign of the divisor; x % 0 == 0.
    "mod_int": """\
{T} weft_mod_{S}({T} a, {T} b) {{
    if (b == 0 || b == -1) return 0;
    {T} r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}}
""",
    "mod_uint": """\
{T} weft_mod_{S}({T} a, {T} b) {{
    return b == 0 ? 0 : a % b;
}}
""",
    # NumPy's npy_divmod for reals: the floor quotient, exact near integers.
    "floordiv_float": """\
{T} weft_floordiv_{S}({T} a, {T} b) {{
    {T} mod = fmod(a, b);
    if (b == 0) return a / b;
    {T} div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
    if (div == 0) return copysign(({T})0, a / b);
    {T} fl = floor(div);
    if (div - fl > ({T})0.5) fl += 1;
    return fl;
}}
""",
    "mod_float": """\
{T} weft_mod_{S}({T} a, {T} b) {{
    {T} mod = fmod(a, b);
    if (b == 0) return mod;
    if (mod != 0) {{
        if ((b < 0) != (mod < 0)) mod += b;
    }} else {{
        mod = copysign(({T})0, b);
    }}
    return mod;
}}
""",
    # Integer power with wrap-around, like NumPy; negative exponents give C's integer answer
    # (1 for base 1, +-1 for base -1, else 0).
    "ipow": """\
{T} weft_ipow_{S}({T} a, {T} b) {{
    if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0);
    {U} r = 1, x = ({U})a;
    while (b) {{
        if (b & 1) r *= x;
        x *= x;
        b >>= 1;
    }}
    return ({T})r;
}}
""",
    # NumPy's gcd and lcm: of the magnitudes (MIN's wraps to itself, as NumPy's does), by
    # Euclid's remainders in the unsigned type; lcm(0, x) == 0, its product wrapping.
    "gcd": """\
{T} weft_gcd_{S}({T} a, {T} b) {{
    {U} x = a < 0 ? ({U})0 - ({U})a : ({U})a;
    {U} y = b < 0 ? ({U})0 - ({U})b : ({U})b;
    while (y != 0) {{
        const {U} r = x % y;
        x = y;
        y = r;
    }}
    return ({T})x;
}}
""",
    "lcm": """\
{T} weft_lcm_{S}({T} a, {T} b) {{
    const {U} x = a < 0 ? ({U})0 - ({U})a : ({U})a;
    const {U} y = b < 0 ? ({U})0 - ({U})b : ({U})b;
    const {U} g = ({U})weft_gcd_{S}(a, b);
    return g == 0 ? ({T})0 : ({T})(x / g * y);
}}
""",
    # The vendor's pow (NVIDIA's: within 2 ulps) misses exact powers by an ulp (3.0 ** 1.0
    # on an H200). For an integer exponent, a power by squaring whose every product an FMA
    # shows exact is the power itself, and its reciprocal, rounded once, the negative power.
    # Products below 1e-30 fall back to pow: an FMA cannot see a subnormal's rounding.
    "pow_exact": """\
{T} weft_pow_{S}({T} x, {T} y) {{
    if (y == rint(y) && fabs(y) <= 64 && fabs(x) < INFINITY && x != 0) {{
        int n = (int)fabs(y);
        {T} base = x, p = 1;
        int exact = 1;
        while (n && exact) {{  // (an inexact product ends it: pow's answer is then taken)
            if (n & 1) {{
                const {T} q = p * base;
                exact = exact && fma(p, base, -q) == 0 && fabs(q) >= ({T})1e-30;
                p = q;
            }}
            n >>= 1;
            if (n) {{
                const {T} s = base * base;
                exact = exact && fma(base, base, -s) == 0 && fabs(s) >= ({T})1e-30;
                base = s;
            }}
        }}
        if (exact) return y < 0 ? 1 / p : p;
    }}
    return pow(x, y);
}}
""",
}

# Helpers that mend a library function: (the function, the helper as a plain call of it). A
# dialect with its own version of the function (``Dialect.own_math``: weft's own pow on CPUs
# gives exact powers exactly) gets the plain call.
MENDS = {"pow_exact": ("pow", "{T} weft_pow_{S}({T} x, {T} y) {{ return pow(x, y); }}\n")}

# Helpers' branchier forms, for dialects whose work-items run alone (``Dialect.branchy_forms``,
# CPUs): kv takes Temme's series below x = 2 there.
BRANCHY_FORMS = dict(BESSEL_KV_BRANCHY)
BRANCHY_NAMES = frozenset(BRANCHY_FORMS)

_LOOP = re.compile(r"\b(for|while)\s*\(")

HELPERS.update(SPECIAL)
HELPERS.update(RANDOM)
NEEDS.update(RANDOM_NEEDS)
NEEDS["lcm"] = ("gcd",)
# Helpers computing in double whatever the op's dtype (the kernel needs doubles).
DOUBLE_INSIDE = frozenset(RANDOM)

__all__ = ["BRANCHY_NAMES", "DOUBLE_INSIDE", "DTYPE_FREE", "HELPERS", "NEEDS", "ROOTS",
           "THROUGH_DOUBLE", "WIDE_FLOAT32", "helper_source"]


def helper_source(name: str, dtype: DType, dialect: Dialect) -> str:
    """Helper ``name``'s C text for ``dtype`` in ``dialect``."""
    template = HELPERS[name]
    if name in MENDS and MENDS[name][0] in dialect.own_math:
        template = MENDS[name][1]
    elif name in dialect.branchy_forms:
        template = BRANCHY_FORMS[name]
    qualifier = dialect.function_qualifier
    if dialect.looping_function_qualifier is not None and _LOOP.search(template):
        qualifier = dialect.looping_function_qualifier
    # Templates with several functions place the qualifier ({Q}) themselves.
    prefix = "" if "{Q}" in template else qualifier
    return prefix + template.format(
        T=dialect.compute_types[dtype.name],
        U=dialect.unsigned_types.get(dtype.name, dialect.compute_types[dtype.name]),
        S=dtype.short,
        F="f" if dtype.name == "float32" else "",
        Q=qualifier,
        U32=dialect.compute_types["uint32"],
        U64=dialect.unsigned_types["int64"],
        I64=dialect.compute_types["int64"],
        **ROOTS.get(dtype.name, {}),
    )
