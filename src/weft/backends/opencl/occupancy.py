"""How many work-groups of a kernel an NVIDIA GPU holds at once, under OpenCL.

OpenCL reports no occupancy, but NVIDIA's compiler prints a kernel's registers and shared
memory in the build log when asked (``-cl-nv-verbose``), and the device names its compute
capability (``cl_nv_device_attribute_query``). From those this module computes what CUDA's
occupancy calculator would: registers are allocated per warp in units of 256, and an SM holds
as many groups as its registers, threads and shared memory allow. The narrow GLM on the H200
took 74.5 us per call with the default group count and 69.3 with one wave of groups
(docs/tuning-notes.md, 19).

The driver caches what its assembler made of each PTX text and then prints nothing, so a
kernel built for its counts carries one empty kernel of a name never used before
(``unique_entry``): its PTX is new, and the assembler runs and reports. A disk-cache entry keeps
the counts beside the binary (``pack``/``unpack``): a program built from a binary prints no log.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

VERBOSE = "-cl-nv-verbose"
EXTENSION = "cl_nv_device_attribute_query"
_ENTRY = "Compiling entry function '{}'"
_USED = re.compile(r"Used (\d+) registers(?:, used \d+ barriers)?(?:, (\d+) bytes smem)?")
_HEADER = b"weft-resources "
REGISTER_UNIT = 256  # registers are allocated per warp in multiples of this
MAX_GROUPS_PER_SM = 16

# Per compute capability: threads and shared memory (KiB) one SM holds (CUDA's tables).
SM_LIMITS: dict[tuple[int, int], tuple[int, int]] = {
    (7, 0): (2048, 96), (7, 2): (2048, 96), (7, 5): (1024, 64),
    (8, 0): (2048, 164), (8, 6): (1536, 100), (8, 7): (2048, 164), (8, 9): (1536, 100),
    (9, 0): (2048, 228), (10, 0): (2048, 228), (12, 0): (1536, 100),
}


@dataclass(frozen=True)
class SM:
    """One streaming multiprocessor's limits."""

    registers: int
    threads: int
    shared_bytes: int
    warp: int


@dataclass(frozen=True)
class Resources:
    """What one work-item and one work-group of a compiled kernel take."""

    registers: int
    shared_bytes: int


def device_sm(device: Any) -> SM | None:
    """The SM of an NVIDIA OpenCL device whose limits are known, else None."""
    if EXTENSION not in device.extensions.split():
        return None
    try:
        capability = (int(device.compute_capability_major_nv),
                      int(device.compute_capability_minor_nv))
        registers = int(device.registers_per_block_nv)
        warp = int(device.warp_size_nv)
    except Exception:  # noqa: BLE001 - a driver without the queries: no occupancy
        return None
    limits = SM_LIMITS.get(capability)
    if limits is None:
        return None
    threads, shared_kib = limits
    return SM(registers, threads, shared_kib * 1024, warp)


def unique_entry() -> str:
    """An empty kernel whose name no build has had: appended to a source, it makes the PTX
    new, so the driver's cache cannot skip the assembler (and its report)."""
    return f"\n__kernel void weft_resources_{uuid.uuid4().hex}(void) {{}}\n"


def resources(build_log: str, kernel: str) -> Resources | None:
    """``kernel``'s registers and shared memory, from NVIDIA's verbose build log."""
    start = build_log.find(_ENTRY.format(kernel))
    found = _USED.search(build_log, start) if start >= 0 else None
    if found is None:
        return None
    return Resources(int(found[1]), int(found[2] or 0))


def groups_per_sm(sm: SM, used: Resources, group_size: int) -> int:
    """Work-groups of ``group_size`` work-items that one SM holds at once (at least 1).

    >>> groups_per_sm(SM(65536, 2048, 228 * 1024, 32), Resources(56, 2060), 256)
    4
    """
    per_warp = -(-used.registers * sm.warp // REGISTER_UNIT) * REGISTER_UNIT
    warps = group_size // sm.warp
    by_registers = (sm.registers // per_warp) // warps if per_warp else MAX_GROUPS_PER_SM
    by_threads = sm.threads // group_size
    by_shared = sm.shared_bytes // used.shared_bytes if used.shared_bytes else MAX_GROUPS_PER_SM
    return max(1, min(by_registers, by_threads, by_shared, MAX_GROUPS_PER_SM))


def pack(binary: bytes, used: Resources | None) -> bytes:
    """A disk-cache payload: the binary, after a line with ``used`` where known."""
    if used is None:
        return binary
    return _HEADER + f"{used.registers} {used.shared_bytes}\n".encode() + binary


def unpack(payload: bytes) -> tuple[bytes, Resources | None]:
    """The binary and the resources ``pack`` stored with it."""
    if not payload.startswith(_HEADER):
        return payload, None
    line, _, binary = payload.partition(b"\n")
    registers, shared = line[len(_HEADER):].split()
    return binary, Resources(int(registers), int(shared))
