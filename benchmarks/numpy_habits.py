"""NumPy's statistics habits on weft's default device against NumPy on the host, and CuPy
where the device is cuda:0 (and CuPy is installed): the reductions that ignore NaN, average,
cov, histogram (with NumPy's bin rules) and bincount, nanquantile's methods, partition, insert,
delete, vander and pad's computed modes, float64, interleaved in rounds in one process.

    python benchmarks/numpy_habits.py [WORD ...]

runs the cases whose names hold any of the words (all without). Prints the median ms per
call of each implementation: a reduction's result read back, an array result computed and
left on its device, as CuPy's and NumPy's are.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import weft as wf

ROUNDS = 7


def _done(x: wf.Array) -> None:
    """An array result computed and left where it is (as CuPy's are), not read back."""
    x.eval()
    wf.synchronize()


def main() -> None:
    device = wf.current_device()
    rng = np.random.default_rng(3)
    n = 1 << 24 if device.kind == "cuda" else 1 << 22
    x = rng.standard_normal(n)
    x[rng.integers(0, n, n // 100)] = np.nan
    matrix = rng.standard_normal((n // 64, 64))
    counts = rng.integers(0, 1000, n)
    weights = rng.uniform(0, 1, 64)
    wx, wm, wc = wf.asarray(x), wf.asarray(matrix), wf.asarray(counts)
    peers: dict[str, tuple] = {
        "nanmean": (lambda: float(wf.nanmean(wx)), lambda xp, a: float(xp.nanmean(a))),
        "nanvar": (lambda: float(wf.nanvar(wx)), lambda xp, a: float(xp.nanvar(a))),
        "nanmax": (lambda: float(wf.nanmax(wx)), lambda xp, a: float(xp.nanmax(a))),
        "nanmedian": (lambda: float(wf.nanmedian(wx)), lambda xp, a: float(xp.nanmedian(a))),
        "histogram, 100 bins": (lambda: wf.histogram(wx, 100, range=(-4, 4))[0].to_numpy(),
                                lambda xp, a: xp.histogram(a, 100, range=(-4, 4))[0]),
        "bincount": (lambda: wf.bincount(wc).to_numpy(), lambda xp, a: xp.bincount(a)),
        "average over rows, weighted": (
            lambda: wf.average(wm, axis=1, weights=weights).to_numpy(),
            lambda xp, a: xp.average(a, axis=1, weights=xp.asarray(weights))),
        "cov of 64 variables": (lambda: wf.cov(wm, rowvar=False).to_numpy(),
                                lambda xp, a: xp.cov(a, rowvar=False)),
        "nanquantile, hazen": (lambda: float(wf.nanquantile(wx, 0.3, method="hazen")),
                               lambda xp, a: float(xp.nanquantile(a, 0.3, method="hazen"))),
        "partition at the middle": (lambda: float(wf.partition(wx, n // 2)[n // 2]),
                                    lambda xp, a: float(xp.partition(a, n // 2)[n // 2])),
        "insert 3 values": (lambda: _done(wf.insert(wx, [10, n // 2, n - 5], 0.0)),
                            lambda xp, a: xp.insert(a, [10, n // 2, n - 5], 0.0)),
        "delete every 1000th": (lambda: _done(wf.delete(wx, slice(0, n, 1000))),
                                lambda xp, a: xp.delete(a, slice(0, n, 1000))),
        "vander, 8 columns": (lambda: _done(wf.vander(wx[: n // 8], 8)),
                              lambda xp, a: xp.vander(a[: n // 8], 8)),
        "histogram, bins='auto'": (lambda: wf.histogram(wx[:n // 4], "auto",
                                                        range=(-4, 4))[0].to_numpy(),
                                   lambda xp, a: xp.histogram(a[:n // 4], "auto",
                                                              range=(-4, 4))[0]),
        "pad, mode='mean'": (lambda: _done(wf.pad(wm, 8, mode="mean")),
                             lambda xp, a: xp.pad(a, 8, mode="mean")),
        "x[x > 1]": (lambda: _done(wx[wx > 1]), lambda xp, a: a[a > 1]),
        "flatnonzero(x > 1)": (lambda: _done(wf.flatnonzero(wx > 1)),
                               lambda xp, a: xp.flatnonzero(a > 1)),
        "concatenate 2 halves": (lambda: _done(wf.concatenate([wx[n // 2:], wx[:n // 2]])),
                                 lambda xp, a: xp.concatenate([a[n // 2:], a[:n // 2]])),
    }
    operands = {"bincount": counts, "average over rows, weighted": matrix,
                "cov of 64 variables": matrix, "pad, mode='mean'": matrix}
    modules = {"numpy": np}
    if device.kind == "cuda":
        try:
            import cupy
            modules["cupy"] = cupy
        except ImportError:
            pass
    words = sys.argv[1:]
    print(f"{device} ({device.name}), {n} float64 elements (NaN 1%), median ms of {ROUNDS}")
    for name, (weft_case, peer_case) in peers.items():
        if words and not any(word in name for word in words):
            continue
        host = operands.get(name, x)
        cases = {"weft": weft_case}
        for label, xp in modules.items():
            a = xp.asarray(host)
            sync = (lambda xp=xp: xp.cuda.Device().synchronize()) if label == "cupy" else (
                lambda: None)
            cases[label] = (lambda xp=xp, a=a, sync=sync, peer=peer_case: (peer(xp, a), sync()))
        for label, case in list(cases.items()):
            try:
                case()
            except (AttributeError, NotImplementedError):  # a peer without the function
                del cases[label]
        times: dict[str, list[float]] = {k: [] for k in cases}
        for _ in range(ROUNDS):
            for label, case in cases.items():
                t0 = time.perf_counter()
                case()
                times[label].append((time.perf_counter() - t0) * 1e3)
        print(f"{name:30}" + "".join(f"  {label} {statistics.median(v):8.2f}"
                                     for label, v in times.items()))


if __name__ == "__main__":
    main()
