"""PoCL's ``basic`` device as the companion of its ``pthread`` one, for small launches.

PoCL's pthread driver hands each command to worker threads and wakes the host when it is
done: on a 2-core VM a launch and a blocking read of one float took 65-160 us however
little the kernel did. Its basic driver runs a command on the calling thread as it is
enqueued: the same launch and read took 4-5 us. So weft asks PoCL for both devices (one
context: buffers are shared) and runs launches over at most ``tuning.QUICK_ELEMENTS``
elements, and reads back to the host, on the basic one (``CLDevice.quick_queue``); larger
launches keep all cores. The basic device is not a weft device of its own.

PoCL 3.0 hung where a command of one of the two devices waited on a pending command of the
other. So nothing ever does: a command goes to the basic device only where what it depends
on has finished (else it stays on the pthread device's queue, ordered there without waking
the host; ``CLDevice.settled_quick_queue``), and it has completed once enqueued, so what
the pthread device later waits on from it is done.

``WEFT_POCL_COMPANION=0`` keeps every command on the pthread device; a ``POCL_DEVICES`` the
user set is left alone (and no companion is made). weft's own setting is marked
(``WEFT_POCL_DEVICES``), so a process it starts (a test worker, a Dask worker) inherits the
companion rather than taking it for a device of its own.

>>> wanted({"POCL_DEVICES": "pthread"})
False
>>> wanted({})
True
>>> wanted({"POCL_DEVICES": DEVICES, MARK: DEVICES})
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

DEVICES = "pthread basic"
MARK = "WEFT_POCL_DEVICES"  # set beside POCL_DEVICES where weft set it
_SET_BY_WEFT: list[bool] = [False]


def wanted(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether weft should ask PoCL for the companion: not turned off, and PoCL's devices
    not chosen by the user (only by weft, in this process or the one that started it)."""
    chosen = environ.get("POCL_DEVICES")
    return (environ.get("WEFT_POCL_COMPANION", "1") != "0"
            and (chosen is None or chosen == environ.get(MARK)))


def claim() -> None:
    """Ask PoCL for its pthread and basic devices, where ``wanted``. Called before PyOpenCL
    first asks for platforms: PoCL reads the variable when it starts."""
    if not _SET_BY_WEFT[0] and wanted():
        os.environ["POCL_DEVICES"] = os.environ[MARK] = DEVICES
        _SET_BY_WEFT[0] = True


def split(devices: list[Any]) -> tuple[list[Any], Any]:
    """A platform's ``devices`` as weft's devices and the basic companion (None where
    weft did not ask for it or PoCL has none)."""
    if not _SET_BY_WEFT[0]:
        return devices, None
    basic = [d for d in devices if _driver(d.name) == "basic"]
    main = [d for d in devices if _driver(d.name) == "pthread"]
    if len(basic) != 1 or len(main) != 1:
        return devices, None
    return [d for d in devices if d is not basic[0]], basic[0]


def is_main(name: str) -> bool:
    """Whether the device ``name`` is PoCL's pthread device (the one a companion joins)."""
    return _driver(name) == "pthread"


def _driver(name: str) -> str | None:
    """Which of PoCL's CPU drivers a device ``name`` is: PoCL 3 names them ``pthread-<cpu>``
    and ``basic-<cpu>``, later ones ``cpu-<cpu>`` and ``cpu-minimal-<cpu>``.

    >>> _driver("cpu-minimal-skylake-avx512"), _driver("cpu-skylake"), _driver("basic-x")
    ('basic', 'pthread', 'basic')
    """
    if name.startswith(("basic-", "cpu-minimal-")):
        return "basic"
    if name.startswith(("pthread-", "cpu-")):
        return "pthread"
    return None

