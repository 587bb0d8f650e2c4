"""The Bessel functions J, Y, K and I (and this round's other special functions, ellipkinc,
erfcx, ellipj, the spherical Bessel functions and lpmv) on weft's default device against
SciPy on the host, per regime of weft's algorithm (skeletons/bessel_jy.py, bessel_kv.py,
bessel_iv.py, legendre.py), interleaved in rounds in one process; float64, 10^6 elements a
call:

    python benchmarks/bessel.py [WORD ...]

runs the cases whose names hold any of the words (all without). Prints the median ms per
call of each and weft's time over SciPy's (below 1: weft faster).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from scipy import special

import weft as wf

N = 1_000_000
ROUNDS = 7

# name, weft function, SciPy function, orders, arguments (the orders None: unary; a tuple:
# the first arguments, as lpmv's order and degree).
_RNG = np.random.default_rng(5)
CASES = [
    ("j0, x in (0, 50)", wf.j0, special.j0, None, _RNG.uniform(0, 50, N)),
    ("y0, x in (0, 50)", wf.y0, special.y0, None, _RNG.uniform(0, 50, N)),
    ("j1, x in (0, 50)", wf.j1, special.j1, None, _RNG.uniform(0, 50, N)),
    ("y1, x in (0, 50)", wf.y1, special.y1, None, _RNG.uniform(0, 50, N)),
    ("yn, n in 0..9, x in (0, 50)", wf.yn, special.yn, _RNG.integers(0, 10, N).astype(float),
     _RNG.uniform(0, 50, N)),
    ("jv, v in (0, 10), x in (0, 2)", wf.jv, special.jv, _RNG.uniform(0, 10, N),
     _RNG.uniform(0, 2, N)),
    ("jv, v in (0, 10), x in (2, 25)", wf.jv, special.jv, _RNG.uniform(0, 10, N),
     _RNG.uniform(2, 25, N)),
    ("jv, v in (0, 10), x in (25, 1000)", wf.jv, special.jv, _RNG.uniform(0, 10, N),
     _RNG.uniform(25, 1000, N)),
    ("jv, n in 0..9 (integers), x in (0, 50)", wf.jv, special.jv,
     _RNG.integers(0, 10, N).astype(float), _RNG.uniform(0, 50, N)),
    ("yv, n in 0..9 (integers), x in (0, 50)", wf.yv, special.yv,
     _RNG.integers(0, 10, N).astype(float), _RNG.uniform(0, 50, N)),
    ("yv, v in (0, 10), x in (2, 25)", wf.yv, special.yv, _RNG.uniform(0, 10, N),
     _RNG.uniform(2, 25, N)),
    ("k0, x in (0, 50)", wf.k0, special.k0, None, _RNG.uniform(0, 50, N)),
    ("k1e, x in (0, 50)", wf.k1e, special.k1e, None, _RNG.uniform(0, 50, N)),
    ("kv, v in (0, 10), x in (0, 25)", wf.kv, special.kv, _RNG.uniform(0, 10, N),
     _RNG.uniform(0, 25, N)),
    ("kv, v in (0, 10), x in (0, 2)", wf.kv, special.kv, _RNG.uniform(0, 10, N),
     _RNG.uniform(0, 2, N)),
    ("kv, Matern's v = 3/2, x in (0, 25)", wf.kv, special.kv, np.full(N, 1.5),
     _RNG.uniform(0, 25, N)),
    ("kv, Matern's v = 5/2, x in (0, 25)", wf.kv, special.kv, np.full(N, 2.5),
     _RNG.uniform(0, 25, N)),
    ("kv, n in 0..9, x in (0, 25)", wf.kv, special.kv, _RNG.integers(0, 10, N).astype(float),
     _RNG.uniform(0, 25, N)),
    ("iv, v in (0, 10), x in (0, 25)", wf.iv, special.iv, _RNG.uniform(0, 10, N),
     _RNG.uniform(0, 25, N)),
    ("ellipkinc, phi in (0, 10), m in (-1, 1)", wf.ellipkinc, special.ellipkinc,
     _RNG.uniform(0, 10, N), _RNG.uniform(-1, 1, N)),
    ("erfcx, x in (-5, 30)", wf.erfcx, special.erfcx, None, _RNG.uniform(-5, 30, N)),
    ("ellipj (all four), u in (0, 50), m in (0, 1)", wf.ellipj, special.ellipj,
     _RNG.uniform(0, 50, N), _RNG.uniform(0, 1, N)),
    ("spherical_jn, n in 0..9, x in (0, 50)", wf.spherical_jn, special.spherical_jn,
     _RNG.integers(0, 10, N), _RNG.uniform(0, 50, N)),
    ("spherical_yn, n in 0..9, x in (0, 50)", wf.spherical_yn, special.spherical_yn,
     _RNG.integers(0, 10, N), _RNG.uniform(0, 50, N)),
    ("lpmv, m in 0..4, n in 0..50, x in (-1, 1)", wf.lpmv, special.lpmv,
     (_RNG.integers(0, 5, N).astype(float), _RNG.integers(0, 51, N).astype(float)),
     _RNG.uniform(-1, 1, N)),
    ("lpmv, m in 0..4, v in (0, 50), x in (-1, 1)", wf.lpmv, special.lpmv,
     (_RNG.integers(0, 5, N).astype(float), _RNG.uniform(0, 50, N)), _RNG.uniform(-1, 1, N)),
]


def _timed(function, *args) -> float:
    started = time.perf_counter()
    result = function(*args)
    if isinstance(result, tuple) and isinstance(result[0], wf.Array):
        wf.eval(*result)
        wf.synchronize()
    elif isinstance(result, wf.Array):
        result.eval()
        wf.synchronize()
    return (time.perf_counter() - started) * 1e3


def main() -> None:
    device = wf.current_device()
    print(f"device {device}, {N} float64 elements a call, median of {ROUNDS} interleaved rounds")
    words = sys.argv[1:]
    for name, weft_function, scipy_function, orders, x in CASES:
        if words and not any(word in name for word in words):
            continue
        host = ((x,) if orders is None else (*orders, x) if isinstance(orders, tuple)
                else (orders, x))
        arrays = tuple(wf.asarray(a) for a in host)
        _timed(weft_function, *arrays)  # compile and warm
        times: dict[str, list[float]] = {"weft": [], "scipy": []}
        for _ in range(ROUNDS):
            times["weft"].append(_timed(weft_function, *arrays))
            times["scipy"].append(_timed(scipy_function, *host))
        weft_ms, scipy_ms = (float(np.median(times[k])) for k in ("weft", "scipy"))
        print(f"{name:36} weft {weft_ms:8.1f} ms   SciPy {scipy_ms:8.1f} ms   "
              f"weft/SciPy {weft_ms / scipy_ms:5.2f}")


if __name__ == "__main__":
    main()
