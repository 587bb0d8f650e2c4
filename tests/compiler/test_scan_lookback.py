"""A long row's scan in one pass (decoupled look-back: skeletons/scan.py, ``LOOKBACK``) on
every device with device-scope atomics (CUDA; OpenCL C 3.0). On a CPU OpenCL device the scan
is planned as for a GPU here (CPUs walk a split per core in three passes), which lets PoCL
run the OpenCL form in CI: its work-groups wait on each other as a GPU's do.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import weft as wf
from conftest import launches, run_in_threads
from weft import memo


def _single_pass_devices() -> list:
    return [d for d in wf.devices()
            if d.backend.dialect is not None and d.backend.dialect.release_store
            and d.traits.last_group]


DEVICES = _single_pass_devices()


@pytest.fixture(params=DEVICES, ids=[str(d) for d in DEVICES])
def single_pass(request, monkeypatch):
    device = request.param
    if device.traits.is_cpu:  # a GPU's tiles, one per work-group, on the CPU device
        monkeypatch.setattr(device, "traits", replace(device.traits, is_cpu=False, row_band=0,
                                                      column_band=0))
    memo.MEMO.clear()  # plans recorded with the device's usual planning
    with wf.device(device) as d:
        yield d
    memo.MEMO.clear()


def test_long_rows_scan_in_one_pass(single_pass):
    """Two launches (the states' zeroing, then the scan) whatever the row's length, every
    scan's values as NumPy's, and the stream's counter back at zero for what follows."""
    rng = np.random.default_rng(3)
    a = rng.uniform(-1.0, 1.0, 300_007)
    x = wf.asarray(a)
    before = launches()
    walk = wf.cumsum(x * 2.0)
    walk.eval()
    assert launches() - before == 2
    assert "lookback" in wf.kernel_source(wf.cumsum(x))
    np.testing.assert_allclose(walk.to_numpy(), np.cumsum(a * 2.0), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(wf.cummax(x).to_numpy(), np.maximum.accumulate(a))
    np.testing.assert_allclose(wf.logcumsumexp(x).to_numpy(), np.logaddexp.accumulate(a),
                               rtol=1e-10)
    near_one = rng.uniform(0.999, 1.001, 200_003)
    np.testing.assert_allclose(wf.cumprod(wf.asarray(near_one)).to_numpy(),
                               np.cumprod(near_one), rtol=1e-10)
    # Integers exactly; float32 sums accumulate in float64 where the device has it.
    ints = rng.integers(-9, 10, (3, 90_001)).astype(np.int32)
    np.testing.assert_array_equal(wf.cumsum(wf.asarray(ints), axis=1).to_numpy(),
                                  np.cumsum(ints, axis=1))
    single = a.astype(np.float32)
    np.testing.assert_allclose(wf.cumsum(wf.asarray(single)).to_numpy(),
                               np.cumsum(single.astype(np.float64)), rtol=1e-6, atol=1e-4)
    # The counter the tickets come from serves the split reductions next, and the scan again.
    np.testing.assert_allclose(float(wf.sum(x)), a.sum(), rtol=1e-10)
    np.testing.assert_allclose(wf.cumsum(x).to_numpy(), np.cumsum(a), rtol=1e-9, atol=1e-9)


def test_one_pass_scans_on_several_threads(single_pass):
    """Each thread's stream has its own counter and its scans their own states."""
    rng = np.random.default_rng(4)
    rows = [rng.standard_normal(150_001 + k) for k in range(4)]

    def work(k: int) -> None:
        with wf.device(single_pass):
            for _ in range(3):
                got = wf.cumsum(wf.asarray(rows[k]) + k).to_numpy()
                np.testing.assert_allclose(got, np.cumsum(rows[k] + k), rtol=1e-9, atol=1e-8)

    run_in_threads(work, 4)
