"""PoCL's own kernel cache, kept inside weft's cache directory and within its bound.

PoCL compiles each program's work-group functions into shared objects and keeps them in a
cache of its own (``POCL_CACHE_DIR``, by default ``~/.cache/pocl``), which nothing bounds: on
a machine that compiles many kernels it grows without end beside weft's bounded one (625 MB
against weft's 69 MB on the development machine). Unless the user chose a directory for it,
weft points PoCL at ``<weft's cache>/pocl`` before PoCL starts, and the disk cache's
eviction (``cache.py``) counts and evicts PoCL's entries with its own, the ones used longest
ago first (PoCL touches an entry's ``last_accessed`` file when it uses it).

>>> import os, weft as wf
>>> from weft import pocl_cache
>>> devices = wf.devices()  # PoCL starts here
>>> managed = pocl_cache.managed_dir()
>>> managed is None or os.environ["POCL_CACHE_DIR"] == str(managed)
True
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

_MANAGED: list[Path | None] = [None]


def claim() -> Path | None:
    """Point PoCL's cache into weft's cache directory, unless ``POCL_CACHE_DIR`` is set
    already (the user's choice, which weft leaves alone and does not bound). Called before
    PyOpenCL first asks for platforms: PoCL reads the variable when it starts. Returns the
    directory weft manages, or None."""
    if _MANAGED[0] is None and "POCL_CACHE_DIR" not in os.environ:
        from .cache import cache_dir

        path = cache_dir() / "pocl"
        os.environ["POCL_CACHE_DIR"] = str(path)
        _MANAGED[0] = path
    return _MANAGED[0]


def managed_dir() -> Path | None:
    """The PoCL cache directory weft manages (None: weft set none)."""
    return _MANAGED[0]


def entries(root: Path) -> list[tuple[float, int, Path]]:
    """PoCL's cache entries in its cache directory ``root`` as ``(last used, bytes,
    directory)``: one per compiled program (``XX/HASH``)."""
    found = []
    try:
        groups = list(os.scandir(root))
    except OSError:
        return []
    for group in groups:
        try:
            programs = list(os.scandir(group.path)) if group.is_dir() else []
        except OSError:
            continue
        for program in programs:
            path = Path(program.path)
            size = 0
            for parent, _, files in os.walk(path):
                for name in files:
                    try:
                        size += os.stat(os.path.join(parent, name)).st_size
                    except OSError:  # removed meanwhile by PoCL or another process
                        pass
            try:
                used = (path / "last_accessed").stat().st_mtime
            except OSError:
                try:
                    used = program.stat().st_mtime
                except OSError:
                    continue
            found.append((used, size, path))
    return found


def clear() -> None:
    """Remove every entry of the PoCL cache weft manages, keeping its directory (a running
    PoCL writes new entries into it, but does not make it again)."""
    root = _MANAGED[0]
    if root is None:
        return
    try:
        groups = [Path(entry.path) for entry in os.scandir(root) if entry.is_dir()]
    except OSError:
        return
    for group in groups:
        shutil.rmtree(group, ignore_errors=True)


def remove(path: Path) -> None:
    """Remove one PoCL entry (a process that loaded it keeps its mapping; one that needs it
    again compiles it again)."""
    shutil.rmtree(path, ignore_errors=True)
