"""A host library's results on a CPU device become buffers over their own memory
(``Backend.adopt_host``), never over an operand's mapping, and never twice; on other
devices they are copied. Values against NumPy on every device."""

from __future__ import annotations

import numpy as np

import weft as wf
from weft.linalg_library import Host


def _adopted(x: wf.Array) -> bool:
    return getattr(x._node.attrs.storage.buffer, "block", None) is not None


def _cpu_opencl(device) -> bool:
    return device.kind == "opencl" and device.target.traits.is_cpu


def test_a_library_result_is_adopted_once_and_never_an_operands_mapping(device):
    xh = np.random.default_rng(0).standard_normal(5000)
    x = wf.asarray(xh)
    host = Host(x.device)
    with host.on_stream():
        mapped = host.take(x)
        copied = host.give(mapped, wf.float64)  # a view of the operand: copied
        ordered = np.sort(mapped)
        first, second = host.give(ordered, wf.float64), host.give(ordered, wf.float64)
    assert not _adopted(copied) and not _adopted(second)
    assert _adopted(first) == _cpu_opencl(x.device)
    first[0] = 99.0  # the two results are two arrays
    copied[1] = -99.0
    np.testing.assert_array_equal(second.to_numpy(), np.sort(xh))
    np.testing.assert_array_equal(x.to_numpy(), xh)
    assert float(first[0]) == 99.0 and float(copied[1]) == -99.0


def test_adopted_results_compute_like_any_buffer(device):
    rng = np.random.default_rng(1)
    xh = rng.standard_normal(1 << 16)
    x = wf.asarray(xh)
    ordered = wf.sort(x)
    assert _adopted(ordered) == _cpu_opencl(x.device)
    np.testing.assert_array_equal((ordered * 2 + 1).to_numpy(), np.sort(xh) * 2 + 1)
    ordered[10:20] = 0.0  # a kernel writes the adopted memory
    want = np.sort(xh)
    want[10:20] = 0.0
    np.testing.assert_array_equal(ordered.to_numpy(), want)
    np.testing.assert_array_equal(wf.flatnonzero(x > 0).to_numpy(), np.flatnonzero(xh > 0))
    np.testing.assert_allclose(float(wf.median(x)), np.median(xh), rtol=1e-15)


def test_adopted_memory_outlives_the_kernels_still_reading_it(device):
    # The positions (adopted on a CPU device) are dropped as soon as the gather reading them
    # is queued: their host memory must stay until that kernel has run.
    rng = np.random.default_rng(2)
    n = 1 << 21
    xh = rng.standard_normal(n)
    x = wf.asarray(xh)
    results = []
    for k in range(6):
        keep = wf.full((n,), True).copy()
        keep[wf.asarray(np.arange(k, n, 997))] = False
        results.append(wf.take(x, wf.flatnonzero(keep) * 1).eval())
    wf.synchronize()
    for k, r in enumerate(results):
        np.testing.assert_array_equal(r.to_numpy(), np.delete(xh, np.arange(k, n, 997)))
