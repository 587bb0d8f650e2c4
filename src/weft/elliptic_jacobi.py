"""The Jacobi elliptic functions (SciPy's ``ellipj``): sn, cn, dn and the amplitude ph of
argument u and parameter m, as four internal ops (device code in
``skeletons/elliptic_jacobi.py``): ``ellipj_ph(u, m)`` runs the arithmetic-geometric mean, and
``ellipj_sn``, ``ellipj_cn``, ``ellipj_dn`` take (u, m, ph), so that evaluated together they
run the mean once; with their NumPy references and adjoints.

In u: sn' = cn dn, cn' = -sn dn, dn' = -m sn cn, ph' = dn. In m, through the amplitude: u =
F(ph|m) at fixed u gives d ph/dm = -dn dF/dm (F's slope in m at fixed ph, as
``elliptic_adjoint.py``'s), and then sn, cn by the chain rule and dn from dn^2 = 1 - m sn^2;
next to m = 1, where that slope divides by 1 - m, the derivatives of the expansion about
m = 1 (A&S 16.15) instead, exact at m = 1 (where the two meet, each is good to about
sqrt(eps) e^|u|).

>>> import weft as wf
>>> sn, cn, dn, ph = wf.ellipj(wf.asarray([0.5, 2.0]), 0.3)
>>> sn.to_numpy().round(12).tolist(), dn.to_numpy().round(12).tolist()
([0.474215622712, 0.971255436131], [0.965678964746, 0.846757854015])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .elliptic_adjoint import quarter_turn_area
from .special_references import scipy_reference

if TYPE_CHECKING:
    from .array import Array

PARTS = ("sn", "cn", "dn", "ph")


def ellipj(u: Any, m: Any) -> tuple[Array, Array, Array, Array]:
    """The Jacobi elliptic functions sn(u|m), cn(u|m), dn(u|m) and the amplitude ph =
    am(u|m), as SciPy's ``special.ellipj``: lazy, one kernel when evaluated together, NaN
    off 0 <= m <= 1 and at infinite u; differentiable in u and m.

    >>> import weft as wf
    >>> [round(float(p), 12) for p in wf.ellipj(0.2, 0.0)]
    [0.198669330795, 0.980066577841, 1.0, 0.2]
    """
    from .array import apply_op  # (ops.py imports this module before Array exists)

    ph = apply_op("ellipj_ph", u, m)
    sn, cn, dn = (apply_op(f"ellipj_{part}", u, m, ph) for part in ("sn", "cn", "dn"))
    return sn, cn, dn, ph


def _reference(k: int) -> Any:
    """SciPy's ``ellipj(u, m)[k]`` (the amplitude an op of sn, cn, dn also takes is
    ``ellipj``'s own: the reference needs only u and m)."""
    both = scipy_reference("ellipj")

    def reference(u: np.ndarray, m: np.ndarray, *amplitude: np.ndarray) -> np.ndarray:
        return both(u, m)[k]

    reference.__name__ = f"ellipj_{PARTS[k]}"
    return reference


def _amplitude_slope(w: Any, u: Any, m: Any, sn: Any, cn: Any, dn: Any, ph: Any) -> Any:
    """d ph / dm at fixed u: -dn (E(ph|m) / (2m(1 - m)) - u / (2m) - sn cn / (2(1 - m) dn)),
    -(u - sin u cos u) / 4 at m = 0."""
    rest = 1.0 - m
    slope = (dn * (u / (2.0 * m) - w.ellipeinc(ph, m) / (2.0 * m * rest))
             + sn * cn / (2.0 * rest))
    return w.where(m == 0, -quarter_turn_area(w, u), slope)


def _slopes_next_to_one(w: Any, u: Any) -> dict[str, Any]:
    """d/dm of sn, cn, dn, ph at m = 1, from A&S 16.15's first-order terms in 1 - m (with
    s = sinh u cosh u, t = tanh u, h = sech u): -(s - u) h^2 / 4, (s - u) t h / 4,
    -(s + u) t h / 4, -(s - u) h / 4."""
    h = 1.0 / w.cosh(u)
    s = w.sinh(u) * w.cosh(u)
    t = w.tanh(u)
    return {"sn": -0.25 * (s - u) * h * h, "cn": 0.25 * (s - u) * t * h,
            "dn": -0.25 * (s + u) * t * h, "ph": -0.25 * (s - u) * h}


def _derivatives(w: Any, part: str, u: Any, m: Any, ph: Any, value: Any) -> tuple[Any, Any]:
    """The derivatives of ``part`` (whose value is ``value``) in u and in m, as functions of
    u and m (through the amplitude ``ph``)."""
    from .array import apply_op

    sn, cn, dn = (value if other == part else apply_op(f"ellipj_{other}", u, m, ph)
                  for other in ("sn", "cn", "dn"))
    slope = _amplitude_slope(w, u, m, sn, cn, dn, ph)
    by_u, by_m = {
        "sn": (cn * dn, cn * slope),
        "cn": (-sn * dn, -sn * slope),
        "dn": (-m * sn * cn, -(sn * sn + 2.0 * m * sn * cn * slope) / (2.0 * dn)),
        "ph": (dn, slope)}[part]
    # The slope divides by 1 - m (a relative error of about eps / (1 - m), infinite at
    # m = 1); the expansion's derivative is off by about (1 - m) e^(2|u|) / 4. Where they
    # cross both are good to about sqrt(eps) e^|u| (3e-8 at u = 1.3).
    rest = 1.0 - m
    near_one = rest * rest * w.exp(2.0 * w.abs(u)) < 2.2e-16
    return by_u, w.where(near_one, _slopes_next_to_one(w, u)[part], by_m)


def _amplitude_adjoint(w: Any, g: Any, y: Any, u: Any, m: Any) -> tuple[Any, Any]:
    by_u, by_m = _derivatives(w, "ph", u, m, y, y)
    return g * by_u, g * by_m


def _adjoint(part: str) -> Any:
    def rule(w: Any, g: Any, y: Any, u: Any, m: Any, ph: Any) -> tuple[Any, Any, None]:
        """The whole derivative in u and m (ph, the amplitude ``ellipj`` passes, is itself
        a function of them, and takes none)."""
        by_u, by_m = _derivatives(w, part, u, m, ph, y)
        return g * by_u, g * by_m, None
    return rule


# Internal ops (name, arity, reference, reverse rule) for ops.py.
ELLIPJ_OPS: list[tuple[str, int, Any, Any]] = [
    ("ellipj_ph", 2, _reference(3), _amplitude_adjoint),
    *[(f"ellipj_{part}", 3, _reference(k), _adjoint(part))
      for k, part in enumerate(("sn", "cn", "dn"))]]
