"""Shared fixtures: every test that takes ``device`` runs on every device weft finds, plus the
NumPy reference interpreter (or those ``WEFT_TEST_DEVICES`` names). Kernels are cached in a
per-session temporary directory, and in memory only (``WEFT_CACHE_IN_MEMORY``: nothing is
written that no later run reads); the tests of the disk cache turn it back on
(``disk_cache``).
"""

from __future__ import annotations

import os
import re
import tempfile

import pytest

os.environ.setdefault("WEFT_CACHE_DIR", tempfile.mkdtemp(prefix="weft-test-cache-"))
os.environ.setdefault("WEFT_CACHE_IN_MEMORY", "1")

import weft as wf  # noqa: E402 - the cache directory must be set first


def _selected(devices: list) -> list:
    """``WEFT_TEST_DEVICES=cuda:0,reference`` limits the per-device tests to those devices
    (scripts/gpu-check runs the suite once per GPU device that way)."""
    wanted = os.environ.get("WEFT_TEST_DEVICES")
    if not wanted:
        return devices
    names = {w.strip() for w in wanted.split(",")}
    return [d for d in devices if str(d) in names or d.kind in names]


DEVICES = _selected([*wf.devices(), wf.get_device("reference")])
REAL_DEVICES = _selected(wf.devices())


@pytest.fixture
def disk_cache(monkeypatch):
    """The environment with weft's disk cache on (the suite keeps kernels in memory only),
    for this test and the processes it starts."""
    monkeypatch.delenv("WEFT_CACHE_IN_MEMORY", raising=False)
    return os.environ


@pytest.fixture(params=DEVICES, ids=[str(d) for d in DEVICES])
def device(request):
    with wf.device(request.param) as d:
        yield d


@pytest.fixture(params=REAL_DEVICES, ids=[str(d) for d in REAL_DEVICES])
def real_device(request):
    """Devices that compile generated source (not the reference interpreter)."""
    with wf.device(request.param) as d:
        yield d


def kernel_count(source: str) -> int:
    """Kernels defined in generated source, OpenCL or CUDA."""
    return len(re.findall(r"(?:__kernel|__global__) void", source))


def launches() -> int:
    """Generated kernels launched so far in this session, on every device (since the last
    ``wf.clear_cache()``), replays included."""
    return wf.cache_info()["launches"]


def run_in_threads(work, count: int) -> None:
    """``work(k)`` for k in ``range(count)``, each on a thread of its own, all at once;
    fails with what any of them raised."""
    import threading

    errors: list[BaseException] = []

    def guarded(k: int) -> None:
        try:
            work(k)
        except BaseException as e:  # noqa: BLE001 - reported by the calling thread
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
