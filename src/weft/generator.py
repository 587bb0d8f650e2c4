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
from .array import Array, apply_op
from .creation import asarray
from .matrix import check
from .scans import cumsum
from .searching import searchsorted
from .sorting import argsort


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

    def permutation(self, x: Any) -> Array:
        """A random ordering of ``range(x)`` (an integer), or of an array along its first
        axis (a new array): the order of 2^53-wide random keys, sorted stably (a tie, at
        most n^2 / 2^54 likely, keeps the earlier position first)."""
        population, n = self._population("permutation", x)
        order = _order(rnd.integers(self._next(), (n,), 0, 2**53, device=self._device))
        return order if population is None else population[order]

    def shuffle(self, x: Array) -> None:
        """Reorders the weft array ``x`` in place along its first axis."""
        if not isinstance(x, Array):
            raise TypeError(f"shuffle: x must be a weft array, not {type(x).__name__} "
                            "(numpy.random shuffles NumPy's own)")
        x[...] = self.permutation(x)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Array:
        """Draws from ``range(a)`` (an integer) or from an array's first axis: with
        replacement, uniformly or with probabilities ``p`` (by the inverse of their running
        sums); without, the first of a permutation, or with ``p`` the largest of
        log(U) / p (Efraimidis and Spirakis: each next draw in proportion to p among those
        left). A ``size`` of None gives one draw (0-d, or a row).

        >>> import weft as wf
        >>> rng = wf.random.default_rng(1)
        >>> sorted(rng.choice(5, size=5, replace=False).tolist())
        [0, 1, 2, 3, 4]
        """
        population, n = self._population("choice", a)
        shape = () if size is None else _size(size)
        count = int(np.prod(shape)) if shape else 1
        weights = None if p is None else _probabilities(p, n, self._device)
        if not replace and count > n:
            raise ValueError(f"choice: cannot take {count} draws without replacement from "
                             f"{n} values")
        if not replace and p is not None and not isinstance(p, Array) \
                and np.count_nonzero(np.asarray(p)) < count:
            raise ValueError(f"choice: fewer non-zero probabilities than the {count} draws "
                             "without replacement")
        key = self._next()
        if replace and weights is None:
            picks = rnd.integers(key, (count,), 0, n, device=self._device)
        elif replace:
            running = cumsum(weights)
            u = rnd.uniform(key, (count,), device=self._device) * running[-1]
            picks = apply_op("minimum", searchsorted(running, u, side="right"), n - 1)
        elif weights is None:
            picks = _order(rnd.integers(key, (n,), 0, 2**53, device=self._device))[:count]
        else:
            u = rnd.uniform(key, (n,), device=self._device)
            keys = apply_op("log", 1.0 - u) / weights  # (1 - u: in (0, 1], log finite)
            picks = _order(-keys)[:count]
        picks = picks.reshape(shape) if shape else picks[0]
        return picks if population is None else population[picks]

    def _population(self, name: str, x: Any) -> tuple[Array | None, int]:
        if isinstance(x, (int, np.integer)):
            if x < 0 or (name == "choice" and x == 0):
                raise ValueError(f"{name}: a population of {x} values")
            return None, int(x)
        values = x if isinstance(x, Array) else asarray(x, device=self._device)
        if values.ndim == 0:
            raise ValueError(f"{name}: x must be an integer or have at least one dimension")
        if name == "choice" and values.shape[0] == 0:
            raise ValueError("choice: a must not be empty")
        return values, values.shape[0]


def _order(keys: Array) -> Array:
    return argsort(keys, kind="stable")


def _probabilities(p: Any, n: int, device: Any) -> Array:
    """``p`` as an array of ``n`` probabilities, checked by NumPy's rules (finite,
    non-negative, summing to 1 within sqrt(eps)) here when it is on the host; a weft array's
    in the draw's kernel, but for its sum (the draws use p / sum(p) then), which would take
    a synchronization."""
    if isinstance(p, Array):
        if p.shape != (n,):
            raise ValueError(f"choice: p must have shape ({n},), not {p.shape}")
        weights = p.astype(float)
        return check(weights, (weights >= 0) & apply_op("isfinite", weights),
                     "choice: p must be finite and non-negative; p{index} = {value}")
    host = np.asarray(p, dtype=np.float64)
    if host.shape != (n,):
        raise ValueError(f"choice: p must have shape ({n},), not {host.shape}")
    if not np.all(np.isfinite(host)) or np.any(host < 0):
        raise ValueError("choice: p must be finite and non-negative")
    if abs(host.sum() - 1.0) > np.sqrt(np.finfo(np.float64).eps):
        raise ValueError(f"choice: p must sum to 1, not {host.sum()!r}")
    return asarray(host, device=device)


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
