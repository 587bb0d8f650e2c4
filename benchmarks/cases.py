"""Benchmark cases as data: inputs, the weft expression, the NumPy and numexpr versions, and
the fewest bytes each must move (every input read once, every output written once; a
triangular sum reads only its triangle).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import weft as wf

INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


@dataclass(frozen=True)
class Case:
    name: str
    inputs: Callable[[np.random.Generator, int, Any], dict[str, np.ndarray]]
    weft: Callable[..., wf.Array]
    numpy: Callable[..., np.ndarray]
    numexpr: str | None
    outputs: int = 1  # output arrays as large as an input (0 for reductions to few values)
    read_fraction: Callable[[dict[str, np.ndarray]], float] | None = None  # of each input


def matrix_shape(n: int) -> tuple[int, int]:
    """n elements as a matrix: square for even powers of two, twice as wide otherwise."""
    rows = 1 << (max(n.bit_length() - 1, 0) // 2)
    return rows, n // rows


def _matrix(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, np.ndarray]:
    return {"a": rng.uniform(-1.0, 1.0, matrix_shape(n)).astype(dtype)}


def _square(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, np.ndarray]:
    side = 1 << (max(n.bit_length() - 1, 0) // 2)
    return {"a": rng.uniform(-1.0, 1.0, (side, side)).astype(dtype)}


def _triangle_fraction(host: dict[str, np.ndarray]) -> float:
    rows, cols = host["a"].shape
    k = min(rows, cols)
    return (k * (k + 1) / 2 + (rows - k) * cols) / (rows * cols)


def _uniform(names: str, low: float = -1.0, high: float = 1.0):
    def make(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, np.ndarray]:
        return {k: rng.uniform(low, high, n).astype(dtype) for k in names.split()}
    return make


def _normal_inputs(rng: np.random.Generator, n: int, dtype: Any) -> dict[str, np.ndarray]:
    return {"y": rng.standard_normal(n).astype(dtype), "mu": rng.standard_normal(n).astype(dtype),
            "sigma": rng.uniform(0.5, 2.0, n).astype(dtype)}


def _pdf(exp, y, mu, sigma):
    z = (y - mu) / sigma
    return exp(-0.5 * z * z) * INV_SQRT_2PI / sigma


def _chain6(sin, cos, x):
    return sin(x) * 2.0 + cos(x) * x - x * 0.5 + 1.0


LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


def _lpdf_terms(log, y, mu, sigma):
    z = (y - mu) / sigma
    return -0.5 * z * z - log(sigma) - LOG_SQRT_2PI


def _chain8(x):
    return ((((((x * 1.5 + 0.25) * x - 0.5) * x + 2.0) * x - 1.0) * x + 0.75) * x - 0.125) * x


CASES = [
    Case("c*(a+b)", _uniform("a b"), lambda a, b: 3.0 * (a + b), lambda a, b: 3.0 * (a + b),
         "3.0 * (a + b)"),
    Case("normal_pdf", _normal_inputs, lambda y, mu, sigma: _pdf(wf.exp, y, mu, sigma),
         lambda y, mu, sigma: _pdf(np.exp, y, mu, sigma),
         f"exp(-0.5 * ((y - mu) / sigma)**2) * {INV_SQRT_2PI!r} / sigma"),
    Case("chain6", _uniform("x"), lambda x: _chain6(wf.sin, wf.cos, x),
         lambda x: _chain6(np.sin, np.cos, x), "sin(x) * 2.0 + cos(x) * x - x * 0.5 + 1.0"),
    Case("chain8", _uniform("x"), _chain8, _chain8,
         "((((((x * 1.5 + 0.25) * x - 0.5) * x + 2.0) * x - 1.0) * x + 0.75) * x - 0.125) * x"),
    Case("normal_lpdf_sum", _normal_inputs,
         lambda y, mu, sigma: _lpdf_terms(wf.log, y, mu, sigma).sum(),
         lambda y, mu, sigma: _lpdf_terms(np.log, y, mu, sigma).sum(),
         f"sum(-0.5 * ((y - mu) / sigma)**2 - log(sigma) - {LOG_SQRT_2PI!r})", outputs=0),
    Case("colwise_sum", _matrix, lambda a: a.sum(axis=0), lambda a: a.sum(axis=0), None,
         outputs=0),
    Case("rowwise_sum", _matrix, lambda a: a.sum(axis=1), lambda a: a.sum(axis=1), None,
         outputs=0),
    # wf.multiply(.., 1) materializes the view (a.T alone is an O(1) view, like the copy case)
    Case("transpose", _matrix, lambda a: wf.multiply(a.T, 1), lambda a: np.ascontiguousarray(a.T),
         None),
    Case("exp(A.T)+A", lambda rng, n, dtype: _square(rng, n, dtype), lambda a: wf.exp(a.T) + a,
         lambda a: np.exp(a.T) + a, None),
    Case("tril_sum", _matrix, lambda a: wf.tril(a).sum(), lambda a: np.tril(a).sum(), None,
         outputs=0, read_fraction=_triangle_fraction),
]
