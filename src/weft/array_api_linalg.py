"""The array API standard's ``linalg`` extension (2023.12): ``xp.linalg`` of weft's array API
namespace, for matrices (stacks of them wait for the n-d issue).

weft's own functions where it has them (``cholesky``, ``inv``, ``solve``, ``matmul``,
``outer``, ``tensordot``, ``vecdot``, the norms, ``trace`` and ``diagonal`` as lazy
expressions), the decompositions from the device's library (``decompositions.py``), and
the standard's signatures over them (``upper=``, ``offset=``, ``ord=``, ``keepdims=``).

>>> import weft as wf
>>> xp = wf.asarray([1.0]).__array_namespace__()
>>> xp.linalg.matrix_norm(xp.asarray([[3.0, 0.0], [0.0, 4.0]]), ord=2).item()
4.0
"""

from __future__ import annotations

from typing import Any

import weft as _wf

from . import decompositions as _decompositions
from .array import Array
from .array_api import matrix_transpose, vecdot
from .indexing import checked_axis

__all__ = ["cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul",
           "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv",
           "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
           "vector_norm"]

det = _decompositions.det
eigh = _decompositions.eigh
eigvalsh = _decompositions.eigvalsh
matrix_power = _decompositions.matrix_power
slogdet = _decompositions.slogdet
svdvals = _decompositions.svdvals
inv = _wf.linalg.inv
matmul = _wf.linalg.matmul
outer = _wf.linalg.outer
solve = _wf.linalg.solve
tensordot = _wf.tensordot


def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """The Cholesky factor of a symmetric positive definite matrix: lower (x = L Lᵀ), or
    upper (x = Uᵀ U) with ``upper=True``."""
    factor = _wf.linalg.cholesky(x)
    return factor.mT if upper else factor


def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The cross product of 3-element vectors along ``axis`` (the other axis broadcast)."""
    x1, x2 = _wf.broadcast_arrays(x1, x2)
    along = checked_axis("cross", axis, x1.ndim)
    if x1.shape[along] != 3:
        raise ValueError(f"cross: axis {axis} of shape {x1.shape} has {x1.shape[along]} "
                         "elements, not 3")

    def part(x: Array, k: int) -> Array:
        return x[(slice(None),) * along + (k,)]

    a, b = [part(x1, k) for k in range(3)], [part(x2, k) for k in range(3)]
    parts = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return _wf.stack(parts, axis=along)


def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """The diagonal ``offset`` places above the main one (below for negative offsets)."""
    return _wf.diagonal(x, offset)


def matrix_norm(x: Array, /, *, keepdims: bool = False, ord: Any = "fro") -> Array:  # noqa: A002
    """A matrix norm: ``'fro'``, ``'nuc'``, 1, -1, 2, -2, inf or -inf."""
    return _wf.linalg.norm(x, ord=ord, axis=(0, 1), keepdims=keepdims)


def matrix_rank(x: Array, /, *, rtol: Any = None) -> Array:
    """The count of singular values above ``rtol`` (default max(M, N) eps) times the
    largest."""
    return _decompositions.matrix_rank(x, rtol=rtol)


def pinv(x: Array, /, *, rtol: Any = None) -> Array:
    """The pseudo-inverse, singular values at most ``rtol`` times the largest dropped."""
    return _decompositions.pinv(x, rtol=rtol)


def qr(x: Array, /, *, mode: str = "reduced") -> _decompositions.QRResult:
    """Q and R with x = Q R, ``mode`` ``'reduced'`` or ``'complete'``."""
    return _decompositions.qr(x, mode=mode)


def svd(x: Array, /, *, full_matrices: bool = True) -> _decompositions.SVDResult:
    """U, S and Vh with x = U diag(S) Vh."""
    return _decompositions.svd(x, full_matrices=full_matrices)


def trace(x: Array, /, *, offset: int = 0, dtype: Any = None) -> Array:
    """The sum of the diagonal ``offset`` places from the main one, as a 0-d array (in
    ``dtype`` if given)."""
    return _wf.diagonal(x, offset).sum(dtype=dtype)


def vector_norm(x: Array, /, *, axis: Any = None, keepdims: bool = False,
                ord: Any = 2) -> Array:  # noqa: A002
    """A vector norm along ``axis`` (every element for None, or both axes of a matrix):
    any power p, inf, -inf or 0 (the count of non-zeros)."""
    if axis is None or (isinstance(axis, tuple) and len(axis) == x.ndim):
        flat = _wf.linalg.norm(x.reshape((x.size,)), ord=ord)
        return flat.reshape((1,) * x.ndim) if keepdims else flat
    return _wf.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)
