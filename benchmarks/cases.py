"""Benchmark cases as data: inputs, the weft expression, the NumPy and numexpr versions, and
the fewest bytes each must move (every input read once, every output written once).
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
    outputs: int = 1


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


CASES = [
    Case("c*(a+b)", _uniform("a b"), lambda a, b: 3.0 * (a + b), lambda a, b: 3.0 * (a + b),
         "3.0 * (a + b)"),
    Case("normal_pdf", _normal_inputs, lambda y, mu, sigma: _pdf(wf.exp, y, mu, sigma),
         lambda y, mu, sigma: _pdf(np.exp, y, mu, sigma),
         f"exp(-0.5 * ((y - mu) / sigma)**2) * {INV_SQRT_2PI!r} / sigma"),
    Case("chain6", _uniform("x"), lambda x: _chain6(wf.sin, wf.cos, x),
         lambda x: _chain6(np.sin, np.cos, x), "sin(x) * 2.0 + cos(x) * x - x * 0.5 + 1.0"),
]
