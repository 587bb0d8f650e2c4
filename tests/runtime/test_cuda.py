"""The CUDA backend: sharing memory with CuPy/torch/JAX, streams per thread, the cubin disk
cache, several elements per thread. Skipped without CuPy and a GPU; the rest of the suite
runs on CUDA devices through the ``device`` fixture like on any other device.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.stats

import weft as wf
from conftest import run_in_threads

CUDA_DEVICES = [d for d in wf.devices() if d.kind == "cuda"]
pytestmark = pytest.mark.skipif(not CUDA_DEVICES, reason="needs CuPy and an NVIDIA GPU")

cp = pytest.importorskip("cupy") if CUDA_DEVICES else None


@pytest.fixture
def gpu():
    with wf.device(CUDA_DEVICES[0]) as d:
        yield d


def _ptr(x) -> int:
    return x.__cuda_array_interface__["data"][0]


def test_cuda_is_the_default_device_when_cupy_sees_a_gpu():
    assert wf.devices()[0].kind == "cuda"
    if "WEFT_DEVICE" not in os.environ:
        assert wf.current_device().kind == "cuda"


def test_cupy_arrays_come_in_without_a_copy(gpu):
    c = cp.arange(12, dtype=cp.float64).reshape(3, 4)
    x = wf.asarray(c)
    assert x.device is gpu and x.shape == (3, 4) and x.dtype == wf.float64
    assert _ptr(x) == c.data.ptr
    np.testing.assert_array_equal((x * 2 + 1).to_numpy(), cp.asnumpy(c) * 2 + 1)


def test_strided_cupy_arrays_keep_their_strides(gpu):
    base = cp.arange(20, dtype=cp.float32).reshape(4, 5)
    for c in (base.T, base[::2, ::-1], base[1:, 2]):
        x = wf.asarray(c)
        np.testing.assert_array_equal(x.to_numpy(), cp.asnumpy(c))
        np.testing.assert_allclose(wf.exp(x).to_numpy(), np.exp(cp.asnumpy(c)), rtol=1e-6)


def test_adopted_arrays_wait_for_the_producers_pending_writes(gpu):
    """weft's stream does not block on CuPy's default stream: adopting an array whose
    writes are still queued there must order them first."""
    for _ in range(3):
        c = cp.zeros(1 << 24, dtype=cp.float64)
        for _ in range(40):
            c += 1.0  # queued on CuPy's stream, still running when weft reads
        x = wf.asarray(c)
        assert float(x.min()) == 40.0 and float(x.max()) == 40.0


def test_adopted_arrays_off_a_16_byte_boundary_keep_their_memory_and_values(gpu):
    """An adopted array's storage starts at the 16-byte boundary below it, so its offset says
    whether rows can be read 16 bytes at a time: never from a misaligned start."""
    for dtype, skip in ((cp.float64, 1), (cp.float32, 1), (cp.float32, 2), (cp.float64, 2)):
        c = cp.arange(4 * 2048 + skip, dtype=dtype)[skip:].reshape(4, 2048)
        x = wf.asarray(c)
        assert _ptr(x) == c.data.ptr  # no copy
        aligned = (c.data.ptr % 16) == 0
        assert ("vector_end" in wf.kernel_source(x.sum(axis=1))) == aligned
        np.testing.assert_allclose(x.sum(axis=1).to_numpy(),
                                   cp.asnumpy(c).astype(np.float64).sum(axis=1), rtol=1e-6)
        x[0, :2] = -1.0
        # CuPy reads ``c`` on its own stream, which does not wait for weft's: only an export
        # of ``x`` or a synchronize orders the write before it (the read raced the write
        # when four test processes shared the GPU).
        wf.synchronize()
        assert float(c[0, 0]) == -1.0 and float(c[0, 1]) == -1.0  # written in place


def test_matrix_vector_products_are_weft_reductions_but_large_column_sums(gpu):
    rng = np.random.default_rng(9)
    a, v = rng.standard_normal((64, 1030)), rng.standard_normal(1030)
    x, b = wf.asarray(a), wf.asarray(v)
    product = x @ b
    assert product.is_lazy and "vector_end" in wf.kernel_source(product)  # weft's kernel
    np.testing.assert_allclose(product.to_numpy(), a @ v, rtol=1e-12)
    np.testing.assert_allclose(((x - 1.0) @ b).to_numpy(), (a - 1.0) @ v, rtol=1e-12)
    short = x[:, :200] @ b[:200]  # 200 columns: still a vector for each of 8 lanes
    assert short.is_lazy
    np.testing.assert_allclose(short.to_numpy(), a[:, :200] @ v[:200], rtol=1e-12)
    # Rows off a 16-byte boundary, a transpose, rows shorter than a vector per lane, a
    # vector times a small matrix: weft's reductions too (lazy; cuBLAS would copy the
    # strided ones first).
    t = rng.standard_normal((1030, 600))
    w = rng.standard_normal(64)
    for left, right, expected in ((x[:, 1:], b[1:], a[:, 1:] @ v[1:]),
                                  (wf.asarray(t).T, b, t.T @ v),
                                  (x[:, :10], b[:10], a[:, :10] @ v[:10]),
                                  (wf.asarray(w), x, w @ a)):
        result = left @ right
        assert result.is_lazy
        np.testing.assert_allclose(result.to_numpy(), expected, rtol=1e-12)
    # The column sums of a large contiguous matrix of many columns: cuBLAS, at once.
    big = rng.standard_normal((1 << 15, 512))
    weights = rng.standard_normal(1 << 15)
    result = wf.asarray(weights) @ wf.asarray(big)
    assert not result.is_lazy
    np.testing.assert_allclose(result.to_numpy(), weights @ big, rtol=1e-10)


def test_narrow_dtypes_are_refused_unless_a_dtype_is_asked_for(gpu):
    c = cp.asarray(np.array([1.5, -2.25], np.float16))
    with pytest.raises(TypeError, match="weft has no float16 arrays"):
        wf.asarray(c)
    x = wf.asarray(c, dtype=wf.float32)
    assert x.dtype == wf.float32
    np.testing.assert_array_equal(x.to_numpy(), [1.5, -2.25])


def test_weft_arrays_go_out_without_a_copy(gpu):
    a = np.random.default_rng(0).standard_normal((64, 33))
    y = wf.exp(wf.asarray(a)) - 1
    c = cp.asarray(y)  # __cuda_array_interface__
    assert c.data.ptr == _ptr(y)
    np.testing.assert_allclose(cp.asnumpy(c), np.exp(a) - 1)
    d = cp.from_dlpack(y)  # DLPack
    assert d.data.ptr == _ptr(y)
    assert y.__dlpack_device__() == (2, gpu.handle.index)
    t = wf.asarray(a).T[1:5, ::2]
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(t)), a.T[1:5, ::2])


def test_torch_round_trip(gpu):
    torch = pytest.importorskip("torch")
    t = torch.arange(10, dtype=torch.float32, device="cuda") * 0.5
    x = wf.asarray(t)
    assert _ptr(x) == t.data_ptr()
    back = torch.from_dlpack(wf.sin(x))
    np.testing.assert_allclose(back.cpu().numpy(), np.sin(np.arange(10) * 0.5, dtype=np.float32),
                               rtol=1e-6)


def test_jax_round_trip(gpu):
    jnp = pytest.importorskip("jax.numpy")
    import jax

    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX has no GPU here")
    j = jnp.arange(6.0, dtype=jnp.float32).reshape(2, 3)
    x = wf.asarray(j)
    np.testing.assert_array_equal((x + 1).to_numpy(), np.arange(6.0).reshape(2, 3) + 1)
    back = jax.dlpack.from_dlpack(x * 2)
    np.testing.assert_array_equal(np.asarray(back), np.arange(6.0).reshape(2, 3) * 2)


def test_writes_into_an_adopted_array_land_in_the_shared_memory(gpu):
    c = cp.zeros(8, dtype=cp.float64)
    x = wf.asarray(c)
    x[2:5] = wf.asarray(np.array([1.0, 2.0, 3.0]))
    wf.synchronize()
    # weft wrote in place only if nothing else could read the old value; either way x is right
    np.testing.assert_array_equal(x.to_numpy(), [0, 0, 1, 2, 3, 0, 0, 0])


def test_opencl_device_refuses_gpu_memory_with_a_clear_error():
    cl = [d for d in wf.devices() if d.kind == "opencl"]
    if not cl:
        pytest.skip("no OpenCL device")
    with pytest.raises(TypeError, match="GPU memory"):
        wf.asarray(cp.ones(3), device=cl[0])


def test_several_elements_per_thread_cover_every_tail(gpu):
    rng = np.random.default_rng(3)
    for n in ((1 << 20) + 37, (1 << 20) + 1024, 3 << 20):
        a = rng.standard_normal(n)
        got = (wf.asarray(a) * 2 + 1).to_numpy()
        np.testing.assert_array_equal(got, a * 2 + 1)
    m = rng.standard_normal((1025, 1031))
    np.testing.assert_allclose((wf.exp(wf.asarray(m).T) * 3).to_numpy(), np.exp(m.T) * 3)


def test_threads_have_their_own_streams_and_results_cross_threads(gpu):
    rng = np.random.default_rng(4)
    data = [rng.standard_normal(1 << 18) for _ in range(8)]
    made: dict[int, wf.Array] = {}
    streams = set()

    def produce(k):
        with wf.device(gpu):
            made[k] = wf.exp(wf.asarray(data[k])) + k
            made[k].eval()
            streams.add(gpu.handle.stream().ptr)

    run_in_threads(produce, 8)
    assert len(streams) == 8
    # this thread consumes what the others produced, without waiting on the host first
    total = sum((made[k] * 2 for k in range(8)), wf.zeros(1 << 18))
    expected = sum((np.exp(data[k]) + k) * 2 for k in range(8))
    np.testing.assert_allclose(total.to_numpy(), expected, rtol=1e-12)


def test_ready_turns_true_after_synchronize(gpu):
    x = wf.exp(wf.asarray(np.ones(1 << 22)))
    x.eval()
    wf.synchronize()
    assert x.ready


def test_cubins_are_loaded_from_the_disk_cache_in_a_new_process(gpu, tmp_path, disk_cache):
    script = (
        "import weft as wf, numpy as np\n"
        f"wf.set_device('{gpu}')\n"
        "x = wf.asarray(np.arange(5.0))\n"
        "print(float((wf.sinh(x) * 3 - x).sum()), wf.cache_info()['disk_hits'])\n"
    )
    env = dict(os.environ, WEFT_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                           text=True, check=True).stdout.split() for _ in range(2)]
    expected = float((np.sinh(np.arange(5.0)) * 3 - np.arange(5.0)).sum())
    assert float(runs[0][0]) == pytest.approx(expected)
    assert runs[0][1] == "0" and int(runs[1][1]) >= 1
    assert any(p.suffix == ".bin" for p in tmp_path.rglob("*"))


def test_out_of_memory_is_a_memory_error(gpu):
    with pytest.raises(MemoryError, match="out of device memory"):
        wf.zeros(1 << 45, dtype=wf.float64).eval()


def test_nvrtc_errors_carry_the_compiler_log_and_launch_errors_name_the_kernel(gpu):
    from weft.backends.cuda import driver

    options = gpu.backend.build_options(gpu, None)  # the device's architecture
    with pytest.raises(RuntimeError, match=r"could not compile broken(.|\n)*undefined"):
        driver.compile_cubin('extern "C" __global__ void k() { undefined_name(); }',
                             "broken", options)
    cubin = driver.compile_cubin(
        'extern "C" __global__ void fill(double* out) { out[threadIdx.x] = threadIdx.x; }',
        "fill", options)
    # A module loads into the current context: the device's, made as weft's backend makes
    # it (a process whose default device is another may not have made it yet).
    with gpu.handle.active():
        cp.cuda.runtime.free(0)
        fill = driver.Module(cubin).function("fill")
        assert fill.resident_blocks(256) >= 1
        out = cp.zeros(8, cp.float64)
        pointer = np.array([out.data.ptr], np.uint64)
        params = np.array([pointer.ctypes.data], np.uint64)
        stream = cp.cuda.Stream(non_blocking=True)
        driver.launch(fill, 1, 8, stream.ptr, params.ctypes.data, "fill")
        stream.synchronize()
        np.testing.assert_array_equal(out.get(), np.arange(8.0))
        with pytest.raises(RuntimeError,
                           match=r"cuLaunchKernel\(fill\) failed: CUDA_ERROR_INVALID"):
            driver.launch(fill, 1, 4096, stream.ptr, params.ctypes.data, "fill")


def test_a_replay_is_one_graph_that_sees_each_calls_arguments(gpu, monkeypatch):
    """A traced function's kernels launch as one CUDA graph whose nodes take each call's
    new buffers and scalars (-0.0 after 0.0 too) and keep what did not change."""
    from weft.backends.cuda import driver
    from weft.backends.cuda.launch import HOST_COPY_KERNEL, HOST_COPY_SOURCE
    from weft.cache import CACHE

    copy = CACHE.source_program(gpu, HOST_COPY_SOURCE, HOST_COPY_KERNEL).function.ptr
    made = []

    class Counting(driver.Graph):
        def __init__(self, launches):
            super().__init__(launches)
            made.append(sum(int(f) != copy for f, *_ in launches))  # the kernels

    monkeypatch.setattr(driver, "Graph", Counting)
    rng = np.random.default_rng(5)
    # 12 columns: x.T @ d is a launch of its own (up to 8, the gradient is one launch).
    x = wf.asarray(rng.standard_normal((300, 12)))
    y = wf.asarray((rng.random(300) < 0.5).astype(np.int32))
    density = wf.value_and_grad(lambda a, b: wf.stats.bernoulli_logit_glm_lpmf(y, x, a, b),
                                argnums=(0, 1))
    traced = wf.function(density)
    kept = []
    for k in range(4):
        beta = wf.asarray(rng.standard_normal(12) * 0.3)
        value, (d_alpha, d_beta) = traced(wf.asarray(0.1 * k), beta)
        want_value, (want_alpha, want_beta) = density(wf.asarray(0.1 * k), beta)
        assert float(value) == pytest.approx(float(want_value), rel=1e-12)
        assert float(d_alpha) == pytest.approx(float(want_alpha), rel=1e-12)
        np.testing.assert_allclose(d_beta.to_numpy(), want_beta.to_numpy(), rtol=1e-12)
        if k % 2:
            kept.append(value)  # the next call's results cannot reuse its buffer
    assert max(made) >= 2
    reciprocal = wf.function(lambda a, s: 1.0 / (a * s))
    a = wf.asarray(np.ones(5))
    with np.errstate(divide="ignore"):
        for s in (2.0, 0.0, -0.0, 0.5):
            np.testing.assert_array_equal(reciprocal(a, s).to_numpy(), 1.0 / (np.ones(5) * s))


def test_a_one_element_result_is_read_from_its_graphs_host_copy(gpu, monkeypatch):
    """A replay's graph copies its one-element results to host memory: float() of the last
    call's result waits and copies nothing; a result whose copy a later call overwrote,
    one written since, and one read by another thread are copied as before; a NaN in the
    data still fails the read."""
    runtime = gpu.handle.cupy.cuda.runtime
    copies = []
    real_copy = runtime.memcpyAsync

    def counting_copy(*args):
        copies.append(args[2])
        return real_copy(*args)

    monkeypatch.setattr(runtime, "memcpyAsync", counting_copy)
    rng = np.random.default_rng(11)
    y = rng.standard_normal(1000)
    y_dev = wf.asarray(y)
    lp = wf.function(lambda y, mu, sigma: wf.stats.normal_lpdf(y, mu, sigma))
    want = lambda mu: scipy.stats.norm.logpdf(y, mu, 1.3).sum()  # noqa: E731
    for k in range(6):
        lp(y_dev, 0.1 * k, 1.3)  # traced, checked, then replayed as one graph
    copies.clear()
    for mu in np.linspace(-1.0, 1.0, 9):
        assert float(lp(y_dev, float(mu), 1.3)) == pytest.approx(want(mu), rel=1e-12)
    assert copies == []
    first, second = lp(y_dev, 0.25, 1.3), lp(y_dev, -0.5, 1.3)
    assert float(first) == pytest.approx(want(0.25), rel=1e-12)  # its copy was overwritten
    assert float(second) == pytest.approx(want(-0.5), rel=1e-12)
    assert len(copies) == 1
    changed = lp(y_dev, 0.75, 1.3)
    changed[...] = 7.0
    assert float(changed) == 7.0
    elsewhere = lp(y_dev, 0.5, 1.3)
    seen = []
    run_in_threads(lambda k: seen.append(float(elsewhere)), 1)
    assert seen == [pytest.approx(want(0.5), rel=1e-12)]
    bad = y.copy()
    bad[3] = np.nan
    with pytest.raises(ValueError, match=r"y must be not NaN; y\[3\] = nan"):
        float(lp(wf.asarray(bad), 0.1, 1.3))
    assert float(lp(y_dev, 0.1, 1.3)) == pytest.approx(want(0.1), rel=1e-12)
