"""Special functions on cuda:0 against CuPy's cupyx.scipy.special (j0, y0, j1, y1, yn, k0, k1e,
erfcx, ellipj, spherical_yn, lpmv; yv at integer orders against yn) in the same process, interleaved
in rounds; weft's jv, iv, kv and spherical_jn alone (CuPy has none of them); float64, 10^7
elements a call:

    python benchmarks/gpu_special.py [WORD ...]

runs the cases whose names hold any of the words (all without).
"""

from __future__ import annotations

import sys
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
        wf.eval(*result) if isinstance(result, tuple) else result.eval()
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
    u = rng.uniform(-1, 1, N)
    m = rng.integers(0, 5, N).astype(np.float64)
    wx, wn, wv, wu, wm = (wf.asarray(a) for a in (x, n, v, u, m))
    cx, cn, cv, cu, cm = (cupy.asarray(a) for a in (x, n, v, u, m))
    cases = {
        "j0": (lambda: wf.j0(wx), lambda: cupy_special.j0(cx)),
        "y0": (lambda: wf.y0(wx), lambda: cupy_special.y0(cx)),
        "j1": (lambda: wf.j1(wx), lambda: cupy_special.j1(cx)),
        "y1": (lambda: wf.y1(wx), lambda: cupy_special.y1(cx)),
        "yn (n < 10)": (lambda: wf.yn(wn, wx), lambda: cupy_special.yn(cn, cx)),
        "k0": (lambda: wf.k0(wx), lambda: cupy_special.k0(cx)),
        "k1e": (lambda: wf.k1e(wx), lambda: cupy_special.k1e(cx)),
        "erfcx (x in (-5, 45))": (lambda: wf.erfcx(wx - 5.0),
                                  lambda: cupy_special.erfcx(cx - 5.0)),
        "ellipj, all four": (lambda: wf.ellipj(wx, wv * 0.1),
                             lambda: cupy_special.ellipj(cx, cv * 0.1)),
        "jv (v < 10; weft only)": (lambda: wf.jv(wv, wx), None),
        "jv (integer n < 10; weft only)": (lambda: wf.jv(wn, wx), None),
        "yv (integer n < 10, against yn)": (lambda: wf.yv(wn, wx),
                                            lambda: cupy_special.yn(cn, cx)),
        "kv (Matern's 3/2, x < 25; weft only)": (lambda: wf.kv(1.5, wx * 0.5), None),
        "kv (v < 10, x < 25; weft only)": (lambda: wf.kv(wv, wx * 0.5), None),
        "kv (v < 10, x < 2; weft only)": (lambda: wf.kv(wv, wx * 0.04), None),
        "iv (v < 10, x < 25; weft only)": (lambda: wf.iv(wv, wx * 0.5), None),
        "spherical_jn (n < 10; weft only)": (lambda: wf.spherical_jn(wn, wx), None),
        "spherical_yn (n < 10)": (lambda: wf.spherical_yn(wn, wx),
                                  lambda: cupy_special.spherical_yn(cn.astype(cupy.int64), cx)),
        "lpmv (m < 5, integer n < 50)": (lambda: wf.lpmv(wm, wn * 5.0, wu),
                                         lambda: cupy_special.lpmv(cm, cn * 5.0, cu)),
        "lpmv (m < 5, real v < 50)": (lambda: wf.lpmv(wm, wv * 5.0, wu),
                                      lambda: cupy_special.lpmv(cm, cv * 5.0, cu)),
    }
    words = sys.argv[1:]
    print(f"{wf.current_device()}, {N} float64, median ms of {ROUNDS} interleaved rounds")
    for name, (weft_case, cupy_case) in cases.items():
        if words and not any(word in name for word in words):
            continue
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
