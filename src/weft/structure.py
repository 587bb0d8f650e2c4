"""Matrix structure (Stan's views) as data: which elements may be nonzero.

``general`` may be nonzero anywhere; ``lower`` only where column <= row, ``upper`` only where
row <= column, ``diagonal`` only where they are equal. Elements outside a structure are zero by
definition: kernels do not read or compute them, and sum-like reductions skip them.
"""

from __future__ import annotations

from .indexing import AffineMap
from .ops import GENERAL, INTERSECTION, PRESERVE, UNION

STRUCTURES = ("general", "lower", "upper", "diagonal")

# The nonzero region of each structure as a set of "half planes": lower = {L}, upper = {U},
# diagonal = {L, U} (both), general = {} (no constraint).
_CONSTRAINTS = {"general": frozenset(), "lower": frozenset("L"), "upper": frozenset("U"),
                "diagonal": frozenset("LU")}
_BY_CONSTRAINTS = {v: k for k, v in _CONSTRAINTS.items()}


def union(a: str, b: str) -> str:
    """Nonzero where either is: the constraints both share."""
    return _BY_CONSTRAINTS[_CONSTRAINTS[a] & _CONSTRAINTS[b]]


def intersection(a: str, b: str) -> str:
    """Nonzero only where both are: every constraint of either."""
    return _BY_CONSTRAINTS[_CONSTRAINTS[a] | _CONSTRAINTS[b]]


def of_op(zeros: str, structures: list[str]) -> str:
    """The structure of an op's result from its zero rule (ops.py) and its operands'."""
    if zeros == PRESERVE:
        return structures[0]
    if zeros == UNION:
        out = structures[0]
        for s in structures[1:]:
            out = union(out, s)
        return out
    if zeros == INTERSECTION:
        out = structures[0]
        for s in structures[1:]:
            out = intersection(out, s)
        return out
    assert zeros == GENERAL
    return "general"


def transposed(s: str) -> str:
    return {"lower": "upper", "upper": "lower"}.get(s, s)


def of_view(s: str, m: AffineMap, out_ndim: int) -> str:
    """A view's structure: what it covers of the source's, where a rule can say.

    A block whose diagonal lies on the source's diagonal keeps the structure (flipped when the
    step is negative or the view transposes); any other view is general, which is always
    correct because its values are computed as the source's, zeros included.
    """
    if s == "general" or out_ndim < 2 or m.r0 != m.c0:
        return "general"
    if m.rj == 0 and m.ci == 0 and m.ri == m.cj and m.ri != 0:
        return s if m.ri > 0 else transposed(s)
    if m.ri == 0 and m.cj == 0 and m.rj == m.ci and m.rj != 0:
        return transposed(s) if m.rj > 0 else s
    return "general"


def difference_coefficients(m: AffineMap) -> tuple[int, int, int]:
    """``c - r`` of the source element, as (constant, i coefficient, j coefficient)."""
    return (m.c0 - m.r0, m.ci - m.ri, m.cj - m.rj)


# In terms of d = column - row: lower is d <= 0, upper is d >= 0, diagonal is d == 0.
RELATION = {"lower": "le0", "upper": "ge0", "diagonal": "eq0"}
