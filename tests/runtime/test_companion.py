"""PoCL's basic device as the companion of the pthread one: launches over few elements and
every read run on the calling thread (``backends/opencl/companion.py``), ordered against the
pthread device's work by host waits. Values against NumPy in chains that cross between the
two, in replays, in threads, with failed checks; and the environment's say."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import weft as wf
from conftest import run_in_threads
from weft import tuning
from weft.backends.opencl import companion

COMPANIONED = [d for d in wf.devices() if getattr(d.handle, "companion", None) is not None]
pytestmark = pytest.mark.skipif(not COMPANIONED, reason="no PoCL device with a companion")
SMALL, LARGE = 1000, tuning.QUICK_ELEMENTS + 1001


def _ran_on(array: wf.Array) -> str:
    """Which of the two devices' queues last wrote ``array``'s storage."""
    storage = array._node.attrs.storage
    queue_device = storage.write[1].device
    return "companion" if queue_device == storage.device.handle.companion else "main"


def test_small_and_large_launches_cross_and_agree_with_numpy():
    rng = np.random.default_rng(11)
    big_n, small_n = rng.standard_normal(LARGE), rng.standard_normal(SMALL)
    with wf.device(COMPANIONED[0]):
        big, small = wf.asarray(big_n), wf.asarray(small_n)
        for _ in range(3):  # each step reads what the other device wrote just before
            big = (big * 0.5 + 1.0).eval()
            assert _ran_on(big) == "main"
            wf.synchronize()  # (else the small launch stays on the thread's queue, after it)
            small = (small + big[:SMALL] * 2.0).eval()
            assert _ran_on(small) == "companion"
            big = (big - wf.exp(small).sum() / 1e3).eval()
            big_n = big_n * 0.5 + 1.0
            small_n = small_n + big_n[:SMALL] * 2.0
            big_n = big_n - np.exp(small_n).sum() / 1e3
        np.testing.assert_allclose(big.to_numpy(), big_n, rtol=1e-12)
        np.testing.assert_allclose(small.to_numpy(), small_n, rtol=1e-12)
        np.testing.assert_allclose(float(big[LARGE - 1]), big_n[-1], rtol=1e-12)


def test_traced_calls_of_both_sizes_and_reductions_split_over_groups():
    rng = np.random.default_rng(12)
    f = wf.function(lambda x, s: (wf.sin(x) * s).sum() + x.max())
    with wf.device(COMPANIONED[0]):
        for n in (SMALL, LARGE, 3, SMALL, LARGE):
            xn = rng.standard_normal(n)
            for s in (0.5, -2.0):
                want = (np.sin(xn) * s).sum() + xn.max()
                assert float(f(wf.asarray(xn), s)) == pytest.approx(want, rel=1e-12)
        rows = rng.standard_normal((90, 150))  # 13500 elements: small, split by rows
        np.testing.assert_allclose(wf.asarray(rows).sum(axis=0).to_numpy(), rows.sum(axis=0),
                                   rtol=1e-12)


def test_a_failed_check_on_either_device_is_raised_and_the_next_call_runs():
    with wf.device(COMPANIONED[0]):
        for n in (SMALL, LARGE):
            y = np.linspace(-1.0, 1.0, n)
            sigma = np.full(n, 2.0)
            sigma[n // 2] = -1.0
            lp = wf.stats.normal_lpdf(wf.asarray(y), 0.0, wf.asarray(sigma))
            with pytest.raises(ValueError, match=rf"sigma\[{n // 2}\]"):
                float(lp)
            good = float(wf.stats.normal_lpdf(wf.asarray(y), 0.0, 2.0))
            want = (-0.5 * (y / 2.0) ** 2 - np.log(2.0) - 0.5 * np.log(2 * np.pi)).sum()
            assert good == pytest.approx(want, rel=1e-12)


def test_each_thread_has_its_own_companion_queue():
    device = COMPANIONED[0]
    results = {}

    def work(k: int) -> None:
        with wf.device(device):
            x = wf.asarray(np.arange(SMALL, dtype=np.float64) + k)
            total = 0.0
            for _ in range(20):
                x = (x * 1.0001 + 1.0).eval()
                total += float(x.sum())
            results[k] = (total, _ran_on(x))

    run_in_threads(work, 4)
    for k in range(4):
        x = np.arange(SMALL, dtype=np.float64) + k
        total = 0.0
        for _ in range(20):
            x = x * 1.0001 + 1.0
            total += x.sum()
        assert results[k][0] == pytest.approx(total, rel=1e-12)
        assert results[k][1] == "companion"


@pytest.mark.parametrize("environment", [{"WEFT_POCL_COMPANION": "0"},
                                         {"POCL_DEVICES": "pthread"}])
def test_the_environment_can_keep_every_command_on_the_pthread_device(environment):
    """Turned off, or PoCL's devices chosen by the user: no companion, one CPU device."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("WEFT_POCL_COMPANION", "POCL_DEVICES", "WEFT_POCL_DEVICES")}
    script = ("import weft as wf; cpu = [d for d in wf.devices() if d.handle.is_cpu]; "
              "print(len(cpu), cpu[0].handle.companion)")
    out = subprocess.run([sys.executable, "-c", script], env={**env, **environment},
                         capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split() == ["1", "None"]


def test_a_process_weft_starts_inherits_the_companion():
    """The environment weft set for PoCL, inherited: still one CPU device, with its
    companion (not the basic device as a second one)."""
    script = ("import weft as wf; cpu = [d for d in wf.devices() if d.handle.is_cpu]; "
              "print(len(cpu), cpu[0].handle.companion is not None)")
    out = subprocess.run([sys.executable, "-c", script], env=dict(os.environ),
                         capture_output=True, text=True, check=True, timeout=120)
    assert os.environ.get("POCL_DEVICES") == companion.DEVICES
    assert out.stdout.split() == ["1", "True"]


def test_a_small_launch_that_would_wait_on_running_work_stays_on_the_threads_queue():
    """Its input still being written on the pthread device's queue (a marker held by a user
    event): the launch is queued after it there, not run on the companion (whose command
    would wait on the other device's inside PoCL), and computes once the work is done."""
    device = COMPANIONED[0]
    cl = device.handle.cl
    with wf.device(device):
        x = wf.asarray(np.arange(SMALL, dtype=np.float64)).eval()
        main = device.handle.queue()
        gate = cl.UserEvent(device.handle.context)
        x._node.attrs.storage.record_write(cl.enqueue_marker(main, wait_for=[gate]), main)
        y = (x * 2.0).eval()
        assert _ran_on(y) == "main"
        gate.set_status(cl.command_execution_status.COMPLETE)
        np.testing.assert_array_equal(y.to_numpy(), np.arange(SMALL) * 2.0)
        z = (y + 1.0).eval()
        assert _ran_on(z) == "companion"
        np.testing.assert_array_equal(z.to_numpy(), np.arange(SMALL) * 2.0 + 1.0)


def test_one_element_results_are_read_in_place(monkeypatch):
    """A replay's one-element results live where the host reads them (fine-grained SVM
    under a buffer): float() of one whose kernel has finished copies nothing; results kept
    together, one written in place, one read by another thread, one a large launch wrote on
    the pthread device and one whose check failed all read right."""
    import pyopencl as cl
    import scipy.stats

    device = COMPANIONED[0]
    if not device.handle.fine_grained_svm:
        pytest.skip("the device shares no fine-grained memory with the host")
    copies = []
    real_copy = cl.enqueue_copy
    monkeypatch.setattr(cl, "enqueue_copy", lambda *a, **k: copies.append(1) or
                        real_copy(*a, **k))
    rng = np.random.default_rng(12)
    y, big = rng.standard_normal(SMALL), rng.standard_normal(LARGE)
    want = lambda data, mu: scipy.stats.norm.logpdf(data, mu, 1.3).sum()  # noqa: E731
    with wf.device(device):
        y_dev, big_dev = wf.asarray(y), wf.asarray(big)
        lp = wf.function(lambda y, mu: wf.stats.normal_lpdf(y, mu, 1.3))
        for mu in (0.1, 0.2, 0.3):  # traced, checked, replayed
            lp(y_dev, mu)
        copies.clear()
        for mu in np.linspace(-1.0, 1.0, 9):
            assert float(lp(y_dev, float(mu))) == pytest.approx(want(y, mu), rel=1e-12)
        assert copies == []
        kept = [lp(y_dev, 0.01 * k) for k in range(40)]
        assert [float(r) for r in kept] == pytest.approx([want(y, 0.01 * k)
                                                          for k in range(40)], rel=1e-12)
        changed = lp(y_dev, 0.5)
        changed[...] = 7.0
        assert float(changed) == 7.0
        elsewhere, seen = lp(y_dev, 0.25), []
        run_in_threads(lambda k: seen.append(float(elsewhere)), 1)
        assert seen == [pytest.approx(want(y, 0.25), rel=1e-12)]
        assert float(lp(big_dev, 0.1)) == pytest.approx(want(big, 0.1), rel=1e-12)
        bad = y.copy()
        bad[5] = np.nan
        with pytest.raises(ValueError, match=r"y must be not NaN; y\[5\] = nan"):
            float(lp(wf.asarray(bad), 0.1))
        assert float(lp(y_dev, 0.1)) == pytest.approx(want(y, 0.1), rel=1e-12)
