"""Matrix decompositions weft does not write as kernels: ``eigh``, ``eigvalsh``, ``svd``,
``svdvals``, ``qr``, ``pinv`` and ``matrix_rank`` from the device's library
(``linalg_library.py``: LAPACK on the host for OpenCL devices and the reference device,
cuSOLVER through CuPy on CUDA), their results back on the device; and ``slogdet``, ``det``
and ``matrix_power`` from weft's own pieces. Part of ``wf.linalg`` and of the array API
namespace's ``linalg``.

Matrices only (at most 2 dimensions until the n-d issue); integer and bool operands are
computed in the default real type. ``det`` and ``slogdet`` are differentiable (through
``logdet``); the library decompositions raise ``NotImplementedError`` when a gradient would
pass through them, rather than treat them as constants.

>>> import weft as wf
>>> wf.linalg.eigvalsh(wf.asarray([[2.0, 1.0], [1.0, 2.0]])).to_numpy().round(12).tolist()
[1.0, 3.0]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from . import dtypes as dt
from .array import Array
from .creation import asarray
from .linalg_library import library
from .tape import RECORDING, reaches_argument, recorded


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


def _matrix(x: Any, name: str, square: bool = False) -> Array:
    """``x`` as a weft matrix of a real type, or a clear error."""
    x = x if isinstance(x, Array) else asarray(x)
    if x.ndim != 2:
        raise ValueError(f"wf.linalg.{name}: expected a matrix (2 dimensions), got shape "
                         f"{x.shape} (stacks of matrices wait for n-d arrays)")
    if square and x.shape[0] != x.shape[1]:
        raise ValueError(f"wf.linalg.{name}: expected a square matrix, got shape {x.shape}")
    if not x.dtype.is_float:
        x = x.astype(dt.default_real())
    if RECORDING[0] and reaches_argument(x._node):
        raise NotImplementedError(f"the gradient of wf.linalg.{name} is not available (a "
                                  "library decomposition)")
    return x


def _library(x: Array, compute: Any) -> tuple[Array, ...]:
    """``compute(array_module, x)``'s arrays, computed by ``x``'s device's library, as weft
    arrays of ``x``'s type on its device."""
    lib = library(x.device)
    with lib.on_stream():
        found = compute(lib.np, lib.take(x))
        return tuple(lib.give(f, x.dtype) for f in found)


def eigh(x: Any) -> EighResult:
    """The eigenvalues (ascending) and eigenvectors (columns) of a symmetric matrix, from its
    lower triangle, as ``numpy.linalg.eigh``.

    >>> import weft as wf
    >>> w, v = wf.linalg.eigh(wf.asarray([[2.0, 0.0], [0.0, 1.0]]))
    >>> w.tolist(), abs(v).tolist()
    ([1.0, 2.0], [[0.0, 1.0], [1.0, 0.0]])
    """
    x = _matrix(x, "eigh", square=True)
    return EighResult(*_library(x, lambda xp, a: xp.linalg.eigh(a)))


def eigvalsh(x: Any) -> Array:
    """The eigenvalues of a symmetric matrix, ascending (``numpy.linalg.eigvalsh``).

    >>> import weft as wf
    >>> wf.linalg.eigvalsh(wf.asarray([[1.0, 0.0], [0.0, -1.0]])).tolist()
    [-1.0, 1.0]
    """
    x = _matrix(x, "eigvalsh", square=True)
    return _library(x, lambda xp, a: (xp.linalg.eigvalsh(a),))[0]


def svd(x: Any, full_matrices: bool = True) -> SVDResult:
    """U, the singular values (descending) and Vᴴ with x = U diag(S) Vᴴ
    (``numpy.linalg.svd``); ``full_matrices=False`` gives the reduced factors.

    >>> import weft as wf
    >>> wf.linalg.svd(wf.asarray([[3.0, 0.0], [0.0, -4.0]])).S.tolist()
    [4.0, 3.0]
    """
    x = _matrix(x, "svd")
    return SVDResult(*_library(
        x, lambda xp, a: xp.linalg.svd(a, full_matrices=bool(full_matrices))))


def svdvals(x: Any) -> Array:
    """The singular values, descending.

    >>> import weft as wf
    >>> wf.linalg.svdvals(wf.asarray([[0.0, 2.0], [1.0, 0.0]])).tolist()
    [2.0, 1.0]
    """
    x = _matrix(x, "svdvals")
    return _library(x, lambda xp, a: (xp.linalg.svd(a, compute_uv=False),))[0]


def qr(x: Any, mode: str = "reduced") -> QRResult:
    """Q with orthonormal columns and upper triangular R, x = Q R (``numpy.linalg.qr``);
    ``mode`` ``"reduced"`` or ``"complete"``.

    >>> import weft as wf
    >>> q, r = wf.linalg.qr(wf.asarray([[2.0, 0.0], [0.0, 3.0]]))
    >>> abs(r).tolist()
    [[2.0, 0.0], [0.0, 3.0]]
    """
    if mode not in ("reduced", "complete"):
        raise ValueError(f"wf.linalg.qr: mode must be 'reduced' or 'complete', not {mode!r}")
    x = _matrix(x, "qr")
    return QRResult(*_library(x, lambda xp, a: xp.linalg.qr(a, mode=mode)))


def _cutoff(s: Any, shape: tuple[int, ...], dtype: dt.DType, rtol: Any) -> Any:
    """Singular values at most this are taken as zero: ``rtol`` (default max(M, N) eps)
    times the largest."""
    if rtol is None:
        rtol = max(shape) * float(np.finfo(dtype.numpy).eps)
    return (s.max() if s.size else 0.0) * float(rtol)


def pinv(x: Any, rtol: float | None = None) -> Array:
    """The Moore-Penrose pseudo-inverse, singular values at most ``rtol`` (default
    max(M, N) eps) times the largest taken as zero.

    >>> import weft as wf
    >>> wf.linalg.pinv(wf.asarray([[2.0, 0.0], [0.0, 0.0]])).tolist()
    [[0.5, 0.0], [0.0, 0.0]]
    """
    x = _matrix(x, "pinv")

    def compute(xp: Any, a: Any) -> tuple[Any]:
        u, s, vh = xp.linalg.svd(a, full_matrices=False)
        kept = s > _cutoff(s, x.shape, x.dtype, rtol)
        inverse = xp.where(kept, 1.0 / xp.where(kept, s, 1.0), 0.0)
        return ((vh.T * inverse) @ u.T,)

    return _library(x, compute)[0]


def matrix_rank(x: Any, rtol: float | None = None) -> Array:
    """The number of singular values above ``rtol`` (default max(M, N) eps) times the
    largest, as a 0-d int64 array.

    >>> import weft as wf
    >>> int(wf.linalg.matrix_rank(wf.asarray([[1.0, 2.0], [2.0, 4.0]])))
    1
    """
    x = _matrix(x, "matrix_rank")
    s = svdvals(x)
    return (s > _cutoff(s.to_numpy(), x.shape, x.dtype, rtol)).astype(dt.int64).sum()


def slogdet(x: Any) -> SlogdetResult:
    """The sign of the determinant and the log of its absolute value, as 0-d arrays
    (``numpy.linalg.slogdet``), from one factorization; differentiable through
    ``logabsdet`` (recorded as ``logdet``'s result, with its rule).

    >>> import weft as wf
    >>> sign, logabs = wf.linalg.slogdet(wf.asarray([[2.0, 0.0], [0.0, -4.0]]))
    >>> float(sign), round(float(logabs), 9)
    (-1.0, 2.079441542)
    """
    from .linalg import sign_and_logdet

    signs = []

    def logdet(a: Any) -> Array:
        sign, value = sign_and_logdet(a, "slogdet")
        signs.append(sign)
        return value

    logabs = recorded("logdet")(logdet)(x)
    return SlogdetResult(signs[0], logabs)


def det(x: Any) -> Array:
    """The determinant, sign times exp(log |det|): differentiable like ``logdet``.

    >>> import weft as wf
    >>> round(float(wf.linalg.det(wf.asarray([[2.0, 1.0], [1.0, 3.0]]))), 12)
    5.0
    """
    from .functions import exp

    sign, logabs = slogdet(x)
    return sign * exp(logabs)


def matrix_power(x: Any, n: int) -> Array:
    """x multiplied by itself ``n`` times (by squaring): the identity for 0, powers of the
    inverse for negative ``n``.

    >>> import weft as wf
    >>> wf.linalg.matrix_power(wf.asarray([[1.0, 1.0], [0.0, 1.0]]), 3).tolist()
    [[1.0, 3.0], [0.0, 1.0]]
    """
    from .creation import eye
    from .linalg import inv, matmul

    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"wf.linalg.matrix_power: n must be an integer, not {n!r}")
    x = x if isinstance(x, Array) else asarray(x)
    if x.ndim != 2 or x.shape[0] != x.shape[1]:
        raise ValueError(f"wf.linalg.matrix_power: expected a square matrix, got shape "
                         f"{x.shape}")
    if n == 0:
        return eye(x.shape[0], dtype=x.dtype, device=x.device)
    base = inv(x) if n < 0 else x
    result = None
    n = abs(int(n))
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result
