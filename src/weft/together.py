"""Arrays computed together: a value and its gradients share their forward work, so the
first of them that is needed computes the others still lazy too, as ``wf.eval`` would (a
GLM's value and gradient then read ``x`` once, not twice). Each member remembers the others
through weak references, so one dropped unread (``wf.grad`` drops the value) is not computed.

>>> import weft as wf
>>> x = wf.asarray([1.0, 2.0])
>>> a, b = x * 2, x + 1
>>> together([a, b])
>>> a.tolist(), b.is_lazy
([2.0, 4.0], False)
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any


def together(arrays: Sequence[Any]) -> None:
    """Compute the lazy ones of ``arrays`` (weft Arrays) together when any of them is first
    needed."""
    lazy = [a for a in arrays if a.is_lazy]
    if len(lazy) > 1:
        group = tuple(weakref.ref(a) for a in lazy)
        for a in lazy:
            a._together = group


def with_groups(arrays: tuple[Any, ...]) -> tuple[Any, ...]:
    """``arrays`` and the live, still lazy members of their groups; each group is dissolved
    (it is computed once)."""
    out = None
    for a in arrays:
        group = getattr(a, "_together", None)
        if group is None:
            continue
        out = out if out is not None else list(arrays)
        for ref in group:
            member = ref()
            if member is not None:
                member._together = None
                if member is not a and member.is_lazy:
                    out.append(member)
    return arrays if out is None else tuple(out)
