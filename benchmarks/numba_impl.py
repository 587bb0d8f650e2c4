"""numba as a benchmark peer (``impls.find(["numba"])``): ``@njit(parallel=True,
fastmath=True)`` kernels for the latest suite's cases, measured where numba is installed
(it is not a dependency of weft).

>>> ast.unparse(_Indexed(["x"]).visit(ast.parse("sin(x) * 2.0", mode="eval")))
'sin(x[i]) * 2.0'
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

import numpy as np
from impls import NumpyImpl


class NumbaImpl(NumpyImpl):
    """numba ``@njit(parallel=True, fastmath=True)`` (issue 36's CPU peer): the element-wise
    cases from their numexpr expression, as one parallel loop (a sum as a parallel
    reduction), and the matrix cases as the loops a numba user writes (rows split among the
    threads, private column accumulators, blocks for the transposes)."""

    name = "numba"

    def __init__(self, numba: Any) -> None:
        super().__init__()
        self.numba = numba
        globals()["prange"] = numba.prange  # the matrix loops name it

    def prepare(self, case):
        matrix = _NUMBA_MATRIX.get(case.name)
        if matrix is not None:
            kernel = self.numba.njit(parallel=True, fastmath=True)(matrix)
            return lambda a: kernel(a)
        if case.numexpr is None or case.name not in _NUMBA_VECTOR:
            return None
        return _numba_loop(self.numba, case.numexpr)


def _numba_loop(numba: Any, expression: str) -> Callable:
    """A parallel numba loop computing the numexpr ``expression`` element by element (a
    ``sum(...)`` around it: a parallel sum), for arrays named as in the expression."""
    import math

    names = sorted({n for n in ast.walk(ast.parse(expression)) if isinstance(n, ast.Name)
                    for n in [n.id] if n not in _NUMBA_FUNCTIONS and n != "sum"})
    reduce = expression.startswith("sum(")
    body = expression[4:-1] if reduce else expression
    element = ast.unparse(_Indexed(names).visit(ast.parse(body, mode="eval")))
    first = names[0]
    lines = [f"def kernel({', '.join(names)}):", f"    n = {first}.shape[0]"]
    if reduce:
        lines += ["    total = 0.0", "    for i in prange(n):", f"        total += {element}",
                  "    return total"]
    else:
        lines += [f"    out = np.empty_like({first})", "    for i in prange(n):",
                  f"        out[i] = {element}", "    return out"]
    scope = {"np": np, "prange": numba.prange, **{f: getattr(math, f)
                                                  for f in _NUMBA_FUNCTIONS}}
    exec("\n".join(lines), scope)  # noqa: S102 - generated from a case's own expression
    kernel = numba.njit(parallel=True, fastmath=True)(scope["kernel"])
    return lambda **kw: kernel(*[kw[name] for name in names])


class _Indexed(ast.NodeTransformer):
    """Each array name ``x`` as ``x[i]``."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:  # noqa: N802 - ast's visitor naming
        if node.id in self.names:
            return ast.Subscript(node, ast.Name("i", ast.Load()), ast.Load())
        return node


_NUMBA_FUNCTIONS = ("exp", "log", "sin", "cos", "sqrt", "tanh")
_NUMBA_VECTOR = ("c*(a+b)", "normal_pdf", "normal_lpdf_sum", "chain6", "chain8", "x**y", "tanh")


def _numba_colwise(a):
    rows, cols = a.shape
    parts = 16
    partial = np.zeros((parts, cols), dtype=a.dtype)
    for p in prange(parts):  # noqa: F821 - numba's, in the compiled function's globals
        for i in range(p * rows // parts, (p + 1) * rows // parts):
            for j in range(cols):
                partial[p, j] += a[i, j]
    return partial.sum(axis=0)


def _numba_rowwise(a):
    rows, cols = a.shape
    out = np.empty(rows, dtype=a.dtype)
    for i in prange(rows):  # noqa: F821
        total = 0.0
        for j in range(cols):
            total += a[i, j]
        out[i] = total
    return out


def _numba_transpose(a):
    rows, cols = a.shape
    out = np.empty((cols, rows), dtype=a.dtype)
    for bi in prange((cols + 31) // 32):  # noqa: F821 - 32 x 32 blocks
        for bj in range(0, rows, 32):
            for i in range(bi * 32, min(bi * 32 + 32, cols)):
                for j in range(bj, min(bj + 32, rows)):
                    out[i, j] = a[j, i]
    return out


def _numba_exp_t_plus(a):
    n = a.shape[0]
    out = np.empty_like(a)
    for bi in prange((n + 31) // 32):  # noqa: F821
        for bj in range(0, n, 32):
            for i in range(bi * 32, min(bi * 32 + 32, n)):
                for j in range(bj, min(bj + 32, n)):
                    out[i, j] = np.exp(a[j, i]) + a[i, j]
    return out


def _numba_tril_sum(a):
    total = 0.0
    for i in prange(a.shape[0]):  # noqa: F821
        for j in range(i + 1):
            total += a[i, j]
    return total


_NUMBA_MATRIX = {"colwise_sum": _numba_colwise, "rowwise_sum": _numba_rowwise,
                 "transpose": _numba_transpose, "exp(A.T)+A": _numba_exp_t_plus,
                 "tril_sum": _numba_tril_sum}
