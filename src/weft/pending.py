"""Fused checks whose reports have not been read back yet.

A checked kernel (``wf.check``, a density's argument checks, an integer index) writes an error
record only when a check fails. Reading it right after the launch would wait for the kernel,
so the host could never run ahead of the device. Instead each checked launch gets its own
record in its thread's error buffer for the device (a ``Slab`` of ``SLOTS`` records) and
leaves a ``Pending`` on every buffer it writes; kernels that read those buffers pass the
``Pending`` on to theirs. One copy of the slab reads every record of the thread at once: when a
value is observed (``to_numpy``, ``float``, a foreign view), before a write into an existing
array, at ``wf.synchronize()``, and when the slab runs out of free records. An observed value
and the slab come back after one wait (``observe``). A failed check raises there, and again at
every later observation of a value computed from it.

A failing check also sets its slab's flag (``ir.ERROR_SEEN``). Where the backend keeps the flag
in memory the host reads without a transfer (CUDA: page-locked), a thread whose queue has
drained and whose flag is clear knows every record is clean without copying any
(``Slab.read_drained``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import numpy as np

from .errors import kernel_error
from .ir import ErrorInfo
from .storage import Storage
from .traced import note_activity

SLOTS = 64  # records per slab: a thread reads its reports at least once per SLOTS launches
RECORD = 8  # int64 words per record: flag, error number, row, column, value bits, spare

_THREAD = threading.local()


def _state() -> Any:
    state = _THREAD
    if not hasattr(state, "slabs"):
        state.slabs = {}  # device -> Slab
        state.failed = []  # Pending read as failed, not yet raised anywhere
    return state


class Pending:
    """One checked launch's report: unread, clean, or the error it describes."""

    __slots__ = ("slab", "slot", "errors", "read", "error", "raised")

    def __init__(self, slab: Slab, slot: int, errors: list[ErrorInfo]) -> None:
        self.slab = slab
        self.slot = slot
        self.errors = errors  # what the record's error number means
        self.read = False
        self.error: Exception | None = None
        self.raised = False

    @property
    def offset(self) -> int:
        """Where the record lies in the slab's buffer, in int64 words."""
        return self.slot * RECORD

    def settle(self) -> None:
        """Read the report (waits for the kernel); remember the error if a check failed."""
        if not self.read:
            self.slab.read(self)

    def note(self, record: np.ndarray) -> None:
        self.read = True
        if record[0]:
            self.error = kernel_error(self.errors[int(record[1])], record)
            _state().failed.append(self)

    def fresh_error(self) -> Exception:
        """The failure as a new exception (one object raised twice would grow its traceback)."""
        error = self.error
        return type(error)(*error.args)


class Slab:
    """One thread's error records on one device, in one buffer read with one copy."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.owner = threading.get_ident()
        self.buffer = self._clean_buffer()
        # Set by a failing check; ``seen_host`` is its host view, or None where the host
        # reads records only by copying them.
        self.seen, self.seen_host = device.backend.report_flag(device)
        self.free = list(range(SLOTS - 1, -1, -1))
        self.waiting: dict[int, Pending] = {}
        self.lock = threading.Lock()

    def _clean_buffer(self) -> Storage:
        return self.device.backend.upload(self.device, np.zeros(SLOTS * RECORD, dtype=np.int64))

    def take(self, errors: list[ErrorInfo]) -> Pending:
        """A free record for one launch (reading the slab first when none is free)."""
        if not self.free:
            self.read_waiting()
        with self.lock:
            slot = self.free.pop()
            report = self.waiting[slot] = Pending(self, slot, errors)
        return report

    def read(self, report: Pending) -> None:
        if threading.get_ident() == self.owner:
            self.read_waiting()
            return
        # Another thread observes: its copy waits for every kernel recorded on the buffer so
        # far, this report's among them. Only the owner frees records and cleans the buffer.
        with self.lock:
            if report.read:
                return
            records = self.device.backend.download(self.buffer)[0].reshape(SLOTS, RECORD)
            report.note(records[report.slot])

    def read_all(self, copy: np.ndarray | None = None) -> None:
        """Read every waiting record (waits for their kernels), or take them from ``copy``,
        the buffer downloaded after their kernels by the owner; free them."""
        with self.lock:
            if not self.waiting:
                return
            if copy is None:
                copy = self.device.backend.download(self.buffer)[0]
            records = copy.reshape(SLOTS, RECORD)
            for slot, report in self.waiting.items():
                if not report.read:
                    report.note(records[slot])
                self.free.append(slot)
            self.waiting.clear()
            if records[:, 0].any():
                self.buffer = self._clean_buffer()  # failed records would block later claims

    def read_waiting(self) -> None:
        """The owner reads every waiting record: one copy, or, where the host sees the flag,
        a wait for its queue and then the flag (a copy only if a check failed)."""
        if self.seen_host is None:
            self.read_all()
            return
        self.device.backend.synchronize(self.device)
        self.read_drained()

    def read_drained(self) -> None:
        """Read every waiting record once the owner's queue has drained (all its kernels have
        finished): where the host sees the flag and it is clear, all are clean and nothing is
        copied; otherwise ``read_all``, and the flag is cleared (no kernel can set it now)."""
        seen = self.seen_host
        with self.lock:
            if not self.waiting:
                return
            if seen is not None and not seen[0]:
                for slot, report in self.waiting.items():
                    report.read = True
                    self.free.append(slot)
                self.waiting.clear()
                return
        self.read_all()
        if seen is not None:
            seen[0] = 0


def thread_slab(device: Any) -> Slab:
    """The calling thread's error records on ``device``."""
    slabs = _state().slabs
    slab = slabs.get(device)
    if slab is None:
        slab = slabs[device] = Slab(device)
    return slab


def reserve(device: Any, errors: list[ErrorInfo]) -> Pending:
    """A record for one checked launch on ``device`` by the calling thread."""
    return thread_slab(device).take(errors)


def launched(report: Pending | None, inputs: Iterable[Storage], outputs: Iterable[Storage]
             ) -> None:
    """Record a launch's checks on its outputs: its own report (None for an unchecked kernel)
    and the unread or failed reports of everything it read."""
    # A chain of launches that feed each other (a traced step called in a loop) passes on
    # up to a slab's worth of unread reports: they are merged by identity, once per
    # distinct tuple (the outputs of one launch share theirs), never searched one by one
    # (that was quadratic: 55-80 us a launch, CUDA and PoCL, a leapfrog step called in a
    # loop).
    first: tuple[Pending, ...] = ()
    merged: dict[Pending, None] | None = None
    for s in inputs:
        checks = s.checks
        if not checks or checks is first:
            continue
        if not first:
            first = checks
            continue
        if merged is None:
            merged = dict.fromkeys(first)
        merged.update(dict.fromkeys(checks))
    kept = tuple(p for p in (first if merged is None else merged)
                 if not p.read or p.error is not None)
    if report is not None:
        kept += (report,)
    for s in outputs:
        s.checks = kept


def settle(storages: Iterable[Storage]) -> None:
    """Read every report ``storages`` depend on; raise the first failure among them."""
    for s in storages:
        checks = s.checks
        if not checks:
            continue
        for p in checks:
            p.settle()
        failed = [p for p in checks if p.error is not None]
        if not failed:
            s.checks = ()
            continue
        raise _raising(failed[0])


def _raising(report: Pending) -> Exception:
    """``report``'s failure, to raise now; the same failure read from the evaluation's other
    kernels (one check on a value two kernels read) is then raised too, not again at the
    next synchronize, in code that did nothing wrong."""
    report.raised = True
    error = report.fresh_error()
    for other in _state().failed:
        if not other.raised and type(other.error) is type(error) and (
                other.error.args == error.args):
            other.raised = True
    return error


def observe(storage: Storage) -> np.ndarray:
    """``storage``'s contents, after reading every report it depends on; raises the first
    failure among them. Where those reports are the calling thread's own, unread, one wait
    serves both: the contents' copy and then the flag where the host sees it (a copy of the
    records only if a check failed), else the records copied with the contents."""
    note_activity()
    slab = _state().slabs.get(storage.device)
    unread = [p for p in storage.checks if not p.read]
    contents = None
    if (slab is not None and unread and slab.owner == threading.get_ident()
            and all(p.slab is slab for p in unread)):
        if slab.seen_host is not None and storage.size:
            # The copy waits for everything the thread queued: its flag then speaks for every
            # waiting record.
            contents = storage.device.backend.download(storage)[0]
            slab.read_drained()
        else:
            records, contents = storage.device.backend.download(slab.buffer, storage)
            slab.read_all(records)
    settle([storage])
    if contents is None:
        contents = storage.device.backend.download(storage)[0]
    return contents


def observe_element(storage: Storage, offset: int) -> Any:
    """Element ``offset`` of ``storage`` (a NumPy scalar), after reading every report it
    depends on (``observe``, for one element: what ``float(lp(theta))`` reads each step)."""
    note_activity()
    checks = storage.checks
    backend = storage.device.backend
    if not checks:
        return backend.read_element(storage, offset)
    slab = _state().slabs.get(storage.device)
    if (slab is not None and slab.seen_host is not None
            and slab.owner == threading.get_ident()
            and all(p.read or p.slab is slab for p in checks)):
        # The read drains the thread's queue: the flag then speaks for every record.
        value = backend.read_element(storage, offset)
        slab.read_drained()
        settle([storage])
        return value
    return observe(storage)[offset]


def read_copied() -> None:
    """Read the calling thread's reports that the host reads by copying them (each copy waits
    for the kernels it covers); the others wait for ``read_drained``."""
    for slab in _state().slabs.values():
        if slab.seen_host is None:
            slab.read_all()


def read_drained() -> None:
    """Read every report of the calling thread, whose queues have all drained."""
    for slab in _state().slabs.values():
        slab.read_drained()


def raise_unraised() -> None:
    """Raise the first failure read but not raised yet, if any (then forget the others)."""
    state = _state()
    failed = [p for p in state.failed if not p.raised]
    state.failed.clear()
    if failed:
        failed[0].raised = True
        raise failed[0].fresh_error()
