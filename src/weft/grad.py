"""Reverse-mode gradients: ``wf.vjp``, ``wf.grad`` and ``wf.value_and_grad``.

``f`` runs once on arguments whose leaves are marked (tape.py); the value it returns is an
ordinary lazy expression over them, and the reverse pass (adjoint.py) builds each argument's
gradient as a lazy expression too: a value and its gradient fuse like any other arrays, and
``wf.eval(value, *grads)`` or ``wf.kernel_source`` shows the kernels. Gradients have the shape
and dtype of their argument; integer and bool arguments get zeros. Arguments may be tuples,
lists and dicts of arrays and scalars (``argnums`` picks positions); a Python float argument
that is differentiated becomes a 0-d array of the default real. Calls nest: a gradient of a
gradient (a Hessian-vector product) differentiates the first gradient's expression, whose
leaves remember the arguments they were made from. A lazy argument is computed first, in
place (a sampler's position carried from step to step as an expression ends there), except
inside a ``wf.function``'s trace, where it stays part of the traced expression.

A value and its gradients (and the gradients ``vjp``'s pullback returns) are computed
together when any of them is first read, as ``wf.eval`` computes them: reading the value,
then the gradient, runs their shared forward work once (a GLM reads ``x`` once for both, not
twice). One that is dropped unread is not computed.

>>> import weft as wf
>>> x = wf.asarray([1.0, 2.0, 3.0])
>>> wf.grad(lambda x: (x * x).sum())(x).tolist()
[2.0, 4.0, 6.0]
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

from . import expr as ex
from .adjoint import backward
from .array import Array
from .tape import RECORDING, reaches_argument
from .together import together
from .trace import flatten, unflatten

_LOCK = threading.Lock()


def vjp(f: Callable[..., Any], *args: Any) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    """``f(*args)`` and a function taking a cotangent shaped like that value (the same
    structure of arrays) to the tuple of ``f``'s vector-Jacobian products, one per argument.

    >>> import weft as wf
    >>> y, pullback = wf.vjp(lambda a, b: a * b, wf.asarray([1.0, 2.0]), wf.asarray([3.0, 4.0]))
    >>> [g.tolist() for g in pullback(wf.asarray([1.0, 1.0]))]
    [[3.0, 4.0], [1.0, 2.0]]
    """
    value, leaves, marked, trees, call = _call(f, args, tuple(range(len(args))))
    values: list[Any] = []
    value_tree = flatten(value, values)
    # The expressions as f returned them: evaluating the value later replaces its node.
    nodes = [v._node if isinstance(v, Array) else None for v in values]

    def pullback(cotangent: Any) -> tuple[Any, ...]:
        cotangents: list[Any] = []
        if flatten(cotangent, cotangents) != value_tree:
            raise ValueError("vjp: the cotangent's structure differs from the value's")
        roots, given = [], []
        for v, node, c in zip(values, nodes, cotangents):
            if node is None:
                continue
            c = c if isinstance(c, Array) else _constant(c, v)
            if c.shape != v.shape:
                raise ValueError(f"vjp: a cotangent of shape {c.shape} for a value of shape "
                                 f"{v.shape}")
            roots.append(node)
            given.append(c.astype(v.dtype) if c.dtype is not v.dtype else c)
        grads = _gradients(roots, given, leaves, marked, call)
        together([v for v in values if isinstance(v, Array)] + grads)
        return tuple(_rebuild(trees, grads))

    return value, pullback


def value_and_grad(f: Callable[..., Any], argnums: int | tuple[int, ...] = 0
                   ) -> Callable[..., tuple[Array, Any]]:
    """A function returning ``f``'s value (a 0-d real array) and its gradient with respect to
    the argument ``argnums`` (a tuple of gradients when ``argnums`` is a tuple).

    >>> import weft as wf
    >>> y = wf.asarray([0.5, -1.0])
    >>> lp, g = wf.value_and_grad(lambda mu: wf.stats.normal_lpdf(y, mu, 1.0))(0.0)
    >>> round(float(lp), 6), round(float(g), 6)
    (-2.462877, -0.5)
    """
    return _with_value(f, argnums, "value_and_grad")


def _with_value(f: Callable[..., Any], argnums: int | tuple[int, ...], name: str
                ) -> Callable[..., tuple[Array, Any]]:
    """``value_and_grad``, its errors naming the function called (``name``)."""
    positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    @functools.wraps(f)
    def call(*args: Any) -> tuple[Array, Any]:
        for k in positions:
            if not -len(args) <= k < len(args):
                raise ValueError(f"{name}: argnums {argnums} but f got {len(args)} "
                                 "positional argument(s)")
        chosen = tuple(k % len(args) for k in positions)
        value, leaves, marked, trees, call = _call(f, args, chosen)
        if not isinstance(value, Array) or value.shape != () or not value.dtype.is_float:
            what = (f"an array of shape {value.shape} and dtype {value.dtype}"
                    if isinstance(value, Array) else type(value).__name__)
            if isinstance(value, Array) and value.shape == () and value.dtype.kind in "biu":
                what += " (integer arguments make integer values: pass 2.0, not 2)"
            raise TypeError(f"{name}: f must return a 0-d real array, not {what}")
        one = Array(ex.scalar(1.0, value.dtype), value.device)
        flat = _gradients([value._node], [one], leaves, marked, call)
        together([value, *flat])
        grads = _rebuild(trees, flat)
        return value, grads[0] if isinstance(argnums, int) else tuple(grads)

    return call


def grad(f: Callable[..., Any], argnums: int | tuple[int, ...] = 0) -> Callable[..., Any]:
    """A function returning the gradient of ``f`` (returning a 0-d real array) with respect
    to the argument ``argnums`` (a tuple of gradients when ``argnums`` is a tuple).

    >>> import weft as wf
    >>> wf.grad(lambda x: wf.exp(x).sum())(wf.asarray([0.0, 1.0])).tolist()[0]
    1.0
    """
    with_value = _with_value(f, argnums, "grad")

    @functools.wraps(f)
    def call(*args: Any) -> Any:
        return with_value(*args)[1]

    return call


# -- the call -------------------------------------------------------------------------


def _call(f: Callable[..., Any], args: tuple[Any, ...], chosen: tuple[int, ...]
          ) -> tuple[Any, list[Array], list[bool], list[Any], object]:
    """Run ``f`` with the leaves of the ``chosen`` arguments marked. Returns its value, the
    marked leaves (in order), whether each can have a gradient (a real array), each chosen
    argument's tree, and the token naming this call in its leaves' tapes."""
    call = object()
    args = list(args)
    leaves: list[Array] = []
    marked: list[bool] = []
    trees = []
    for k in chosen:
        found: list[Any] = []
        tree = flatten(args[k], found)
        made = [_leaf(v, len(leaves) + j, call) for j, v in enumerate(found)]
        leaves.extend(made)
        marked.extend(a.dtype.is_float for a in made)
        args[k] = unflatten(tree, iter(made))
        trees.append(tree)
    with _LOCK:
        RECORDING[0] += 1
    try:
        value = f(*args)
    finally:
        with _LOCK:
            RECORDING[0] -= 1
    return value, leaves, marked, trees, call


def _leaf(value: Any, k: int, call: object) -> Array:
    """The ``k``-th differentiated leaf of ``call``: a new leaf over ``value``'s elements,
    marked, remembering what it was made from where an enclosing differentiation reaches
    that (a gradient of a gradient)."""
    from .creation import asarray
    from .traced import ACTIVITY, TRACED

    if type(value) in TRACED or isinstance(value, float):
        from .devices import current_device
        from .dtypes import default_real

        node = ex.scalar(value, default_real())  # a traced float stays a run-time value
        node.tape = ("argument", k, call, None)
        return Array(node, current_device())
    array = value if isinstance(value, Array) else asarray(value)
    if array.is_lazy and not ACTIVITY.tracing:
        array.eval()  # in place: an expression carried from call to call ends here
    node = array._node
    if node.kind is not ex.BUFFER:
        # Inside a traced function's trace a lazy argument stays lazy (an evaluation would
        # make the whole function run as plain Python): its leaf computes the same
        # expression but ends the reverse pass.
        leaf = _marked_copy(node)
        leaf.tape = ("argument", k, call, node if reaches_argument(node) else None)
        return Array(leaf, array.device)
    view = node.attrs
    leaf = ex.buffer(view.storage, node.shape, view.offset, view.strides, node.structure)
    leaf.tape = ("argument", k, call, node if reaches_argument(node) else None)
    return Array(leaf, array.device)


def _marked_copy(node: ex.Node) -> ex.Node:
    """A new node computing what ``node`` computes, free to carry a tape of its own."""
    copy = ex.rebuild(node, node.args)
    origin = getattr(node, "origin", None)
    if origin is not None:  # a scalar leaf made from a traced float stays a run-time value
        copy.origin = origin
    return copy


def _constant(value: Any, like: Array) -> Array:
    from .creation import full

    return full(like.shape, value, dtype=like.dtype, device=like.device)


def _gradients(roots: list[ex.Node], cotangents: list[Array], leaves: list[Array],
               marked: list[bool], call: object) -> list[Array]:
    """Each leaf's gradient: its adjoint, or zeros where nothing reaches it."""
    from .creation import zeros

    adjoints = backward(roots, cotangents, len(leaves), call)
    out = []
    for leaf, real, adjoint in zip(leaves, marked, adjoints):
        if not real or adjoint is None:
            out.append(zeros(leaf.shape, dtype=leaf.dtype, device=leaf.device))
        else:
            out.append(adjoint)
    return out


def _rebuild(trees: list[Any], grads: list[Array]) -> list[Any]:
    """The gradients in the structure of each chosen argument."""
    flat = iter(grads)
    return [unflatten(tree, flat) for tree in trees]
