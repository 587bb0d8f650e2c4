"""A CPU walk's affine predicates hoisted out of its loop: the walked range is cut into spans
on which each keeps its value (skeletons/elementwise.py ``WALK_SPANS``), and this writes the
statements that open a span. A predicate ``AffinePredicate`` tests ``d = view_0 + view_i * i +
view_j * j`` against thresholds (``d >= 0``; ``d <= 0`` as ``d < 1``; ``0 <= d < view_n``);
along a row ``d`` is affine in the column, so it crosses each threshold at most once, and the
span ends at the first crossing (``SPAN_END``).
"""

from __future__ import annotations

from typing import Any

from ..ir import AffinePredicate
from ..skeletons.elementwise import (
    SPAN_END,
    SPAN_LIMIT,
    SPAN_PREDICATE,
    SPAN_ROWS_END,
    SPAN_ROWS_LIMIT,
)


def _test(s: AffinePredicate, d: str) -> tuple[str, tuple[str, ...]]:
    """The predicate over its offset ``d``, and the thresholds where it can turn."""
    if s.relation == "ge0":
        return f"{d} >= 0", ("0",)
    if s.relation == "le0":
        return f"{d} <= 0", ("1",)
    if s.relation == "eq0":
        return f"{d} == 0", ("0", "1")
    return f"{d} >= 0 && {d} < {s.view}_n", ("0", f"{s.view}_n")


def span_predicates(renderer: Any, predicates: list[AffinePredicate], row: str,
                    whole_rows: bool = False) -> str:
    """The statements opening a span at column ``lo`` of row ``row`` (``"0"`` in a 1-d
    walk): each predicate's value there, and ``hi`` pulled in to where one turns. With
    ``whole_rows`` the span starts at the flat position ``lo`` in row ``lo_i``, no predicate
    depending on the column, and ends where a row on which one turns begins.

    >>> from weft.backends.opencl.dialect import OPENCL_CPU
    >>> from weft.ir import ELEMENTWISE, KernelIR, Variant
    >>> from weft.render.frame import Renderer
    >>> r = Renderer(KernelIR(ELEMENTWISE, 1, (), ()), Variant(), OPENCL_CPU, False)
    >>> print(span_predicates(r, [AffinePredicate("v0", "ge0", "w0")], "0"), end="")
    const long v0_d = w0_0 + w0_i * 0 + w0_j * (long)lo;
    const bool v0 = v0_d >= 0;
    hi = (long)weft_span_end(v0_d, w0_j, 0, lo, hi);
    """
    wide, qualifier = renderer.d.index_t, renderer.d.function_qualifier
    renderer.helpers.setdefault("weft_span_end", SPAN_END.format(qualifier=qualifier,
                                                                 wide=wide))
    limit = SPAN_ROWS_LIMIT if whole_rows else SPAN_LIMIT
    if whole_rows:
        renderer.helpers.setdefault("weft_rows_end", SPAN_ROWS_END.format(qualifier=qualifier,
                                                                          wide=wide))
    text = ""
    for s in predicates:
        test, thresholds = _test(s, f"{s.var}_d")
        text += SPAN_PREDICATE.format(wide=wide, var=s.var, view=s.view, row=row,
                                      col="0" if whole_rows else "lo",
                                      bool=renderer.ctype(s.dtype), test=test)
        text += "".join(limit.format(index_t=renderer.index_t, var=s.var, view=s.view,
                                     threshold=t) for t in thresholds)
    return text


def rows_only(predicates: list[AffinePredicate]) -> str:
    """The runtime test that no predicate depends on the column."""
    return " && ".join(f"{s.view}_j == 0" for s in predicates)
