"""Run-time switches: fusion on or off (the one-kernel-per-op baseline) and launch logging."""

from __future__ import annotations

import logging
import os
import sys
import threading


class _ThreadSetting(threading.local):
    """The calling thread's own setting inside ``with wf.config(...)`` (None: the global
    one). A class default, so reading an unset one costs an attribute lookup, not an
    exception."""

    fuse: bool | None = None


_state = _ThreadSetting()
_global = {"fuse": True}

log = logging.getLogger("weft")
if os.environ.get("WEFT_DEBUG") and not log.handlers:
    _handler = logging.StreamHandler(sys.stderr)
    _handler.setFormatter(logging.Formatter("weft: %(message)s"))
    log.addHandler(_handler)
    log.setLevel(logging.DEBUG)


def fuse_enabled() -> bool:
    fuse = _state.fuse
    return _global["fuse"] if fuse is None else fuse


class config:  # noqa: N801 - used like a function: wf.config(fuse=False)
    """Set options globally, or inside a ``with`` block for the calling thread only.

    ``fuse=False`` runs one kernel per operation: the "sequence of basic kernels" baseline.

    >>> import weft as wf
    >>> with wf.config(fuse=False):
    ...     pass
    """

    def __init__(self, *, fuse: bool | None = None) -> None:
        self._fuse = fuse
        self._old_global = _global["fuse"]
        self._old_thread = _state.fuse
        if fuse is not None:
            _global["fuse"] = bool(fuse)

    def __enter__(self) -> config:
        # Inside a with block the setting is the calling thread's only.
        _global["fuse"] = self._old_global
        if self._fuse is not None:
            _state.fuse = bool(self._fuse)
        return self

    def __exit__(self, *exc: object) -> None:
        _state.fuse = self._old_thread
