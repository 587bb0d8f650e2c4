"""The Bessel functions on cuda:0 against CuPy's cupyx.scipy.special (j0, y0, j1, y1, yn) in the
same process, interleaved in rounds; weft's jv and iv alone (CuPy has neither); float64, 10^7
elements a call:

    python benchmarks/gpu_bessel.py
"""

from __future__ import annotations

import time

import numpy as np

import weft as wf

N = 10_000_000
ROUNDS = 9


def _timed(function, weft: bool) -> float:
    import cupy

    started = time.perf_counter()
    result = function()
    if weft:
        result.eval()
        wf.synchronize()
    else:
        cupy.cuda.Device().synchronize()
    return (time.perf_counter() - started) * 1e3


def main() -> None:
    import cupy
    import cupyx.scipy.special as cupy_special

    wf.set_device("cuda:0")
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 50, N)
    n = rng.integers(0, 10, N).astype(np.float64)
    v = rng.uniform(0, 10, N)
    wx, wn, wv = wf.asarray(x), wf.asarray(n), wf.asarray(v)
    cx, cn = cupy.asarray(x), cupy.asarray(n)
    cases = {
        "j0": (lambda: wf.j0(wx), lambda: cupy_special.j0(cx)),
        "y0": (lambda: wf.y0(wx), lambda: cupy_special.y0(cx)),
        "j1": (lambda: wf.j1(wx), lambda: cupy_special.j1(cx)),
        "y1": (lambda: wf.y1(wx), lambda: cupy_special.y1(cx)),
        "yn (n < 10)": (lambda: wf.yn(wn, wx), lambda: cupy_special.yn(cn, cx)),
        "jv (v < 10; weft only)": (lambda: wf.jv(wv, wx), None),
        "iv (v < 10, x < 25; weft only)": (lambda: wf.iv(wv, wx * 0.5), None),
    }
    print(f"{wf.current_device()}, {N} float64, median ms of {ROUNDS} interleaved rounds")
    for name, (weft_case, cupy_case) in cases.items():
        _timed(weft_case, True)
        if cupy_case:
            _timed(cupy_case, False)
        weft_ms, cupy_ms = [], []
        for _ in range(ROUNDS):
            weft_ms.append(_timed(weft_case, True))
            if cupy_case:
                cupy_ms.append(_timed(cupy_case, False))
        line = f"{name:32} weft {np.median(weft_ms):7.2f} ms"
        if cupy_case:
            ratio = np.median(weft_ms) / np.median(cupy_ms)
            line += f"   cupyx {np.median(cupy_ms):7.2f} ms   weft/cupyx {ratio:5.2f}"
        print(line)


if __name__ == "__main__":
    main()
