"""The reverse pass: adjoints of a lazy expression, built as lazy expressions.

The forward computation is weft's own graph (expr.py), read through the tapes of the leaves
that materialization made (tape.py). Walking it from the outputs back, each node hands its
adjoint to its arguments by the rule of its kind: an op-table op by its ``adjoint`` entry
(ops.py), a broadcast by summing over the broadcast dimensions, a reduction by broadcasting
back (``max``/``min`` to the chosen elements), a view by scattering into its source's shape, a
structure restriction by keeping the structure, an integer-array gather by adding the adjoint
back where it read (``expr.scatter_add``), a fused check by carrying the check on to the
adjoint (so a gradient raises what the value raises), a linear-algebra result by its rule in
adjoint_linalg.py. The adjoints are ordinary lazy Arrays: the element-wise ones fuse with the
forward values they read, which are recomputed inside the backward kernels rather than stored.
"""

from __future__ import annotations

from typing import Any

from . import expr as ex
from .array import Array, view_of
from .indexing import IDENTITY, AffineMap, as_2d, transpose_map


def backward(roots: list[ex.Node], cotangents: list[Array], count: int, call: object
             ) -> list[Array | None]:
    """The adjoint of each of the ``count`` differentiated arguments of the differentiated
    call ``call`` (None where nothing reaches it), given the adjoints ``cotangents`` of the
    expressions ``roots``. Another call's arguments (a gradient inside the function being
    differentiated) pass their adjoint on to what they were made from."""

    def inputs(node: ex.Node) -> tuple[Any, ...]:
        return _inputs(node, call)

    order = ex.walk(roots, inputs)  # through the tapes too
    reaching = _reaching(order, inputs, call)
    adjoints: dict[int, Array] = {}
    grads: list[Array | None] = [None] * count
    for root, cotangent in zip(roots, cotangents):
        _give(adjoints, reaching, root, cotangent)
    for node in reversed(order):
        g = adjoints.pop(id(node), None)
        if g is None:
            continue
        if not _passes_spread(node, g):
            g = _fitted(g, node)
        tape = node.tape
        if tape is not None and tape[0] == "argument":
            if tape[2] is call:
                k = tape[1]
                grads[k] = g if grads[k] is None else grads[k] + g
            elif tape[3] is not None:
                _give(adjoints, reaching, tape[3], g)
            continue
        for child, share in _shares(node, g):
            _give(adjoints, reaching, child, share)
    return grads


def _inputs(node: ex.Node, call: object) -> tuple[Any, ...]:
    """What ``node`` was computed from: its arguments, or what its tape names (an argument of
    a call other than ``call``: what it was made from)."""
    tape = node.tape
    if tape is None:
        return node.args
    kind = tape[0]
    if kind == "argument":
        return () if tape[2] is call or tape[3] is None else (tape[3],)
    if kind == "op":
        return tuple(o for o in tape[2] if isinstance(o, ex.Node))
    if kind == "write":
        return (tape[1], *(region[3] for region in tape[2]))
    return (tape[1],)


def _reaching(order: list[ex.Node], inputs: Any, call: object) -> set[int]:
    """The nodes from which an argument of ``call`` can be reached."""
    reaching: set[int] = set()
    for node in order:
        tape = node.tape
        if (tape is not None and tape[0] == "argument" and tape[2] is call) or any(
                id(a) in reaching for a in inputs(node)):
            reaching.add(id(node))
    return reaching


def _give(adjoints: dict[int, Array], reaching: set[int], child: ex.Node, share: Any) -> None:
    """Add ``share`` to ``child``'s adjoint. Shares of one broadcast shape add up in it and
    are summed to the child's shape once (``_fitted``), so a scalar's adjoint from several
    terms is one reduction (a requested one, which its level's kernel computes beside the
    others), not one per term plus an addition kernel after them."""
    if share is None or id(child) not in reaching or not child.dtype.is_float:
        return
    if type(share) is _Missing:
        raise share.error()
    before = adjoints.get(id(child))
    if before is None:
        adjoints[id(child)] = share
    elif before.shape == share.shape:
        adjoints[id(child)] = before + share
    else:
        adjoints[id(child)] = _fitted(before, child) + _fitted(share, child)


# Elements up to which a 0-d value's adjoint passes on spread (``_passes_spread``): below,
# the launch it saves is worth more than the scalar work it repeats per element (PoCL,
# normal_lpdf's value and gradient at 10^3: 2.0 -> 1.3 times the value's call; at 2^22 the
# repeated work made it 15% slower).
SPREAD_LIMIT = 1 << 16


def _passes_spread(node: ex.Node, g: Array) -> bool:
    """Whether ``node`` (a 0-d element-wise value, such as a scale parameter's
    ``1 / sigma``) hands its adjoint ``g`` on still spread over the elements that used it
    (at most ``SPREAD_LIMIT``): its rule broadcasts, and the sum is taken once, at the
    argument, as one reduction beside the value's instead of a sum here and scalar work in
    a kernel of its own after it."""
    return (node.shape == () and node.tape is None and g.size <= SPREAD_LIMIT
            and node.kind in (ex.MAP, ex.CAST, ex.CHECK))


def _fitted(g: Array, node: ex.Node) -> Array:
    """The adjoint ``g`` summed to ``node``'s shape, in its dtype."""
    if g.shape != node.shape:
        g = unbroadcast(g, node.shape)
    if g.dtype is not node.dtype:
        g = g.astype(node.dtype)
    return g


def _shares(node: ex.Node, g: Array) -> list[tuple[ex.Node, Any]]:
    """``node``'s adjoint ``g`` handed to what it was computed from."""
    tape = node.tape
    if tape is not None:
        return _tape_shares(node, tape, g)
    kind = node.kind
    if kind == ex.MAP:
        return _map_shares(node, g)
    if kind in (ex.CAST, ex.BROADCAST):
        return [(node.args[0], g)]
    if kind == ex.VIEW:
        source = node.args[0]
        return [(source, scatter(g, source.shape, node.attrs))]
    if kind == ex.RESTRICT:
        return [(node.args[0], Array(ex.restrict(g._node, node.attrs), g.device))]
    if kind == ex.REDUCE:
        return [(node.args[0], _reduce_share(node, g))]
    if kind == ex.CHECK:
        value, predicate = node.args
        return [(value, Array(ex.check(g._node, predicate, node.attrs), g.device))]
    if kind == ex.CONCAT:
        return _concat_shares(node, g)
    if kind == ex.SCAN:
        from .scans import scan_shares

        return [(node.args[0], scan_shares(node, g))]
    if kind == ex.GATHER:
        # Each gathered element's adjoint added back where it was read: duplicate indexes
        # sum (atomic adds on a device; their order, and so the last bits, may vary).
        source, *indexes = node.args
        added = ex.scatter_add(g._node, tuple(indexes), node.attrs, source.shape)
        return [(source, Array(added, g.device))]
    return []  # leaves: buffers, scalars and indexes not being differentiated


def _tape_shares(node: ex.Node, tape: tuple, g: Array) -> list[tuple[ex.Node, Any]]:
    kind = tape[0]
    if kind == "value":
        return [(tape[1], g)]
    if kind == "view":
        source = tape[1]
        return [(source, scatter(g, source.shape, tape[2]))]
    if kind == "reshape":
        return [(tape[1], reshaped(g, tape[1].shape))]
    if kind == "write":
        return _write_shares(node, tape[1], tape[2], g)
    from .adjoint_linalg import RULES

    _, name, operands, keywords = tape
    arrays = [Array(o, g.device) if isinstance(o, ex.Node) else o for o in operands]
    shares = RULES[name](g, Array(node, g.device), *arrays, **keywords)
    return [(o, s) for o, s in zip(operands, shares) if isinstance(o, ex.Node)]


def _write_shares(node: ex.Node, old: ex.Node, regions: tuple, g: Array
                  ) -> list[tuple[ex.Node, Any]]:
    """The adjoint of an array after writes into it (``writes.write_targets``): each value
    written takes the adjoint of the elements it landed in; the array before the write
    takes the rest, zero where a value replaced its element."""
    import weft

    shares: list[tuple[ex.Node, Any]] = []
    kept: Array | None = g
    for m, scattered, shape, value in regions:
        if m is None and scattered is None:  # the whole array
            shares.append((value, g))
            kept = None
            continue
        if scattered is not None:
            if len(scattered) == 3:  # the values were differentiated: the winners are known
                from .gather import scattered_adjoint

                shares.append((value, scattered_adjoint(g, scattered, shape)))
            else:  # (never asked for: no argument reaches the values)
                shares.append((value, _Missing("integer-array assignment (x[index] = value)",
                                               "the values written")))
            if kept is not None:
                from .writes import Target, value_node, write_targets

                written = weft.zeros(node.shape, dtype=weft.bool_, device=g.device)
                write_targets([Target(written, shape, None, scatter=scattered[:2])],
                              [value_node(True, g.device, written.dtype, shape)])
                kept = weft.where(written, 0, kept)
            continue
        shares.append((value, Array(ex.view(g._node, shape, m), g.device)))
        if kept is not None:
            ones = weft.ones(shape, dtype=g.dtype, device=g.device)
            kept = weft.where(scatter(ones, node.shape, m) != 0, 0, kept)
    if kept is not None:
        shares.append((old, kept))
    return shares


def _map_shares(node: ex.Node, g: Array) -> list[tuple[ex.Node, Any]]:
    import weft

    op = node.op
    if op.adjoint is None:
        raise NotImplementedError(f"no gradient rule for {op.name}")
    device = g.device
    xs = [Array(a, device) for a in node.args]
    shares = op.adjoint(weft, g, Array(node, device), *xs)
    if not isinstance(shares, tuple):
        shares = (shares,)
    return [(arg, _Missing(op.name, share) if isinstance(share, str) else share)
            for arg, share in zip(node.args, shares)]


class _Missing:
    """A share no rule gives: an error only if the argument needs its gradient."""

    def __init__(self, op: str, argument: str) -> None:
        self.op, self.argument = op, argument

    def error(self) -> NotImplementedError:
        return NotImplementedError(f"the gradient of {self.op} with respect to its argument "
                                   f"{self.argument!r} is not available")


def _reduce_share(node: ex.Node, g: Array) -> Array:
    """A reduction's adjoint spread back over its operand."""
    import weft

    reduction = node.attrs
    source = node.args[0]
    device = g.device
    if reduction.scale is not None:
        g = g * reduction.scale
    spread = expand(g, node, source.shape)
    op = reduction.op
    if op == "add":
        return spread
    x = Array(source, device)
    if op == "multiply":
        return spread * expand(Array(node, device), node, source.shape) / x
    if op in ("maximum", "minimum", "fmax", "fmin"):
        # All of it to the chosen elements, shared equally between ties (a NaN is never
        # chosen by fmax and fmin, and equals nothing).
        chosen = x == expand(Array(node, device), node, source.shape)
        ties = weft.reduce("sum", chosen.astype(g.dtype),
                           axis=reduction.axis if x.ndim == 2 else None, keepdims=True)
        return weft.where(chosen, spread / ties, 0)
    raise NotImplementedError(f"no gradient rule for the reduction {op}")


def expand(g: Array, reduced: ex.Node, shape: tuple[int, ...]) -> Array:
    """``g`` (shaped like the reduction ``reduced``) broadcast over the reduced operand's
    ``shape``: a row reduction's result becomes a column first."""
    node = g._node
    if reduced.attrs.axis == 1 and len(reduced.shape) == 1:
        node = ex.view(node, (reduced.shape[0], 1), AffineMap(0, 0, 0, 0, 1, 0))
    return Array(ex.broadcast(node, shape), g.device)


def unbroadcast(g: Array, shape: tuple[int, ...]) -> Array:
    """``g`` summed over the dimensions in which ``shape`` was broadcast to ``g.shape``. A
    ``g`` equal everywhere (a scalar's adjoint spread over an array) sums to its value times
    the count, with no reduction kernel."""
    one = _one_of(g._node) if shape == () and g.size > 1 else None
    if one is not None:
        return Array(one, g.device) * g.size
    rows, cols = as_2d(g.shape)
    to_rows, to_cols = as_2d(shape)
    over_rows = to_rows == 1 and rows != 1
    over_cols = to_cols == 1 and cols != 1
    if over_rows and over_cols or (g.ndim < 2 and over_cols):
        g = g.sum()
    elif over_rows:
        g = g.sum(axis=0)
    elif over_cols:
        g = g.sum(axis=1, keepdims=True)
    # The same elements in padded 2-D, maybe another number of dimensions.
    return Array(_reshaped_node(g._node, shape), g.device)


def reshaped(g: Array, shape: tuple[int, ...]) -> Array:
    """``g``'s elements in ``shape``: lazily where both shapes are vectors (or scalars), as
    a view that renumbers them, so the adjoint of ``beta.reshape(1, k)`` stays in the
    gradient's kernel; otherwise through ``reshape`` (which computes ``g``)."""
    rows, cols = as_2d(g.shape)
    to_rows, to_cols = as_2d(shape)
    if min(rows, cols) != 1 or min(to_rows, to_cols) != 1:
        return g.reshape(shape)
    # Element (i, j) of the result is the flat element i * to_cols + j of g (one of i, j is
    # always 0), which lies in g's row (when g is a row) or g's column.
    if (rows, cols) == (to_rows, to_cols):
        m = IDENTITY  # the same padded 2-D shape
    elif rows == 1:
        m = AffineMap(0, 0, 0, 0, to_cols, 1)
    else:
        m = AffineMap(0, to_cols, 1, 0, 0, 0)
    return Array(ex.view(g._node, shape, m), g.device)


def _one_of(node: ex.Node) -> ex.Node | None:
    """``node``'s value as a 0-d expression where every element of it is that value (built
    from 0-d values by element-wise ops and broadcasts); else None."""
    if node.shape == ():
        return node
    if node.kind == ex.BROADCAST:
        return _one_of(node.args[0])
    if node.kind not in (ex.MAP, ex.CAST):
        return None
    args = []
    for a in node.args:
        one = _one_of(a)
        if one is None:
            return None
        args.append(one)
    return ex.Node(node.kind, node.dtype, (), tuple(args), op=node.op, attrs=node.attrs)


def scatter(g: Array, shape: tuple[int, ...], m: AffineMap) -> Array:
    """An array of ``shape``, zero but where the view ``m`` put ``g``'s elements: lazily for
    a block (an element, a row, a column, a slice with unit steps, maybe transposed), whose
    zeros around ``g`` are a concatenation the gradient's kernel reads in place; computed
    into a new array for other views (strided, reversed, diagonals)."""
    rows, cols = as_2d(g.shape)
    repeats_rows = rows > 1 and m.ri == 0 and m.ci == 0
    if repeats_rows or (cols > 1 and m.rj == 0 and m.cj == 0):
        # Elements along an axis the view does not move in all read one source element
        # (``wf.diag`` of a vector reads v[r] all along row r): their adjoints add up.
        g = g.sum(axis=0 if repeats_rows else g.ndim - 1, keepdims=True)
        return scatter(g, shape, m)
    block = _block_of(g, m)
    if block is not None:
        return Array(_placed(*block, shape), g.device)
    from .creation import zeros
    from .matrix import assign

    out = zeros(shape, dtype=g.dtype, device=g.device)
    assign(view_of(out, g.shape, m), g)
    return out


def _block_of(g: Array, m: AffineMap) -> tuple[ex.Node, int, int] | None:
    """``g`` as the 2-D block it fills in the view's source and the block's corner, where
    ``m`` steps by one along each of ``g``'s dimensions that has more than one element."""
    rows, cols = as_2d(g.shape)
    along_i = rows == 1 or (m.ri, m.ci)
    along_j = cols == 1 or (m.rj, m.cj)
    padded = _reshaped_node(g._node, (rows, cols))
    if along_i in (True, (1, 0)) and along_j in (True, (0, 1)):
        return padded, m.r0, m.c0
    if along_i in (True, (0, 1)) and along_j in (True, (1, 0)):
        return ex.view(padded, (cols, rows), transpose_map()), m.r0, m.c0
    return None


def _reshaped_node(node: ex.Node, shape: tuple[int, ...]) -> ex.Node:
    """``node``'s elements in ``shape``, padded 2-D alike."""
    return node if node.shape == shape else ex.view(node, shape, IDENTITY)


def _placed(block: ex.Node, r0: int, c0: int, shape: tuple[int, ...]) -> ex.Node:
    """``block`` at row ``r0``, column ``c0`` of zeros of ``shape``."""
    rows, cols = as_2d(shape)
    height, width = block.shape
    zero = ex.scalar(0, block.dtype)

    def zeros(h: int, w: int) -> ex.Node:
        return ex.broadcast(zero, (h, w))

    def joined(parts: list[ex.Node], axis: int, size: tuple[int, int]) -> ex.Node:
        parts = [p for p in parts if 0 not in p.shape]
        return parts[0] if len(parts) == 1 else ex.concat(tuple(parts), axis, size,
                                                          block.dtype)

    band = joined([zeros(height, c0), block, zeros(height, cols - c0 - width)], 1,
                  (height, cols))
    whole = joined([zeros(r0, cols), band, zeros(rows - r0 - height, cols)], 0, (rows, cols))
    return _reshaped_node(whole, shape)


def _concat_shares(node: ex.Node, g: Array) -> list[tuple[ex.Node, Any]]:
    axis = node.attrs
    start = 0
    out = []
    for part in node.args:
        rows, cols = as_2d(part.shape)
        m = AffineMap(start, 1, 0, 0, 0, 1) if axis == 0 else AffineMap(0, 1, 0, start, 0, 1)
        out.append((part, Array(ex.view(g._node, part.shape, m), g.device)))
        start += rows if axis == 0 else cols
    return out
