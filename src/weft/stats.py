"""Log densities (Stan's parametrizations), each a lazy 0-d Array: the log density summed.

Every density is a composition of weft operations ending in one fused sum, so the element-wise
work, the argument checks and the reduction run in one kernel, and several densities added
together stay lazy (those over arrays of one shape share their reduction kernel). Arguments
broadcast like NumPy; Python scalars become kernel arguments, so new values reuse the compiled
kernel. Checks of Python scalars run on the host at once; checks of arrays run inside the
kernel and raise ``ValueError`` naming the function, the argument, the element's index and its
value when the result is evaluated. Constants are included: each density equals the
``scipy.stats`` log density summed.

The result type is ``dtype`` if given, else the arguments' promoted type (integers give the
default real); it is also the type the density is computed and summed in.

The GLMs compute the linear predictor ``alpha + x @ beta`` with one matrix-vector product
(``wf.linalg.matmul``: cuBLAS on CUDA devices, weft's own row reduction elsewhere); with a few
columns (``k <= SMALL_K``) the product is written out inside the density's kernel instead,
which then reads ``x`` once and writes nothing.

>>> import weft as wf
>>> y = wf.asarray([0.1, -0.3, 0.7])
>>> lp = wf.stats.normal_lpdf(y, 0.0, 1.0) + wf.stats.normal_lpdf(0.2, 0.0, 2.0)
>>> round(float(lp), 6)
-4.668901
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from .array import Array, apply_op
from .creation import asarray, broadcast_to
from .devices import Device, current_device
from .matrix import check
from .templates import TEMPLATES, capture
from .traced import TRACED, TracedFloat, TracedInt, plain

__all__ = ["normal_lpdf", "normal_id_glm_lpdf", "bernoulli_logit_lpmf",
           "bernoulli_logit_glm_lpmf", "poisson_log_lpmf", "poisson_log_glm_lpmf", "gamma_lpdf",
           "exponential_lpdf", "student_t_lpdf", "beta_lpdf"]  # and densities.py's below


def __dir__() -> list[str]:
    """The public names only (``dir(wf.stats)`` listed the modules it imports too)."""
    return sorted(__all__)

SMALL_K = 8  # GLM columns up to which x @ beta is written out inside the density's kernel

_HALF_LOG_TWO_PI = 0.5 * math.log(2 * math.pi)
_HALF_LOG_PI = 0.5 * math.log(math.pi)
_HALF_LOG_TWO = 0.5 * math.log(2.0)



# -- arguments --------------------------------------------------------------------------


class _Rule:
    """A condition an argument must meet: in words, on the host, and as weft operations."""

    def __init__(self, words: str, host: Callable[[float], bool],
                 device: Callable[[Array], Array]) -> None:
        self.words = words
        self.host = host
        self.device = device

    def failure(self, name: str, key: str, value: Any) -> ValueError:
        """The error of a scalar argument ``key`` of ``name`` that fails the rule on the
        host (a NumPy scalar shown as the Python number it is)."""
        if isinstance(value, np.generic):
            value = value.item()
        return ValueError(f"{name}: {key} must be {self.words}, got {value!r}")


NOT_NAN = _Rule("not NaN", lambda v: not math.isnan(v), lambda a: ~apply_op("isnan", a))
FINITE = _Rule("finite", math.isfinite, lambda a: apply_op("isfinite", a))
POSITIVE_FINITE = _Rule("positive and finite", lambda v: 0 < v < math.inf,
                        lambda a: (a > 0) & (a < math.inf))
POSITIVE = _Rule("positive", lambda v: v > 0, lambda a: a > 0)  # +inf allowed; NaN is not
UNIT_INTERVAL = _Rule("in [0, 1]", lambda v: 0 <= v <= 1, lambda a: (a >= 0) & (a <= 1))
BINARY = _Rule("0 or 1", lambda v: v in (0, 1), lambda a: (a == 0) | (a == 1))
COUNT = _Rule("a non-negative integer", lambda v: v >= 0 and float(v).is_integer(),
              lambda a: (a >= 0) & (apply_op("floor", a) == a) if a.dtype.is_float
              else a >= 0)


class _Scalar:
    """A Python scalar argument and its place in the call: where a kernel argument's value
    comes from, so a remembered call can give it the next call's value. Its value reaches the
    expression only through ``_real`` (never host arithmetic), which is what a template
    replays."""

    __slots__ = ("position", "value")

    def __init__(self, position: int, value: bool | int | float) -> None:
        self.position = position
        self.value = value


Operand = Array | _Scalar

class _Call:
    """One density call: its name, device and result type, and its checked arguments."""

    def __init__(self, name: str, dtype: Any, args: dict[str, Any]) -> None:
        self.name = name
        arrays = [a for a in args.values() if isinstance(a, Array)]
        self.device: Device = arrays[0].device if arrays else current_device()
        for a in arrays:
            if a.device is not self.device:
                raise ValueError(f"{name}: arguments live on {self.device} and {a.device}; "
                                 "move one with wf.asarray(x, device=...)")
        self.values = {key: self._operand(key, position, v)
                       for position, (key, v) in enumerate(args.items())}
        if dtype is not None:
            self.dtype = dt.to_dtype(dtype)
            if not self.dtype.is_float:
                raise TypeError(f"{name}: dtype must be a floating type, not {self.dtype}")
        else:
            strong = [v.dtype for v in self.values.values() if isinstance(v, Array)]
            weak = [dt.scalar_kind(v.value) for v in self.values.values()
                    if isinstance(v, _Scalar)]
            self.dtype = dt.real_of(dt.resolve(strong, weak))

    def _operand(self, key: str, position: int, value: Any) -> Operand:
        if isinstance(value, Array):
            return value
        if isinstance(value, (bool, int, float, np.generic)):  # (a traced one unread)
            if isinstance(value, np.generic) and value.dtype.kind not in "biuf":
                raise TypeError(f"{self.name}: {key} must be real, not {value.dtype}")
            if isinstance(value, np.generic) and type(value) not in TRACED:
                value = value.item()  # a density takes a NumPy scalar as a Python one
            return _Scalar(position, value)
        try:
            return asarray(value, device=self.device)
        except TypeError as e:
            raise TypeError(f"{self.name}: {key}: {e}") from None

    def __getitem__(self, key: str) -> Operand:
        return self.values[key]

    def checked(self, key: str, rule: _Rule) -> Operand:
        """The argument, with ``rule`` checked: now for a scalar, in the kernel for an Array."""
        value = self.values[key]
        if isinstance(value, _Scalar):
            _check_scalar(self.name, key, rule, value.value)
            return value
        if value.dtype.kind == "b" or (rule is NOT_NAN and not value.dtype.is_float):
            return value  # bools pass every rule we ask of them; integers are never NaN
        return check(value, rule.device(value),
                     f"{self.name}: {key} must be {rule.words}; {key}{{index}} = {{value}}")

    def shape(self, *keys: str) -> tuple[int, ...]:
        shapes = [self.values[k].shape if isinstance(self.values[k], Array) else ()
                  for k in keys]
        return ex.broadcast_shapes(self.name, *shapes)


def _check_scalar(name: str, key: str, rule: _Rule, value: Any) -> None:
    if type(value) in TRACED:  # a trace or a template replays the check on every call
        value.checks.append((name, key, rule))
        value = plain(value)
    if not rule.host(value):
        raise rule.failure(name, key, value)



# -- remembered calls -------------------------------------------------------------------


def _call_key(name: str, args: tuple[Any, ...], dtype: Any
              ) -> tuple[tuple | None, list[Any], Device | None]:
    """The structure of a call (None when it is not remembered: a lazy or host array
    argument), the arguments as a template takes them, and the device."""
    if dtype is not None:
        try:
            dtype = dt.to_dtype(dtype)
        except (TypeError, ValueError):
            return None, [], None  # the call itself words the error
    parts: list[Any] = [name, dtype, dt.default_real()]
    values: list[Any] = []
    storages: dict[int, int] = {}
    device = None
    for a in args:
        kind = type(a)
        if kind in TRACED:  # inside a trace: built the general way, so its leaves name it
            return None, [], None
        if kind is Array:
            node = a._node
            if node.kind != ex.BUFFER:  # lazy: built the general way, so it fuses
                return None, [], None
            view = node.attrs
            if device is None:
                device = a._device
            # A differentiated argument's own node stands in the rebuilt expression, so the
            # gradient reaches it (``Template.reads_whole``).
            parts.append((a._device, node.dtype, node.shape, node.structure, view.offset,
                          view.strides, storages.setdefault(id(view.storage), len(storages)),
                          node.tape is not None))
            values.append(node)
        elif kind is float or kind is int:
            parts.append(kind)
            values.append(a)
        elif kind is bool:
            parts.append((kind, a))  # by value: floats and ints are a template's inputs
            values.append(a)
        elif isinstance(a, np.generic) and a.dtype.kind in "biuf":
            value = a.item()
            parts.append(type(value) if type(value) is not bool else (bool, value))
            values.append(value)
        else:
            return None, [], None
    if device is None:
        device = current_device()
        parts.append(device)
    return tuple(parts), values, device


def _remembered(density: Callable[..., Array]) -> Callable[..., Array]:
    """``density``, rebuilt from a template when a call with the same argument structure
    has been made before (``templates``); the first such call runs it and captures it."""
    name = density.__name__
    arity = density.__code__.co_argcount

    @functools.wraps(density)
    def call(*args: Any, dtype: Any = None, **named: Any) -> Array:
        key, values, device = (_call_key(name, args, dtype) if len(args) == arity
                               else (None, [], None))
        if key is None:  # arguments by name, lazy or host arrays: built the general way
            return density(*args, dtype=dtype, **named)
        known = TEMPLATES.get(key)
        if known is None:
            return _capture(density, key, args, values, dtype)
        template, checks = known
        if not all(template.reads_whole(k, v) for k, v in enumerate(values)
                   if isinstance(v, ex.Node) and v.tape is not None):
            return density(*args, dtype=dtype, **named)  # a view of a differentiated one
        for position, arg, rule in checks:
            _check_scalar(name, arg, rule, values[position])
        return Array._from_template(template.defer(values), device)

    return call


def _capture(density: Callable[..., Array], key: tuple, args: tuple[Any, ...],
             values: list[Any], dtype: Any) -> Array:
    """Run ``density`` with each float and int argument traced (``TracedFloat``,
    ``TracedInt``: the value itself, which names its argument position in the scalar leaves
    made from it and keeps the host checks made of it), and keep the template of its
    expression: unless host Python used a traced value (the structure or constants may then
    depend on it)."""
    call = [TracedFloat(v, k) if type(v) is float else TracedInt(v, k) if type(v) is int
            else v for k, v in enumerate(values)]
    traced = [t for t in call if type(t) in TRACED]
    result = density(*[c if type(c) in TRACED else a for a, c in zip(args, call)],
                     dtype=dtype)
    if not any(t.host_used for t in traced):
        arrays = {id(v.attrs.storage): k for k, v in enumerate(values) if isinstance(v, ex.Node)}
        template = capture(result._node, arrays, {id(t): t.position for t in traced})
        if template is not None:
            checks = [(t.position, name, rule) for t in traced for _, name, rule in t.checks]
            TEMPLATES.put(key, (template, checks))
    return result


def _f(name: str, *args: Any) -> Array:
    return apply_op(name, *args)


def _broadcast_sum(call: _Call, terms: Array, *keys: str) -> Array:
    """Sum ``terms``, counted once per element of the arguments' broadcast shape even when
    ``terms`` itself has fewer dimensions (a term of scalars only)."""
    shape = ex.broadcast_shapes(call.name, terms.shape, call.shape(*keys))
    if terms.shape != shape:
        terms = broadcast_to(terms, shape)
    return terms.astype(call.dtype).sum(dtype=call.dtype)


# -- densities --------------------------------------------------------------------------


@_remembered
def normal_lpdf(y: Any, mu: Any, sigma: Any, *, dtype: Any = None) -> Array:
    """Σ log Normal(y | mu, sigma): ``scipy.stats.norm.logpdf(y, mu, sigma).sum()``, lazily.
    ``y`` not NaN, ``mu`` finite, ``sigma`` positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.normal_lpdf(wf.asarray([0.0, 1.0]), 0.0, 1.0)), 6)
    -2.337877
    """
    c = _Call("normal_lpdf", dtype, {"y": y, "mu": mu, "sigma": sigma})
    c.shape("y", "mu", "sigma")
    y, mu, sigma = (c.checked("y", NOT_NAN), c.checked("mu", FINITE),
                    c.checked("sigma", POSITIVE_FINITE))
    return _normal_terms(c, y, mu, sigma, ("y", "mu", "sigma"))


def _normal_terms(c: _Call, y: Operand, mu: Operand, sigma: Operand,
                  keys: tuple[str, ...]) -> Array:
    residual = _f("subtract", _real(c, y), _real(c, mu))
    if isinstance(sigma, Array) and sigma.ndim:
        z = _f("divide", residual, _real(c, sigma))
        half_square = -0.5 * z * z
    else:
        # A scalar sigma: a multiply by its reciprocal, which the kernel computes once per
        # thread (it is loop-invariant), not a float64 division (about twenty operations on
        # a GPU) per element: the 10^7 x 2 GLM's kernel took 110 us instead of 96 on the
        # H100. With an array sigma the reciprocal would be a division per element anyway,
        # and measured 13% slower than dividing (docs/tuning-notes.md, 10).
        # 1 / sigma overflows for a subnormal sigma (then 0 * inf gave NaN): sigma is scaled
        # into the normal range first (by one for any normal sigma), and the square of
        # z / scale back by scale^2, folded into -1/2 once per thread, so an element costs
        # the multiplies it did before (-1/2 by 1 is exact: the same results).
        sigma_ = _real(c, sigma)
        scale = _f("where", _f("less", sigma_, _SMALLEST_NORMAL[c.dtype.name]),
                   _SUBNORMAL_SCALE[c.dtype.name], 1.0)
        scaled = _f("multiply", residual, _f("divide", 1.0, _f("multiply", sigma_, scale)))
        half_square = _f("multiply", -0.5 * scale * scale, scaled * scaled)
    terms = half_square - _f("log", _real(c, sigma)) - _HALF_LOG_TWO_PI
    return _broadcast_sum(c, terms, *keys)


_SMALLEST_NORMAL = {"float32": float(np.finfo(np.float32).tiny),
                    "float64": float(np.finfo(np.float64).tiny)}
# Brings the smallest subnormal into the normal range, with its square still finite.
_SUBNORMAL_SCALE = {"float32": 2.0**32, "float64": 2.0**64}


def _real(c: _Call, value: Operand) -> Array:
    """``value`` as an Array of the result type (a scalar becomes a 0-d kernel argument)."""
    if isinstance(value, Array):
        return value.astype(c.dtype)
    return Array(ex.scalar(value.value, c.dtype), c.device)


@_remembered
def normal_id_glm_lpdf(y: Any, x: Any, alpha: Any, beta: Any, sigma: Any, *,
                       dtype: Any = None) -> Array:
    """Σ log Normal(y | alpha + x @ beta, sigma) for ``x`` of shape (n, k): ``y``, ``alpha``
    and ``sigma`` scalars or length n, ``beta`` length k. ``y`` finite, ``sigma`` positive
    and finite, and the linear predictor finite (which covers ``x``, ``alpha`` and ``beta``).

    >>> import weft as wf
    >>> x = wf.asarray([[1.0, 0.5], [0.2, -1.0]])
    >>> round(float(wf.stats.normal_id_glm_lpdf(wf.asarray([1.0, 0.0]), x, 0.1,
    ...                                            wf.asarray([0.5, 0.3]), 1.0)), 6)
    -1.874127
    """
    c = _Call("normal_id_glm_lpdf", dtype, {"y": y, "x": x, "alpha": alpha, "beta": beta,
                                            "sigma": sigma})
    mu = _linear_predictor(c, ("y", "sigma"))
    y, sigma = c.checked("y", FINITE), c.checked("sigma", POSITIVE_FINITE)
    return _normal_terms(c, y, mu, sigma, ("y", "sigma"))


def _linear_predictor(c: _Call, by_row: tuple[str, ...]) -> Array:
    """``alpha + x @ beta``, checked finite, after checking the GLM's shapes: ``x`` (n, k),
    ``beta`` (k,), ``alpha`` and the ``by_row`` arguments scalars or (n,)."""
    x, beta = c["x"], c["beta"]
    if not isinstance(x, Array) or x.ndim != 2:
        raise ValueError(f"{c.name}: x must be a matrix, got shape {np.shape(x)}")
    n, k = x.shape
    beta_shape = beta.shape if isinstance(beta, Array) else ()
    if beta_shape != (k,):
        raise ValueError(f"{c.name}: beta must have shape ({k},) to match x of shape "
                         f"{x.shape}, got {beta_shape}")
    for key in ("alpha", *by_row):
        v = c[key]
        shape = v.shape if isinstance(v, Array) else ()
        if shape not in ((), (n,)):
            raise ValueError(f"{c.name}: {key} must be a scalar or have shape ({n},) to "
                             f"match x of shape {x.shape}, got {shape}")
    xr, br = x.astype(c.dtype), beta.astype(c.dtype)
    if k <= SMALL_K:
        # A few columns: x @ beta as k fused multiply-adds, read straight from x in the
        # density's own kernel.
        product: Array = xr[:, 0] * br[0]
        for j in range(1, k):
            product = product + xr[:, j] * br[j]
    else:
        # weft's own row reduction on every device, cuBLAS's gemv included: it fuses with
        # the density and, lazy, keeps a traced density replayable (a library product is a
        # host call each time: 1000 x 10 on an H200, 397 us per traced call).
        from .linalg import matvec_fused

        product = matvec_fused(xr, br, c.dtype)
    mu = _real(c, c["alpha"]) + product
    return check(mu, apply_op("isfinite", mu),
                 f"{c.name}: the linear predictor alpha + x @ beta must be finite "
                 "(x, alpha or beta holds an infinite or NaN value); "
                 "(alpha + x @ beta){index} = {value}")


@_remembered
def bernoulli_logit_lpmf(n: Any, theta: Any, *, dtype: Any = None) -> Array:
    """Σ log Bernoulli(n | inv_logit(theta)): ``scipy.stats.bernoulli.logpmf(n,
    expit(theta)).sum()``, computed without forming the probability. ``n`` 0 or 1, ``theta``
    not NaN.

    >>> import weft as wf
    >>> round(float(wf.stats.bernoulli_logit_lpmf(wf.asarray([0, 1]), 0.0)), 6)
    -1.386294
    """
    c = _Call("bernoulli_logit_lpmf", dtype, {"n": n, "theta": theta})
    c.shape("n", "theta")
    n_, theta_ = c.checked("n", BINARY), c.checked("theta", NOT_NAN)
    return _bernoulli_terms(c, n_, _real(c, theta_), ("n", "theta"))


def _bernoulli_terms(c: _Call, n: Operand, theta: Array, keys: tuple[str, ...]) -> Array:
    sign = 2 * _real(c, n) - 1  # log p(n) = log inv_logit(±theta)
    return _broadcast_sum(c, _f("log_inv_logit", sign * theta), *keys)


@_remembered
def bernoulli_logit_glm_lpmf(n: Any, x: Any, alpha: Any, beta: Any, *,
                             dtype: Any = None) -> Array:
    """Σ log Bernoulli(n | inv_logit(alpha + x @ beta)) for ``x`` of shape (n, k).

    >>> import weft as wf
    >>> x = wf.asarray([[1.0], [-2.0]])
    >>> round(float(wf.stats.bernoulli_logit_glm_lpmf(wf.asarray([1, 0]), x, 0.0,
    ...                                                  wf.asarray([0.5]))), 6)
    -0.787339
    """
    c = _Call("bernoulli_logit_glm_lpmf", dtype, {"n": n, "x": x, "alpha": alpha,
                                                  "beta": beta})
    theta = _linear_predictor(c, ("n",))
    return _bernoulli_terms(c, c.checked("n", BINARY), theta, ("n",))


@_remembered
def poisson_log_lpmf(n: Any, alpha: Any, *, dtype: Any = None) -> Array:
    """Σ log Poisson(n | exp(alpha)): ``scipy.stats.poisson.logpmf(n, exp(alpha)).sum()``.
    ``n`` a non-negative integer, ``alpha`` not NaN (``-inf`` is a zero rate).

    >>> import weft as wf
    >>> round(float(wf.stats.poisson_log_lpmf(wf.asarray([0, 3]), 0.5)), 6)
    -3.589202
    """
    c = _Call("poisson_log_lpmf", dtype, {"n": n, "alpha": alpha})
    c.shape("n", "alpha")
    n_, alpha_ = c.checked("n", COUNT), c.checked("alpha", NOT_NAN)
    return _poisson_terms(c, n_, _real(c, alpha_), ("n", "alpha"))


def _poisson_terms(c: _Call, n: Operand, alpha: Array, keys: tuple[str, ...]) -> Array:
    nr = _real(c, n)
    # n * alpha is 0 for n = 0 even at alpha = -inf (a zero rate gives P(0) = 1).
    terms = _f("where", nr == 0, 0.0, nr * alpha) - _f("exp", alpha) - _f("lgamma", nr + 1)
    terms = _f("where", alpha == math.inf, -math.inf, terms)
    return _broadcast_sum(c, terms, *keys)


@_remembered
def poisson_log_glm_lpmf(n: Any, x: Any, alpha: Any, beta: Any, *,
                         dtype: Any = None) -> Array:
    """Σ log Poisson(n | exp(alpha + x @ beta)) for ``x`` of shape (n, k).

    >>> import weft as wf
    >>> x = wf.asarray([[1.0], [-2.0]])
    >>> round(float(wf.stats.poisson_log_glm_lpmf(wf.asarray([1, 0]), x, 0.0,
    ...                                              wf.asarray([0.5]))), 6)
    -1.516601
    """
    c = _Call("poisson_log_glm_lpmf", dtype, {"n": n, "x": x, "alpha": alpha, "beta": beta})
    theta = _linear_predictor(c, ("n",))
    return _poisson_terms(c, c.checked("n", COUNT), theta, ("n",))


@_remembered
def gamma_lpdf(y: Any, alpha: Any, beta: Any, *, dtype: Any = None) -> Array:
    """Σ log Gamma(y | shape alpha, rate beta): ``scipy.stats.gamma.logpdf(y, alpha,
    scale=1/beta).sum()``. ``y`` not NaN (negative ``y`` has density 0), ``alpha`` and
    ``beta`` positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.gamma_lpdf(wf.asarray([0.5, 2.0]), 2.0, 1.5)), 6)
    -2.12814
    """
    c = _Call("gamma_lpdf", dtype, {"y": y, "alpha": alpha, "beta": beta})
    c.shape("y", "alpha", "beta")
    y_ = _real(c, c.checked("y", NOT_NAN))
    a = _real(c, c.checked("alpha", POSITIVE_FINITE))
    b = _real(c, c.checked("beta", POSITIVE_FINITE))
    terms = (a * _f("log", b) - _f("lgamma", a) + _f("xlogy", a - 1, y_) - b * y_)
    terms = _f("where", (y_ < 0) | (y_ == math.inf), -math.inf, terms)
    return _broadcast_sum(c, terms, "y", "alpha", "beta")


@_remembered
def exponential_lpdf(y: Any, beta: Any, *, dtype: Any = None) -> Array:
    """Σ log Exponential(y | rate beta): ``scipy.stats.expon.logpdf(y, scale=1/beta).sum()``.
    ``y`` not NaN (negative ``y`` has density 0), ``beta`` positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.exponential_lpdf(wf.asarray([0.5, 2.0]), 1.5)), 6)
    -2.93907
    """
    c = _Call("exponential_lpdf", dtype, {"y": y, "beta": beta})
    c.shape("y", "beta")
    y_ = _real(c, c.checked("y", NOT_NAN))
    b = _real(c, c.checked("beta", POSITIVE_FINITE))
    terms = _f("where", y_ < 0, -math.inf, _f("log", b) - b * y_)
    return _broadcast_sum(c, terms, "y", "beta")


@_remembered
def student_t_lpdf(y: Any, nu: Any, mu: Any, sigma: Any, *, dtype: Any = None) -> Array:
    """Σ log StudentT(y | nu, mu, sigma): ``scipy.stats.t.logpdf(y, nu, mu, sigma).sum()``.
    ``y`` not NaN, ``nu`` positive (``inf`` gives the normal density), ``sigma`` positive and
    finite, ``mu`` finite. Accurate for every ``nu``: the ratio of gamma functions goes
    through its asymptotic series for large ``nu``, where the two ``lgamma`` cancel.

    >>> import weft as wf
    >>> round(float(wf.stats.student_t_lpdf(wf.asarray([0.5, 2.0]), 3.0, 0.0, 1.0)), 6)
    -3.856459
    """
    c = _Call("student_t_lpdf", dtype, {"y": y, "nu": nu, "mu": mu, "sigma": sigma})
    c.shape("y", "nu", "mu", "sigma")
    y_ = _real(c, c.checked("y", NOT_NAN))
    nu_ = _real(c, c.checked("nu", POSITIVE))
    mu_ = _real(c, c.checked("mu", FINITE))
    sigma_ = _real(c, c.checked("sigma", POSITIVE_FINITE))
    z = (y_ - mu_) / sigma_
    half_nu = 0.5 * nu_
    # lgamma(h + 1/2) - lgamma(h) - log(2 h) / 2 for h = nu / 2. The two lgamma cancel for
    # large h (7% off at nu = 1e20); there the difference is log(h) / 2 plus the series
    # sum_k (2^(1-k) - 2) B_k / (k (k - 1) h^(k-1)) over even k (Bernoulli numbers B_k), whose
    # first omitted term is below 1e-17 for h > 20.
    g = 1.0 / (half_nu * half_nu)
    series = (-_HALF_LOG_TWO + (-1.0 / 8 + g * (1.0 / 192 + g * (-1.0 / 640 + g * (
        17.0 / 14336 + g * (-31.0 / 18432))))) / half_nu)
    exact = _f("lgamma", half_nu + 0.5) - _f("lgamma", half_nu) - 0.5 * _f("log", nu_)
    gamma_ratio = _f("where", nu_ > 40.0, series, exact)
    # (h + 1/2) log(1 + z^2 / nu) tends to z^2 / 2 as nu grows: the normal density's limit.
    kernel = _f("where", _f("isinf", nu_), 0.5 * z * z,
                (half_nu + 0.5) * _f("log1p", z * z / nu_))
    terms = gamma_ratio - _HALF_LOG_PI - _f("log", sigma_) - kernel
    return _broadcast_sum(c, terms, "y", "nu", "mu", "sigma")


@_remembered
def beta_lpdf(theta: Any, alpha: Any, beta: Any, *, dtype: Any = None) -> Array:
    """Σ log Beta(theta | alpha, beta): ``scipy.stats.beta.logpdf(theta, alpha,
    beta).sum()``. ``theta`` in [0, 1], ``alpha`` and ``beta`` positive and finite.

    >>> import weft as wf
    >>> round(float(wf.stats.beta_lpdf(wf.asarray([0.25, 0.5]), 2.0, 3.0)), 6)
    0.928713
    """
    c = _Call("beta_lpdf", dtype, {"theta": theta, "alpha": alpha, "beta": beta})
    c.shape("theta", "alpha", "beta")
    t = _real(c, c.checked("theta", UNIT_INTERVAL))
    a = _real(c, c.checked("alpha", POSITIVE_FINITE))
    b = _real(c, c.checked("beta", POSITIVE_FINITE))
    log1m_t = _f("log1p", -t)
    terms = (_f("xlogy", a - 1, t) + _f("where", b == 1, 0.0, (b - 1) * log1m_t)
             - _f("lbeta", a, b))
    return _broadcast_sum(c, terms, "theta", "alpha", "beta")


# densities.py builds on this module; its densities are wf.stats's too.
from . import densities as _densities  # noqa: E402
from .densities import (  # noqa: E402, F401 - in __all__ through densities.__all__
    bernoulli_lpmf,
    binomial_logit_lpmf,
    binomial_lpmf,
    cauchy_lpdf,
    chi_square_lpdf,
    double_exponential_lpdf,
    inv_gamma_lpdf,
    logistic_lpdf,
    lognormal_lpdf,
    multi_normal_cholesky_lpdf,
    neg_binomial_2_lpmf,
    poisson_lpmf,
    uniform_lpdf,
    von_mises_lpdf,
    weibull_lpdf,
)

__all__ += _densities.__all__
