"""The kernel cache: structure → program in memory; source + compiler identity → binary on disk.

The memory key is (device, kernel IR, variant): the IR is structural (ops, dtypes, access
patterns, aliasing of buffers) and holds no size, offset or scalar value; the variant holds
launch choices that take a few values each (vector width, unroll, 32-bit indexes, and on most
devices a rows kernel's team width), so an expression compiles a bounded number of kernels over
all sizes. Structures can differ where the source does not (a full sum over a (1, n) array and
over an (n, 1) one, say): a miss also looks the source's disk key up in memory and shares the
program built for it (``source_hits``). The disk key hashes named parts: weft's cache version,
the device and compiler fingerprint, the build options and the source. Entries are written
atomically (temp file + rename, so several processes can share a directory) and carry a
checksum: a corrupt or unloadable entry is rebuilt, never run. The directory is bounded
(``WEFT_CACHE_SIZE``, 1 GiB unless set): past the bound, the entries used longest ago are
removed (a disk hit marks its entry used), so a long-lived machine does not fill its disk with
old kernels. PoCL's own cache lives inside it and is bounded with it (``pocl_cache``), unless
``POCL_CACHE_DIR`` says otherwise. ``WEFT_CACHE_IN_MEMORY=1`` keeps kernels in memory only:
weft neither reads nor writes binaries on disk, which on PoCL also spares the generic work-
group functions that asking for a program's binary makes PoCL compile (a quarter of a cold
compile: for one-shot runs such as CI; PoCL still keeps its own cache).

Compiles are visible: ``WEFT_DEBUG=1`` logs each with why the memory cache missed, whether
the disk had it and the time it took; a compile still running after a second prints one line
saying what compiles (``WEFT_COMPILE_NOTICE=0`` silences it).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from . import config, pocl_cache
from .ir import PLAIN, KernelIR, Variant
from .render import render

T = TypeVar("T")

CACHE_VERSION = "1"
_MAGIC = b"WEFTBIN1\n"
NOTICE_AFTER = 1.0  # seconds a compile runs before it says so
DEFAULT_CACHE_SIZE = 1 << 30
EVICT_TO = 0.8  # an eviction leaves this share of the bound, so the next write has room
_SIZE = re.compile(r"(\d+(?:\.\d*)?)\s*([kmgt]?)(?:i?b)?")
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def cache_dir() -> Path:
    """``WEFT_CACHE_DIR``, else the user cache directory of weft."""
    env = os.environ.get("WEFT_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("weft"))


def cache_size_limit() -> int | None:
    """The disk cache's bound in bytes: ``WEFT_CACHE_SIZE`` (a number of bytes, with an
    optional K, M, G or T suffix, powers of 1024; ``unlimited`` for no bound), else 1 GiB.

    >>> from weft.cache import cache_size_limit
    >>> import os
    >>> os.environ["WEFT_CACHE_SIZE"] = "200M"
    >>> cache_size_limit() == 200 * 2**20
    True
    >>> del os.environ["WEFT_CACHE_SIZE"]
    """
    text = os.environ.get("WEFT_CACHE_SIZE", "").strip().lower()
    if not text:
        return DEFAULT_CACHE_SIZE
    if text in ("unlimited", "none"):
        return None
    found = _SIZE.fullmatch(text)
    if found is None:
        raise ValueError(f"WEFT_CACHE_SIZE={os.environ['WEFT_CACHE_SIZE']!r} is not a size: "
                         "give bytes with an optional K, M, G or T suffix (e.g. 500M or 2G), "
                         "or 'unlimited'")
    return int(float(found[1]) * _UNITS[found[2]])


def in_memory_only() -> bool:
    """Whether ``WEFT_CACHE_IN_MEMORY`` says to keep kernels in memory only (``1``; ``0`` or
    unset: on disk too).

    >>> from weft.cache import in_memory_only
    >>> in_memory_only() in (True, False)
    True
    """
    text = os.environ.get("WEFT_CACHE_IN_MEMORY", "").strip().lower()
    if text in ("", "0", "false", "no"):
        return False
    if text in ("1", "true", "yes"):
        return True
    raise ValueError(f"WEFT_CACHE_IN_MEMORY={os.environ['WEFT_CACHE_IN_MEMORY']!r} is not "
                     "a switch: give 1 to keep kernels in memory only, 0 to keep them on "
                     "disk too")


class _DiskUse:
    """The bytes a process believes its cache directory holds: counted once from the
    directory, then kept up to date by its own writes, and counted again before evicting
    (other processes share the directory). PoCL's entries, where weft keeps PoCL's cache
    (``pocl_cache``), count too: each write is scaled by how much PoCL kept per byte of
    weft's at the last count, since PoCL writes its entry for the same kernel itself."""

    def __init__(self) -> None:
        self._bytes: dict[Path, int] = {}
        self._scale: dict[Path, float] = {}
        self._lock = threading.Lock()

    def wrote(self, directory: Path, nbytes: int) -> None:
        limit = cache_size_limit()
        if limit is None:
            return
        with self._lock:
            used = self._bytes.get(directory)
            if used is None:
                used = self._count(directory)
            else:
                used += int(nbytes * self._scale.get(directory, 1.0))
            if used > limit:
                _evict(directory, int(limit * EVICT_TO))
                used = self._count(directory)
            self._bytes[directory] = used

    def _count(self, directory: Path) -> int:
        entries = _entries(directory)
        own = sum(size for _, size, path in entries if path.suffix == ".bin")
        total = sum(size for _, size, _ in entries)
        self._scale[directory] = total / own if own else 1.0
        return total

    def forget(self) -> None:
        """Count again on the next write (the directory was emptied)."""
        with self._lock:
            self._bytes.clear()


def _own_entries(directory: Path) -> list[tuple[float, int, Path]]:
    found = []
    try:
        for entry in os.scandir(directory):
            if entry.name.endswith(".bin"):
                try:
                    stat = entry.stat()
                except OSError:  # removed meanwhile by another process
                    continue
                found.append((stat.st_mtime, stat.st_size, Path(entry.path)))
    except OSError:
        return []
    return found


def _entries(directory: Path) -> list[tuple[float, int, Path]]:
    """weft's entries in ``directory`` and PoCL's beside them, where weft keeps PoCL's
    cache, as ``(last used, bytes, path)``."""
    found = _own_entries(directory)
    pocl = pocl_cache.managed_dir()
    if pocl is not None and pocl.parent == directory.parent:
        found += pocl_cache.entries(pocl)
    return found


def _evict(directory: Path, target: int) -> int:
    """Remove the entries used longest ago until the directory holds at most ``target``
    bytes; the bytes left."""
    entries = sorted(_entries(directory))
    used = sum(size for _, size, _ in entries)
    for _, size, path in entries:
        if used <= target:
            break
        if path.suffix == ".bin":
            try:
                path.unlink()
            except OSError:  # another process removed it first
                pass
        else:
            pocl_cache.remove(path)
        used -= size
    config.log.debug("disk cache %s evicted down to %d bytes", directory, used)
    return used


class KernelCache:
    def __init__(self) -> None:
        self._memory: dict[tuple[Any, KernelIR, Variant], Any] = {}
        self._known: dict[tuple[Any, KernelIR], Variant] = {}  # a variant built of each IR
        # (device, the disk key's digest) → its program: a program belongs to one device's
        # context, though twin devices share a fingerprint and so disk entries.
        self._by_source: dict[tuple[Any, str], Any] = {}
        self._lock = threading.Lock()
        self.stats = {"hits": 0, "misses": 0, "compiles": 0, "disk_hits": 0,
                      "source_hits": 0, "launches": 0}

    def program(self, device: Any, ir: KernelIR, variant: Variant = PLAIN) -> Any:
        """The program of ``ir`` launched as ``variant`` on ``device``: from memory, else from
        the disk cache, else compiled."""
        key = (device, ir, variant)
        program = self._memory.get(key)
        if program is not None:
            self.stats["hits"] += 1
            return program
        with self._lock:
            self.stats["misses"] += 1
            program = self._memory.get(key)
            if program is None:
                program = self._build(device, ir, variant, self._miss_reason(device, ir,
                                                                             variant))
                self._memory[key] = program
                self._known[(device, ir)] = variant
        return program

    def _miss_reason(self, device: Any, ir: KernelIR, variant: Variant) -> str:
        """Which part of the memory key was new (for ``WEFT_DEBUG``)."""
        known = self._known.get((device, ir))
        if known is None:
            return "a new kernel structure"
        changed = [f.name for f in dataclasses.fields(variant)
                   if getattr(variant, f.name) != getattr(known, f.name)]
        return f"a new launch variant ({', '.join(changed)}) of a known kernel"

    def _build(self, device: Any, ir: KernelIR, variant: Variant, reason: str) -> Any:
        backend = device.backend
        dialect = backend.dialect_of(device)
        if dialect is None:
            return backend.from_ir(device, ir)  # interpreted: launch choices do not apply
        source, name = render(ir, dialect, device.supports_fp64, variant)
        return self._from_source(device, source, name, backend.build_options(device, ir),
                                 reason)

    def source_program(self, device: Any, source: str, name: str) -> Any:
        """The program of a kernel the backend writes itself (``source``, its kernel
        ``name``), built like a generated one: from memory, the disk cache or the compiler."""
        with self._lock:
            return self._from_source(device, source, name,
                                     device.backend.build_options(device, None),
                                     "a backend's own kernel")

    def _from_source(self, device: Any, source: str, name: str, options: list[str],
                     reason: str) -> Any:
        parts = {"cache version": CACHE_VERSION,
                 "device and compiler": device.backend.fingerprint(device),
                 "build options": " ".join(options), "source": source}
        digest = hashlib.sha256("\n".join(parts.values()).encode()).hexdigest()
        program = self._by_source.get((device, digest))
        if program is not None:
            self.stats["source_hits"] += 1
            config.log.debug("reuse %s on %s (%s): its source was built for another structure",
                             name, device, reason)
            return program
        program = self._load_or_compile(device, source, name, options, digest, parts, reason)
        self._by_source[device, digest] = program
        return program

    def _load_or_compile(self, device: Any, source: str, name: str, options: list[str],
                         digest: str, parts: dict[str, str], reason: str) -> Any:
        backend = device.backend
        path = cache_dir() / f"kernels-v{CACHE_VERSION}" / f"{digest}.bin"
        started = time.perf_counter()
        on_disk = not in_memory_only()
        binary = _read_entry(path) if on_disk else None
        if binary is not None:
            _mark_used(path)
            try:
                program = backend.load_binary(device, binary, name, options)
            except Exception:  # noqa: BLE001 - an unusable entry is rebuilt below
                config.log.debug("disk cache entry %s unusable, rebuilding", path)
            else:
                self.stats["disk_hits"] += 1
                config.log.debug("load %s on %s (%s) from the disk cache: %.3f s", name,
                                 device, reason, time.perf_counter() - started)
                return program
        program, binary = announced_build(
            name, device, source, lambda: backend.compile(device, source, name, options,
                                                          on_disk), on_disk)
        self.stats["compiles"] += 1
        config.log.debug("compile %s on %s (%s; %s): %.3f s", name, device, reason,
                         f"not in the disk cache, keyed by {', '.join(parts)}" if on_disk
                         else "WEFT_CACHE_IN_MEMORY", time.perf_counter() - started)
        if binary:
            _write_entry(path, binary)
        return program

    def clear(self, disk: bool = False) -> None:
        from .function import forget_traces  # plans hold programs: forget them too
        from .memo import MEMO

        with self._lock:
            self._memory.clear()
            self._known.clear()
            self._by_source.clear()
            MEMO.clear()
            forget_traces()
            for k in self.stats:
                self.stats[k] = 0
        if disk:
            shutil.rmtree(cache_dir() / f"kernels-v{CACHE_VERSION}", ignore_errors=True)
            pocl_cache.clear()
            DISK_USE.forget()


def announced_build(name: str, device: Any, source: str, build: Callable[[], T],
                    on_disk: bool = True) -> T:
    """``build()``, the compile of ``name``'s ``source`` for ``device``: a line on stderr
    should it take long (``_notice``), and a failure reported as weft's bug with the source
    saved. Also for a build a backend leaves to the kernel's first launch (PoCL's companion
    device: backends/opencl/companion.py).

    >>> announced_build("k", "opencl:0", "__kernel void k() {}", lambda: 42)
    42
    """
    notice = _notice(name, device, on_disk)
    started = time.perf_counter()
    try:
        built = build()
        config.log.debug("build %s for %s: %.3f s", name, device, time.perf_counter() - started)
        return built
    except Exception as e:  # noqa: BLE001 - any build failure is a weft bug: report it
        saved = _save_failed(source, hashlib.sha256(source.encode()).hexdigest())
        raise RuntimeError(
            f"weft generated a kernel that does not compile on {device} (a bug in weft; "
            f"please report it). Source saved at {saved}\n{e}"
        ) from e
    finally:
        if notice is not None:
            notice.cancel()
            notice.join()  # a line it was printing is out before the build returns


def _notice(name: str, device: Any, on_disk: bool) -> threading.Timer | None:
    """A line on stderr, should the compile of ``name`` still run after ``NOTICE_AFTER``
    seconds (a first use; later calls, and with ``on_disk`` later processes through the
    disk cache, reuse the kernel)."""
    if os.environ.get("WEFT_COMPILE_NOTICE", "1") == "0":
        return None
    reusers = "later calls and processes reuse it" if on_disk else "later calls reuse it"
    message = (f"weft: compiling {name} for {device} (first use; {reusers}; "
               f"WEFT_COMPILE_NOTICE=0 silences this)")
    timer = threading.Timer(NOTICE_AFTER, lambda: print(message, file=sys.stderr, flush=True))
    timer.daemon = True
    timer.start()
    return timer


def _read_entry(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header_end = len(_MAGIC) + 65
    if not data.startswith(_MAGIC) or len(data) < header_end:
        return None
    checksum, payload = data[len(_MAGIC):header_end - 1], data[header_end:]
    if hashlib.sha256(payload).hexdigest().encode() != checksum:
        return None
    return payload


def _mark_used(path: Path) -> None:
    """A disk hit makes its entry the most recently used (its modification time)."""
    try:
        os.utime(path)
    except OSError:  # read-only, or removed meanwhile: its age only decides eviction
        pass


def _write_entry(path: Path, payload: bytes) -> None:
    data = _MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:  # a read-only or full cache directory costs speed, not correctness
        config.log.debug("could not write disk cache entry %s: %s", path, e)
        return
    DISK_USE.wrote(path.parent, len(data))


def _save_failed(source: str, digest: str) -> Path:
    """Save a source that failed to compile in a new file of its own: in the user's cache
    directory, else the system's temporary directory. ``mkstemp`` creates it exclusively,
    readable by its owner only, under a name no other process picks, so two processes never
    overwrite each other's and nobody else can plant one in its place."""
    for base in (cache_dir() / "failed", None):
        try:
            if base is not None:
                base.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f"weft-failed-{digest[:16]}-", suffix=".cl",
                                        dir=base)
            with os.fdopen(fd, "w") as f:
                f.write(source)
            return Path(name)
        except OSError:
            continue
    return Path("<unsaved>")


CACHE = KernelCache()
DISK_USE = _DiskUse()


def cache_info() -> dict[str, int]:
    """Counts of in-memory ``hits``/``misses`` (one per launch), ``compiles``, ``disk_hits``,
    ``source_hits`` (misses whose source another structure had built) and kernel ``launches``
    (replayed ones included).

    >>> import weft as wf
    >>> sorted(wf.cache_info())
    ['compiles', 'disk_hits', 'hits', 'launches', 'misses', 'source_hits']
    """
    return dict(CACHE.stats)


def clear_cache(disk: bool = False) -> None:
    """Forget compiled kernels (and, with ``disk=True``, the on-disk binaries too).

    >>> import weft as wf
    >>> wf.clear_cache()
    """
    CACHE.clear(disk)
