"""Linear algebra: products, factorizations and solves on the device's own library.

On CUDA devices the work goes to cuBLAS and cuSOLVER through CuPy, on weft's stream for the
calling thread, zero-copy both ways. On OpenCL devices (PoCL's CPU device, OpenCL GPUs) and the
reference device it goes to NumPy/SciPy's LAPACK on the host (``linalg_library``): a CPU
device's operands are read in place (mapped), a GPU's copied to the host, and the result is
copied back (docs/linalg.md gives the cost). Lazy operands are evaluated first,
once. Results carry structure: ``cholesky`` and ``triinv`` of a lower factor are lower, and
``solve_triangular`` reads it. The reductions (``trace``, ``frobenius``, ``lcholdet``) and the
outer product stay lazy and fuse with what follows.

>>> import weft as wf
>>> S = wf.asarray([[4.0, 2.0], [2.0, 3.0]])
>>> L = wf.linalg.cholesky(S)
>>> L.structure
'lower'
>>> round(float(wf.linalg.lcholdet(L)), 6) == round(float(wf.linalg.logdet(S)), 6)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from .array import Array, apply_op
from .creation import asarray
from .devices import Device
from .indexing import transpose_map, transposed_source
from .linalg_library import library
from .tape import keep_alias, recorded
from .tuning import LIBRARY_COLUMNS, LIBRARY_ELEMENTS

__all__ = ["LinAlgError", "matmul", "dot", "inner", "outer", "trace", "frobenius", "cholesky",
           "cho_solve", "cholinv", "solve_triangular", "triinv", "inv", "solve", "logdet",
           "lcholdet", "norm"]


def __dir__() -> list[str]:
    """The public names only (``dir(wf.linalg)`` listed the modules it imports too)."""
    return sorted(__all__)


class LinAlgError(ValueError):
    """A matrix that the operation cannot handle: not positive definite, or singular."""


# -- operands and results -------------------------------------------------------------


def _operand(x: Any, name: str, device: Device | None = None, evaluate: bool = True
             ) -> Array:
    """``x`` as an Array, materialized unless ``evaluate`` is false (a lazy one is evaluated
    now, once)."""
    a = x if isinstance(x, Array) else asarray(x, device=device)
    if device is not None and a.device is not device:
        raise ValueError(f"{name}: operands live on {a.device} and {device}; move one with "
                         "wf.asarray(x, device=...)")
    return a.eval() if evaluate else a


def _pair(a: Any, b: Any, name: str, evaluate: bool = True) -> tuple[Array, Array]:
    arrays = [x for x in (a, b) if isinstance(x, Array)]
    device = arrays[0].device if arrays else None
    return _operand(a, name, device, evaluate), _operand(b, name, device, evaluate)


def _as(x: Array, dtype: dt.DType) -> Array:
    return x if x.dtype is dtype else x.astype(dtype).eval()


def _real(*xs: Array) -> dt.DType:
    """The dtype a factorization computes in: the operands' promoted real type."""
    d = dt.resolve([x.dtype for x in xs], [])
    return d if d.is_float else dt.default_real()


def _square(x: Array, name: str) -> None:
    if x.ndim != 2 or x.shape[0] != x.shape[1]:
        raise ValueError(f"{name}: expected a square matrix, got shape {x.shape}")


def _with_structure(x: Array, structure: str) -> Array:
    """The same buffer, marked with ``structure`` (its zeros are known)."""
    view = x._node.attrs
    out = ex.buffer(view.storage, x.shape, view.offset, view.strides, structure)
    keep_alias(x._node, out)
    return Array(out, x.device)


# -- products ---------------------------------------------------------------------------


@recorded("matmul")
def matmul(a: Any, b: Any, out: Array | None = None) -> Array:
    """Matrix product as NumPy's ``matmul`` (``a @ b``): matrix-matrix, matrix-vector,
    vector-matrix and vector-vector (a 0-d result); with ``out``, written there.

    >>> import weft as wf
    >>> (wf.asarray([[1.0, 2.0], [3.0, 4.0]]) @ wf.asarray([1.0, 1.0])).tolist()
    [3.0, 7.0]
    """
    if out is not None:
        from .functions import _into

        return _into(out, matmul(a, b), "matmul")
    a, b = _pair(a, b, "matmul", evaluate=False)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"matmul: operands of shapes {a.shape} and {b.shape}: a 0-d operand "
                         "has no dimension to contract (use * to scale)")
    inner_a = a.shape[-1]
    inner_b = b.shape[0]
    if inner_a != inner_b:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} do not align "
                         f"({inner_a} != {inner_b})")
    dtype = a.dtype if a.dtype is b.dtype else dt.resolve([a.dtype, b.dtype], [])
    if {a.ndim, b.ndim} == {1, 2} and a.size and b.size and (
            a.device.kind != "cuda" or not _library_reads_faster(a, b)):
        return matvec_fused(a, b, dtype)
    if a.ndim == 1 and b.ndim == 1 and dtype.kind != "b":
        # A reduction of the product, lazy and fused (through the host library: an eager
        # round trip, 151 us ad hoc for 1000 doubles on PoCL against 30).
        return ((a if a.dtype is dtype else a.astype(dtype))
                * (b if b.dtype is dtype else b.astype(dtype))).sum(dtype=dtype)
    a, b = _evaluated_pair(a, b)
    a, b = _as(a, dtype), _as(b, dtype)
    lib = library(a.device)
    if a.size == 0 or b.size == 0:
        shape = a.shape[:-1] + b.shape[1:]
        return asarray(np.zeros(shape, dtype.numpy), device=a.device)
    with lib.on_stream():
        return lib.give(lib.np.matmul(lib.take(a), lib.take(b)), dtype)


def _evaluated_pair(a: Array, b: Array) -> tuple[Array, Array]:
    """``a`` and ``b`` computed, where one is the other's transpose (``z.T @ z``) by
    computing the other once and viewing it transposed, not computing the expression twice
    (once in each layout)."""
    for first, second in ((a, b), (b, a)):
        base = first._base
        if (base is not None and base[0] is second and base[1] == transpose_map()
                and first.shape == second.shape[::-1]):
            second.eval()
            return (second.T, second) if first is a else (second, second.T)
    return a.eval(), b.eval()


def _library_reads_faster(a: Array, b: Array) -> bool:
    """Whether cuBLAS computes the matrix-vector product ``a @ b`` faster than weft's own
    reduction: only where it sums the columns (``v @ x``, ``x.T @ v``) of a large
    C-contiguous matrix of many columns (cuBLAS 15-25% faster from 10^8 elements of 1000
    to 5000 columns on the H200). Every other product weft's reduction reads as fast or
    faster (narrow rows 1.7-3.5x, strided matrices 2-5x: cuBLAS copies them first, a
    10^7 x 3 matrix 3.5x), fuses with the matrix's producer and replays in a traced
    function, where a library call runs its Python at every call (about 110 us for a
    1000 x 10 matrix against 7; ``results/gpu-NVIDIA-H200/matvec-2026-12-01.txt``)."""
    if a.ndim == 1:
        if transposed_source(b) is not None:
            return False  # the rows of b's source
        matrix = b
    else:
        matrix = transposed_source(a)
        if matrix is None:
            return False  # a's rows
    node = matrix._node
    return (node.kind == ex.BUFFER and matrix.shape[1] >= LIBRARY_COLUMNS
            and matrix.size >= LIBRARY_ELEMENTS
            and node.attrs.strides == ex.contiguous_strides(matrix.shape))


def matvec_fused(a: Array, b: Array, dtype: dt.DType) -> Array:
    """A matrix-vector product as weft's own row (or column) reduction of ``a * b``: on an
    OpenCL device it stays on the device, at memory bandwidth, instead of a trip through
    host BLAS, and it is lazy, so it fuses with the producer of the matrix (and with the
    density that reads it: stats' GLMs).

    >>> import weft as wf
    >>> matvec_fused(wf.asarray([[1.0, 2.0]]), wf.asarray([3.0, 4.0]), wf.float64).tolist()
    [11.0]
    """
    # A transposed matrix is reduced as its source, along the other axis: a walk along the
    # transpose's rows would step down the source's columns, one element per row apart
    # (x.T @ y over 5000^2 doubles on 2 Xeon cores: 155 -> 10-15 ms).
    if a.ndim == 2:
        source = transposed_source(a)
        if source is not None:
            return (source.astype(dtype) * b.astype(dtype).reshape(b.size, 1)).sum(
                axis=0, dtype=dtype)
        # b broadcasts along the rows as it is; the sum keeps the product's type (an int32
        # or bool product is no int64 sum, as NumPy's)
        if a.dtype is dtype and b.dtype is dtype:
            return (a * b).sum(axis=1, dtype=dtype)
        return (a.astype(dtype) * b.astype(dtype)).sum(axis=1, dtype=dtype)
    source = transposed_source(b)
    if source is not None:
        return (source.astype(dtype) * a.astype(dtype).reshape(1, a.size)).sum(axis=1,
                                                                               dtype=dtype)
    return (a.astype(dtype).reshape(a.size, 1) * b.astype(dtype)).sum(axis=0, dtype=dtype)


def dot(a: Any, b: Any) -> Array:
    """NumPy's ``dot``: a scalar operand scales (lazily); otherwise ``matmul``.

    >>> import weft as wf
    >>> float(wf.linalg.dot(wf.asarray([1.0, 2.0]), wf.asarray([3.0, 4.0])))
    11.0
    """
    def ndim(x: Any) -> int:  # (np.ndim of a weft array goes through its protocol)
        return x.ndim if isinstance(x, Array) else np.ndim(x)

    if ndim(a) == 0 or ndim(b) == 0:
        if not isinstance(a, Array) and not isinstance(b, Array):
            a = asarray(a)
        return apply_op("multiply", a, b)
    return matmul(a, b)


def inner(a: Any, b: Any) -> Array:
    """NumPy's ``inner``: contraction over the last axes (``a @ b.T`` for matrices).

    >>> import weft as wf
    >>> wf.linalg.inner(wf.asarray([[1.0, 2.0]]), wf.asarray([[3.0, 4.0]])).tolist()
    [[11.0]]
    """
    a, b = _pair(a, b, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: shapes {a.shape} and {b.shape} differ in their last "
                         f"dimension ({a.shape[-1]} != {b.shape[-1]})")
    return matmul(a, b.T if b.ndim == 2 else b)


def outer(a: Any, b: Any) -> Array:
    """NumPy's ``outer`` (operands flattened): lazy, so it fuses with what follows.

    >>> import weft as wf
    >>> wf.linalg.outer(wf.asarray([1.0, 2.0]), wf.asarray([3.0, 4.0])).tolist()
    [[3.0, 4.0], [6.0, 8.0]]
    """
    a, b = _pair(a, b, "outer")
    column = a.reshape(a.size, 1)
    row = b.reshape(1, b.size)
    return column * row


def trace(x: Any) -> Array:
    """The sum of the diagonal: a lazy 0-d Array (a fused reduction).

    >>> import weft as wf
    >>> float(wf.linalg.trace(wf.asarray([[1.0, 2.0], [3.0, 4.0]])))
    5.0
    """
    from .matrix import diagonal

    x = x if isinstance(x, Array) else asarray(x)
    if x.ndim != 2:
        raise ValueError(f"trace: expected a matrix, got shape {x.shape}")
    return diagonal(x).sum()


def frobenius(a: Any, b: Any = None) -> Array:
    """Σ a² or, with ``b``, the Frobenius product Σ a∘b (NumBirch): a lazy 0-d Array.

    >>> import weft as wf
    >>> float(wf.linalg.frobenius(wf.asarray([[1.0, 2.0], [3.0, 4.0]])))
    30.0
    """
    a = a if isinstance(a, Array) else asarray(a)
    if b is None:
        return (a * a).sum()
    b = b if isinstance(b, Array) else asarray(b, device=a.device)
    if a.shape != b.shape:
        raise ValueError(f"frobenius: shapes {a.shape} and {b.shape} differ")
    return (a * b).sum()


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Array:  # noqa: A002 - NumPy's name
    """A vector or matrix norm, as ``numpy.linalg.norm``: lazy, one fused reduction (two for
    the matrix 1- and inf-norms). Vectors: ``ord`` None or 2, 1, inf, -inf, 0 (the count of
    non-zeros) or any other power p; matrices: None or ``'fro'``, 1, -1, inf, -inf, and 2,
    -2 and ``'nuc'`` from the singular values (``svdvals``, the device's library).
    Integers and bools are measured as float64.

    >>> import weft as wf
    >>> float(wf.linalg.norm(wf.asarray([3.0, 4.0])))
    5.0
    >>> wf.linalg.norm(wf.asarray([[1.0, -2.0], [3.0, 4.0]]), ord=1, axis=None).item()
    6.0
    """
    x = x if isinstance(x, Array) else asarray(x)
    if not x.dtype.is_float:
        x = x.astype(dt.float64)
    if axis is None:
        if x.ndim == 2 and ord is not None:
            return _matrix_norm(x, ord, keepdims)
        if x.ndim == 2:
            result = _vector_norm(x, None, None, False)
            return result.reshape((1, 1)) if keepdims else result
        axis = None if x.ndim == 0 else 0
    if isinstance(axis, tuple) and len(axis) == 2:
        if x.ndim != 2 or {a % 2 for a in axis} != {0, 1}:
            raise ValueError(f"wf.linalg.norm: axis {axis} of an array of shape {x.shape}")
        return _matrix_norm(x if axis[0] % 2 == 0 else x.T, ord, keepdims)
    if isinstance(axis, tuple):
        (axis,) = axis
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer, type(None))):
        raise TypeError(f"wf.linalg.norm: axis must be an integer or a pair, not {axis!r}")
    return _vector_norm(x, ord, axis, keepdims)


def _vector_norm(x: Array, ord: Any, axis: Any, keepdims: bool) -> Array:  # noqa: A002
    from .functions import abs as absolute
    from .functions import power, sqrt

    if isinstance(ord, str):
        raise ValueError(f"wf.linalg.norm: ord {ord!r} is not a vector norm")
    along = {"axis": axis, "keepdims": keepdims}
    if ord is None or ord == 2:
        return sqrt((x * x).sum(**along))
    if ord == np.inf:
        return absolute(x).max(**along)
    if ord == -np.inf:
        return absolute(x).min(**along)
    if ord == 0:
        return (x != 0).astype(x.dtype).sum(**along)
    if ord == 1:
        return absolute(x).sum(**along)
    return power(power(absolute(x), ord).sum(**along), 1.0 / ord)


def _matrix_norm(x: Array, ord: Any, keepdims: bool) -> Array:  # noqa: A002
    from .functions import abs as absolute
    from .functions import sqrt

    if ord in (None, "fro"):
        result = sqrt((x * x).sum())
    elif ord in (1, -1):
        sums = absolute(x).sum(axis=0)
        result = sums.max() if ord == 1 else sums.min()
    elif ord in (np.inf, -np.inf):
        sums = absolute(x).sum(axis=1)
        result = sums.max() if ord == np.inf else sums.min()
    elif ord in (2, -2, "nuc"):
        from .decompositions import svdvals

        s = svdvals(x)  # (from the device's library)
        result = s.max() if ord == 2 else (s.min() if ord == -2 else s.sum())
    else:
        raise ValueError(f"wf.linalg.norm: ord {ord!r} is not a matrix norm")
    return result.reshape((1, 1)) if keepdims else result


# -- factorizations and solves ----------------------------------------------------------


@recorded("cholesky")
def cholesky(s: Any) -> Array:
    """The lower Cholesky factor L of a symmetric positive definite S = L Lᵀ; the result has
    lower structure. Raises ``LinAlgError`` when S is not positive definite.

    >>> import weft as wf
    >>> wf.linalg.cholesky(wf.asarray([[4.0, 2.0], [2.0, 3.0]])).tolist()[0]
    [2.0, 0.0]
    """
    s = _operand(s, "cholesky")
    _square(s, "cholesky")
    dtype = _real(s)
    s = _as(s, dtype)
    lib = library(s.device)
    with lib.on_stream():
        factor = lib.cholesky(lib.take(s))
        if not lib.finite(factor):
            raise LinAlgError(f"cholesky: the {s.shape[0]}x{s.shape[1]} matrix is not "
                              "positive definite (or holds NaN or inf)")
        out = lib.give(factor, dtype)
    return _with_structure(out, "lower")


def _triangle(a: Array, lower: bool | None, name: str) -> bool:
    if lower is not None:
        return bool(lower)
    if a.structure in ("lower", "upper"):
        return a.structure == "lower"
    raise ValueError(f"{name}: the matrix has no triangular structure (it is "
                     f"{a.structure!r}); pass lower=True or lower=False, or build it with "
                     "wf.tril / wf.triu / wf.linalg.cholesky")


def _check_rhs(a: Array, b: Array, name: str) -> None:
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError(f"{name}: shapes {a.shape} and {b.shape} do not align "
                         f"({a.shape[0]} rows against {b.shape[0] if b.ndim else 'a scalar'})")


@recorded("solve_triangular")
def solve_triangular(a: Any, b: Any, lower: bool | None = None) -> Array:
    """x with a x = b for triangular ``a``; ``lower=None`` reads ``a.structure``.

    >>> import weft as wf
    >>> L = wf.tril(wf.asarray([[2.0, 0.0], [1.0, 1.0]]))
    >>> wf.linalg.solve_triangular(L, wf.asarray([2.0, 2.0])).tolist()
    [1.0, 1.0]
    """
    a, b = _pair(a, b, "solve_triangular")
    _square(a, "solve_triangular")
    _check_rhs(a, b, "solve_triangular")
    is_lower = _triangle(a, lower, "solve_triangular")
    dtype = _real(a, b)
    a, b = _as(a, dtype), _as(b, dtype)
    lib = library(a.device)
    with lib.on_stream():
        matrix = lib.take(a)
        if not lib.nonzero_diagonal(matrix):
            raise LinAlgError("solve_triangular: the matrix is singular (a zero on its "
                              "diagonal)")
        return lib.give(lib.solve_triangular(matrix, lib.take(b), is_lower), dtype)


@recorded("triinv")
def triinv(a: Any, lower: bool | None = None) -> Array:
    """The inverse of a triangular matrix, with the same structure (NumBirch's ``triinv``).

    >>> import weft as wf
    >>> wf.linalg.triinv(wf.tril(wf.asarray([[2.0, 0.0], [1.0, 1.0]]))).tolist()
    [[0.5, 0.0], [-0.5, 1.0]]
    """
    a = _operand(a, "triinv")
    _square(a, "triinv")
    is_lower = _triangle(a, lower, "triinv")
    dtype = _real(a)
    a = _as(a, dtype)
    lib = library(a.device)
    with lib.on_stream():
        matrix = lib.take(a)
        if not lib.nonzero_diagonal(matrix):
            raise LinAlgError("triinv: the matrix is singular (a zero on its diagonal)")
        identity = lib.np.eye(a.shape[0], dtype=dtype.numpy)
        out = lib.give(lib.solve_triangular(matrix, identity, is_lower), dtype)
    return _with_structure(out, "lower" if is_lower else "upper")


@recorded("cho_solve")
def cho_solve(factor: Any, b: Any) -> Array:
    """x with S x = b, from the lower Cholesky factor L of S (SciPy's ``cho_solve`` with
    ``lower=True``, NumBirch's ``cholsolve``).

    >>> import weft as wf
    >>> L = wf.linalg.cholesky(wf.asarray([[4.0, 2.0], [2.0, 3.0]]))
    >>> [round(v, 12) for v in wf.linalg.cho_solve(L, wf.asarray([6.0, 5.0])).tolist()]
    [1.0, 1.0]
    """
    factor, b = _pair(factor, b, "cho_solve")
    _square(factor, "cho_solve")
    _check_rhs(factor, b, "cho_solve")
    dtype = _real(factor, b)
    factor, b = _as(factor, dtype), _as(b, dtype)
    lib = library(factor.device)
    with lib.on_stream():
        matrix = lib.take(factor)
        if not lib.nonzero_diagonal(matrix):
            raise LinAlgError("cho_solve: the factor is singular (a zero on its diagonal)")
        half = lib.solve_triangular(matrix, lib.take(b), True)
        return lib.give(lib.solve_triangular(matrix, half, True, trans=1), dtype)


@recorded("cholinv")
def cholinv(factor: Any) -> Array:
    """S⁻¹ from the lower Cholesky factor L of S (NumBirch's ``cholinv(L)``).

    >>> import weft as wf
    >>> L = wf.linalg.cholesky(wf.asarray([[2.0, 0.0], [0.0, 4.0]]))
    >>> wf.linalg.cholinv(L).to_numpy().round(12).tolist()
    [[0.5, 0.0], [0.0, 0.25]]
    """
    factor = _operand(factor, "cholinv")
    _square(factor, "cholinv")
    dtype = _real(factor)
    identity = asarray(np.eye(factor.shape[0], dtype=dtype.numpy), device=factor.device)
    return cho_solve(factor, identity)


@recorded("solve")
def solve(a: Any, b: Any) -> Array:
    """x with a x = b for a general square ``a`` (LU); ``LinAlgError`` if it is singular.

    >>> import weft as wf
    >>> wf.linalg.solve(wf.asarray([[2.0, 0.0], [0.0, 4.0]]), wf.asarray([2.0, 4.0])).tolist()
    [1.0, 1.0]
    """
    a, b = _pair(a, b, "solve")
    _square(a, "solve")
    _check_rhs(a, b, "solve")
    dtype = _real(a, b)
    a, b = _as(a, dtype), _as(b, dtype)
    lib = library(a.device)
    with lib.on_stream():
        x = lib.solve(lib.take(a), lib.take(b))
        if x is None or not lib.finite(x):
            raise LinAlgError(f"solve: the {a.shape[0]}x{a.shape[1]} matrix is singular")
        return lib.give(x, dtype)


@recorded("inv")
def inv(a: Any) -> Array:
    """The inverse of a general square matrix (LU); ``LinAlgError`` if it is singular.

    >>> import weft as wf
    >>> wf.linalg.inv(wf.asarray([[2.0, 0.0], [0.0, 4.0]])).tolist()
    [[0.5, 0.0], [0.0, 0.25]]
    """
    a = _operand(a, "inv")
    _square(a, "inv")
    dtype = _real(a)
    a = _as(a, dtype)
    lib = library(a.device)
    with lib.on_stream():
        x = lib.inv(lib.take(a))
        if x is None or not lib.finite(x):
            raise LinAlgError(f"inv: the {a.shape[0]}x{a.shape[1]} matrix is singular")
        return lib.give(x, dtype)


@recorded("logdet")
def logdet(a: Any) -> Array:
    """log |det a| (NumBirch's ``ldet``, Stan's ``log_determinant``), as a 0-d Array that
    stays on the device; -inf for a singular matrix.

    >>> import weft as wf
    >>> round(float(wf.linalg.logdet(wf.asarray([[2.0, 0.0], [0.0, -4.0]]))), 9)
    2.079441542
    """
    return sign_and_logdet(a, "logdet")[1]


def sign_and_logdet(a: Any, name: str) -> tuple[Array, Array]:
    """The sign of det a and log |det a| from one factorization by the device's library
    (``logdet`` and ``slogdet``; ``name`` is the caller's, for errors), as 0-d Arrays.

    >>> import weft as wf
    >>> [float(v) for v in sign_and_logdet(wf.asarray([[-3.0]]), "slogdet")]
    [-1.0, 1.0986122886681098]
    """
    a = _operand(a, name)
    _square(a, name)
    dtype = _real(a)
    a = _as(a, dtype)
    lib = library(a.device)
    with lib.on_stream():
        sign, value = lib.slogdet(lib.take(a))
        return lib.give(sign, dtype), lib.give(value, dtype)


def lcholdet(factor: Any) -> Array:
    """log det S from the lower Cholesky factor L of S: 2 Σ log diag L, a lazy 0-d Array
    (a fused reduction); NaN if the diagonal has a negative entry, as NumBirch.

    >>> import weft as wf
    >>> L = wf.linalg.cholesky(wf.asarray([[4.0, 0.0], [0.0, 9.0]]))
    >>> round(float(wf.linalg.lcholdet(L)), 12) == round(float(wf.log(36.0)), 12)
    True
    """
    from .functions import log
    from .matrix import diagonal

    factor = factor if isinstance(factor, Array) else asarray(factor)
    _square(factor, "lcholdet")
    return 2 * log(diagonal(factor)).sum()


# The decompositions from the device's library, and det, slogdet and matrix_power.
from .decompositions import (  # noqa: E402 - they use the functions above
    EighResult,
    QRResult,
    SlogdetResult,
    SVDResult,
    det,
    eigh,
    eigvalsh,
    matrix_power,
    matrix_rank,
    pinv,
    qr,
    slogdet,
    svd,
    svdvals,
)

__all__ += ["det", "eigh", "eigvalsh", "matrix_power", "matrix_rank", "pinv", "qr", "slogdet",
            "svd", "svdvals", "EighResult", "QRResult", "SlogdetResult", "SVDResult"]
