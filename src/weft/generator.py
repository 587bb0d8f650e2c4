"""``wf.random.default_rng``: NumPy's ``Generator`` habits over weft's counter-based keys.

A generator holds a key and splits a new one off it for every draw, so successive draws
differ and the same seed repeats the whole sequence, on every device. The draws are weft's
(lazy, fused, the same bits everywhere), not NumPy's: a seed gives other numbers than
``numpy.random.default_rng`` with that seed. Where NumPy returns a Python scalar
(``size=None`` and scalar parameters), a generator returns a 0-d array.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any

import numpy as np

from . import random as rnd
from .array import Array


class Generator:
    """Draws with NumPy's method names and parameters, each from a new key.

    >>> import weft as wf
    >>> rng = wf.random.default_rng(7)
    >>> x = rng.normal(1.0, 2.0, size=(2, 3))
    >>> x.shape
    (2, 3)
    >>> y = wf.random.default_rng(7).normal(1.0, 2.0, size=(2, 3))
    >>> bool((x == y).all()), bool((rng.normal(size=3) == y[0]).all())
    (True, False)
    """

    def __init__(self, key: rnd.Key, device: Any = None) -> None:
        self._key = rnd._check_key(key, "Generator")
        self._device = device
        self._lock = threading.Lock()  # several threads may draw from one generator

    def __repr__(self) -> str:
        return f"wf.random.Generator({self._key!r})"

    def _next(self) -> rnd.Key:
        with self._lock:
            self._key, drawn = rnd.split(self._key)
        return drawn

    def spawn(self, n: int) -> list[Generator]:
        """``n`` independent generators (NumPy's ``Generator.spawn``)."""
        with self._lock:
            self._key, *keys = rnd.split(self._key, int(n) + 1)
        return [Generator(k, self._device) for k in keys]

    def random(self, size: Any = None, dtype: Any = None) -> Array:
        """Uniform on [0, 1)."""
        return rnd.uniform(self._next(), _size(size), dtype=dtype, device=self._device)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Array:
        return rnd.uniform(self._next(), _size(size, low, high), low, high,
                           device=self._device)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Array:
        return rnd.normal(self._next(), _size(size, loc, scale), loc, scale,
                          device=self._device)

    def standard_normal(self, size: Any = None, dtype: Any = None) -> Array:
        return rnd.normal(self._next(), _size(size), dtype=dtype, device=self._device)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Array:
        """Exponential with mean ``scale`` (NumPy's parameter; weft's own takes a rate)."""
        rate: Any = None
        if isinstance(scale, (int, float, np.integer, np.floating)):
            if not scale >= 0:
                raise ValueError(f"Generator.exponential: scale = {scale!r} is negative")
            rate = np.inf if scale == 0 else 1.0 / scale  # scale 0: zeros, as NumPy's
        return rnd.exponential(self._next(), _size(size, scale),
                               1.0 / scale if rate is None else rate, device=self._device)

    def standard_exponential(self, size: Any = None, dtype: Any = None) -> Array:
        return rnd.exponential(self._next(), _size(size), dtype=dtype, device=self._device)

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None) -> Array:
        return rnd.gamma(self._next(), _size(size, shape, scale), shape, scale,
                         device=self._device)

    def standard_gamma(self, shape: Any, size: Any = None, dtype: Any = None) -> Array:
        return rnd.gamma(self._next(), _size(size, shape), shape, dtype=dtype,
                         device=self._device)

    def beta(self, a: Any, b: Any, size: Any = None) -> Array:
        return rnd.beta(self._next(), _size(size, a, b), a, b, device=self._device)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Array:
        return rnd.poisson(self._next(), _size(size, lam), lam, device=self._device)

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = np.int64,
                 endpoint: bool = False) -> Array:
        """Whole numbers from [low, high) (NumPy's; [0, low) without ``high``)."""
        return rnd.integers(self._next(), _size(size, low, *(() if high is None else (high,))),
                            low, high, dtype=dtype, endpoint=endpoint, device=self._device)

    def binomial(self, n: Any, p: Any, size: Any = None) -> Array:
        return rnd.binomial(self._next(), _size(size, n, p), n, p, device=self._device)


def _size(size: Any, *params: Any) -> tuple[int, ...]:
    """NumPy's ``size``: as given, else the parameters' broadcast shape."""
    if size is not None:
        return (int(size),) if isinstance(size, (int, np.integer)) else tuple(size)
    shapes = [p.shape if isinstance(p, Array) else np.shape(p) for p in params]
    return tuple(np.broadcast_shapes(*shapes)) if shapes else ()


def default_rng(seed: Any = None, device: Any = None) -> Generator:
    """A generator seeded by an integer in [0, 2^64), a ``wf.random.Key``, or fresh entropy
    (``None``), drawing on ``device`` (the current device unless given).

    >>> import weft as wf
    >>> rng = wf.random.default_rng(0)
    >>> u = rng.uniform(size=1000)
    >>> 0.0 <= float(u.min()) and float(u.max()) < 1.0
    True
    """
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, rnd.Key):
        return Generator(seed, device)
    return Generator(rnd.key(secrets.randbits(64) if seed is None else seed), device)
