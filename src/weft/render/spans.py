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
from ..skeletons import elementwise
from ..skeletons.elementwise import (
    SPAN_END,
    SPAN_LIMIT,
    SPAN_PREDICATE,
    SPAN_ROWS_END,
    SPAN_ROWS_LIMIT,
)
from .text import indent


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


def span_walk(renderer: Any, slots: dict[str, str], body: str, setup: str, twice: list[str]
              ) -> str | None:
    """A CPU walk's source with its predicates hoisted into spans (None where its body,
    ``body``, tests none): along the row of a 2-d grid walked by rows (``slots`` already
    filled for ``WALK_BY_ROWS``), along a 1-d grid, or over whole rows of a 2-d grid walked
    flat in two passes (``twice``: the trigonometric functions it calls)."""
    r = renderer
    predicates = [s for s in r.per_element if isinstance(s, AffinePredicate)]
    if not predicates:
        return None
    rest = "".join(r.statement(s) for s in r.per_element if not isinstance(s, AffinePredicate))
    by_rows = not twice and r.ir.ndim == 2 and r.ir.uses_rows
    if by_rows:
        slots.update(flat_body=slots["body"], row_body=indent(rest, 3),
                     span_predicates=indent(span_predicates(r, predicates, "i"), 3),
                     rows_only=rows_only(predicates), narrow_body=indent(rest, 4),
                     narrow_index_setup=indent(setup, 4),
                     row_span_predicates=indent(span_predicates(
                         r, predicates, "lo_i", whole_rows=True), 4))
        return r.finish(elementwise.WALK_BY_ROWS_SPANS, slots)
    if not twice and r.ir.ndim == 1:
        slots.update(body=indent(rest, 2), index_setup=indent(setup, 2),
                     span_predicates=indent(span_predicates(r, predicates, "0"), 2))
        return r.finish(elementwise.WALK_SPANS, slots)
    if not twice:
        return None
    slots.update(r.trig_macros(twice))
    if r.ir.ndim == 1:
        slots.update(body=indent(rest, 2), index_setup=indent(setup, 2),
                     body_twice=indent(rest, 3), index_setup_twice=indent(setup, 3),
                     span_predicates=indent(span_predicates(r, predicates, "0"), 2))
        return r.finish(elementwise.WALK_TWICE_SPANS, slots)
    slots.update(rows_only=rows_only(predicates), body=indent(rest, 3),
                 span_index_setup=indent(setup, 3), body_twice=indent(rest, 4),
                 span_index_setup_twice=indent(setup, 4),
                 span_predicates=indent(span_predicates(r, predicates, "lo_i",
                                                        whole_rows=True), 3),
                 flat_body=indent(body), index_setup=indent(setup),
                 flat_body_twice=indent(body, 2), index_setup_twice=indent(setup, 2))
    return r.finish(elementwise.WALK_TWICE_ROWS_SPANS, slots)
