"""Split full reductions finished by their last work-group: one launch instead of two, on every
device whose backend does it (CUDA; OpenCL with device-scope atomics). On a CPU OpenCL device
the reductions are planned as for a GPU here (CPUs walk contiguous runs with a few lanes, so
they never finish in the last group), which lets PoCL run the OpenCL form in CI.
"""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

import weft as wf
from conftest import launches, run_in_threads
from weft import memo
from weft.backends.opencl import backend as opencl_backend


def _finishing_devices() -> list:
    found = []
    for d in wf.devices():
        dialect = d.backend.dialect
        if dialect is not None and dialect.last_group_add and d.traits.last_group:
            found.append(d)
    return found


LAST_GROUP_DEVICES = _finishing_devices()


@pytest.fixture(params=LAST_GROUP_DEVICES, ids=[str(d) for d in LAST_GROUP_DEVICES])
def finishing(request, monkeypatch):
    device = request.param
    if device.traits.is_cpu:  # a GPU's teams, split along the row, on the CPU device
        monkeypatch.setattr(device, "traits", replace(device.traits, is_cpu=False, row_band=0,
                                                      column_band=0))
    memo.MEMO.clear()  # plans recorded with the device's usual planning
    with wf.device(device) as d:
        yield d
    memo.MEMO.clear()


def test_full_reductions_finish_in_one_kernel_and_repeat_correctly(finishing):
    """One launch per split reduction, and the group counter is back at zero for every
    following launch on the queue."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal(3_000_017)
    b = rng.uniform(0.5, 2.0, 3_000_017).astype(np.float32)
    x, y = wf.asarray(a), wf.asarray(b)
    before = launches()
    total = wf.sum(x * 2.0)
    total.eval()
    assert launches() - before == 1
    assert "last_group" in wf.kernel_source(wf.sum(x * 2.0))
    np.testing.assert_allclose(float(total), 2.0 * a.sum(), rtol=1e-10)
    results = [(wf.mean(x + k), wf.max(y * k), wf.min(x), wf.all(x < k), wf.sum(y))
               for k in range(1, 13)]
    for k, (mean, largest, smallest, every, float_sum) in enumerate(results, start=1):
        np.testing.assert_allclose(float(mean), (a + k).mean(), rtol=1e-10)
        assert float(largest) == (b * np.float32(k)).max()
        assert float(smallest) == a.min()
        assert bool(every) == bool((a < k).all())
        np.testing.assert_allclose(float(float_sum), b.astype(np.float64).sum(), rtol=1e-6)
    with wf.config(fuse=False):  # the same kernels, launched one after another
        np.testing.assert_allclose(float(wf.sum(x)), a.sum(), rtol=1e-10)


def test_the_glm_density_and_a_failed_check_in_one_kernel(finishing):
    rng = np.random.default_rng(7)
    n = 1_000_003
    xs = rng.standard_normal((n, 2))
    beta = np.array([0.4, -1.1])
    ys = 0.3 + xs @ beta + 1.7 * rng.standard_normal(n)
    x, y = wf.asarray(xs), wf.asarray(ys)
    got = wf.stats.normal_id_glm_lpdf(y, x, 0.3, wf.asarray(beta), 1.7)
    z = (ys - 0.3 - xs @ beta) / 1.7
    want = -0.5 * np.dot(z, z) - n * np.log(1.7) - n * 0.5 * np.log(2 * np.pi)
    np.testing.assert_allclose(float(got), want, rtol=1e-10)
    bad = ys.copy()
    bad[765_432] = np.nan
    with pytest.raises(ValueError, match="765432"):
        float(wf.stats.normal_id_glm_lpdf(wf.asarray(bad), x, 0.3, wf.asarray(beta), 1.7))
    # the failed launch still reset the counter: the next reduction is right
    np.testing.assert_allclose(float(wf.sum(x)), xs.sum(), rtol=1e-10)


def test_split_reductions_on_several_threads_keep_their_counters_apart(finishing):
    rng = np.random.default_rng(6)
    data = [rng.standard_normal(1 << 21) for _ in range(6)]
    got: dict[int, list[float]] = {}

    def reduce_many(k):
        with wf.device(finishing):
            x = wf.asarray(data[k])
            sums = [wf.sum(x * r) for r in range(1, 30)]
            got[k] = [float(s) for s in sums]

    run_in_threads(reduce_many, 6)
    for k in range(6):
        np.testing.assert_allclose(got[k], [data[k].sum() * r for r in range(1, 30)],
                                   rtol=1e-9)


def test_opencl_last_group_can_be_turned_off(monkeypatch):
    """``WEFT_OPENCL_LAST_GROUP=0``: the partial results are combined by a second launch."""
    devices = [d for d in wf.devices() if d.kind == "opencl"]
    if not devices:
        pytest.skip("no OpenCL device")
    device = devices[0]
    monkeypatch.setenv("WEFT_OPENCL_LAST_GROUP", "0")
    monkeypatch.setattr(device.handle, "last_group", None)
    traits = device.backend.traits(device)
    assert not traits.last_group
    monkeypatch.setattr(device, "traits", replace(traits, is_cpu=False, row_band=0))
    memo.MEMO.clear()
    try:
        with wf.device(device):
            a = np.random.default_rng(8).standard_normal(2_000_000)
            x = wf.asarray(a)
            before = launches()
            total = wf.sum(x)
            total.eval()
            assert launches() - before == 2
            np.testing.assert_allclose(float(total), a.sum(), rtol=1e-10)
    finally:
        memo.MEMO.clear()


@pytest.mark.parametrize(("ptx", "device_scope"), [
    ("membar.gl;\natom.global.add.u32 %r8, [%rd16], 1;\nmembar.gl;", True),
    ("fence.acq_rel.gpu;\natom.global.add.u32 %r1, [%rd1], 1;", True),
    ("atom.acq_rel.gpu.global.add.u32 %r1, [%rd1], 1;", True),
    ("membar.cta;\natom.global.add.u32 %r8, [%rd16], 1;", False),
    ("atom.global.add.u32 %r8, [%rd16], 1;", False),
])
def test_the_probe_reads_a_device_scope_fence_from_ptx(ptx, device_scope):
    """NVIDIA's OpenCL devices claim only work-group-scope atomics; weft uses the last-group
    finish there only when the compiler's PTX for a device-scope add has a GPU-scope fence."""
    assert bool(opencl_backend._PTX_DEVICE_FENCE.search(ptx)) is device_scope


def test_group_counter_is_one_zeroed_int_per_thread():
    devices = [d for d in wf.devices() if d.kind == "opencl"]
    if not devices:
        pytest.skip("no OpenCL device")
    device = devices[0]
    counter = device.backend.group_counter(device)
    assert counter is device.backend.group_counter(device)
    assert counter.dtype.name == "int32" and counter.size == 1
    assert device.backend.download(counter)[0].tolist() == [0]
    other: list = []
    thread = threading.Thread(target=lambda: other.append(device.backend.group_counter(device)))
    thread.start()
    thread.join()
    assert other[0] is not counter


def test_one_row_split_takes_at_most_the_groups_resident_at_once(finishing, monkeypatch):
    """A split full reduction is replanned to the work-groups the device holds at once (on
    CUDA the occupancy calculator's answer; here a stand-in of two per compute unit, fewer
    than the first plan's): every launch, the first and the remembered ones, takes at most
    that many, a remembered evaluation allocates only the launched plan's partial results,
    and the sums stay exact."""
    backend = finishing.backend
    wave = 2 * finishing.traits.compute_units
    asked = []

    def resident(device, program):
        asked.append(program() is not None)  # the kernel exists to be asked about
        return wave

    launched = []
    launch = backend.launch

    def counting(device, program, ir, args, n, outputs, inputs, groups=None):
        launched.append(groups)
        return launch(device, program, ir, args, n, outputs, inputs, groups)

    monkeypatch.setattr(backend, "resident_groups", resident)
    monkeypatch.setattr(backend, "launch", counting)
    rng = np.random.default_rng(8)
    a = rng.standard_normal(3_000_017)  # the first layout: more than 2 groups per compute unit
    x = wf.asarray(a)
    for k in range(1, 4):  # the first call plans and records; the others replay the plan
        np.testing.assert_allclose(float(wf.sum(x * float(k))), k * a.sum(), rtol=1e-10)
    assert asked == [True]
    assert len(launched) == 1 and 1 < launched[0] <= wave  # then replayed, as recorded
    (replay,) = memo.MEMO.plans.values()
    assert [step.groups for step in replay.steps] == launched
    assert [size for _, size in replay.temporaries] == [launched[0]]


def test_element_walks_of_a_split_row_are_woven_and_exact(finishing):
    """A row split over work-groups and walked element by element (a strided operand) is
    woven: every split's lanes walk the whole row together. Sums, extremes, means and a
    checked GLM over such rows match NumPy and SciPy, for lengths that leave lanes idle."""
    from scipy import stats

    rng = np.random.default_rng(11)
    for n in (1_000_003, 257 * 1031):
        a = rng.standard_normal(2 * n)
        x = wf.asarray(a)
        total = wf.sum(x[::2])
        assert "splits * lanes" in wf.kernel_source(total)
        np.testing.assert_allclose(float(total), a[::2].sum(), rtol=1e-10)
        assert float(wf.max(x[1::2])) == a[1::2].max()
        np.testing.assert_allclose(float(wf.mean(x[::2] * x[1::2])), (a[::2] * a[1::2]).mean(),
                                   rtol=1e-10)
    m = rng.standard_normal((1_000_003, 2))
    beta, alpha, sigma = np.array([0.7, -1.2]), 0.3, 1.7
    y = alpha + m @ beta + sigma * rng.standard_normal(m.shape[0])
    got = wf.stats.normal_id_glm_lpdf(wf.asarray(y), wf.asarray(m), alpha, wf.asarray(beta),
                                      sigma)
    assert "splits * lanes" in wf.kernel_source(got)
    want = stats.norm.logpdf(y, alpha + m @ beta, sigma).sum()
    np.testing.assert_allclose(float(got), want, rtol=1e-10)
