"""An element-wise expression over transposed matrices, rebuilt over the matrices themselves:
``f(x.T, y)`` is ``f(x, y').T`` with ``y'`` each operand transposed (a row vector becoming a
column). A reduction of it along one axis is then the reduction of the rebuilt expression
along the other, and its walk reads the matrices in memory order: ``(x.T * w).sum(1)``, a
weighted ``X^T w`` written by hand, walks the rows of ``x``, not its columns
(``reductions.reduce``; from ``FLIP_MIN_ELEMENTS`` elements up).

>>> import weft as wf
>>> x = wf.asarray([[1.0, 2.0], [3.0, 4.0]])
>>> (x.T * wf.asarray([1.0, 10.0])).sum(1).tolist()
[31.0, 42.0]
"""

from __future__ import annotations

from . import expr as ex
from .indexing import AffineMap, transpose_map

# Below this many elements a matrix lies in a core's L2 cache (128 KB of doubles), where a
# walk down its columns costs little, and the rebuild's Python (about 4 us a node) would
# cost more than it saves: small expressions in a hot loop stay as written.
FLIP_MIN_ELEMENTS = 1 << 14
# A 1-D vector's element i as row i of an (n, 1) column (1-D shapes pad to rows).
_ROW_TO_COLUMN = AffineMap(0, 0, 0, 0, 1, 0)


def flipped(node: ex.Node) -> ex.Node | None:
    """``node`` (2-D) transposed, its transposes undone, where that makes its matrices read
    in memory order: every matrix leaf it reads walks down columns now (the transpose of a
    row-major matrix), and it is element-wise over leaves, scalars, casts and broadcasts.
    None otherwise (the expression stays as it is). A survey that makes nothing decides
    first: every reduction of a 2-D expression asks."""
    if node.shape[0] * node.shape[1] < FLIP_MIN_ELEMENTS:
        return None
    leaves = node.leaves  # (the leaves in tree order, kept by the node: a quick no)
    if leaves is not None and not _some_walk_down(leaves):
        return None
    try:
        if not _survey(node, set()):
            return None
    except _UnflippableError:
        return None
    return _flip(node, {})


def _walks_down(leaf: ex.Node) -> bool | None:
    """For a buffer leaf that is a matrix (not a row or column): whether its walk in
    element order steps down its columns (True) or along its rows (False); else None."""
    shape = leaf.shape
    if leaf.kind is not ex.BUFFER or len(shape) != 2 or shape[0] <= 1 or shape[1] <= 1:
        return None
    down, across = leaf.attrs.strides
    return down < across


def _some_walk_down(leaves: tuple[ex.Node, ...]) -> bool:
    """Whether some matrix leaf walks down columns and none along rows."""
    walks = [w for w in map(_walks_down, leaves) if w is not None]
    return bool(walks) and all(walks)


class _UnflippableError(Exception):
    pass


def _survey(node: ex.Node, seen: set[int]) -> int:
    """How many matrix leaves under ``node`` walk down columns; raises where ``_flip``
    would not apply or a matrix leaf walks along rows already."""
    if id(node) in seen:
        return 0
    seen.add(id(node))
    kind, shape = node.kind, node.shape
    if kind is ex.SCALAR or not shape:
        return 0
    if kind is ex.BUFFER:
        if node.tape is not None:
            raise _UnflippableError  # (a gradient's leaf: left to the general path)
        walks_down = _walks_down(node)
        if walks_down is False:
            raise _UnflippableError
        return int(bool(walks_down))
    if kind is ex.MAP or kind is ex.CAST or kind is ex.BROADCAST:
        return sum(_survey(a, seen) for a in node.args)
    raise _UnflippableError


def _flip(node: ex.Node, done: dict[int, ex.Node]) -> ex.Node:
    known = done.get(id(node))
    if known is not None:
        return known
    kind, shape = node.kind, node.shape
    new_shape = shape[::-1] if len(shape) == 2 else (shape[0], 1) if len(shape) == 1 else ()
    if kind is ex.SCALAR or not shape:
        out = node
    elif kind is ex.BUFFER:
        out = ex.view(node, new_shape, transpose_map() if len(shape) == 2 else _ROW_TO_COLUMN)
    elif kind is ex.MAP:
        out = ex.apply(node.op, tuple(_flip(a, done) for a in node.args), node.dtype,
                       node.attrs, new_shape)
    elif kind is ex.CAST:
        arg = _flip(node.args[0], done)
        out = ex.Node(ex.CAST, node.dtype, new_shape, (arg,), structure=arg.structure)
    else:  # BROADCAST (what _survey lets through)
        out = ex.Node(ex.BROADCAST, node.dtype, new_shape, (_flip(node.args[0], done),))
    done[id(node)] = out
    return out
