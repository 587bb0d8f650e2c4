"""0-d results as futures: full reductions, dot and logdet stay on the device and feed later
kernels without a host round-trip; eight threads produce them and another consumes them."""

from __future__ import annotations

import numpy as np

import weft as wf
from conftest import run_in_threads
from weft import philox


def _record_downloads(device, monkeypatch) -> list:
    """The storages each download reads (the error slab's recycling may read its records at
    any launch: only the values' own storages matter)."""
    read = []
    original, original_element = device.backend.download, device.backend.read_element

    def recording(*storages, **kwargs):
        read.extend(storages)
        return original(*storages, **kwargs)

    def recording_element(storage, offset):
        read.append(storage)
        return original_element(storage, offset)

    monkeypatch.setattr(device.backend, "download", recording)
    monkeypatch.setattr(device.backend, "read_element", recording_element)
    return read


def test_zero_d_results_feed_later_kernels_without_a_host_round_trip(device, monkeypatch):
    data = np.random.default_rng(0).standard_normal(1000)
    x = wf.asarray(data)
    total = x.sum().eval()
    dot = wf.linalg.dot(x, x)
    ld = wf.linalg.logdet(wf.asarray(np.diag([2.0, 3.0])))
    assert total.shape == dot.shape == ld.shape == ()
    values = [a._node.attrs.storage for a in (total, ld) if not a.is_lazy]
    read = _record_downloads(device, monkeypatch)
    centred = (x - total / 1000.0) * ld + dot
    centred.eval()
    # The 0-d values were kernel arguments, not host numbers.
    assert not any(s is v for s in read for v in values)
    monkeypatch.undo()
    expected = (data - data.sum() / 1000.0) * np.log(6.0) + data @ data
    np.testing.assert_allclose(centred.to_numpy(), expected, rtol=1e-10)


def test_eight_threads_make_futures_that_another_thread_consumes(device):
    results: dict[int, tuple] = {}

    def produce(k: int) -> None:
        with wf.device(device):
            x = wf.random.normal(wf.random.key(k), (5000,), loc=float(k))
            mean = x.mean().eval()
            s = wf.asarray(np.diag(np.arange(1.0, 4.0) + k))
            logdet = wf.linalg.logdet(s)
            factor = wf.linalg.cholesky(s)
            results[k] = (x, mean, logdet, factor)

    run_in_threads(produce, 8)
    # This thread consumes every other thread's results, with no synchronisation first.
    for k, (x, mean, logdet, factor) in results.items():
        draws = philox.normal(np.uint32(k), np.uint32(0), np.arange(5000), float(k), 1.0)
        got = (x - mean + logdet + wf.linalg.lcholdet(factor)).to_numpy()
        diag = np.arange(1.0, 4.0) + k
        expected = draws - draws.mean() + 2 * np.log(diag).sum()
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-10)
