"""Fused checks whose reports have not been read back yet.

A checked kernel (``wf.check``, a density's argument checks, an integer index) writes a small
error buffer only when a check fails. Reading that buffer right after the launch would wait for
the kernel, so the host could never run ahead of the device. Instead each checked launch gets
its own clean buffer and leaves a ``Pending`` on every buffer it writes; kernels that read those
buffers pass the ``Pending`` on to theirs. The report is read when a value is observed
(``to_numpy``, ``float``, a foreign view), before a write into an existing array, and at
``wf.synchronize()``: a failed check raises there, and again at every later observation of a
value computed from it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import numpy as np

from .errors import kernel_error
from .lower import ErrorInfo
from .storage import Storage

# Unread reports a thread may leave before the oldest are read (their kernels have long
# finished by then, so reading them costs a small copy, not a wait).
MAX_UNREAD = 64

_THREAD = threading.local()


def _state() -> Any:
    state = _THREAD
    if not hasattr(state, "unread"):
        state.unread = []  # Pending, oldest first
        state.failed = []  # read and failed, not yet raised anywhere
        state.clean = {}  # device -> error buffers known to hold zeros
    return state


class Pending:
    """One checked launch's report: unread, clean, or the error it describes."""

    __slots__ = ("device", "buffer", "errors", "read", "error", "raised", "_clean")

    def __init__(self, device: Any, buffer: Storage, errors: list[ErrorInfo],
                 clean: list[Storage]) -> None:
        self.device = device
        self.buffer: Storage | None = buffer
        self.errors = errors
        self.read = False
        self.error: Exception | None = None
        self.raised = False
        self._clean = clean  # where the buffer goes back to when nothing failed

    def fresh_error(self) -> Exception:
        """The failure as a new exception (one object raised twice would grow its traceback)."""
        error = self.error
        return type(error)(*error.args)

    def settle(self) -> None:
        """Read the report (waits for the kernel); remember the error if a check failed."""
        if self.read:
            return
        buffer = self.buffer
        record = self.device.backend.download(buffer)
        self.read, self.buffer = True, None
        if record[0]:
            self.error = kernel_error(self.errors[int(record[1])], record)
            _state().failed.append(self)
        else:
            self._clean.append(buffer)


def error_buffer(device: Any) -> tuple[Storage, list[Storage]]:
    """A clean error buffer for one launch, and the list it returns to once read clean."""
    clean = _state().clean.setdefault(device, [])
    if clean:
        return clean.pop(), clean
    return device.backend.upload(device, np.zeros(8, dtype=np.int64)), clean


def launched(device: Any, buffer: Storage, clean: list[Storage], errors: list[ErrorInfo],
             inputs: Iterable[Storage], outputs: Iterable[Storage]) -> None:
    """Record a launch's checks on its outputs: its own report (``buffer``, None for an
    unchecked kernel) and the unread or failed reports of everything it read."""
    inherited: list[Pending] = []
    for s in inputs:
        for p in s.checks:
            if (not p.read or p.error is not None) and p not in inherited:
                inherited.append(p)
    if buffer is not None:
        own = Pending(device, buffer, errors, clean)
        inherited.append(own)
        unread = _state().unread
        unread.append(own)
        if len(unread) > MAX_UNREAD:
            for p in unread[:MAX_UNREAD // 2]:
                p.settle()
            del unread[:MAX_UNREAD // 2]
    checks = tuple(inherited)
    for s in outputs:
        s.checks = checks


def propagate(inputs: Iterable[Storage], outputs: Iterable[Storage]) -> None:
    """A kernel weft did not generate (a library call) read ``inputs`` into ``outputs``."""
    launched(None, None, [], [], inputs, outputs)  # type: ignore[arg-type]


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
        failed[0].raised = True
        raise failed[0].fresh_error()


def settle_all() -> None:
    """Read every report of the calling thread; raise the first failure not raised yet."""
    state = _state()
    for p in state.unread:
        p.settle()
    state.unread.clear()
    failed = [p for p in state.failed if not p.raised]
    state.failed.clear()
    if failed:
        failed[0].raised = True
        raise failed[0].fresh_error()
