"""The CPU reduction skeletons walked in two passes where the body calls sin, cos or tan
(weft's own, skeletons/trig.py): the first pass through their fast versions, which skip the
huge-argument reduction (a select computed it for every element) and note an argument that
needs it in ``weft_huge``; only then are the part's accumulators reset (``acc_reset``) and
the part walked again through the general ones (render/frame.py ``walked_twice``; as
elementwise.WALK_TWICE). Extra slots: ``fast_macros`` and ``general_macros`` (the names sent
to each version), ``acc_reset``, and the second walk's slots, the first's named with
``_twice`` and indented once more.

A checked band's walks only note whether a check failed (``failed``, reset with the
accumulators); the first failure is found after them, as in one pass. Columns by row chunks
keep their accumulators in the split's partial rows in memory: ``acc_reset`` resets those.
"""

from __future__ import annotations

import re

from .reduce import REDUCE_COLS_BAND, REDUCE_COLS_CHUNKS, REDUCE_ROWS_BAND


def _walked_twice(skeleton: str, start: str, stop: str, slots: tuple[str, ...]) -> str:
    """``skeleton`` with its walk (from the line that begins with ``start`` up to the one
    that begins with ``stop``) taken twice: the walk again, its ``slots`` renamed with
    ``_twice``, indented once more and its first statement's declaration dropped (the
    variable exists)."""
    begin = skeleton.index(start)
    end = skeleton.index(stop, begin)
    walk = skeleton[begin:end]
    again = walk
    for slot in slots:
        again = again.replace(f"{{{slot}}}", f"{{{slot}_twice}}")
    again = re.sub(r"^    \{index_t\} (\w+) = ", r"    \1 = ", again)
    # Four more spaces on every line, after the slots that open it (their text is indented
    # by the renderer).
    again = re.sub(r"^((?:\{\w+_twice\})*)(?=.)", r"\1    ", again, flags=re.M)
    twice = (skeleton[:begin] + "    int weft_huge = 0;\n{fast_macros}" + walk
             + "{general_macros}    if (weft_huge) {{\n{acc_reset}" + again + "    }}\n"
             + skeleton[end:])
    assert twice.count("{general_macros}") == 1
    return twice


REDUCE_ROWS_BAND_TWICE = _walked_twice(REDUCE_ROWS_BAND, "    {index_t} j0 = begin;",
                                       "{totals}", ("lanes", "tail_body", "tail_accumulate"))
REDUCE_COLS_BAND_TWICE = _walked_twice(REDUCE_COLS_BAND, "    if (width == {band})",
                                       "{report}", ("body", "accumulate"))
REDUCE_COLS_CHUNKS_TWICE = _walked_twice(
    REDUCE_COLS_CHUNKS, "    {index_t} i0 = begin;", "{scale}",
    ("row_values", "row_copies", "combined", "body", "accumulate"))
