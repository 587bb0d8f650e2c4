"""Joins on a CPU device: concatenations (1-d, along rows, of narrow rows), constant pads,
trigonometry over a concatenation and column sums of a triangle, whose element walks test
affine predicates (render/spans.py), weft against NumPy interleaved in rounds in one process.
The label (first argument) names the checkout, so runs of two checkouts alternated in turn
compare them by their ratios to NumPy.

    PYTHONPATH=src python benchmarks/spans.py head

Median ms of 7 rounds; weft's result evaluated and synchronized, NumPy's computed.
"""

from __future__ import annotations

import sys

import numpy as np
from element_rows import compare

import weft as wf


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "weft"
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(1 << 22), rng.standard_normal(1 << 22)
    a, b = rng.standard_normal((2048, 1024)), rng.standard_normal((2048, 1024))
    narrow = rng.standard_normal((1 << 20, 3))
    square = rng.standard_normal((2048, 2048))
    wx, wy, wa, wb, wn, ws = (wf.asarray(h) for h in (x, y, a, b, narrow, square))
    compare(label, {
        "concatenate 1-d (2 x 2^22)": (lambda: wf.concatenate([wx, wy]),
                                       lambda: np.concatenate([x, y])),
        "concatenate 1-d (4 x 2^22)": (lambda: wf.concatenate([wx, wy, wx, wy]),
                                       lambda: np.concatenate([x, y, x, y])),
        "concatenate rows (2 x 2048 x 1024)": (lambda: wf.concatenate([wa, wb]),
                                               lambda: np.concatenate([a, b])),
        "concatenate rows (2 x 2^20 x 3)": (lambda: wf.concatenate([wn, wn]),
                                            lambda: np.concatenate([narrow, narrow])),
        "pad 1-d (2^22, 5 and 7)": (lambda: wf.pad(wx, (5, 7)), lambda: np.pad(x, (5, 7))),
        "sin(concatenate 1-d) (2 x 2^22)": (lambda: wf.sin(wf.concatenate([wx, wy])),
                                            lambda: np.sin(np.concatenate([x, y]))),
        "tril(x).sum(axis=0) (2048^2)": (lambda: wf.tril(ws).sum(axis=0),
                                         lambda: np.tril(square).sum(axis=0)),
    })


if __name__ == "__main__":
    main()
