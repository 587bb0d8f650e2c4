"""How weft builds kernels on PoCL, whose compiler runs on the host at every build.

- **Lean builds** (``declarations``): the standard header's megabyte of declarations is not
  parsed; a probe build per device shows the declarations resolve as the header's would.
- **PoCL's cache serves new processes**: asking PoCL for a program's binary makes it compile
  generic work-group functions beside the launch's own (0.48 s against 0.14 for a cold
  ``c * (a + b)``; docs/tuning-notes.md, 32). So weft's disk entry for a PoCL kernel holds
  its source, and a new process builds that source, which PoCL's own kernel cache (inside
  weft's cache directory: ``pocl_cache``) finds built: 20-80 ms a kernel against a binary's
  6-40. ``WEFT_OPENCL_KEEP_BINARIES=1`` keeps binaries instead (or where
  ``POCL_KERNEL_CACHE=0`` turns PoCL's cache off).

>>> recorded_source(source_record("__kernel void k() {}"))
'__kernel void k() {}'
>>> recorded_source(b"\\x7fELF...") is None
True
"""

from __future__ import annotations

import os
from typing import Any

from ...config import log
from . import declarations

POCL = "Portable Computing Language"  # PoCL's platform name
_SOURCE_RECORD = b"weft: OpenCL C source for PoCL's cache\n"


def builds_lean(device: Any) -> bool:
    """Whether ``device``'s builds skip the standard header's declarations, decided at its
    first build: on PoCL where the probe passes. ``WEFT_OPENCL_LEAN_BUILD=0`` builds every
    kernel with the whole header."""
    h = device.handle
    if h.lean_builds is None:
        h.lean_builds = (os.environ.get("WEFT_OPENCL_LEAN_BUILD", "1") != "0"
                         and h.platform == POCL
                         and declarations.probe(h.cl, h.context, h.device))
        log.debug("%s builds kernels %s", device,
                  "with declarations of their calls only" if h.lean_builds
                  else "with the whole OpenCL C header")
    return h.lean_builds


def leaves_binaries_to_pocl(device: Any) -> bool:
    """Whether weft's disk cache keeps ``device``'s kernels as source for PoCL's own cache
    to find built, rather than as binaries."""
    return (device.handle.platform == POCL
            and os.environ.get("POCL_KERNEL_CACHE", "1") != "0"
            and os.environ.get("WEFT_OPENCL_KEEP_BINARIES", "0") != "1")


def source_record(source: str) -> bytes:
    """The disk-cache payload of a kernel kept as its source."""
    return _SOURCE_RECORD + source.encode()


def recorded_source(payload: bytes) -> str | None:
    """The source a ``source_record`` payload holds; None for a binary."""
    if not payload.startswith(_SOURCE_RECORD):
        return None
    return payload[len(_SOURCE_RECORD):].decode()
