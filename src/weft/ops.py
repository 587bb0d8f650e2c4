"""The one op table: every element-wise primitive, declared once.

Each entry gives the name, the arity, the dtype rule, the C template (per dtype kind, with
optional per-dialect overrides), the helper functions it needs, the NumPy reference the
reference backend and the tests use, and how it treats structural zeros. Dunders, namespace
functions, dtype inference, code generation and the generated tests all read this table.

Templates use ``{0} {1} {2}`` for the arguments' C expressions, ``{T}`` for the computation type,
``{U}`` for its unsigned counterpart, ``{S}`` for the dtype suffix, ``{F}`` for a real literal's
suffix (``f`` in float32) and ``{BITS}`` for its width.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from . import bessel_jy, bessel_order, elliptic_adjoint, elliptic_jacobi, legendre
from . import dtypes as dt
from . import incomplete_derivative as inc
from .dtypes import DType
from .special_references import lchoose, log1m_exp, log_diff_exp
from .special_references import scipy_reference as _scipy
from .special_references import sici_part as _sici_part
from .zeta_derivative import riemann_zeta_dx, zeta_ds, zeta_ds_reference

# Dtype rules: how argument dtypes give (computation dtype of each argument, result dtype).
SAME = "same"  # compute in the promoted type, return it
REAL = "real"  # compute in the promoted type, or the default real for bool/ints
PREDICATE = "predicate"  # compute in the promoted type, return bool
LOGICAL = "logical"  # compute in bool, return bool
WHERE = "where"  # first argument bool, the others promoted
LDEXP = "ldexp"  # first argument real, second int32
ROUNDING = "rounding"  # as SAME, but bool computes in the default real (NumPy: float16)
RANDOM = "random"  # uint32 key words, an int64 counter, real parameters; a real draw
RANDOM_COUNT = "random_count"  # the same, an int64 draw (parameters in float64)
RANDOM_FLAG = "random_flag"  # the same, a bool draw (parameters in float64)

# How structural zeros travel through an op (Stan's views; used by structure.py).
PRESERVE = "preserve"  # unary f(0) == 0: keeps the operand's structure
UNION = "union"  # binary, zero only where both are: union of the nonzero regions
INTERSECTION = "intersection"  # binary, zero where either is
GENERAL = "general"  # may be nonzero anywhere


@dataclass(frozen=True)
class Op:
    name: str
    arity: int
    rule: str
    c: Mapping[str, str]  # dtype kinds ("b", "u", "i", "f", combined like "ui") -> template
    numpy: Callable[..., np.ndarray]
    zeros: str = GENERAL
    helpers: Mapping[str, str] = field(default_factory=dict)  # kinds -> helper name
    dialect_c: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # As a reduction: "zero" "one" "lowest" "highest" "false" "true", or "nan/" and one of
    # them (NaN among floats, else that one).
    identity: str | None = None
    internal: bool = False  # a building block of weft's own code, not a public function
    # The reverse rule: ``adjoint(w, g, y, *xs)`` with ``w`` the weft namespace, ``g`` the
    # adjoint of the result ``y``, ``xs`` the arguments (Arrays in their computation dtypes):
    # each argument's share of the adjoint (a tuple for several arguments), None where it
    # is zero, or the argument's name where no rule exists (adjoint.py raises then).
    # Ops with integer or bool results need none: their gradient is zero.
    adjoint: Callable[..., object] | None = None

    @property
    def preserves_zero(self) -> bool:
        """Whether zero operands give zero (the op keeps triangular structure)."""
        return self.zeros != GENERAL

    @property
    def accepts(self) -> str:
        return "".join(self.c)

    def template(self, kind: str, dialect: str) -> str:
        for table in (self.dialect_c.get(dialect, {}), self.c):
            for kinds, text in table.items():
                if kind in kinds:
                    return text
        raise TypeError(f"{self.name} does not support this dtype kind {kind!r}")

    def helper(self, kind: str) -> str | None:
        for kinds, name in self.helpers.items():
            if kind in kinds:
                return name
        return None


def _wrap(expr: str) -> str:
    """Signed integer arithmetic through the unsigned type: wraps like NumPy, no C overflow UB."""
    return "(({T})(" + expr + "))"


def _fdim(a, b):
    return np.where(np.isnan(a) | np.isnan(b), a + b, np.where(a > b, a - b, 0).astype(a.dtype))


def _shift_left(a, b):
    bits = a.dtype.itemsize * 8
    ok = (b >= 0) & (b < bits)
    return np.where(ok, np.left_shift(a, np.where(ok, b, 0)), 0).astype(a.dtype)


def _shift_right(a, b):
    bits = a.dtype.itemsize * 8
    ok = (b >= 0) & (b < bits)
    fill = np.where(a < 0, -1, 0) if a.dtype.kind == "i" else 0
    return np.where(ok, np.right_shift(a, np.where(ok, b, 0)), fill).astype(a.dtype)


def _ipow(a, b):
    if a.dtype.kind == "f":
        return np.power(a, b)
    neg = b < 0
    base = np.power(a, np.where(neg, 0, b))
    odd = (b & 1) == 1
    special = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0))
    return np.where(neg, special, base).astype(a.dtype)


def _sign(a):
    return np.sign(a)


FLOAT_ONLY = "f"
_ALL = "buif"
_LN2, _LN10 = float(np.log(2)), float(np.log(10))
_SQRT_PI, _SQRT_2PI = float(np.sqrt(np.pi)), float(np.sqrt(2 * np.pi))

_unary_float: list[tuple[str, str, Callable, str, Callable | None]] = [
    # name, C function, NumPy reference, zero rule, reverse rule (w, g, y, x)
    ("exp", "exp", np.exp, GENERAL, lambda w, g, y, x: g * y),
    ("exp2", "exp2", np.exp2, GENERAL, lambda w, g, y, x: g * y * _LN2),
    ("expm1", "expm1", np.expm1, PRESERVE, lambda w, g, y, x: g * (y + 1)),
    ("log", "log", np.log, GENERAL, lambda w, g, y, x: g / x),
    ("log2", "log2", np.log2, GENERAL, lambda w, g, y, x: g / (x * _LN2)),
    ("log10", "log10", np.log10, GENERAL, lambda w, g, y, x: g / (x * _LN10)),
    ("log1p", "log1p", np.log1p, PRESERVE, lambda w, g, y, x: g / (x + 1)),
    ("sqrt", "sqrt", np.sqrt, PRESERVE, lambda w, g, y, x: g * 0.5 / y),
    ("cbrt", "cbrt", np.cbrt, PRESERVE, lambda w, g, y, x: g / (3 * y * y)),
    ("rsqrt", "rsqrt", lambda x: (1 / np.sqrt(x)).astype(x.dtype), GENERAL,
     lambda w, g, y, x: g * -0.5 * y * y * y),
    ("sin", "sin", np.sin, PRESERVE, lambda w, g, y, x: g * w.cos(x)),
    ("cos", "cos", np.cos, GENERAL, lambda w, g, y, x: -g * w.sin(x)),
    ("tan", "tan", np.tan, PRESERVE, lambda w, g, y, x: g * (y * y + 1)),
    ("asin", "asin", np.arcsin, PRESERVE, lambda w, g, y, x: g * w.rsqrt(1 - x * x)),
    ("acos", "acos", np.arccos, GENERAL, lambda w, g, y, x: -g * w.rsqrt(1 - x * x)),
    ("atan", "atan", np.arctan, PRESERVE, lambda w, g, y, x: g / (x * x + 1)),
    ("sinh", "sinh", np.sinh, PRESERVE, lambda w, g, y, x: g * w.cosh(x)),
    ("cosh", "cosh", np.cosh, GENERAL, lambda w, g, y, x: g * w.sinh(x)),
    ("tanh", "tanh", np.tanh, PRESERVE, lambda w, g, y, x: g * (1 - y * y)),
    ("asinh", "asinh", np.arcsinh, PRESERVE, lambda w, g, y, x: g * w.rsqrt(x * x + 1)),
    ("acosh", "acosh", np.arccosh, GENERAL, lambda w, g, y, x: g * w.rsqrt(x * x - 1)),
    ("atanh", "atanh", np.arctanh, PRESERVE, lambda w, g, y, x: g / (1 - x * x)),
    ("rint", "rint", np.rint, PRESERVE, lambda w, g, y, x: None),
]
_binary_float: list[tuple[str, str, Callable, str, Callable | None]] = [
    ("atan2", "atan2({0}, {1})", np.arctan2, GENERAL,
     lambda w, g, y, a, b: (g * b / (a * a + b * b), -g * a / (a * a + b * b))),
    ("hypot", "hypot({0}, {1})", np.hypot, UNION, lambda w, g, y, a, b: (g * a / y, g * b / y)),
    ("copysign", "copysign({0}, {1})", np.copysign, GENERAL,
     lambda w, g, y, a, b: (w.where(w.signbit(a) == w.signbit(b), g, -g), None)),
    ("fdim", "fdim({0}, {1})", _fdim, GENERAL,
     lambda w, g, y, a, b: (w.where(a > b, g, 0), w.where(a > b, -g, 0))),
]
OPS: dict[str, Op] = {}


def _add(op: Op) -> None:
    assert op.name not in OPS, op.name
    OPS[op.name] = op


for _name, _fn, _ref, _z, _rule in _unary_float:
    _add(Op(_name, 1, REAL, {FLOAT_ONLY: f"{_fn}({{0}})"}, _ref, _z, adjoint=_rule))
for _name, _tmpl, _ref, _z, _rule in _binary_float:
    _add(Op(_name, 2, REAL, {FLOAT_ONLY: _tmpl}, _ref, _z, adjoint=_rule))

_add(Op("ldexp", 2, LDEXP, {FLOAT_ONLY: "ldexp({0}, {1})"}, np.ldexp, PRESERVE,
        adjoint=lambda w, g, y, x, e: (w.ldexp(g, e), None)))
# Equal arguments take their own branch, as NumPy's: it keeps logaddexp(inf, inf) = inf and
# logaddexp(-inf, -inf) = -inf, where the general form computes inf - inf.
_add(Op("logaddexp", 2, REAL,
        {FLOAT_ONLY: "({0} == {1} ? {0} + 0.69314718055994530942{F}"
                     " : fmax({0}, {1}) + log1p(exp(-fabs({0} - {1}))))"}, np.logaddexp,
        identity="lowest", adjoint=lambda w, g, y, a, b: (g * w.exp(a - y), g * w.exp(b - y))))

_add(Op("logaddexp2", 2, REAL,
        {FLOAT_ONLY: "({0} == {1} ? {0} + 1"
                     " : fmax({0}, {1}) + log1p(exp2(-fabs({0} - {1}))) * 1.4426950408889634{F})"},
        np.logaddexp2, identity="lowest",
        adjoint=lambda w, g, y, a, b: (g * w.exp2(a - y), g * w.exp2(b - y))))
# The next representable value after x1 towards x2: a step of one ulp, so its derivative
# with respect to x1 is 1 (and 0 with respect to x2) wherever it is defined.
_add(Op("nextafter", 2, REAL, {FLOAT_ONLY: "nextafter({0}, {1})"}, np.nextafter, GENERAL,
        adjoint=lambda w, g, y, a, b: (g, None)))
# The distance to the next value away from zero (NumPy's: -0.0 steps up, as 0.0 does); a
# step function, so its derivative is zero.
_add(Op("spacing", 1, REAL,
        {FLOAT_ONLY: "(nextafter({0}, {0} < 0 ? -({T})INFINITY : ({T})INFINITY) - {0})"},
        np.spacing, GENERAL, adjoint=lambda w, g, y, x: None))

# Special functions (device code in skeletons/special.py; SciPy is the reference, imported
# only when a reference is computed: the reference device and the tests).


def _expn_adjoint(w, g, y, n, x):
    """d/dx E_n(x) = -E_(n-1)(x), with E_-1(x) = e^-x (x + 1) / x^2; n is an integer."""
    m = w.trunc(n)
    below = w.where(m == 0, w.exp(-x) * (x + 1) / (x * x), w.expn(m - 1, x))
    return None, -g * below


SPECIAL_FUNCTIONS: list[tuple[str, int, str, Callable, str, Callable]] = [
    # name, arity, C template (a helper's name is weft_<name>_{S}), reference, zero rule,
    # reverse rule
    ("erf", 1, "erf({0})", _scipy("erf"), PRESERVE,
     lambda w, g, y, x: g * (2 / _SQRT_PI) * w.exp(-x * x)),
    ("erfc", 1, "erfc({0})", _scipy("erfc"), GENERAL,
     lambda w, g, y, x: g * (-2 / _SQRT_PI) * w.exp(-x * x)),
    ("erfinv", 1, "helper", _scipy("erfinv"), PRESERVE,
     lambda w, g, y, x: g * (_SQRT_PI / 2) * w.exp(y * y)),
    ("erfcx", 1, "helper", _scipy("erfcx"), GENERAL,
     lambda w, g, y, x: g * (2 * x * y - 2 / _SQRT_PI)),
    # The incomplete elliptic integrals F(phi|m), E(phi|m) (Carlson's forms).
    ("ellipkinc", 2, "helper", _scipy("ellipkinc"), GENERAL, elliptic_adjoint.ellipkinc_adjoint),
    ("ellipeinc", 2, "helper", _scipy("ellipeinc"), PRESERVE, elliptic_adjoint.ellipeinc_adjoint),
    ("lgamma", 1, "({0} == -INFINITY ? -INFINITY : lgamma({0}))", _scipy("gammaln"), GENERAL,
     lambda w, g, y, x: g * w.digamma(x)),
    ("tgamma", 1, "tgamma({0})", _scipy("gamma"), GENERAL,
     lambda w, g, y, x: g * y * w.digamma(x)),
    ("digamma", 1, "helper", _scipy("psi"), GENERAL,
     lambda w, g, y, x: g * w.trigamma(x)),
    ("trigamma", 1, "helper", _scipy("polygamma", 1), GENERAL,
     lambda w, g, y, x: g * w.polygamma(2, x)),
    # n takes integer values only: its gradient is zero.
    ("polygamma", 2, "helper", _scipy("polygamma"), GENERAL,
     lambda w, g, y, n, x: (None, g * w.polygamma(n + 1, x))),
    # Hurwitz's zeta(s, q); Riemann's and zeta - 1 have no derivative in s here.
    ("zeta", 2, "helper", _scipy("zeta"), GENERAL,
     lambda w, g, y, s, q: (g * zeta_ds(w, s, q), -g * s * w.zeta(s + 1, q))),
    ("riemann_zeta", 1, "helper", _scipy("zeta"), GENERAL,
     lambda w, g, y, x: g * riemann_zeta_dx(w, x)),
    ("zetac", 1, "helper", _scipy("zetac"), GENERAL,
     lambda w, g, y, x: g * riemann_zeta_dx(w, x)),
    # The exponential integrals (SciPy's expn truncates a real n toward zero, as weft's).
    ("exp1", 1, "helper", _scipy("exp1"), GENERAL, lambda w, g, y, x: -g * w.exp(-x) / x),
    ("expi", 1, "helper", _scipy("expi"), GENERAL, lambda w, g, y, x: g * w.exp(x) / x),
    ("expn", 2, "helper", _scipy("expn"), GENERAL, _expn_adjoint),
    # The modified Bessel functions of the second kind, orders 0 and 1, and their scaled
    # forms e^x K (K0' = -K1, K1' = -K0 - K1/x).
    ("k0", 1, "helper", _scipy("k0"), GENERAL, lambda w, g, y, x: -g * w.k1(x)),
    ("k1", 1, "helper", _scipy("k1"), GENERAL, lambda w, g, y, x: -g * (w.k0(x) + y / x)),
    ("k0e", 1, "helper", _scipy("k0e"), GENERAL, lambda w, g, y, x: g * (y - w.k1e(x))),
    ("k1e", 1, "helper", _scipy("k1e"), GENERAL,
     lambda w, g, y, x: g * (y - w.k0e(x) - y / x)),
    # K_v and I_v of real order (bessel_order.py, skeletons/bessel_kv.py, bessel_iv.py);
    # J and Y (bessel_jy.py).
    *[(name, arity, "helper", reference, GENERAL, rule)
      for name, arity, reference, rule in bessel_order.BESSEL_ORDER_FUNCTIONS],
    *[(name, arity, "helper", bessel_jy.REFERENCES[name], GENERAL, rule)
      for name, arity, rule in bessel_jy.BESSEL_JY_FUNCTIONS],
    # P_v^m(x) of integer order and degree (skeletons/legendre.py).
    ("lpmv", 3, "helper", _scipy("lpmv"), GENERAL, legendre.lpmv_adjoint),
    # The sine and cosine integrals (SciPy's sici, one function each; Ci(x) for x < 0 is
    # SciPy's real part, Ci(|x|)): Si' = sin(x)/x (1 at 0), Ci' = cos(x)/x.
    ("si", 1, "helper", _sici_part(0), GENERAL,
     lambda w, g, y, x: g * w.where(x == 0, 1, w.sin(x) / x)),
    ("ci", 1, "helper", _sici_part(1), GENERAL,
     lambda w, g, y, x: g * w.cos(x) / x),
    ("lbeta", 2, "helper", _scipy("betaln"), GENERAL,
     lambda w, g, y, a, b: (g * (w.digamma(a) - w.digamma(a + b)),
                            g * (w.digamma(b) - w.digamma(a + b)))),
    ("lchoose", 2, "helper", lchoose, GENERAL,
     lambda w, g, y, n, k: (g * (w.digamma(n + 1) - w.digamma(n - k + 1)),
                            g * (w.digamma(n - k + 1) - w.digamma(k + 1)))),
    ("lfact", 1, "(isinf({0}) && {0} < 0 ? -INFINITY : lgamma({0} + 1))",
     lambda x: _scipy("gammaln")(x + 1), GENERAL,
     lambda w, g, y, x: g * w.digamma(x + 1)),
    ("logit", 1, "helper", _scipy("logit"), GENERAL,
     lambda w, g, y, x: g / (x * (1 - x))),
    ("inv_logit", 1, "helper", _scipy("expit"), GENERAL,
     lambda w, g, y, x: g * y * (1 - y)),
    ("log_inv_logit", 1, "(-weft_log1p_exp_{S}(-{0}))", _scipy("log_expit"), GENERAL,
     lambda w, g, y, x: g * w.inv_logit(-x)),
    ("log1m_inv_logit", 1, "(-weft_log1p_exp_{S}({0}))",
     lambda x: _scipy("log_expit")(-x), GENERAL,
     lambda w, g, y, x: -g * w.inv_logit(x)),
    ("log1p_exp", 1, "helper", lambda x: np.logaddexp(0, x).astype(x.dtype), GENERAL,
     lambda w, g, y, x: g * w.inv_logit(x)),
    ("log1m_exp", 1, "helper", log1m_exp, GENERAL,
     lambda w, g, y, x: -g / w.expm1(-x)),
    ("log1m", 1, "log1p(-{0})", lambda x: np.log1p(-x), PRESERVE,
     lambda w, g, y, x: -g / (1 - x)),
    ("log_diff_exp", 2, "helper", log_diff_exp, GENERAL,
     lambda w, g, y, a, b: (-g / w.expm1(b - a), -g / w.expm1(a - b))),
    ("xlogy", 2, "(({0} == 0 && !isnan({1})) ? ({T})0 : {0} * log({1}))", _scipy("xlogy"),
     GENERAL,
     lambda w, g, y, a, b: (g * w.log(b), w.where(a == 0, 0, g * a / b))),
    ("gamma_p", 2, "helper", _scipy("gammainc"), GENERAL,
     lambda w, g, y, a, x: (g * inc.gamma_p_da(a, x), g * inc.gamma_density(w, a, x))),
    ("gamma_q", 2, "helper", _scipy("gammaincc"), GENERAL,
     lambda w, g, y, a, x: (-g * inc.gamma_p_da(a, x), -g * inc.gamma_density(w, a, x))),
    ("gamma_p_inv", 2, "helper", _scipy("gammaincinv"), GENERAL,
     lambda w, g, y, a, p: inc.gamma_inverse_adjoint(w, g, y, a, p, lower=True)),
    ("gamma_q_inv", 2, "helper", _scipy("gammainccinv"), GENERAL,
     lambda w, g, y, a, q: inc.gamma_inverse_adjoint(w, g, y, a, q, lower=False)),
    ("ibeta_inv", 3, "helper", _scipy("betaincinv"), GENERAL,
     lambda w, g, y, a, b, p: inc.beta_inverse_adjoint(w, g, y, a, b, p, lower=True)),
    ("ibetac_inv", 3, "helper", _scipy("betainccinv"), GENERAL,
     lambda w, g, y, a, b, q: inc.beta_inverse_adjoint(w, g, y, a, b, q, lower=False)),
    ("ibeta", 3, "helper", _scipy("betainc"), GENERAL,
     lambda w, g, y, a, b, x: tuple(g * d for d in (*inc.ibeta_shapes(a, b, x),
                                                     inc.beta_density(w, a, b, x)))),
    ("Phi", 1, "(0.5{F} * erfc(-{0} * 0.70710678118654752440{F}))", _scipy("ndtr"), GENERAL,
     lambda w, g, y, x: g * w.exp(-0.5 * x * x) / _SQRT_2PI),
    ("inv_Phi", 1, "helper", _scipy("ndtri"), GENERAL,
     lambda w, g, y, x: g * _SQRT_2PI * w.exp(0.5 * y * y)),
]
_HELPER_OF = {"log_inv_logit": "log1p_exp", "log1m_inv_logit": "log1p_exp"}
# Internal ops: derivatives in parameters (skeletons/zeta.py, incomplete_derivatives.py),
# building blocks of the adjoint rules, SciPy's ellipj, one op per result with its own
# rule (elliptic_jacobi.py gives the public function), and the spherical j_n and y_n
# (spherical_bessel.py gives spherical_jn and spherical_yn).
for _name, _arity, _reference, _rule in (
        ("zeta_ds", 2, zeta_ds_reference, None),
        ("gamma_p_da", 2, inc.gamma_p_da_reference, None),
        ("ibeta_da", 3, inc.ibeta_da_reference, None),
        ("ibeta_db", 3, inc.ibeta_db_reference, None),
        *[(name, 2, reference, None) for name, reference
          in {**bessel_order.ORDER_DERIVATIVES, **bessel_jy.ORDER_DERIVATIVES}.items()],
        *elliptic_jacobi.ELLIPJ_OPS, *bessel_jy.SPHERICAL_OPS):
    _slots = ", ".join(f"{{{k}}}" for k in range(_arity))
    _add(Op(_name, _arity, REAL, {FLOAT_ONLY: f"weft_{_name}_{{S}}({_slots})"}, _reference,
            GENERAL, helpers={FLOAT_ONLY: _name}, adjoint=_rule, internal=True))

for _name, _arity, _tmpl, _ref, _z, _rule in SPECIAL_FUNCTIONS:
    _helper = _HELPER_OF.get(_name, _name if _tmpl == "helper" else None)
    if _tmpl == "helper":
        _tmpl = f"weft_{_name}_{{S}}(" + ", ".join(f"{{{k}}}" for k in range(_arity)) + ")"
    _add(Op(_name, _arity, REAL, {FLOAT_ONLY: _tmpl}, _ref, _z,
            helpers={FLOAT_ONLY: _helper} if _helper else {}, adjoint=_rule))

# Random draws (wf.random): Philox streams per element, device code in skeletons/random.py,
# the same algorithm in NumPy (philox.py) as the reference.
RANDOM_DRAWS: list[tuple[str, int, str]] = [
    # name, parameters, rule
    ("uniform", 2, RANDOM), ("normal", 2, RANDOM), ("exponential", 1, RANDOM),
    ("gamma", 2, RANDOM), ("beta", 2, RANDOM), ("bernoulli", 1, RANDOM_FLAG),
    ("poisson", 1, RANDOM_COUNT), ("binomial", 2, RANDOM_COUNT),
    ("integers", 2, RANDOM_COUNT),
]


def _draw_reference(name: str) -> Callable[..., np.ndarray]:
    def reference(*args: np.ndarray) -> np.ndarray:
        from . import philox

        return getattr(philox, name)(*args)

    reference.__name__ = f"random_{name}"
    return reference


# Reparameterized draws carry their parameters' gradients (the key and counter have none);
# the others have none yet.
_DRAW_ADJOINTS: dict[str, Callable] = {
    "uniform": lambda w, g, y, k0, k1, n, low, high: (
        None, None, None, g * (high - y) / (high - low), g * (y - low) / (high - low)),
    "normal": lambda w, g, y, k0, k1, n, loc, scale: (None, None, None, g, g * (y - loc) / scale),
}
for _name, _params, _rule in RANDOM_DRAWS:
    _args = ", ".join(f"{{{k}}}" for k in range(3 + _params))
    _add(Op(f"random_{_name}", 3 + _params, _rule,
            {FLOAT_ONLY: f"weft_random_{_name}_{{S}}({_args})"}, _draw_reference(_name),
            helpers={FLOAT_ONLY: f"random_{_name}"},
            adjoint=_DRAW_ADJOINTS.get(
                _name, lambda w, g, y, *xs: (None, None, None) + ("parameter",) * (len(xs) - 3))))

# Arithmetic.
_add(Op("add", 2, SAME,
        {"b": "({0} || {1})", "u": "({0} + {1})", "i": _wrap("({U}){0} + ({U}){1}"),
         "f": "({0} + {1})"}, np.add, UNION, identity="zero",
        adjoint=lambda w, g, y, a, b: (g, g)))
_add(Op("subtract", 2, SAME,
        {"u": "({0} - {1})", "i": _wrap("({U}){0} - ({U}){1}"), "f": "({0} - {1})"},
        np.subtract, UNION, adjoint=lambda w, g, y, a, b: (g, -g)))
_add(Op("multiply", 2, SAME,
        {"b": "({0} && {1})", "u": "({0} * {1})", "i": _wrap("({U}){0} * ({U}){1}"),
         "f": "({0} * {1})"}, np.multiply, INTERSECTION, identity="one",
        adjoint=lambda w, g, y, a, b: (g * b, g * a)))
_add(Op("divide", 2, REAL, {FLOAT_ONLY: "({0} / {1})"}, np.divide, GENERAL,
        adjoint=lambda w, g, y, a, b: (g / b, -g * y / b)))
_add(Op("floor_divide", 2, SAME,
        {"ui": "weft_floordiv_{S}({0}, {1})", "f": "weft_floordiv_{S}({0}, {1})"},
        np.floor_divide, GENERAL,
        helpers={"u": "floordiv_uint", "i": "floordiv_int", "f": "floordiv_float"},
        adjoint=lambda w, g, y, a, b: (None, None)))
_add(Op("remainder", 2, SAME,
        {"ui": "weft_mod_{S}({0}, {1})", "f": "weft_mod_{S}({0}, {1})"},
        np.remainder, GENERAL, helpers={"u": "mod_uint", "i": "mod_int", "f": "mod_float"},
        adjoint=lambda w, g, y, a, b: (g, -g * w.floor(a / b))))
_add(Op("power", 2, SAME, {"ui": "weft_ipow_{S}({0}, {1})", "f": "weft_pow_{S}({0}, {1})"},
        _ipow, GENERAL, helpers={"ui": "ipow", "f": "pow_exact"},
        adjoint=lambda w, g, y, a, b: (w.where(b == 0, 0, g * b * a ** (b - 1)),
                                       w.where(a == 0, 0, g * y * w.log(a)))))
_add(Op("negative", 1, SAME,
        {"u": "(({T})0 - {0})", "i": _wrap("({U})0 - ({U}){0}"), "f": "(-{0})"},
        np.negative, PRESERVE, adjoint=lambda w, g, y, x: -g))
_add(Op("abs", 1, SAME,
        {"bu": "{0}", "i": "({0} < 0 ? " + _wrap("({U})0 - ({U}){0}") + " : {0})",
         "f": "fabs({0})"}, np.abs, PRESERVE, adjoint=lambda w, g, y, x: g * w.sign(x)))
_add(Op("sign", 1, SAME,
        {"u": "(({T})({0} > 0))", "i": "(({T})(({0} > 0) - ({0} < 0)))",
         "f": "(isnan({0}) ? {0} : ({T})(({0} > 0) - ({0} < 0)))"}, _sign, PRESERVE,
        adjoint=lambda w, g, y, x: None))
_add(Op("square", 1, SAME,
        {"u": "({0} * {0})", "i": _wrap("({U}){0} * ({U}){0}"), "f": "({0} * {0})"},
        np.square, PRESERVE, adjoint=lambda w, g, y, x: 2 * g * x))
for _name, _ref in (("floor", np.floor), ("ceil", np.ceil), ("trunc", np.trunc)):
    _add(Op(_name, 1, ROUNDING, {"ui": "{0}", "f": f"{_name}({{0}})"}, _ref, PRESERVE,
            adjoint=lambda w, g, y, x: None))
_add(Op("round", 1, ROUNDING, {"ui": "{0}", "f": "rint({0})"}, np.round, PRESERVE,
        adjoint=lambda w, g, y, x: None))
# C's fmod for reals; for integers the truncated remainder, 0 for a zero divisor as NumPy's
# (and for -1, where the quotient of the lowest integer would overflow).
_add(Op("fmod", 2, SAME,
        {"u": "({1} == 0 ? ({T})0 : {0} % {1})",
         "i": "(({1} == 0 || {1} == -1) ? ({T})0 : {0} % {1})", "f": "fmod({0}, {1})"},
        np.fmod, GENERAL, adjoint=lambda w, g, y, a, b: (g, -g * w.trunc(a / b))))

def _split(w, g, first, tie):
    """The adjoint of a choice between two arguments: all to the chosen one, half each on
    a tie (JAX's rule: the sum of both shares is the adjoint)."""
    share = w.where(first, g, w.where(tie, 0.5 * g, 0))
    return share, g - share


# Extremes: minimum/maximum propagate NaN like NumPy; fmin/fmax return the non-NaN operand.
_add(Op("maximum", 2, SAME,
        {"bui": "({0} > {1} ? {0} : {1})", "f": "(({0} > {1} || isnan({0})) ? {0} : {1})"},
        np.maximum, UNION, identity="lowest",
        adjoint=lambda w, g, y, a, b: _split(w, g, a > b, a == b)))
_add(Op("minimum", 2, SAME,
        {"bui": "({0} < {1} ? {0} : {1})", "f": "(({0} < {1} || isnan({0})) ? {0} : {1})"},
        np.minimum, UNION, identity="highest",
        adjoint=lambda w, g, y, a, b: _split(w, g, a < b, a == b)))
_add(Op("fmax", 2, SAME, {"bui": "({0} > {1} ? {0} : {1})", "f": "fmax({0}, {1})"},
        np.fmax, UNION, identity="nan/lowest",
        adjoint=lambda w, g, y, a, b: _split(w, g, (a > b) | w.isnan(b), a == b)))
_add(Op("fmin", 2, SAME, {"bui": "({0} < {1} ? {0} : {1})", "f": "fmin({0}, {1})"},
        np.fmin, UNION, identity="nan/highest",
        adjoint=lambda w, g, y, a, b: _split(w, g, (a < b) | w.isnan(b), a == b)))

# Comparisons. Zero rules follow Stan: 0 < 0, 0 > 0 and 0 != 0 are false, the others true.
for _name, _sym, _ref, _z in (
    ("equal", "==", np.equal, GENERAL),
    ("not_equal", "!=", np.not_equal, UNION),
    ("less", "<", np.less, UNION),
    ("less_equal", "<=", np.less_equal, GENERAL),
    ("greater", ">", np.greater, UNION),
    ("greater_equal", ">=", np.greater_equal, GENERAL),
):
    _add(Op(_name, 2, PREDICATE, {_ALL: f"({{0}} {_sym} {{1}})"}, _ref, _z))

# Classification.
_add(Op("isnan", 1, PREDICATE, {"bui": "false", "f": "isnan({0})"}, np.isnan))
_add(Op("isinf", 1, PREDICATE, {"bui": "false", "f": "isinf({0})"}, np.isinf))
_add(Op("isfinite", 1, PREDICATE, {"bui": "true", "f": "isfinite({0})"}, np.isfinite))
_add(Op("signbit", 1, PREDICATE, {"bu": "false", "i": "({0} < 0)", "f": "signbit({0})"},
        np.signbit))

# Logic and bits.
_add(Op("logical_and", 2, LOGICAL, {"b": "({0} && {1})"}, np.logical_and, INTERSECTION,
        identity="true"))
_add(Op("logical_or", 2, LOGICAL, {"b": "({0} || {1})"}, np.logical_or, UNION,
        identity="false"))
_add(Op("logical_xor", 2, LOGICAL, {"b": "({0} != {1})"}, np.logical_xor, UNION))
_add(Op("logical_not", 1, LOGICAL, {"b": "(!{0})"}, np.logical_not))
_add(Op("bitwise_and", 2, SAME, {"bui": "({0} & {1})"}, np.bitwise_and, INTERSECTION))
_add(Op("bitwise_or", 2, SAME, {"bui": "({0} | {1})"}, np.bitwise_or, UNION))
_add(Op("bitwise_xor", 2, SAME, {"bui": "({0} ^ {1})"}, np.bitwise_xor, UNION))
_add(Op("gcd", 2, SAME, {"ui": "weft_gcd_{S}({0}, {1})"}, np.gcd, UNION, helpers={"ui": "gcd"}))
_add(Op("lcm", 2, SAME, {"ui": "weft_lcm_{S}({0}, {1})"}, np.lcm, INTERSECTION,
        helpers={"ui": "lcm"}))
_add(Op("invert", 1, SAME, {"b": "(!{0})", "ui": "(~{0})"}, np.invert))
_add(Op("left_shift", 2, SAME,
        {"ui": "(({1}) < 0 || ({1}) >= {BITS} ? ({T})0 : ({T})(({U}){0} << {1}))"},
        _shift_left, PRESERVE))
_add(Op("right_shift", 2, SAME,
        {"ui": "(({1}) < 0 || ({1}) >= {BITS} ? ({T})({0} < 0 ? -1 : 0) : ({T})({0} >> {1}))"},
        _shift_right, PRESERVE))

# A bit mask's test (bitmask.py): the word holding element p (p >= 0), and p's bit in it.
# Literal shifts, so the kernel needs none of the general shifts' range tests.
_add(Op("mask_word", 1, SAME, {"i": "({0} >> 5)"}, lambda p: p >> 5, internal=True))
_add(Op("mask_bit", 2, PREDICATE, {"u": "((({0} >> ({1} & 31)) & 1) != 0)"},
        lambda w, p: ((w >> (p & 31)) & 1) != 0, internal=True))

_add(Op("where", 3, WHERE, {_ALL: "({0} ? {1} : {2})"},
        lambda c, a, b: np.where(c, a, b), GENERAL,
        adjoint=lambda w, g, y, c, a, b: (None, w.where(c, g, 0), w.where(c, 0, g))))


def signature(
    op: Op, args: list[DType], dtype: DType | None
) -> tuple[list[DType], DType, DType]:
    """Argument dtypes after conversion, the result dtype and the computation dtype of an op.

    ``dtype`` (the ``dtype=`` argument) is the result type and the computation type; for ops
    whose result is bool it is the computation type only.
    """
    if op.rule == LOGICAL:
        return [dt.bool_] * len(args), dt.bool_, dt.bool_
    if op.rule == WHERE:
        value = dtype or dt.resolve(args[1:], [])
        return [dt.bool_, value, value], value, value
    if op.rule == LDEXP:
        real = dtype or dt.real_of(args[0])
        return [real, dt.int32], real, real
    if op.rule in (RANDOM, RANDOM_COUNT, RANDOM_FLAG):
        if op.rule == RANDOM:
            compute = dtype or dt.resolve(args[3:], [])
            compute = compute if compute.is_float else dt.default_real()
            result = compute
        else:
            compute, result = dt.float64, dt.int64 if op.rule == RANDOM_COUNT else dt.bool_
        return [dt.uint32, dt.uint32, dt.int64] + [compute] * (op.arity - 3), result, compute
    compute = dtype or dt.resolve(args, [])
    if op.rule == REAL and not compute.is_float or op.rule == ROUNDING and compute.kind == "b":
        compute = dt.default_real()
    if compute.kind not in op.accepts:
        names = ", ".join(str(a) for a in args)
        raise TypeError(f"{op.name} does not support dtype {compute} (arguments: {names})")
    result = dt.bool_ if op.rule == PREDICATE else compute
    return [compute] * len(args), result, compute


def reference(op: Op, args: list[np.ndarray], result: DType) -> np.ndarray:
    """Apply ``op``'s NumPy reference to arguments already in their computation dtypes."""
    with np.errstate(all="ignore"):  # overflow to inf is the answer, as on devices
        out = op.numpy(*args)
        return np.asarray(out).astype(result.numpy, copy=False)


def identity(op: str, dtype: DType) -> float | int | bool:
    """The identity of op-table op ``op`` as a reduction over ``dtype``."""
    name = OPS[op].identity
    if name.startswith("nan/"):  # fmax, fmin: NaN is theirs among floats
        if dtype.is_float:
            return np.nan
        name = name[len("nan/"):]
    if name == "lowest":
        return -np.inf if dtype.is_float else (False if dtype.name == "bool"
                                              else int(np.iinfo(dtype.numpy).min))
    if name == "highest":
        return np.inf if dtype.is_float else (True if dtype.name == "bool"
                                             else int(np.iinfo(dtype.numpy).max))
    return {"zero": 0, "one": 1, "false": False, "true": True}[name]
