"""Deferred check reports: ``eval`` enqueues a checked kernel without waiting for it; the
failure surfaces at observation, at a write into an existing array, and at ``wf.synchronize``.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import weft as wf
from weft import pending


def _bad_sigma(n: int = 8, at: int = 3) -> np.ndarray:
    sigma = np.ones(n)
    sigma[at] = -2.0
    return sigma


def _positive(x: wf.Array) -> wf.Array:
    return wf.check(x, x > 0, "sigma must be positive")


def _flag_seen(device) -> bool:
    """Whether the host reads the calling thread's failure flag on ``device`` without a copy
    (after a checked launch has made its slab)."""
    return pending._state().slabs[device].seen_host is not None


def _counting_downloads(device, monkeypatch) -> list[list[int]]:
    """Patch ``device``'s downloads to note the sizes of the buffers each one reads (a read
    of one element notes [1])."""
    downloads = []
    real, real_element = device.backend.download, device.backend.read_element

    def counting(*storages):
        downloads.append([s.size for s in storages])
        return real(*storages)

    def counting_element(storage, offset):
        downloads.append([1])
        return real_element(storage, offset)

    # On the instance, as other tests patch it: a class patch would be hidden by what an
    # undone instance patch leaves behind.
    monkeypatch.setattr(device.backend, "download", counting)
    monkeypatch.setattr(device.backend, "read_element", counting_element)
    return downloads


@pytest.fixture(autouse=True)
def _no_leftover_reports():
    """Each test starts and ends with nothing unread on this thread."""
    try:
        wf.synchronize()
    except ValueError:
        pass
    yield
    try:
        wf.synchronize()
    except ValueError:
        pass


def test_eval_does_not_read_the_report_observation_does(device, monkeypatch):
    downloads = _counting_downloads(device, monkeypatch)
    x = wf.asarray(np.arange(1.0, 9.0))
    total = wf.sum(_positive(x) * 2).eval()
    assert downloads == []  # nothing waited for the kernel
    assert float(total) == pytest.approx(72.0)
    if _flag_seen(device):
        assert downloads == [[1]]  # the value; the clear flag says the records are clean
    else:
        assert downloads == [[pending.SLOTS * pending.RECORD, 1]]  # both after one wait


def test_failed_check_raises_at_observation_and_again_later(device):
    lp = wf.stats.normal_lpdf(wf.asarray(np.zeros(8)), 0.0, wf.asarray(_bad_sigma()))
    lp.eval()  # enqueued: no error yet
    with pytest.raises(ValueError, match=r"sigma\[3\] = -2\.0"):
        float(lp)
    with pytest.raises(ValueError, match=r"sigma\[3\] = -2\.0"):
        lp.to_numpy()
    wf.synchronize()  # already raised at an observation: nothing more to report


def test_values_computed_from_a_failed_result_raise_too(device):
    x = _positive(wf.asarray(_bad_sigma())).eval()
    y = (x * 3 + 1).eval()  # reads x's buffer: inherits its report
    z = wf.sum(y).eval()
    with pytest.raises(ValueError, match=r"sigma must be positive.*\[3\].*-2\.0"):
        z.item()
    with pytest.raises(ValueError, match="sigma must be positive"):
        y.to_numpy()
    fine = wf.asarray(np.ones(3)) * 2
    np.testing.assert_array_equal(fine.to_numpy(), [2.0, 2.0, 2.0])  # unrelated: unaffected


def test_synchronize_raises_an_unobserved_failure_once(device):
    _positive(wf.asarray(_bad_sigma(at=5))).eval()
    with pytest.raises(ValueError, match=r"\[5\]"):
        wf.synchronize()
    wf.synchronize()  # reported: the next synchronize is clean


def test_one_failure_read_by_two_kernels_raises_once(device):
    """One check on a value two kernels of one evaluation read fails in both: the first
    observation raises it, and the next synchronize does not raise it again (it did, in the
    next test that synchronized); another evaluation's unobserved failure still raises."""
    checked = _positive(wf.asarray(_bad_sigma().reshape(2, 4)))
    by_columns, by_rows = checked.sum(axis=0), checked.sum(axis=1)
    wf.eval(by_columns, by_rows)
    with pytest.raises(ValueError, match=r"sigma must be positive.*\[0, 3\]"):
        by_columns.to_numpy()
    wf.synchronize()
    _positive(wf.asarray(_bad_sigma(at=6))).eval()
    with pytest.raises(ValueError, match=r"\[6\]"):
        wf.synchronize()


def test_writing_a_failed_value_into_an_array_leaves_it_unchanged(device):
    bad = _positive(wf.asarray(_bad_sigma())).eval()
    dst = wf.asarray(np.arange(8.0))
    with pytest.raises(ValueError, match="sigma must be positive"):
        dst[...] = bad + 1
    with pytest.raises(ValueError, match="sigma must be positive"):
        dst += bad
    with pytest.raises(ValueError, match="sigma must be positive"):
        wf.assign(dst[2:5], bad[2:5])
    np.testing.assert_array_equal(dst.to_numpy(), np.arange(8.0))


def test_a_failure_inside_a_reduction_that_feeds_a_write_leaves_every_destination(device):
    s_np = np.array([[1.0, 2, 3, 4], [5, -6, 7, 8]])
    s = wf.asarray(s_np)
    t = wf.asarray(np.arange(12.0).reshape(3, 4))
    with pytest.raises(ValueError, match=r"m: element \[1, 1\] = -6\.0"):
        t[:2] = wf.check(s, s > 0, "m").sum(axis=0)
    a, b = wf.asarray(np.zeros(4)), wf.asarray(np.ones(4))
    with pytest.raises(ValueError, match="m: element"):
        wf.assign((a, b), (wf.check(s, s > 0, "m").sum(axis=0), b * 3))
    with pytest.raises(IndexError, match="index 7 is out of bounds"):
        a[:2] = s[:, wf.asarray(np.array([0, 7]))].sum(axis=0)
    # unchanged, and the failure is not remembered by the destinations
    np.testing.assert_array_equal(t.to_numpy(), np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(a.to_numpy(), np.zeros(4))
    np.testing.assert_array_equal(b.to_numpy(), np.ones(4))
    t[0, 0] = 5.0
    a += s.sum(axis=0)
    assert t.to_numpy()[0, 0] == 5.0
    np.testing.assert_array_equal(a.to_numpy(), s_np.sum(axis=0))


def test_out_of_range_index_is_reported_at_observation(device):
    x = wf.asarray(np.arange(5.0))
    picked = x[wf.asarray(np.array([0, 7]))].eval()
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        picked.to_numpy()


def test_many_unobserved_checked_results_stay_bounded_and_correct(device):
    x = wf.asarray(np.arange(1.0, 5.0))
    results = [wf.sum(_positive(x) * k).eval() for k in range(3 * pending.SLOTS)]
    bad = wf.sum(_positive(x - 2)).eval()
    more = [wf.sum(_positive(x) + k).eval() for k in range(pending.SLOTS)]
    slab = pending._state().slabs[device]
    assert len(slab.waiting) + len(slab.free) == pending.SLOTS
    assert [float(r) for r in results[::37]] == [10.0 * k for k in range(0, 192, 37)]
    assert float(more[-1]) == 10.0 + 4 * (pending.SLOTS - 1)
    with pytest.raises(ValueError, match=r"\[0\] = -1\.0"):
        float(bad)
    assert float(wf.sum(_positive(x))) == 10.0  # a clean buffer after the failure


def test_a_chain_of_checked_launches_passes_on_each_unread_report_once(device):
    """Each launch reads the one before (a traced step called in a loop): a result holds
    every unread report of its chain once, at most a slab's worth, and a failure early in
    the chain is raised where its end is observed."""
    step = wf.function(lambda v, s: _positive(v) * s + 0.0)
    v = wf.asarray(np.arange(1.0, 5.0))
    want = np.arange(1.0, 5.0)
    for k in range(2 * pending.SLOTS + 5):
        v = step(v, 1.0 + k % 2)
        want = want * (1.0 + k % 2)
        checks = v._node.attrs.storage.checks
        assert len(checks) == len(set(map(id, checks))) <= pending.SLOTS + 1
    assert v.tolist() == want.tolist()
    w = wf.asarray(np.arange(1.0, 5.0))
    for k in range(pending.SLOTS // 2):
        w = step(w, -1.0 if k == 3 else 1.0)  # turn 4 on reads negative values
    with pytest.raises(ValueError, match="sigma must be positive"):
        w.to_numpy()


def test_one_copy_reads_every_waiting_report(device, monkeypatch):
    x = wf.asarray(np.arange(1.0, 5.0))
    results = [wf.sum(_positive(x) * k).eval() for k in range(10)]
    downloads = _counting_downloads(device, monkeypatch)
    assert [float(r) for r in results] == [10.0 * k for k in range(10)]
    record_copies = sum(sizes.count(pending.SLOTS * pending.RECORD) for sizes in downloads)
    assert record_copies == (0 if _flag_seen(device) else 1)


def test_a_clean_synchronize_copies_records_only_where_the_flag_is_unseen(device, monkeypatch):
    x = wf.asarray(np.arange(1.0, 5.0))
    results = [wf.sum(_positive(x) * k).eval() for k in range(5)]
    slab = pending._state().slabs[device]
    assert len(slab.waiting) == 5
    downloads = _counting_downloads(device, monkeypatch)
    wf.synchronize()
    assert not slab.waiting and len(slab.free) == pending.SLOTS
    assert all(p.read and p.error is None for r in results for p in r._node.attrs.storage.checks)
    assert downloads == ([] if _flag_seen(device) else [[pending.SLOTS * pending.RECORD]])


def test_a_failure_found_by_the_flag_is_raised_once_then_the_flag_is_clear(device, monkeypatch):
    x = wf.asarray(np.arange(1.0, 5.0))
    wf.sum(_positive(x) * 2).eval()
    wf.sum(_positive(x - 3) * 2).eval()  # x - 3 = -2 at index 0
    slab = pending._state().slabs[device]
    with pytest.raises(ValueError, match=r"sigma must be positive.*\[0\] = -2\.0"):
        wf.synchronize()
    if slab.seen_host is not None:
        assert slab.seen_host[0] == 0
    wf.sum(_positive(x)).eval()
    downloads = _counting_downloads(device, monkeypatch)
    wf.synchronize()  # clean: nothing raised, and no copy where the host sees the flag
    assert downloads == ([] if _flag_seen(device) else [[pending.SLOTS * pending.RECORD]])


def test_a_failure_in_one_thread_is_raised_where_observed(device):
    made = {}

    def worker():
        with wf.device(device):
            made["bad"] = _positive(wf.asarray(_bad_sigma(at=6))).eval()
            made["good"] = _positive(wf.asarray(np.ones(4))).eval()

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    np.testing.assert_array_equal(made["good"].to_numpy(), np.ones(4))
    with pytest.raises(ValueError, match=r"\[6\]"):
        made["bad"].to_numpy()


def test_download_reads_several_buffers_after_one_wait(device):
    """The backends' ``download`` of several buffers (a value with its check records): each
    comes back whole, small ones and one past the CUDA backend's page-locked staging."""
    values = [np.arange(k, dtype=np.float64) * 1.5 for k in (1, 3, 17)]
    values.append(np.arange(5, dtype=np.int32))
    values.append(np.arange(300_000, dtype=np.float64))  # 2.4 MB
    arrays = [(wf.asarray(v) * 2).eval() for v in values]
    storages = [a._node.attrs.storage for a in arrays]
    got = device.backend.download(*storages[:4])
    assert len(got) == 4
    for g, v in zip(got, values):
        np.testing.assert_array_equal(g, v * 2)
        assert g.dtype == v.dtype
    first, big = device.backend.download(storages[0], storages[4])
    np.testing.assert_array_equal(first, values[0] * 2)
    np.testing.assert_array_equal(big, values[4] * 2)


def test_a_device_sharing_memory_with_the_host_shows_it_the_flag(device):
    """OpenCL devices with fine-grained SVM (PoCL's CPU device) keep the flag where the host
    reads it, so observing a checked value waits once: no copy of the records after it."""
    y = wf.asarray(np.ones(4))
    float(wf.stats.normal_lpdf(y, 0.0, 1.0))
    handle = device.handle
    expected = device.kind != "opencl" or handle.fine_grained_svm  # CUDA: page-locked
    if device.kind == "opencl" and handle.is_cpu and handle.platform.startswith("Portable"):
        assert handle.fine_grained_svm  # PoCL's CPU device has it
    assert _flag_seen(device) == expected
