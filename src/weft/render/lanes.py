"""Vector lanes as an IR rewrite: a statement's copy for element ``c`` of a vector.

Where a kernel computes several consecutive elements per thread from one vector load (the
element-wise vector skeleton, a rows reduction's vector walk), each statement is rendered
once per element with its own variables: ``v3`` becomes ``v3_0``, ``v3_1``, ... The copy is
made on the statement itself, by the names its fields hold, so no text is rewritten: the
variables every element shares (``KernelIR.invariants``) keep their names, and in a walk the
element's own column and grid position (``j``, ``gid``) are renamed with the rest.

>>> from weft.ir import Apply
>>> from weft import dtypes as dt
>>> s = Apply("v3", dt.float64, "add", dt.float64, ("v1", "v2"))
>>> in_lane(s, 1, frozenset({"v1", "v3"})).args
('v1_1', 'v2')
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

WALK_POSITIONS = frozenset({"j", "gid"})  # a walk's per-element column and grid position


def lane_owned(statements: Any, shared: frozenset[str], walk: bool = False) -> frozenset[str]:
    """The names each element of a vector has its own copy of: the variables ``statements``
    define, less the ``shared`` ones, and in a walk the element's positions."""
    defined = {s.var for s in statements if hasattr(s, "var")}
    return frozenset(defined - shared) | (WALK_POSITIONS if walk else frozenset())


def in_lane(s: Any, c: int, owned: frozenset[str]) -> Any:
    """``s`` for element ``c``: every field naming one of ``owned`` renamed ``name_c``."""
    changes = {}
    for f in fields(s):
        value = getattr(s, f.name)
        if isinstance(value, str) and value in owned:
            changes[f.name] = f"{value}_{c}"
        elif isinstance(value, tuple) and any(isinstance(v, str) and v in owned for v in value):
            changes[f.name] = tuple(f"{v}_{c}" if isinstance(v, str) and v in owned else v
                                    for v in value)
    return replace(s, **changes) if changes else s
