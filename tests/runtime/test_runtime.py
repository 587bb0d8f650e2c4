"""Threads, the disk cache across processes, the kernel cache's errors, devices."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import weft as wf
from conftest import run_in_threads
from weft import cache, lower
from weft.dialect import Dialect
from weft.dtypes import float64

SCRIPT = """
import numpy as np, weft as wf
x = wf.asarray(np.arange(5.0))
y = (wf.exp(x) * 3.25 - x / 7.0).to_numpy()
assert np.allclose(y, np.exp(np.arange(5.0)) * 3.25 - np.arange(5.0) / 7.0)
print(wf.cache_info()["compiles"], wf.cache_info()["disk_hits"])
"""


def _run(cache_dir: Path) -> tuple[int, int]:
    env = dict(os.environ, WEFT_CACHE_DIR=str(cache_dir))
    env.pop("WEFT_DEVICE", None)
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1])


def test_second_process_compiles_nothing(tmp_path, disk_cache):
    if wf.current_device().kind == "reference":
        pytest.skip("the reference interpreter compiles nothing")
    assert _run(tmp_path) == (1, 0)
    assert _run(tmp_path) == (0, 1)


def test_corrupt_disk_entry_is_rebuilt(tmp_path, disk_cache):
    if wf.current_device().kind == "reference":
        pytest.skip("the reference interpreter compiles nothing")
    _run(tmp_path)
    entries = list(tmp_path.glob("kernels-v*/*.bin"))
    assert entries
    for e in entries:
        data = e.read_bytes()
        e.write_bytes(data[:-10] + b"0123456789")  # payload no longer matches its checksum
    assert _run(tmp_path) == (1, 0)
    for e in tmp_path.glob("kernels-v*/*.bin"):
        e.write_bytes(b"garbage")
    assert _run(tmp_path) == (1, 0)


def _entries_at(directory: Path, sizes_and_ages: dict[str, tuple[int, float]]) -> None:
    now = time.time()
    for name, (size, age) in sizes_and_ages.items():
        path = directory / f"{name}.bin"
        path.write_bytes(b"x" * size)
        os.utime(path, (now - age, now - age))


def test_the_disk_cache_evicts_the_entries_used_longest_ago(tmp_path, monkeypatch):
    monkeypatch.setenv("WEFT_CACHE_SIZE", "250")
    use = cache._DiskUse()
    _entries_at(tmp_path, {"a": (100, 30), "b": (100, 20), "c": (100, 10)})
    use.wrote(tmp_path, 100)  # 300 bytes over a bound of 250: down to 200 (EVICT_TO)
    assert sorted(p.stem for p in tmp_path.glob("*.bin")) == ["b", "c"]
    cache._mark_used(tmp_path / "b.bin")  # a disk hit: b is now the most recently used
    _entries_at(tmp_path, {"d": (100, 5)})
    use.wrote(tmp_path, 100)
    assert sorted(p.stem for p in tmp_path.glob("*.bin")) == ["b", "d"]
    monkeypatch.setenv("WEFT_CACHE_SIZE", "unlimited")
    _entries_at(tmp_path, {"e": (1000, 1)})
    use.wrote(tmp_path, 1000)
    assert sorted(p.stem for p in tmp_path.glob("*.bin")) == ["b", "d", "e"]


def _pocl_entry_at(root: Path, name: str, size: int, age: float) -> Path:
    entry = root / name[:2] / name
    (entry / "kernel" / "0-0-0").mkdir(parents=True)
    (entry / "kernel" / "0-0-0" / "kernel.so").write_bytes(b"x" * size)
    (entry / "last_accessed").write_bytes(b"")
    used = time.time() - age
    os.utime(entry / "last_accessed", (used, used))
    return entry


def test_pocls_entries_count_and_go_first_when_used_longest_ago(tmp_path, monkeypatch):
    from weft import pocl_cache

    monkeypatch.setenv("WEFT_CACHE_SIZE", "450")
    own = tmp_path / "kernels-v1"
    own.mkdir()
    monkeypatch.setattr(pocl_cache, "_MANAGED", [tmp_path / "pocl"])
    old = _pocl_entry_at(tmp_path / "pocl", "AAOLD", 150, 40)
    recent = _pocl_entry_at(tmp_path / "pocl", "ABNEW", 150, 5)
    _entries_at(own, {"a": (100, 30), "b": (100, 20)})
    use = cache._DiskUse()
    use.wrote(own, 100)  # 500 bytes over 450: down to 360, the oldest first
    assert not old.exists() and recent.exists()
    assert sorted(p.stem for p in own.glob("*.bin")) == ["a", "b"]
    cache.CACHE.clear(disk=False)


def test_pocl_keeps_its_cache_inside_weft_s_unless_told_otherwise(tmp_path):
    if not any(d.kind == "opencl" and "Portable" in d.handle.platform
               for d in wf.devices()):
        pytest.skip("PoCL is not among the devices")
    script = ("import os, pathlib, weft as wf\n"
              "wf.set_device(next(d for d in wf.devices()\n"
              "                  if d.kind == 'opencl' and 'Portable' in d.handle.platform))\n"
              "(wf.exp(wf.asarray([1.0, 2.0])) * 2).eval().to_numpy()\n"
              "root = pathlib.Path(os.environ['POCL_CACHE_DIR'])\n"
              "print(root, len(list(root.glob('*/*/program.bc'))))\n"
              "wf.clear_cache(disk=True)  # PoCL's entries go too; PoCL goes on working\n"
              "print(len(list(root.glob('*/*/program.bc'))))\n"
              "print((wf.sin(wf.asarray([0.0])) + 3).tolist())")
    def run(env: dict[str, str]) -> list[str]:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    env = dict(os.environ, WEFT_CACHE_DIR=str(tmp_path))
    env.pop("POCL_CACHE_DIR", None)
    # (The kernel's entry, and the lean-build probe's: backends/opencl/declarations.py.)
    root, made, left, value = run(env)
    assert (root, left, value) == (str(tmp_path / "pocl"), "0", "[3.0]") and int(made) >= 1
    env["POCL_CACHE_DIR"] = str(tmp_path / "mine")  # the user's choice is left alone
    root, made, left, value = run(env)
    assert (root, value) == (str(tmp_path / "mine"), "[3.0]") and left == made != "0"


@pytest.mark.parametrize("text, size", [("123", 123), ("4k", 4096), ("1.5M", 3 << 19),
                                        ("2 GiB", 2 << 30), ("1tb", 1 << 40)])
def test_weft_cache_size_reads_bytes_with_binary_suffixes(monkeypatch, text, size):
    monkeypatch.setenv("WEFT_CACHE_SIZE", text)
    assert cache.cache_size_limit() == size


def test_a_bad_weft_cache_size_names_the_variable(monkeypatch):
    monkeypatch.setenv("WEFT_CACHE_SIZE", "lots")
    with pytest.raises(ValueError, match="WEFT_CACHE_SIZE='lots' is not a size"):
        cache.cache_size_limit()
    monkeypatch.delenv("WEFT_CACHE_SIZE")
    assert cache.cache_size_limit() == cache.DEFAULT_CACHE_SIZE


def test_compiled_kernels_keep_the_disk_cache_within_its_bound(real_device, monkeypatch,
                                                               tmp_path, disk_cache):
    monkeypatch.setenv("WEFT_CACHE_DIR", str(tmp_path))
    x = wf.asarray([1.0, 2.0])
    kernels = [lower.lower([(op(x)._node, wf.realize.new_leaf(real_device, x._node))])[0]
               for op in (wf.exp, wf.log, wf.sqrt, wf.sin, wf.tanh)]
    fresh = cache.KernelCache()
    fresh.program(real_device, kernels[0])
    folder = tmp_path / f"kernels-v{cache.CACHE_VERSION}"
    (first,) = folder.glob("*.bin")
    bound = int(first.stat().st_size * 2.5)  # room for two entries of about that size
    monkeypatch.setenv("WEFT_CACHE_SIZE", str(bound))
    old = time.time() - 60
    os.utime(first, (old, old))
    again = cache.KernelCache()  # as a new process: the disk has it, memory does not
    again.program(real_device, kernels[0])
    assert again.stats["disk_hits"] == 1
    assert first.stat().st_mtime > old  # the hit made it the most recently used
    for ir in kernels[1:]:
        fresh.program(real_device, ir)
        assert sum(p.stat().st_size for p in folder.glob("*.bin")) <= bound
    assert fresh.stats["compiles"] == len(kernels)


def test_eight_threads_evaluate_at_once(device):
    results: dict[int, np.ndarray] = {}
    base = np.linspace(0, 1, 5000)

    def work(k: int) -> None:
        with wf.device(device):
            x = wf.asarray(base + k)
            acc = x
            for _ in range(20):
                acc = wf.sin(acc) * 0.5 + x
                acc.eval()
            acc += k
            results[k] = acc.to_numpy()

    run_in_threads(work, 8)
    for k in range(8):
        x = base + k
        acc = x
        for _ in range(20):
            acc = np.sin(acc) * 0.5 + x
        np.testing.assert_allclose(results[k], acc + k, rtol=1e-12)


def test_array_made_in_one_thread_used_in_another(real_device):
    x = (wf.asarray(np.arange(100000.0)) * 2).eval()
    out = {}

    def consume():
        with wf.device(real_device):
            out["v"] = (x + 1).to_numpy()

    t = threading.Thread(target=consume)
    t.start()
    t.join()
    np.testing.assert_array_equal(out["v"], np.arange(100000.0) * 2 + 1)


def test_compile_failure_is_runtime_error_with_saved_source(real_device, monkeypatch, tmp_path):
    monkeypatch.setenv("WEFT_CACHE_DIR", str(tmp_path))
    broken = Dialect(**{**real_device.backend.dialect_of(real_device).__dict__,
                                  "kernel_qualifier": "__kernel void this is not C"})
    monkeypatch.setattr(real_device.backend, "dialect_of", lambda device: broken)
    fresh = cache.KernelCache()
    x = wf.asarray([1.0])
    ir, *_ = lower.lower([((x * 2)._node, wf.realize.new_leaf(real_device, x._node))])
    saved = []
    for _ in range(2):  # as two processes would: each failure keeps its own file
        with pytest.raises(RuntimeError, match="Source saved at") as info:
            program = fresh.program(real_device, ir)
            getattr(program, "program", None)  # (PoCL builds at a kernel's first launch)
        saved.append(Path(str(info.value).split("Source saved at ")[1].split("\n")[0]))
    assert saved[0] != saved[1]
    for path in saved:
        assert path.exists() and "this is not C" in path.read_text()
        assert path.is_relative_to(tmp_path)  # the user's cache directory
        assert path.stat().st_mode & 0o077 == 0  # the owner's alone


def test_float64_on_a_device_without_fp64_is_a_type_error(real_device, monkeypatch):
    monkeypatch.setattr(type(real_device.handle), "supports_fp64", False, raising=False)
    monkeypatch.setattr(real_device.handle, "supports_fp64", False, raising=False)
    with pytest.raises(TypeError, match="float64"):
        wf.asarray(np.ones(2))
    x = wf.asarray(np.ones(2, np.float32))
    with pytest.raises(TypeError, match="float64"):
        (x + wf.zeros(2, dtype=float64)).eval()


def test_devices_and_selection():
    found = wf.devices()
    assert found and all(d.kind in ("cuda", "opencl") for d in found)
    assert str(found[0]) == f"{found[0].kind}:{found[0].index}"
    with wf.device("reference") as d:
        assert wf.current_device() is d
        assert wf.zeros(2).device is d
    with pytest.raises(ValueError, match="unknown device kind"):
        wf.get_device("tpu:0")
    with pytest.raises(ValueError, match="no device"):
        wf.get_device("opencl:99")
    with pytest.raises(ValueError, match="different devices"):
        wf.asarray([1.0]) + wf.asarray([1.0], device="reference")


def test_weft_device_environment_variable(tmp_path):
    env = dict(os.environ, WEFT_DEVICE="reference", WEFT_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", "import weft as wf; print(wf.current_device())"],
        env=env, check=True, capture_output=True, text=True).stdout.strip()
    assert out == "reference:0"


def test_debug_logging_names_each_launch(tmp_path):
    env = dict(os.environ, WEFT_DEBUG="1", WEFT_CACHE_DIR=str(tmp_path))
    err = subprocess.run(
        [sys.executable, "-c",
         "import weft as wf; (wf.asarray([1.0]) * 2 + 1).eval(); wf.synchronize()"],
        env=env, check=True, capture_output=True, text=True).stderr
    assert "launch weft_multiply_add" in err and "n=1" in err


def test_out_of_memory_names_the_size(real_device):
    huge = wf.zeros((1 << 20, 1 << 20))  # 8 TiB of float64: lazy, so building it is free
    with pytest.raises(MemoryError, match="8796093022208 bytes"):
        huge.eval()
    assert huge.is_lazy  # the failed evaluation left the array as it was


def test_several_elements_per_thread_give_the_same_values(real_device, monkeypatch):
    """The GPU launch shape (4 elements per thread, coalesced) on every device, tails included."""
    monkeypatch.setattr(real_device, "traits",
                        replace(real_device.traits, per_thread=4, per_thread_from=0))
    rng = np.random.default_rng(7)
    for n in (1, 255, 1024, 1025, 4097):
        a = rng.standard_normal(n)
        np.testing.assert_array_equal((wf.asarray(a) * 2 - 1).to_numpy(), a * 2 - 1)
    m = rng.standard_normal((67, 131))
    np.testing.assert_allclose((wf.exp(wf.asarray(m).T) + 1).to_numpy(), np.exp(m.T) + 1)
    assert "k < 4" in wf.kernel_source(wf.asarray(m) * 3)


@pytest.mark.parametrize("n", [1, 3, 4, 5, 1023, 1024, 4101])
def test_vector_loads_give_the_same_values(real_device, monkeypatch, n):
    """The vector skeleton (large grids on GPUs) on every device: tails, views that start
    off a vector boundary (scalar path), int32, in place, several outputs."""
    monkeypatch.setattr(real_device, "traits",
                        replace(real_device.traits, vector_width=4, vector_from=0))
    rng = np.random.default_rng(9)
    a = rng.standard_normal(n + 1).astype(np.float32)
    b = rng.standard_normal(n + 1).astype(np.float32)
    k = rng.integers(-50, 50, n + 1).astype(np.int32)
    x, y, i = wf.asarray(a), wf.asarray(b), wf.asarray(k)
    source = wf.kernel_source(3.0 * (x[:n] + y[:n]))
    assert ("float4" in source) == (n > 1)  # one element is a scalar access
    np.testing.assert_allclose((3.0 * (x[:n] + y[:n])).to_numpy(), 3 * (a[:n] + b[:n]),
                               rtol=1e-6)
    # GPUs contract a * b - 1 into one fused multiply-add: exact to float32's ulp of 1.
    np.testing.assert_allclose((x[1:] * y[:n] - 1).to_numpy(), a[1:] * b[:n] - 1, rtol=1e-6,
                               atol=2e-7)
    np.testing.assert_array_equal((i[:n] * 3 + i[1:] // 2).to_numpy(), k[:n] * 3 + k[1:] // 2)
    flags = wf.asarray(a > 0)  # bool loads and stores, four at a time
    np.testing.assert_array_equal(((x[1:] < y[:n]) ^ flags[:n]).to_numpy(),
                                  (a[1:] < b[:n]) ^ (a[:n] > 0))
    np.testing.assert_array_equal(wf.where(flags[1:], x[:n], -1.0).to_numpy(),
                                  np.where(a[1:] > 0, a[:n], -1.0))
    twice, half = wf.eval(x[:n] * 2, y[:n] / 2)
    np.testing.assert_array_equal(twice.to_numpy(), a[:n] * 2)
    np.testing.assert_array_equal(half.to_numpy(), b[:n] / 2)
    x += y
    np.testing.assert_allclose(x.to_numpy(), a + b, rtol=1e-6)
    np.testing.assert_allclose((x.astype(wf.float64) * 2).to_numpy(), (a + b) * 2.0,
                               rtol=1e-6)


@pytest.mark.parametrize("shape", [(1, 5), (5, 1), (2, 3), (31, 33), (32, 32), (67, 131),
                                   (130, 261)])
def test_transposed_reads_through_tiles_give_the_same_values(real_device, shape):
    """The tiled skeletons (work-group tiles on GPUs, private ones on CPUs): partial tiles,
    offsets, negative steps, two transposed operands, a bool one, a guarded one beside
    them."""
    rng = np.random.default_rng(8)
    a = rng.standard_normal(shape[::-1])
    b = rng.standard_normal((shape[1] + 3, shape[0] + 2))
    flags = rng.standard_normal(shape[::-1]) > 0
    x, y, f = wf.asarray(a), wf.asarray(b), wf.asarray(flags)
    expr = wf.exp(x.T) + y[3:, :-2][::-1].T * wf.where(f.T, 2.0, -1.0)
    expected = np.exp(a.T) + b[3:, :-2][::-1].T * np.where(flags.T, 2.0, -1.0)
    source = wf.kernel_source(expr)
    # (exp within 2 ulp: absolute near the sum's zeros)
    np.testing.assert_allclose(expr.to_numpy(), expected, rtol=1e-13, atol=1e-14)
    if shape[0] > 1 and shape[1] > 1:
        assert "tile0" in source and "tile2" in source
    square = rng.standard_normal((shape[1], shape[1]))
    s = wf.asarray(square)
    np.testing.assert_allclose((wf.tril(s.T) + s.T * 2).to_numpy(),
                               np.tril(square.T) + square.T * 2, rtol=1e-13)
    out = wf.asarray(np.zeros(shape[::-1]))
    out[...] = x * 3  # a transposed write stays a direct store
    out.T[...] = out.T + 1
    np.testing.assert_allclose(out.to_numpy(), a * 3 + 1, rtol=1e-13)


def test_remembered_plans_take_new_buffers_and_new_scalar_values(device):
    """The per-call fast path (memo.py) reuses structure, never data."""
    from weft.memo import MEMO

    rng = np.random.default_rng(11)
    for k in range(4):
        a, b = rng.standard_normal(50), rng.standard_normal(50)
        x, y = wf.asarray(a), wf.asarray(b)
        np.testing.assert_allclose((x * (k + 0.5) + y * k).to_numpy(), a * (k + 0.5) + b * k)
        # same structure, other aliasing: x read twice
        np.testing.assert_allclose((x * (k + 0.5) + x * k).to_numpy(), a * (k + 0.5) + a * k)
        x += k  # in place, through the same path
        np.testing.assert_allclose(x.to_numpy(), a + k)
    if device.kind != "reference":
        assert MEMO.plans  # the loop above was served from remembered plans


def test_numbers_written_in_expressions_keep_their_values_signs_and_kinds(device):
    """A Python number's leaf is shared by every expression using that number (expr.constant):
    equal numbers are one kernel argument, and no two different numbers ever share one (0.0
    and -0.0, 1 and True and 1.0 in an integer expression, NaN), whatever order they come in;
    a gradient's own Python-float argument stays a leaf of its own."""
    a = np.array([1.0, -2.0, 3.0])
    x = wf.asarray(a)
    for _ in range(2):  # the second time from remembered plans and shared leaves
        np.testing.assert_array_equal((x * 0.5 + 0.5).to_numpy(), a * 0.5 + 0.5)
        np.testing.assert_array_equal(np.signbit((x * -0.0).to_numpy()), np.signbit(a * -0.0))
        np.testing.assert_array_equal(np.signbit((x * 0.0).to_numpy()), np.signbit(a * 0.0))
        np.testing.assert_array_equal((x + 0.25 - 0.5 * x + 0.25).to_numpy(),
                                      a + 0.25 - 0.5 * a + 0.25)
        assert np.isnan((x * float("nan")).to_numpy()).all()
        np.testing.assert_array_equal((x * 2.0 - x / 2.0).to_numpy(), a * 2.0 - a / 2.0)
    n = wf.asarray(np.array([1, 2, 3], dtype=np.int32))
    assert (n + True).dtype == np.int32 and (n + True).tolist() == [2, 3, 4]
    assert (n + 1).tolist() == [2, 3, 4] and (n + 1.5).tolist() == [2.5, 3.5, 4.5]
    assert (n * 1.0).dtype == wf.default_real()
    grad = wf.grad(lambda s: wf.sum(x * s * s))
    for _ in range(2):
        assert float(grad(2.0)) == pytest.approx(2 * 2.0 * a.sum())
        np.testing.assert_array_equal((x * 2.0).to_numpy(), a * 2.0)


def test_remembered_reductions_take_new_data(device):
    """Reductions, their combining passes and temporaries replay from remembered plans with
    new buffers, new scalars and other aliasing; checked kernels still report every time."""
    from weft.memo import MEMO

    rng = np.random.default_rng(12)
    MEMO.clear()
    for k in range(3):
        a = rng.standard_normal((300, 70))
        v = rng.standard_normal(5000)
        x, y = wf.asarray(a), wf.asarray(v)
        np.testing.assert_allclose(wf.sum(x * (k + 1.5)).item(), (a * (k + 1.5)).sum())
        np.testing.assert_allclose(wf.mean(x, axis=0).to_numpy(), a.mean(axis=0))
        np.testing.assert_allclose(wf.sum(wf.exp(x) - k, axis=1).to_numpy(),
                                   (np.exp(a) - k).sum(axis=1))
        np.testing.assert_allclose(wf.sum(wf.tril(x[:70])).item(), np.tril(a[:70]).sum())
        np.testing.assert_allclose(wf.max(y * y).item(), (v * v).max())
        np.testing.assert_allclose(wf.sum(x * x.T.T).item(), (a * a).sum())  # aliasing
        bad = wf.asarray(np.where(np.arange(5000) == 17 + k, -1.0, 1.0))
        checked = wf.sum(wf.check(bad, lambda s: s > 0, "must be positive"))
        with pytest.raises(ValueError, match=f"must be positive.*{17 + k}"):
            checked.item()
    if device.kind != "reference":
        assert any(len(p.steps) > 1 for p in MEMO.plans.values())  # reductions remembered


def test_structure_numbers_tell_sharing_from_copies(device):
    """A cached evaluation's key is its structure number and its leaves' aliasing: equal
    structures that share a scalar, a buffer or a subtree differently, in either order of
    first use, each give their own values; deep sharing (more leaves than a number keeps)
    takes the walk and still replays."""
    from weft.memo import MEMO

    rng = np.random.default_rng(14)
    a, b = rng.standard_normal(30), rng.standard_normal(30)
    for first in range(2):
        MEMO.clear()
        for k in range(3) if first else reversed(range(3)):
            x, y = wf.asarray(a), wf.asarray(b)
            s = 1.5 + k
            twice = x * s
            cases = [
                (twice + twice, a * s * 2),  # one subtree (one scalar) used twice
                (x * s + x * (s + 1.0), a * s + a * (s + 1.0)),  # two scalars, one buffer
                (x * s + y * s, a * s + b * s),  # two buffers
                ((x + y) * (x + y), (a + b) ** 2),
                ((x + y) * (y + x), (a + b) * (b + a)),
            ]
            for made, expected in cases:
                assert made._node.leaves is not None  # served by the structure number
                np.testing.assert_allclose(made.to_numpy(), expected, rtol=1e-13)
            deep = x
            for _ in range(8):  # 256 leaves as a tree: the walk's key instead
                deep = deep * 0.5 + deep
            assert deep._node.leaves is None
            np.testing.assert_allclose(deep.to_numpy(), a * 1.5 ** 8, rtol=1e-12)
            into = wf.asarray(a)
            into[...] = into * s + into  # the destination aliases a leaf
            into[1:] = into[:-1] + 1.0  # a view of itself, shifted
            expected = a * s + a
            expected[1:] = expected[:-1] + 1.0
            np.testing.assert_allclose(into.to_numpy(), expected, rtol=1e-13)
    x, y = wf.asarray(a), wf.asarray(b)
    assert (x * 2.0 + y)._node.number == (y * 3.0 + x)._node.number
    assert (x * 2.0 + y)._node.number != (x * 2.0 - y)._node.number
    assert (x * 2.0 + y)._node.number != (x[1:] * 2.0 + y[1:])._node.number


def test_several_outputs_replay_together_with_new_data_and_aliasing(device):
    """``wf.eval`` of several outputs (a value and its gradients) is remembered as one plan:
    new buffers, new scalars, shared subexpressions computed once, results kept apart."""
    from weft.memo import MEMO

    rng = np.random.default_rng(13)
    MEMO.clear()
    for k in range(3):
        a, b = rng.standard_normal((40, 30)), rng.standard_normal(30)
        x, y = wf.asarray(a), wf.asarray(b)
        shared = wf.exp(x * (k + 0.5)).sum(axis=1)
        total, scaled, columns = wf.eval(shared.sum(), shared * 2.0, (x * y).sum(axis=0))
        e = np.exp(a * (k + 0.5)).sum(axis=1)
        np.testing.assert_allclose(total.item(), e.sum(), rtol=1e-12)
        np.testing.assert_allclose(scaled.to_numpy(), e * 2.0, rtol=1e-12)
        np.testing.assert_allclose(columns.to_numpy(), (a * b).sum(axis=0), rtol=1e-12)
        same, twice = wf.eval(x + 1.0, x + 1.0)  # one node requested twice
        np.testing.assert_allclose(same.to_numpy(), a + 1.0)
        np.testing.assert_allclose(twice.to_numpy(), a + 1.0)
    if device.kind != "reference":
        assert any(len(p.results) == 3 for p in MEMO.plans.values())


def test_compiles_say_why_and_a_slow_one_says_what(real_device, monkeypatch, tmp_path, caplog,
                                                    capfd, disk_cache):
    import logging
    from dataclasses import replace as replaced

    from weft import cache

    monkeypatch.setenv("WEFT_CACHE_DIR", str(tmp_path))  # nothing on disk yet
    monkeypatch.setattr(cache, "NOTICE_AFTER", 0.0)  # every compile counts as slow here
    fresh = cache.KernelCache()
    x = wf.asarray([1.0, 2.0])
    ir, *_ = lower.lower([((x * 3 + 1)._node, wf.realize.new_leaf(real_device, x._node))])
    def built(program):  # (PoCL builds at a kernel's first launch: build it now)
        getattr(program, "program", None)

    with caplog.at_level(logging.DEBUG, logger="weft"):
        built(fresh.program(real_device, ir))
        built(fresh.program(real_device, ir, replaced(wf.ir.PLAIN, per_thread=4)))
        cache.KernelCache().program(real_device, ir)  # another process: from the disk
    text = caplog.text
    assert "a new kernel structure" in text
    assert "a new launch variant (per_thread) of a known kernel" in text
    assert "from the disk cache" in text
    fresh.program(real_device, ir)  # a hit: nothing compiles, nothing logged
    assert "weft: compiling" in capfd.readouterr().err
    monkeypatch.setenv("WEFT_COMPILE_NOTICE", "0")
    other, *_ = lower.lower([((wf.exp(x) - 2)._node, wf.realize.new_leaf(real_device, x._node))])
    compiles = fresh.stats["compiles"]
    built(fresh.program(real_device, other))  # a new kernel, compiled, silently
    assert fresh.stats["compiles"] == compiles + 1
    assert "weft: compiling" not in capfd.readouterr().err


def test_in_memory_only_writes_nothing_to_disk_and_reads_nothing(real_device, monkeypatch,
                                                                 tmp_path, disk_cache):
    from weft import cache

    monkeypatch.setenv("WEFT_CACHE_DIR", str(tmp_path))
    x = wf.asarray([1.0, 2.0])
    ir, *_ = lower.lower([((x * 5 - 1)._node, wf.realize.new_leaf(real_device, x._node))])
    cache.KernelCache().program(real_device, ir)  # on disk: the default
    folder = tmp_path / f"kernels-v{cache.CACHE_VERSION}"
    assert len(list(folder.glob("*.bin"))) == 1
    monkeypatch.setenv("WEFT_CACHE_IN_MEMORY", "1")
    fresh = cache.KernelCache()  # a new process: the disk has it, but may not be read
    program = fresh.program(real_device, ir)
    assert fresh.stats["compiles"] == 1 and fresh.stats["disk_hits"] == 0
    other, *_ = lower.lower([((x * 7 + 2)._node, wf.realize.new_leaf(real_device, x._node))])
    fresh.program(real_device, other)
    assert len(list(folder.glob("*.bin"))) == 1  # the new kernel was not written
    assert program is fresh.program(real_device, ir)  # kept in memory: a hit
    assert fresh.stats["compiles"] == 2
    monkeypatch.setenv("WEFT_CACHE_IN_MEMORY", "sometimes")
    with pytest.raises(ValueError, match="WEFT_CACHE_IN_MEMORY='sometimes' is not a switch"):
        cache.in_memory_only()


def test_structures_that_render_one_source_share_its_program(real_device):
    """A full sum and max over a (1, n) array and over an (n, 1) one differ in structure (the
    IR's dimensions), not in source: the second compiles nothing, on disk or not."""
    from weft import cache, compiler

    fresh = cache.KernelCache()
    rng = np.random.default_rng(4)
    programs = []
    for shape in [(1, 37), (37, 1)]:
        data = rng.standard_normal(shape)
        x = wf.asarray(data)
        total, largest = wf.eval(x.sum(), x.max())
        assert np.isclose(float(total), data.sum()) and float(largest) == data.max()
        dests = [wf.realize.new_leaf(real_device, (), x.dtype) for _ in range(2)]
        (kernel,) = compiler.compile([(x.sum()._node, dests[0]), (x.max()._node, dests[1])],
                                     real_device.target).kernels
        programs.append(fresh.program(real_device, kernel.ir, kernel.variant))
    assert programs[0] is programs[1]
    assert fresh.stats["misses"] == 2
    assert fresh.stats["compiles"] + fresh.stats["disk_hits"] == 1
    assert fresh.stats["source_hits"] == 1


def test_no_device_says_what_to_install(monkeypatch):
    """A machine with no CUDA or OpenCL device (no PoCL wheel for it): the default device's
    error names the ways to get one and the reference device."""
    import importlib

    devices = importlib.import_module("weft.devices")  # the module, not wf.devices()
    monkeypatch.setattr(devices, "_devices_of", lambda kind: [])
    with pytest.raises(RuntimeError, match=r"found no device.*pocl-binary-distribution"
                                           r".*weft\[cuda\].*set_device\('reference'\)"):
        devices._default()
