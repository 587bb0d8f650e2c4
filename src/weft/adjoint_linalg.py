"""Reverse rules of the library functions whose results are materialized (tape.py): the
linear algebra, the sort, the scans and the compactions (``x[mask]``).

Each rule takes the result's adjoint ``g``, the result and the operands as the call got them,
and returns each operand's share (None for one with no gradient). The products, the outer
product, ``trace``, ``frobenius`` and ``lcholdet`` are lazy expressions and need no rule here.
The formulas are the standard ones (Giles, "An extended collection of matrix derivative
results", 2008; Murray, "Differentiation of the Cholesky decomposition", 2016).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .array import Array

Rule = Callable[..., tuple[Any, ...]]


def _matmul(g: Array, out: Array, a: Any, b: Any) -> tuple[Any, ...]:
    from .linalg import outer

    if not isinstance(a, Array) or not isinstance(b, Array):
        return (None, None)
    if a.ndim == 2 and b.ndim == 2:
        return g @ b.T, a.T @ g
    if a.ndim == 2:  # matrix @ vector
        return outer(g, b), a.T @ g
    if b.ndim == 2:  # vector @ matrix
        return b @ g, outer(a, g)
    return g * b, g * a


def _lower_half(x: Array) -> Array:
    """The lower triangle with the diagonal halved (Murray's Φ)."""
    from .matrix import diag, diagonal, tril

    return tril(x) - 0.5 * diag(diagonal(x))


def _cholesky(g: Array, out: Array, s: Any) -> tuple[Any, ...]:
    from .linalg import solve_triangular
    from .matrix import tril

    factor_t = out.T
    phi = _lower_half(factor_t @ tril(g))
    # S̄ = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹, made symmetric: S is read as symmetric (as JAX and torch do).
    left = solve_triangular(factor_t, phi, lower=False)
    s_bar = solve_triangular(factor_t, left.T, lower=False).T
    return (0.5 * (s_bar + s_bar.T),)


def _solve_triangular(g: Array, out: Array, a: Any, b: Any, lower: bool | None = None
                      ) -> tuple[Any, ...]:
    from .linalg import outer, solve_triangular
    from .matrix import tril, triu

    lower = a.structure != "upper" if lower is None else lower
    b_bar = solve_triangular(a.T, g, lower=not lower)
    product = outer(b_bar, out) if out.ndim == 1 else b_bar @ out.T
    a_bar = -(tril(product) if lower else triu(product))
    return a_bar, b_bar


def _triinv(g: Array, out: Array, a: Any, lower: bool | None = None) -> tuple[Any, ...]:
    from .matrix import tril, triu

    lower = a.structure != "upper" if lower is None else lower
    product = -(out.T @ g @ out.T)
    return (tril(product) if lower else triu(product),)


def _symmetric_to_factor(sigma_bar: Array, factor: Array) -> Array:
    """The adjoint of L from that of S = L Lᵀ: tril((S̄ + S̄ᵀ) L)."""
    from .matrix import tril

    return tril((sigma_bar + sigma_bar.T) @ factor)


def _cho_solve(g: Array, out: Array, factor: Any, b: Any) -> tuple[Any, ...]:
    from .linalg import cho_solve, outer

    b_bar = cho_solve(factor, g)
    sigma_bar = -(outer(b_bar, out) if out.ndim == 1 else b_bar @ out.T)
    return _symmetric_to_factor(sigma_bar, factor), b_bar


def _cholinv(g: Array, out: Array, factor: Any) -> tuple[Any, ...]:
    sigma_bar = -(out @ g @ out)
    return (_symmetric_to_factor(sigma_bar, factor),)


def _solve(g: Array, out: Array, a: Any, b: Any) -> tuple[Any, ...]:
    from .linalg import outer, solve

    b_bar = solve(a.T, g)
    return -(outer(b_bar, out) if out.ndim == 1 else b_bar @ out.T), b_bar


def _inv(g: Array, out: Array, a: Any) -> tuple[Any, ...]:
    return (-(out.T @ g @ out.T),)


def _logdet(g: Array, out: Array, a: Any) -> tuple[Any, ...]:
    from .linalg import inv

    return (g * inv(a).T,)


def _sort(g: Array, out: Array, x: Any, axis: int, kind: Any = None) -> tuple[Any, ...]:
    from .sorting import argsort, take_along

    # (Tied values are equal: which of them takes which adjoint is a convention, the stable
    # order's, whatever sort made the values.)
    moved_to = argsort(argsort(x, axis=axis), axis=axis)  # where each element was sorted to
    return (take_along(g, moved_to, axis), None)


def _compact(g: Array, out: Array, values: Any, mask: Any) -> tuple[Any, ...]:
    from .compaction import compact_adjoint

    return compact_adjoint(g, out, values, mask)


RULES: dict[str, Rule] = {
    "matmul": _matmul, "cholesky": _cholesky, "solve_triangular": _solve_triangular,
    "triinv": _triinv, "cho_solve": _cho_solve, "cholinv": _cholinv, "solve": _solve,
    "inv": _inv, "logdet": _logdet, "sort": _sort,
    "compact": _compact,
}
