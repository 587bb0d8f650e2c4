"""The Bessel functions J and Y beside the op table: their table entries (``jv``, ``yv``,
``j0``, ``j1``, ``y0``, ``y1``, ``yn``; device code in ``skeletons/bessel_jy.py`` and, for
orders 0 and 1 and yn, ``skeletons/bessel_jy01.py``), their NumPy
references (SciPy's, with the limits where SciPy answers NaN or +-inf), and their adjoints:
d/dx C_v = (C_(v-1) - C_(v+1)) / 2 for C = J, Y, and d/dv by Richardson-extrapolated
central differences in the order (internal ops ``jv_dv`` and ``yv_dv``: no closed form).
Also the spherical j_n and y_n's internal ops (``sph_jn``, ``sph_yn``; the public functions are
in ``spherical_bessel.py``), their references and their adjoints in x.

>>> import weft as wf
>>> round(float(wf.jv(2.5, wf.asarray(1.5))), 12)
0.124446359798
>>> round(float(wf.grad(lambda x: wf.j0(x))(wf.asarray(1.0))), 12)
-0.440050585745
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

# The step in the order for d/dv: Richardson's combination of steps h and h/2 leaves an
# error of about h^4 / 480 times the fifth derivative in v, and rounding adds eps / h.
ORDER_STEP = 1e-3


def _scipy(name: str, v: np.ndarray | None, x: np.ndarray) -> np.ndarray:
    from scipy import special

    dtype = np.result_type(x) if v is None else np.result_type(v, x)
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if v is None:
            out = getattr(special, name)(x)
            v = np.full_like(x, {"j0": 0.0, "y0": 0.0, "j1": 1.0, "y1": 1.0}[name])
        else:
            v = np.asarray(v, dtype=np.float64)
            out = getattr(special, name)(np.trunc(v) if name == "yn" else v, x)
    v = np.broadcast_to(v, np.shape(out))
    # SciPy answers NaN at x = +-inf, where J and Y tend to 0 (J at -inf only for an
    # integer order: elsewhere J is NaN below 0).
    bessel_j = name in ("jv", "j0", "j1")
    vanishes = (x == np.inf) | ((x == -np.inf) & bessel_j & (v == np.floor(v)))
    out = np.where(vanishes & np.isfinite(v), 0.0, out)
    if name == "yv":
        # Y of a negative half-integer order -a is sin(a pi) J_a: 0 at x = 0, and tiny at
        # tiny x (SciPy: +-inf there).
        half = (v < 0) & (v - 0.5 == np.floor(v - 0.5)) & np.isfinite(v)
        with np.errstate(all="ignore"):
            mirrored = np.sin(np.pi * (-v % 2)) * special.jv(-v, x)
        out = np.where(half & (x >= 0) & (x < np.inf), mirrored, out)
    return np.asarray(out).astype(dtype, copy=False)


def _reference(name: str, arity: int) -> Any:
    if arity == 1:
        def reference(x: np.ndarray) -> np.ndarray:
            return _scipy(name, None, x)
    else:
        def reference(v: np.ndarray, x: np.ndarray) -> np.ndarray:
            return _scipy(name, v, x)
    reference.__name__ = name
    reference.__doc__ = f"SciPy's ``{name}``, 0 at x = inf (and its other limits)."
    return reference


def order_differences(function: Any, name: str) -> Any:
    """The reference ``name`` (d/dv of ``function(v, x)``, a NumPy reference): central
    differences in v at steps ORDER_STEP and ORDER_STEP / 2, Richardson-combined, in float64
    and rounded once, as the device's ``order_derivative`` helpers compute."""
    def reference(v: np.ndarray, x: np.ndarray) -> np.ndarray:
        dtype = np.result_type(v, x)
        v, x = np.asarray(v, dtype=np.float64), np.asarray(x, dtype=np.float64)

        def slope(step: float) -> np.ndarray:
            up, down = v + step, v - step
            return (function(up, x) - function(down, x)) / (up - down)

        return ((4 * slope(ORDER_STEP / 2) - slope(ORDER_STEP)) / 3).astype(dtype, copy=False)

    reference.__name__ = name
    reference.__doc__ = f"{name}: d/dv by Richardson-extrapolated differences."
    return reference


def _jv_adjoint(w: Any, g: Any, y: Any, v: Any, x: Any) -> tuple[Any, Any]:
    from .array import apply_op

    return g * apply_op("jv_dv", v, x), 0.5 * g * (w.jv(v - 1, x) - w.jv(v + 1, x))


def _yv_adjoint(w: Any, g: Any, y: Any, v: Any, x: Any) -> tuple[Any, Any]:
    from .array import apply_op

    return g * apply_op("yv_dv", v, x), 0.5 * g * (w.yv(v - 1, x) - w.yv(v + 1, x))


def _yn_adjoint(w: Any, g: Any, y: Any, n: Any, x: Any) -> tuple[Any, Any]:
    """n takes integer values only (SciPy's yn truncates it): no gradient in n."""
    m = w.trunc(n)
    return None, 0.5 * g * (w.yn(m - 1, x) - w.yn(m + 1, x))


def _j1_adjoint(w: Any, g: Any, y: Any, x: Any) -> Any:
    """J1' = J0 - J1 / x (= (J0 - J2) / 2, by orders 0 and 1's fixed-cost forms), 1/2 at 0."""
    safe = w.where(x == 0, 1.0, x)
    return g * w.where(x == 0, 0.5, w.j0(x) - y / safe)


# Entries of ops.SPECIAL_FUNCTIONS: name, arity, template, reference, zero rule (filled
# in by ops.py), reverse rule.
BESSEL_JY_FUNCTIONS: list[tuple[str, int, Any]] = [
    ("jv", 2, _jv_adjoint),
    ("yv", 2, _yv_adjoint),
    ("yn", 2, _yn_adjoint),
    ("j0", 1, lambda w, g, y, x: -g * w.j1(x)),
    ("j1", 1, _j1_adjoint),
    ("y0", 1, lambda w, g, y, x: -g * w.y1(x)),
    ("y1", 1, lambda w, g, y, x: g * (w.y0(x) - y / x)),
]
REFERENCES = {name: _reference(name, arity) for name, arity, _ in BESSEL_JY_FUNCTIONS}
ORDER_DERIVATIVES = {
    f"{name}_dv": order_differences(lambda v, x, name=name: _scipy(name, v, x), f"{name}_dv")
    for name in ("jv", "yv")}


def _spherical_reference(name: str) -> Any:
    """SciPy's ``spherical_jn`` or ``spherical_yn`` with the order truncated toward zero
    (NaN where it is negative, infinite or NaN); j_n below |x| = 1e-8 by the series' two
    terms, as the device computes it (SciPy's underflows early: j_1(1e-300) = 0)."""
    def reference(n: np.ndarray, x: np.ndarray) -> np.ndarray:
        from scipy import special

        dtype = np.result_type(n, x)
        n, x = np.broadcast_arrays(np.asarray(n, dtype=np.float64),
                                   np.asarray(x, dtype=np.float64))
        valid = np.isfinite(n) & (n >= 0)
        order = np.where(valid, np.trunc(n), 0).astype(np.int64)
        with np.errstate(all="ignore"):
            out = getattr(special, name)(order, x)
        if name == "spherical_jn":
            tiny = (np.abs(x) < 1e-8) & (x != 0)
            term = np.ones_like(x)
            for k in range(1, 65):  # (x / 3)(x / 5)... underflows within 40 steps
                term = np.where(k <= order, term * np.abs(x) / (2 * k + 1), term)
            sign = np.where((x < 0) & (order % 2 == 1), -1.0, 1.0)
            series = sign * term * (1 - x * x / (4 * order + 6))
            out = np.where(tiny, series, out)
        return np.where(valid, out, np.nan).astype(dtype, copy=False)

    reference.__name__ = name
    return reference


def _spherical_adjoint(name: str) -> Any:
    """d/dx c_n = c_(n-1) - (n + 1) / x c_n, and -c_1 for n = 0 (c = j, y); j_n'(0) is 1/3
    for n = 1, else 0. The order is an integer: no gradient in it."""
    def rule(w: Any, g: Any, y: Any, n: Any, x: Any) -> tuple[None, Any]:
        from .array import apply_op

        m = w.trunc(n)
        below = apply_op(name, w.maximum(m - 1, 0.0), x)
        above = apply_op(name, m + 1, x)
        slope = w.where(m == 0, -above, below - (m + 1) / w.where(x == 0, 1.0, x) * y)
        if name == "sph_jn":
            slope = w.where(x == 0, w.where(m == 1, 1 / 3, 0.0), slope)
        return None, g * slope

    return rule


# Internal ops (ops.py registers them): j_n and y_n of integer order, SciPy's spherical_jn and
# spherical_yn without derivative= (skeletons/spherical_bessel.py; spherical_bessel.py).
SPHERICAL_OPS = [(name, 2, _spherical_reference(scipy_name), _spherical_adjoint(name))
                 for name, scipy_name in (("sph_jn", "spherical_jn"),
                                          ("sph_yn", "spherical_yn"))]
