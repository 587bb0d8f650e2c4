"""Element-wise kernels over 2-d grids whose elements need their row and column (broadcasts
along rows or columns, pads, concatenations, strided views, triangles), weft against NumPy
interleaved in rounds in one process. The label (first argument) names the checkout, so
runs of two checkouts alternated in turn compare them by their ratios to NumPy.

    PYTHONPATH=src python benchmarks/element_rows.py head

Median ms of 7 rounds; weft's result evaluated and synchronized, NumPy's computed.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import weft as wf


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "weft"
    rng = np.random.default_rng(0)
    square = rng.standard_normal((4096, 4096))
    tall = rng.standard_normal((65536, 64))
    narrow = rng.standard_normal((1 << 20, 3))
    row, column = rng.standard_normal(4096), rng.standard_normal(4096)
    ws, wt, wn = wf.asarray(square), wf.asarray(tall), wf.asarray(narrow)
    wr, wc, w3 = wf.asarray(row), wf.asarray(column), wf.asarray(narrow[0])
    cases = {
        "x - row (4096^2)": (lambda: ws - wr[None, :], lambda: square - row[None, :]),
        "x * column (4096^2)": (lambda: ws * wc[:, None], lambda: square * column[:, None]),
        "tril(x) * 2 (4096^2)": (lambda: wf.tril(ws) * 2.0, lambda: np.tril(square) * 2.0),
        "x[::2, ::2] + 1 (4096^2)": (lambda: ws[::2, ::2] + 1.0, lambda: square[::2, ::2] + 1.0),
        "pad 8, constant (65536 x 64)": (lambda: wf.pad(wt, 8), lambda: np.pad(tall, 8)),
        "pad 8, mean (65536 x 64)": (lambda: wf.pad(wt, 8, mode="mean"),
                                     lambda: np.pad(tall, 8, mode="mean")),
        "concatenate columns (65536 x 64+16)": (
            lambda: wf.concatenate([wt, wt[:, :16]], axis=1),
            lambda: np.concatenate([tall, tall[:, :16]], axis=1)),
        "x - row (2^20 x 3)": (lambda: wn - w3[None, :], lambda: narrow - narrow[0][None, :]),
    }
    compare(label, cases)


def compare(label: str, cases: dict) -> None:
    """Each case's weft and NumPy calls interleaved in 7 rounds; their median ms printed."""
    print(f"{label} on {wf.current_device()}: median ms of 7 (weft / NumPy)")
    for name, (weft_case, numpy_case) in cases.items():
        def weft_run(case=weft_case):
            case().eval()
            wf.synchronize()
        runs = {"weft": weft_run, "numpy": numpy_case}
        for run in runs.values():
            run()
        times: dict[str, list[float]] = {k: [] for k in runs}
        for _ in range(7):
            for k, run in runs.items():
                t0 = time.perf_counter()
                run()
                times[k].append((time.perf_counter() - t0) * 1e3)
        w, n = (statistics.median(times[k]) for k in ("weft", "numpy"))
        print(f"  {name:38} {w:8.2f} {n:8.2f}  ({w / n:.2f}x NumPy)")


if __name__ == "__main__":
    main()
