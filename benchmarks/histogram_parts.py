"""Where ``wf.histogram``'s time goes: the whole call, the bins' places alone, the count of the
places, and on CUDA (where CuPy is installed) CuPy's bincount of the same places and CuPy's
histogram, 2^24 float64 values, 100 bins, median ms of 9 synchronized calls.

    python benchmarks/histogram_parts.py
"""

from __future__ import annotations

import numpy as np
from timing import median_ms

import weft as wf
from weft import counting


def computed(fn):
    """``fn`` whose result (its first item, for a pair) is computed, not read back."""
    def run() -> None:
        result = fn()
        result = result[0] if isinstance(result, tuple) else result
        if isinstance(result, wf.Array):
            result.eval()
    return run


def main() -> None:
    n = 1 << 24
    data = np.random.default_rng(3).standard_normal(n)
    x = wf.asarray(data)
    synchronize = wf.synchronize
    place = counting._placed("histogram", x, 100, (-4.0, 4.0))[0].eval()
    parts = {
        "wf.histogram, range given": lambda: wf.histogram(x, 100, range=(-4.0, 4.0)),
        "wf.histogram, range read": lambda: wf.histogram(x, 100),
        "the places alone": lambda: counting._placed("histogram", x, 100, (-4.0, 4.0))[0],
        "their count": lambda: counting._counted(place, 101, None),
    }
    if wf.current_device().kind == "cuda":
        try:
            import cupy as cp
        except ImportError:
            cp = None
        if cp is not None:
            on_gpu, places_gpu = cp.asarray(data), cp.asarray(place.to_numpy())

            def synchronize() -> None:
                wf.synchronize()
                cp.cuda.Device().synchronize()
            parts["cupy.bincount of the places"] = lambda: cp.bincount(places_gpu,
                                                                       minlength=101)
            parts["cupy.histogram, range given"] = lambda: cp.histogram(on_gpu, 100,
                                                                        range=(-4.0, 4.0))
    print(f"{wf.current_device()}: 2^24 float64, 100 bins, median ms")
    for name, fn in parts.items():
        print(f"  {name:30s} {median_ms(computed(fn), synchronize, 9, batch=1):8.3f}")


if __name__ == "__main__":
    main()
