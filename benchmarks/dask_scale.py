"""The ``dask`` suite's method: weft on Dask, one worker per GPU (issues 8 and 9).

``scaling``: the float32 expression ``sum(exp(x) * 2 + x * x)`` over 2^log2n elements, with
x persisted in the workers' memory as NumPy blocks of 2^chunk_log2 elements, on 1, 2, ...
GPUs (``weft.dask.gpu_cluster``): strong scaling (the same n) and weak scaling (n per GPU
fixed). Each block is moved to its worker's GPU, reduced by one fused weft kernel, and only the
partial sum comes back. Then the same expression over 2^26 elements with chunks from 2^16 to
2^26 on one GPU: the Dask cost per task.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

GPUS = (1, 2)
LOG2N = 31
CHUNK_LOG2 = 27


def expression(x):
    import weft as wf

    return ((wf.exp(x) * 2 + x * x).sum())


def measure(client, n: int, chunk: int, repeat: int) -> dict:
    import dask.array as da
    from distributed import wait

    import weft.dask as wd

    rows = n // chunk
    x = da.random.default_rng(0).random((rows, chunk), chunks=(1, chunk), dtype=np.float32)
    x = client.persist(x)
    wait(x)
    wx = wd.from_dask(x)
    first = float(expression(wx))  # compiles on every worker
    sample = x[:1].compute()
    want = float((np.exp(sample.astype(np.float64)) * 2 + sample.astype(np.float64) ** 2).sum())
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        got = float(expression(wx))
        times.append(time.perf_counter() - t0)
    assert abs(got - first) <= 1e-6 * abs(first), (got, first)
    ms = 1e3 * statistics.median(times)
    del x, wx
    return dict(n=n, chunk=chunk, tasks=rows, ms=ms, gbps=4 * n / ms / 1e6,
                first_block_check=abs(float(expression(wd.from_dask(da.from_array(sample))))
                                      - want) / abs(want))


def scaling(plan, progress: Callable[[list[dict]], None], gpus: tuple[int, ...] = GPUS,
            log2n: int = LOG2N, chunk_log2: int = CHUNK_LOG2) -> list[dict]:
    from distributed import Client

    import weft.dask as wd

    records: list[dict] = []
    chunk = 1 << chunk_log2
    for g in gpus:
        with wd.gpu_cluster(g) as cluster, Client(cluster) as client:
            for kind, n in (("strong", 1 << log2n), ("weak", (1 << log2n) // 2 * g)):
                if kind == "weak" and n == 1 << log2n:  # the strong point itself
                    r = dict(next(r for r in records if r["gpus"] == g
                                  and r["kind"] == "strong"))
                else:
                    r = measure(client, n, chunk, plan.repeat)
                r.update(kind=kind, gpus=g)
                records.append(r)
                print(f"{kind} {g} GPU(s), n=2^{int(np.log2(n))}: {r['ms']:.1f} ms, "
                      f"{r['gbps']:.1f} GB/s, {r['tasks']} tasks", flush=True)
            if g == 1:
                for c in range(16, 27, 2):
                    r = measure(client, 1 << 26, 1 << c, plan.repeat)
                    r.update(kind="overhead", gpus=1)
                    r["us_per_task"] = 1e3 * r["ms"] / r["tasks"]
                    records.append(r)
                    print(f"overhead chunk 2^{c}: {r['ms']:.1f} ms for {r['tasks']} tasks, "
                          f"{r['us_per_task']:.0f} us/task", flush=True)
        progress(records)
    return records
