"""An element-wise expression over transposed matrices, rebuilt over the matrices themselves:
``f(x.T, y)`` is ``f(x, y').T`` with ``y'`` each operand transposed (a row vector becoming a
column). A reduction of it along one axis is then the reduction of the rebuilt expression
along the other, and its walk reads the matrices in memory order: ``(x.T * w).sum(1)``, a
weighted ``X^T w`` written by hand, walks the rows of ``x``, not its columns
(``reductions.reduce``).

>>> import weft as wf
>>> x = wf.asarray([[1.0, 2.0], [3.0, 4.0]])
>>> (x.T * wf.asarray([1.0, 10.0])).sum(1).tolist()
[31.0, 42.0]
"""

from __future__ import annotations

from . import expr as ex
from .indexing import AffineMap, transpose_map

# A 1-D vector's element i as row i of an (n, 1) column (1-D shapes pad to rows).
_ROW_TO_COLUMN = AffineMap(0, 0, 0, 0, 1, 0)


def flipped(node: ex.Node) -> ex.Node | None:
    """``node`` (2-D) transposed, its transposes undone, where that makes its matrices read
    in memory order: every matrix leaf it reads walks down columns now (the transpose of a
    row-major matrix), and it is element-wise over leaves, scalars, casts and broadcasts.
    None otherwise (the expression stays as it is)."""
    walks = {"across": 0, "down": 0}
    try:
        out = _flip(node, {}, walks)
    except _UnflippableError:
        return None
    return out if walks["down"] and not walks["across"] else None


class _UnflippableError(Exception):
    pass


def _flip(node: ex.Node, done: dict[int, ex.Node], walks: dict[str, int]) -> ex.Node:
    known = done.get(id(node))
    if known is not None:
        return known
    kind, shape = node.kind, node.shape
    new_shape = shape[::-1] if len(shape) == 2 else (shape[0], 1) if len(shape) == 1 else ()
    if kind is ex.SCALAR or not shape:
        out = node
    elif kind is ex.BUFFER:
        if node.tape is not None:
            raise _UnflippableError  # (a gradient's leaf: left to the general path)
        if len(shape) == 2 and shape[0] > 1 and shape[1] > 1:
            down, across = node.attrs.strides
            walks["down" if down < across else "across"] += 1
        out = ex.view(node, new_shape, transpose_map() if len(shape) == 2 else _ROW_TO_COLUMN)
    elif kind is ex.MAP:
        args = tuple(_flip(a, done, walks) for a in node.args)
        out = ex.apply(node.op, args, node.dtype, node.attrs, new_shape)
    elif kind is ex.CAST:
        arg = _flip(node.args[0], done, walks)
        out = ex.Node(ex.CAST, node.dtype, new_shape, (arg,), structure=arg.structure)
    elif kind is ex.BROADCAST:
        out = ex.Node(ex.BROADCAST, node.dtype, new_shape, (_flip(node.args[0], done, walks),))
    else:
        raise _UnflippableError
    done[id(node)] = out
    return out
