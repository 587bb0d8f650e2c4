"""Expressions carried from one evaluation to the next end where they are computed.

A loop that rebinds a lazy array to an expression of itself (``p = p + step * g``) and
reads something made from it at every turn (``float((p * p).sum())``) builds a deeper
expression at each turn: every read compiles a kernel of a new structure and computes every
earlier turn again (PoCL, 300 turns over 1000 elements: 182 s, the last turns 1 s each).
So an evaluation that reads a live lazy array at least ``CARRY_DEPTH`` levels deep first
computes that array, into its own buffer, as ``x.eval()`` would: the next turns build on a
buffer, and after at most ``CARRY_DEPTH`` turns every structure has been compiled once. It
is computed by a launch of its own, so a check that fails in what was asked for is not
attached to it.

Arrays held by no one (the temporaries of one statement or of a library function) are not
stored, and no expression shallower than ``CARRY_DEPTH`` is looked at, so what a density
or its gradient builds in one call fuses as before.

>>> import weft as wf
>>> p, g = wf.zeros(3), wf.ones(3)
>>> for _ in range(CARRY_DEPTH):
...     p = p + 0.5 * g
>>> float((p * p).sum()), p.is_lazy
(768.0, False)
"""

from __future__ import annotations

import weakref
from typing import Any

# Levels (the longest path from a node down to a leaf) from which an array held by the
# program is computed first when an evaluation reads it. A density and its gradient are 10-25
# levels deep (normal_lpdf 10, a GLM's value and gradient 15 and 24); the arrays a program
# holds beside them rarely reach this.
CARRY_DEPTH = 32


def own(array: Any) -> None:
    """Remember ``array`` (just made over a node at least ``CARRY_DEPTH`` deep) on its
    node: an evaluation that reads the node may then compute the array first."""
    array._node.owner = weakref.ref(array)


def carried_by(arrays: tuple[Any, ...]) -> list[Any]:
    """The live lazy arrays, other than ``arrays``, that their expressions read at least
    ``CARRY_DEPTH`` levels deep (only such nodes are walked)."""
    stack = [a._node for a in arrays if getattr(a, "_deferred", True) is None
             and a._node.depth >= CARRY_DEPTH]
    if not stack:
        return []
    given = {id(a) for a in arrays}
    seen: set[int] = set()
    found = []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        ref = getattr(node, "owner", None)
        array = ref() if ref is not None else None
        if array is not None and array._node is node and id(array) not in given:
            found.append(array)
        stack.extend(a for a in node.args if a.depth >= CARRY_DEPTH)
    return found
