"""Shared fixtures: every test that takes ``device`` runs on every device weft finds, plus the
NumPy reference interpreter. Kernels are cached in a per-session temporary directory.
"""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("WEFT_CACHE_DIR", tempfile.mkdtemp(prefix="weft-test-cache-"))

import weft as wf  # noqa: E402 - the cache directory must be set first

DEVICES = [*wf.devices(), wf.get_device("reference")]


@pytest.fixture(params=DEVICES, ids=[str(d) for d in DEVICES])
def device(request):
    with wf.device(request.param) as d:
        yield d


@pytest.fixture(params=wf.devices(), ids=[str(d) for d in wf.devices()])
def real_device(request):
    """Devices that compile generated source (not the reference interpreter)."""
    with wf.device(request.param) as d:
        yield d


def launches() -> int:
    info = wf.cache_info()
    return info["hits"] + info["misses"]
