"""``einsum`` over operands of at most two dimensions, as weft's own lazy operations.

An operand's repeated subscript takes its diagonal (``"ii"``), and a subscript that only one
operand has and the result lacks is summed out of it first. Operands then combine pairwise,
left to right: a pair whose subscripts together fit in two dimensions is multiplied element by
element (aligned by transposes and new axes) and summed over what nothing later needs, which
fuses into one kernel; a pair sharing one summed subscript, with one more subscript on each
side, is a matrix product. So ``einsum("ij,jk->ik", a, b)`` is ``a @ b``,
``einsum("ij,ij->i", a, b)`` is ``(a * b).sum(axis=1)`` and ``einsum("ii", a)`` is the trace.
A pair that would need an intermediate of three dimensions is refused, naming it.
"""

from __future__ import annotations

from typing import Any

from .array import Array
from .creation import asarray

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def einsum(subscripts: str, *operands: Any, optimize: Any = False) -> Array:
    """Einstein summation, as ``numpy.einsum``, for operands and a result of at most two
    dimensions; lazy, and fused where the terms allow (``optimize`` is accepted and ignored:
    the pairs combine left to right).

    >>> import weft as wf
    >>> a = wf.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> wf.einsum("ij,jk->ik", a, a).tolist()
    [[7.0, 10.0], [15.0, 22.0]]
    >>> float(wf.einsum("ii", a)), wf.einsum("ij->j", a).tolist()
    (5.0, [4.0, 6.0])
    """
    if not isinstance(subscripts, str):
        raise TypeError("wf.einsum: subscripts come first, as a string such as 'ij,jk->ik' "
                        "(the interleaved operand, sublist form is not supported)")
    arrays = [x if isinstance(x, Array) else asarray(x) for x in operands]
    inputs, output = _parse(subscripts, arrays)
    terms = [_own_terms(x, letters, output, inputs, k)
             for k, (x, letters) in enumerate(zip(arrays, inputs))]
    x, letters = terms[0]
    for k in range(1, len(terms)):
        later = set(output).union(*(t[1] for t in terms[k + 1:]))
        x, letters = _combine((x, letters), terms[k], later, subscripts)
    return _arranged(x, letters, output)


def _parse(subscripts: str, arrays: list[Array]) -> tuple[list[str], str]:
    """Each operand's subscripts and the result's (NumPy's implicit form: the subscripts
    seen once, in alphabetical order), checked against the operands' shapes."""
    text = subscripts.replace(" ", "")
    if "..." in text:
        raise ValueError("wf.einsum: '...' (broadcast dimensions) is not supported: weft "
                         "arrays have at most two dimensions")
    given, arrow, output = text.partition("->")
    inputs = given.split(",")
    if len(inputs) != len(arrays):
        raise ValueError(f"wf.einsum: {subscripts!r} names {len(inputs)} operand(s), but "
                         f"{len(arrays)} were given")
    for letter in text.replace(",", "").replace("->", ""):
        if letter not in _LETTERS:
            raise ValueError(f"wf.einsum: {letter!r} in {subscripts!r} is not a subscript "
                             "(subscripts are letters)")
    sizes: dict[str, int] = {}
    for k, (letters, x) in enumerate(zip(inputs, arrays)):
        if len(letters) != x.ndim:
            raise ValueError(f"wf.einsum: operand {k} has shape {x.shape}, but its "
                             f"subscripts {letters!r} name {len(letters)} dimension(s)")
        for letter, size in zip(letters, x.shape):
            if sizes.setdefault(letter, size) != size:
                raise ValueError(f"wf.einsum: subscript {letter!r} has size {sizes[letter]} "
                                 f"and {size} in {subscripts!r}")
    seen = "".join(inputs)
    if not arrow:
        output = "".join(sorted(c for c in set(seen) if seen.count(c) == 1))
    if len(set(output)) != len(output):
        raise ValueError(f"wf.einsum: the result's subscripts {output!r} repeat one")
    missing = [c for c in output if c not in seen]
    if missing:
        raise ValueError(f"wf.einsum: the result's subscript {missing[0]!r} is not an "
                         "operand's")
    if len(output) > 2:
        raise ValueError(f"wf.einsum: a result of {len(output)} dimensions ({output!r}); "
                         "weft arrays have at most two")
    return inputs, output


def _own_terms(x: Array, letters: str, output: str, inputs: list[str], k: int
               ) -> tuple[Array, str]:
    """An operand with its diagonal taken (``"ii"``) and the subscripts only it has (and
    the result lacks) summed out."""
    from .matrix import diagonal

    if len(letters) == 2 and letters[0] == letters[1]:
        x, letters = diagonal(x), letters[0]
    others = set("".join(inputs[:k] + inputs[k + 1:])) | set(output)
    alone = [axis for axis, c in enumerate(letters) if c not in others]
    if len(alone) == len(letters) and alone:
        return x.sum(), ""
    if alone:
        (axis,) = alone
        return x.sum(axis=axis), letters.replace(letters[axis], "")
    return x, letters


def _combine(left: tuple[Array, str], right: tuple[Array, str], later: set[str],
             subscripts: str) -> tuple[Array, str]:
    (a, la), (b, lb) = left, right
    union = la + "".join(c for c in lb if c not in la)
    kept = "".join(c for c in union if c in later)
    if len(union) <= 2:
        product = _aligned(a, la, union) * _aligned(b, lb, union)
        summed = [axis for axis, c in enumerate(union) if c not in later]
        if not summed:
            return product, union
        if len(summed) == len(union):
            return product.sum(), ""
        return product.sum(axis=summed[0]), kept
    shared = [c for c in la if c in lb]
    if len(la) == 2 and len(lb) == 2 and len(shared) == 1 and shared[0] not in later:
        from .linalg import matmul

        (c,) = shared
        free_a, free_b = la.replace(c, ""), lb.replace(c, "")
        return matmul(_arranged(a, la, free_a + c), _arranged(b, lb, c + free_b)), \
            free_a + free_b
    raise ValueError(f"wf.einsum: {subscripts!r} combines {la!r} with {lb!r} into an "
                     f"intermediate of {len(union)} dimensions ({union!r}); weft arrays have "
                     "at most two")


def _aligned(x: Array, letters: str, target: str) -> Array:
    """``x`` laid out along ``target`` (its subscripts in that order, new axes of one
    element for the others), to broadcast against another operand laid out the same way."""
    if len(letters) == len(target):
        return _arranged(x, letters, target)
    if not letters:
        return x
    return x[:, None] if letters == target[0] else x[None, :]


def _arranged(x: Array, letters: str, order: str) -> Array:
    return x if letters == order else x.T
