"""weft.dask against NumPy: element-wise work, reductions over every axis, reductions feeding
element-wise work, transposes, slices, log densities; on Dask's local scheduler and on a
``LocalCluster`` of two worker processes, one of which is killed mid-computation."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest
from scipy import stats as st

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import weft as wf  # noqa: E402
import weft.dask as wd  # noqa: E402

RNG = np.random.default_rng(11)
A = RNG.normal(size=(230, 170))
V = RNG.normal(size=170)


def _pair():
    """The same data as Dask-backed weft Arrays, chunked unevenly (and differently)."""
    return (wd.from_dask(da.from_array(A, chunks=(60, 45))),
            wd.from_dask(da.from_array(V, chunks=40)))


CASES = {
    "elementwise": (lambda x, v: wf.exp(x) * 2 + v, lambda a, v: np.exp(a) * 2 + v),
    "sum": (lambda x, v: x.sum(), lambda a, v: a.sum()),
    "sum axis 0": (lambda x, v: (x * x).sum(axis=0), lambda a, v: (a * a).sum(0)),
    "sum axis 1": (lambda x, v: (x + v).sum(axis=1), lambda a, v: (a + v).sum(1)),
    "mean axis -1": (lambda x, v: x.mean(axis=-1), lambda a, v: a.mean(-1)),
    "max axis 0": (lambda x, v: x.max(axis=0), lambda a, v: a.max(0)),
    "min": (lambda x, v: wf.min(x * v), lambda a, v: (a * v).min()),
    "prod axis 1": (lambda x, v: (x * 0.1 + 1).prod(axis=1), lambda a, v: (a * 0.1 + 1).prod(1)),
    "keepdims": (lambda x, v: x.sum(axis=1, keepdims=True) * 2,
                 lambda a, v: a.sum(1, keepdims=True) * 2),
    "vector sum": (lambda x, v: (v * 3).sum(), lambda a, v: (v * 3).sum()),
    "centered": (lambda x, v: x - x.mean(axis=0), lambda a, v: a - a.mean(0)),
    "standardized": (lambda x, v: (x - x.mean()) / wf.sqrt(((x - x.mean()) ** 2).mean()),
                     lambda a, v: (a - a.mean()) / np.sqrt(((a - a.mean()) ** 2).mean())),
    "transpose": (lambda x, v: x.T * 2 + 1, lambda a, v: a.T * 2 + 1),
    "exp(A.T) + A.T": (lambda x, v: wf.exp(x.T) + x.T, lambda a, v: np.exp(a.T) + a.T),
    "transpose sum": (lambda x, v: x.T.sum(axis=0), lambda a, v: a.T.sum(0)),
    "slices": (lambda x, v: x[5:100:3, ::-2] - v[::-2], lambda a, v: a[5:100:3, ::-2] - v[::-2]),
    "diagonal": (lambda x, v: wf.diagonal(x) * 2, lambda a, v: np.diagonal(a) * 2),
    "tril": (lambda x, v: wf.tril(x) + 0, lambda a, v: np.tril(a)),
    "logsumexp": (lambda x, v: wf.logsumexp(x, axis=1),
                  lambda a, v: np.log(np.exp(a).sum(1))),
    "where": (lambda x, v: wf.where(x > 0, x, -v), lambda a, v: np.where(a > 0, a, -v)),
    "cumsum along rows": (lambda x, v: wf.cumsum(x * 2, axis=1), lambda a, v: np.cumsum(a * 2, 1)),
    "cummax along columns": (lambda x, v: wf.cummax(x, axis=0) + v,
                             lambda a, v: np.maximum.accumulate(a, 0) + v),
    "argmax along rows": (lambda x, v: wf.argmax(x * v, axis=1), lambda a, v: np.argmax(a * v, 1)),
    "argmin of a vector": (lambda x, v: wf.argmin(v * 2), lambda a, v: np.argmin(v * 2)),
    "normal_lpdf": (lambda x, v: wf.stats.normal_lpdf(x, v, 1.5),
                    lambda a, v: st.norm.logpdf(a, v, 1.5).sum()),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_numpy_on_the_local_scheduler(name):
    build, reference = CASES[name]
    got = build(*_pair())
    assert got.device is wd.DEVICE
    np.testing.assert_allclose(got.to_numpy(), reference(A, V), rtol=1e-10, atol=1e-10)


def test_to_dask_is_lazy_with_deterministic_names():
    x, v = _pair()
    first = (wf.exp(x) + v).to_dask()
    second = (wf.exp(x) + v).to_dask()
    assert isinstance(first, da.Array)
    assert first.name == second.name
    assert (wf.exp(x) + 2 * v).to_dask().name != first.name
    np.testing.assert_allclose(first.compute(), np.exp(A) + V, rtol=1e-12)
    # one fused layer per element-wise sub-expression: exp, + and the broadcast of v
    weft_layers = [k for k in first.dask.layers if str(k).startswith("weft-")]
    assert len(weft_layers) == 1


def test_reduction_uses_fused_partials_and_a_tree_combine():
    x, _ = _pair()
    total = (x * x).sum().to_dask()
    layers = [str(k) for k in total.dask.layers]
    assert any(k.startswith("weft-partial-") for k in layers)
    assert any(k.startswith("weft-combine") for k in layers)
    np.testing.assert_allclose(total.compute(), (A * A).sum(), rtol=1e-12)


def test_scalars_and_checks_travel_to_the_blocks():
    x, _ = _pair()
    bad = wd.from_dask(da.from_array(np.where(A > 2.5, -1.0, 1.0), chunks=50))
    with pytest.raises(ValueError, match="sigma must be positive and finite"):
        wf.stats.normal_lpdf(x, 0.0, bad).to_numpy()
    np.testing.assert_allclose(float(x.sum() * 0.5), A.sum() * 0.5, rtol=1e-12)


def test_errors_are_clear():
    with pytest.raises(TypeError, match="dask.array.Array"):
        wd.from_dask(np.ones(3))
    with pytest.raises(ValueError, match="at most 2 dimensions"):
        wd.from_dask(da.ones((2, 2, 2)))
    x, _ = _pair()
    with pytest.raises(NotImplementedError, match="integer-array indexing"):
        x[wf.asarray([0, 1])].to_numpy()


def test_a_weft_array_on_a_device_converts():
    y = wf.asarray(A)
    np.testing.assert_allclose(y.to_dask().compute(), A)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as c, distributed.Client(c) as client:
        yield c, client


@pytest.mark.parametrize("name", ["elementwise", "sum axis 0", "sum axis 1", "centered",
                                  "transpose", "standardized", "normal_lpdf"])
def test_matches_numpy_on_two_worker_processes(cluster, name):
    _, client = cluster
    build, reference = CASES[name]
    got = build(*_pair())
    np.testing.assert_allclose(got.to_numpy(), reference(A, V), rtol=1e-10, atol=1e-10)
    # the blocks ran on the workers, with weft's kernels
    assert all(client.run(lambda: "weft" in __import__("sys").modules).values())


def _slow(block: np.ndarray) -> np.ndarray:
    time.sleep(0.05)
    return block


def test_a_killed_worker_is_retried_with_a_correct_result(cluster):
    _, client = cluster
    data = RNG.normal(size=(4000, 64))
    slow = da.from_array(data, chunks=(50, 64)).map_blocks(_slow, dtype=data.dtype)
    x = wd.from_dask(slow)
    future = client.compute((wf.exp(x) * 0.5 + 1).sum(axis=1).to_dask())
    pids = client.run(os.getpid)
    time.sleep(1.0)  # some blocks done, most not
    assert not future.done()
    victim = next(iter(pids.values()))
    threading.Thread(target=os.kill, args=(victim, signal.SIGKILL)).start()
    got = future.result(timeout=120)
    np.testing.assert_allclose(got, (np.exp(data) * 0.5 + 1).sum(axis=1), rtol=1e-12)
    assert victim not in client.run(os.getpid).values()
