"""Device buffers shared between arrays, with the events that order work on them.

A ``Storage`` is one allocation. Arrays and expression leaves refer to it; ``leaves`` counts the
leaves (each materialized Array has its own), which is how copy-on-write knows a buffer is
shared. Work is ordered by events: a kernel waits on the last write of each buffer it reads and
on every outstanding use of each buffer it writes, except for events of its own queue, which
is in order already.

Every storage's first element sits on an ``ALIGNMENT``-byte boundary: pools hand out blocks
aligned far beyond it, and memory adopted from another library starts its storage at the
boundary below the array (the view's offset covers the difference). So whether a view can be
read with vector loads follows from its offset and strides, which are structure.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from .dtypes import DType

ALIGNMENT = 16  # bytes; the widest vector load a kernel makes


_SERIALS = itertools.count()


def serial_mark() -> int:
    """A number every storage made after this call exceeds (a traced function tells the
    buffers its trace made from those it found)."""
    return next(_SERIALS)


class Storage:
    __slots__ = ("device", "buffer", "dtype", "size", "leaves", "write", "reads", "checks",
                 "serial", "host_copy", "__weakref__")

    def __init__(self, device: Any, buffer: Any, dtype: DType, size: int) -> None:
        self.device = device
        self.buffer = buffer
        self.dtype = dtype
        self.size = size  # elements
        self.leaves = 0
        self.write: tuple[Any, Any] | None = None  # (event, queue) of the last write
        self.reads: dict[int, tuple[Any, Any]] = {}  # id(queue) -> (event, queue) since then
        self.checks: tuple[Any, ...] = ()  # pending.Pending reports the contents depend on
        self.serial = next(_SERIALS)
        self.host_copy: Any = None  # where a launch also copies it to the host, if anywhere

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def events_before_read(self, queue: Any) -> list[Any]:
        """The last write, unless it was queued on ``queue`` (which runs in order)."""
        return events_before_launch((self,), (), queue)

    def events_before_write(self, queue: Any) -> list[Any]:
        """The last write and every read since, except those queued on ``queue``."""
        return events_before_launch((), (self,), queue)

    def record_write(self, event: Any, queue: Any) -> None:
        self.write = (event, queue)
        self.reads = {}

    def __del__(self) -> None:
        # A pooled buffer goes back to its pool now; work queued on another thread's queue
        # may still use it, so wait for that first (rare: cross-thread use of a dying array).
        try:
            self.device.backend.release(self.device, self)
        except Exception:  # noqa: BLE001 - interpreter shutdown: nothing left to release to
            pass


def events_before_launch(reads: Sequence[Storage], writes: Sequence[Storage], queue: Any
                         ) -> list[Any]:
    """What work on ``queue`` that reads ``reads`` and writes ``writes`` must wait for: the
    last write of each, and every read since of those written, except events of ``queue``
    itself (in order already) and ones never recorded (None). One call for a whole launch: its
    bookkeeping is per-call host time."""
    events = [w[0] for s in (*reads, *writes)
              if (w := s.write) is not None and w[0] is not None and w[1] is not queue]
    for s in writes:
        if s.reads:
            events += [e for e, q in s.reads.values() if q is not queue and e is not None]
    return events


def record_launch(reads: Sequence[Storage], writes: Sequence[Storage], event: Any, queue: Any
                  ) -> None:
    """A launch's ``event`` on ``queue``: a read of each of ``reads``, then (so a buffer read
    and written in place ends written) the last write of each of ``writes``."""
    entry = (event, queue)
    key = id(queue)
    for s in reads:
        s.reads[key] = entry
    for s in writes:
        s.write = entry
        s.reads = {}
