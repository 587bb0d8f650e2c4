"""What a gradient needs to see through: how a materialized leaf was made.

weft's lazy graph already records how a value is computed, so the reverse pass (adjoint.py)
walks the same nodes a kernel would read. Only materialization hides a computation: an
evaluated array becomes a buffer leaf, a factorization returns a new buffer, a view of a
buffer folds into a new leaf. While a function is being differentiated (``wf.vjp`` and the
functions built on it) such leaves keep a ``tape`` entry on their node saying where they came
from, and the reverse pass follows it:

- ``("argument", k, call, source)``: the ``k``-th differentiated argument of the call
  ``call`` (made by ``wf.vjp``); ``source`` is the node it was made from where an enclosing
  call's argument reaches that (a gradient of a gradient), else None;
- ``("value", node)``: an evaluated expression (``x.eval()``, an operand a library call
  evaluated first);
- ``("view", node, map)``: elements of ``node`` picked by an index map (expr.view);
- ``("reshape", node)``: ``node``'s elements in another shape;
- ``("op", name, operands, keywords)``: the result of the linear-algebra function ``name``
  (its reverse rule is in adjoint_linalg.py);
- ``("write", node, regions)``: ``node`` after writes (writes.py), each region ``(index map
  or None, integer-array scatter or None, shape, value written)``.

Entries are kept only where an argument is reachable, so arrays computed outside a
differentiated call cost nothing and keep nothing alive. ``RECORDING`` counts the calls being
differentiated in the process: while it is zero, evaluation does not look for tapes at all.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

RECORDING = [0]  # differentiated calls running now, in any thread


def reaches_argument(node: Any) -> bool:
    """Whether a differentiated argument is reachable from ``node``: a leaf with a tape is
    one, or was made from one."""
    from .expr import reaches

    return reaches([node], lambda n: n.tape is not None)


def keep_value(old: Any, dest: Any) -> None:
    """``dest`` (a new buffer leaf) holds the value of expression ``old``: remember it if a
    gradient will need to see through it. Called only while ``RECORDING``."""
    if dest.tape is None and old is not dest and reaches_argument(old):
        dest.tape = ("value", old)


def keep_reshape(source: Any, dest: Any) -> None:
    """``dest`` is ``source``'s elements in another shape."""
    if source.tape is not None:
        dest.tape = ("reshape", source)


def keep_alias(source: Any, dest: Any) -> None:
    """``dest`` reads exactly ``source``'s elements (a copy on write, a structure mark)."""
    if source.tape is not None:
        dest.tape = ("value", source)


def recorded(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark the linear-algebra function ``name``'s materialized results with what made them
    while a call is being differentiated (its rule: ``adjoint_linalg.RULES[name]``)."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def call(*args: Any, **keywords: Any) -> Any:
            out = fn(*args, **keywords)
            if RECORDING[0]:
                _mark(name, out, args, keywords)
            return out

        return call

    return wrap


def _mark(name: str, out: Any, args: tuple[Any, ...], keywords: dict[str, Any]) -> None:
    from .array import Array

    node = out._node if isinstance(out, Array) else None
    if node is None or node.kind != "buffer":
        return  # a lazy result: its own graph leads back to the operands
    if node.tape is not None and node.tape[0] == "argument":
        return  # an argument returned as it is
    # A result the function evaluated from weft's own operations (a scan) takes the
    # function's rule rather than the evaluated graph's term-by-term adjoint.
    # Operands a library call evaluated were evaluated in place: their nodes now are the
    # leaves the call read (with their own tapes).
    operands = tuple(a._node if isinstance(a, Array) else a for a in args)
    if any(o is node for o in operands):
        return  # an operand returned as it is: its own tape stands
    if any(getattr(o, "tape", None) is not None or
           (hasattr(o, "args") and reaches_argument(o)) for o in operands):
        node.tape = ("op", name, operands, keywords)
