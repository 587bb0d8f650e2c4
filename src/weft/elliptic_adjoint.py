"""The adjoint rules of the incomplete elliptic integrals F(phi|m) and E(phi|m) (ops
``ellipkinc`` and ``ellipeinc``; device code in ``skeletons/elliptic_incomplete.py``): in phi
the integrands, in m DLMF 19.4.2 (written in m = k^2) and (E - F) / 2m, with their limits at
m = 0.

>>> import weft as wf
>>> round(float(wf.grad(lambda m: wf.ellipkinc(1.0, m))(wf.asarray(0.5))), 10)
0.2057614014
"""

from __future__ import annotations

from typing import Any


def quarter_turn_area(w: Any, phi: Any) -> Any:
    """(phi - sin(phi) cos(phi)) / 4: minus the slope of E (and the slope of F) in m at 0."""
    return 0.25 * (phi - 0.5 * w.sin(2.0 * phi))


def ellipkinc_adjoint(w: Any, g: Any, y: Any, phi: Any, m: Any) -> tuple[Any, Any]:
    """d F(phi|m): 1 / sqrt(1 - m sin^2 phi) in phi, and in m (DLMF 19.4.2 in m = k^2)
    E / (2m (1 - m)) - F / (2m) - sin(2 phi) / (4 (1 - m) delta), its limit at m = 0."""
    delta = w.sqrt(1.0 - m * w.sin(phi) ** 2)
    slope = (w.ellipeinc(phi, m) / (2.0 * m * (1.0 - m)) - y / (2.0 * m)
             - w.sin(2.0 * phi) / (4.0 * (1.0 - m) * delta))
    return g / delta, g * w.where(m == 0, quarter_turn_area(w, phi), slope)


def ellipeinc_adjoint(w: Any, g: Any, y: Any, phi: Any, m: Any) -> tuple[Any, Any]:
    """d E(phi|m): sqrt(1 - m sin^2 phi) in phi, (E - F) / (2m) in m (its limit at 0)."""
    delta = w.sqrt(1.0 - m * w.sin(phi) ** 2)
    slope = (y - w.ellipkinc(phi, m)) / (2.0 * m)
    return g * delta, g * w.where(m == 0, -quarter_turn_area(w, phi), slope)
