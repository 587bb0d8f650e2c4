"""Random numbers: counter-based Philox 4x32-10 streams, drawn inside the fused kernel.

A draw is an element-wise op of the key and each element's flat index, so
``wf.random.normal(key, shape) * 2 + 1`` is one kernel, and the same key gives the same bits on
every device (the arithmetic is fixed operation by operation: ``skeletons/random.py``,
``philox.py``). Keys are values: reuse one and you get the same numbers again; ``split`` it
for independent streams, as in JAX.

>>> import weft as wf
>>> key = wf.random.key(0)
>>> k1, k2 = wf.random.split(key)
>>> x = wf.random.normal(k1, (2, 3)) * 2 + 1
>>> x.shape
(2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from . import philox
from .array import Array, apply_op
from .creation import _device, _shape, asarray, broadcast_to, flat_position
from .matrix import check

__all__ = ["Key", "key", "split", "uniform", "normal", "exponential", "gamma", "beta",
           "bernoulli", "poisson", "binomial", "integers", "Generator", "default_rng"]


def __dir__() -> list[str]:
    """The public names only (``dir(wf.random)`` listed the modules it imports too)."""
    return sorted(__all__)

_SPLIT_STREAM = 0xFFFFFFFF  # counter word 3 for deriving keys; draws use 0 and 1


@dataclass(frozen=True)
class Key:
    """A Philox key: two 32-bit words. Immutable; ``split`` makes new ones."""

    k0: int
    k1: int

    def __repr__(self) -> str:
        return f"wf.random.Key(0x{self.k0:08x}, 0x{self.k1:08x})"


def key(seed: int) -> Key:
    """The key for an integer seed in [0, 2^64).

    >>> import weft as wf
    >>> wf.random.key(42)
    wf.random.Key(0x0000002a, 0x00000000)
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"wf.random.key: seed must be an integer, not {type(seed).__name__}")
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise ValueError(f"wf.random.key: seed {seed} is outside [0, 2**64)")
    return Key(seed & 0xFFFFFFFF, seed >> 32)


def _check_key(k: Any, name: str) -> Key:
    if not isinstance(k, Key):
        raise TypeError(f"wf.random.{name}: expected a wf.random.Key (wf.random.key(seed)), "
                        f"not {type(k).__name__}")
    return k


def split(k: Key, num: int = 2) -> tuple[Key, ...]:
    """``num`` new keys from ``k``, independent of it and of each other (on the host).

    >>> import weft as wf
    >>> a, b = wf.random.split(wf.random.key(0))
    >>> a != b
    True
    """
    k = _check_key(k, "split")
    if isinstance(num, bool) or not isinstance(num, (int, np.integer)) or num < 1:
        raise ValueError(f"wf.random.split: num must be a positive integer, not {num!r}")
    j = np.arange(int(num), dtype=np.uint64)
    zero = np.zeros_like(j)
    words = philox.philox([j, zero, zero, np.full_like(j, _SPLIT_STREAM)],
                          (np.uint64(k.k0), np.uint64(k.k1)))
    return tuple(Key(int(a), int(b)) for a, b in zip(words[0], words[1]))


def _draw(name: str, k: Key, shape: Any, params: tuple[Any, ...], dtype: Any,
          device: Any) -> Array:
    k = _check_key(k, name)
    shape = _shape(shape)
    dev = _device(device)
    if not dev.supports_fp64:
        raise TypeError(f"wf.random.{name}: {dev} ({dev.name}) has no float64 support; the "
                        "draws compute in double so that every device gives the same bits")
    grid = shape if shape else (1,)
    index = flat_position(grid, dev)
    for p in params:
        p_shape = np.shape(p) if not isinstance(p, Array) else p.shape
        try:
            fits = np.broadcast_shapes(p_shape, grid) == grid
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"wf.random.{name}: a parameter of shape {p_shape} does not "
                             f"broadcast to the draw's shape {shape}")
    words = [Array(ex.scalar(w, dt.uint32), dev) for w in (k.k0, k.k1)]
    out = apply_op(f"random_{name}", *words, index, *params, dtype=dtype)
    return out[0] if not shape else out


def uniform(key: Key, shape: Any, low: Any = 0.0, high: Any = 1.0, dtype: Any = None,
            device: Any = None) -> Array:
    """Uniform draws on [low, high) (53 random bits per value), lazy and fused.

    >>> import weft as wf
    >>> u = wf.random.uniform(wf.random.key(1), (1000,))
    >>> 0.0 <= float(u.min()) and float(u.max()) < 1.0
    True
    """
    return _draw("uniform", key, shape, (low, high), dtype, device)


def normal(key: Key, shape: Any, loc: Any = 0.0, scale: Any = 1.0, dtype: Any = None,
           device: Any = None) -> Array:
    """Normal draws (Box-Muller from one Philox block per draw); NaN where ``scale`` is
    negative or NaN.

    >>> import weft as wf
    >>> z = wf.random.normal(wf.random.key(1), (3,), loc=10.0)
    >>> z.dtype
    wf.float64
    """
    _check_scalar("normal", "scale", scale, lambda v: v >= 0)
    return _draw("normal", key, shape, (loc, scale), dtype, device)


def exponential(key: Key, shape: Any, rate: Any = 1.0, dtype: Any = None,
                device: Any = None) -> Array:
    """Exponential draws with ``rate`` (mean 1 / rate, as Stan and NumBirch); NaN where
    ``rate`` is not positive.

    >>> import weft as wf
    >>> wf.random.exponential(wf.random.key(1), (2,), rate=2.0).shape
    (2,)
    """
    _check_scalar("exponential", "rate", rate, lambda v: v > 0)
    return _draw("exponential", key, shape, (rate,), dtype, device)


def gamma(key: Key, shape: Any, alpha: Any, scale: Any = 1.0, dtype: Any = None,
          device: Any = None) -> Array:
    """Gamma draws with shape ``alpha`` and ``scale`` (Marsaglia and Tsang); NaN where a
    parameter is not positive and finite.

    >>> import weft as wf
    >>> wf.random.gamma(wf.random.key(1), (2,), alpha=3.0).shape
    (2,)
    """
    _check_scalar("gamma", "alpha", alpha, lambda v: 0 < v < np.inf)
    _check_scalar("gamma", "scale", scale, lambda v: v > 0)
    return _draw("gamma", key, shape, (alpha, scale), dtype, device)


def beta(key: Key, shape: Any, a: Any, b: Any, dtype: Any = None, device: Any = None) -> Array:
    """Beta(a, b) draws, X / (X + Y) of two gamma draws; NaN where a parameter is not
    positive and finite.

    >>> import weft as wf
    >>> wf.random.beta(wf.random.key(1), (2,), 2.0, 3.0).shape
    (2,)
    """
    _check_scalar("beta", "a", a, lambda v: 0 < v < np.inf)
    _check_scalar("beta", "b", b, lambda v: 0 < v < np.inf)
    return _draw("beta", key, shape, (a, b), dtype, device)


def bernoulli(key: Key, shape: Any, p: Any = 0.5, device: Any = None) -> Array:
    """Bool draws, True with probability ``p``.

    >>> import weft as wf
    >>> wf.random.bernoulli(wf.random.key(1), (2,), 0.3).dtype
    wf.bool
    """
    _check_scalar("bernoulli", "p", p, lambda v: 0 <= v <= 1)
    return _draw("bernoulli", key, shape, (p,), None, device)


def poisson(key: Key, shape: Any, lam: Any, device: Any = None) -> Array:
    """int64 Poisson draws (Knuth below lam = 10, Hörmann's PTRS above); -1 where ``lam`` is
    negative, NaN or above 1e15.

    >>> import weft as wf
    >>> wf.random.poisson(wf.random.key(1), (2,), 4.0).dtype
    wf.int64
    """
    _check_scalar("poisson", "lam", lam, lambda v: 0 <= v < 1e15)
    return _draw("poisson", key, shape, (lam,), None, device)


def binomial(key: Key, shape: Any, n: Any, p: Any, device: Any = None) -> Array:
    """int64 binomial draws (inversion for small n·p, Hörmann's BTRS above); -1 where ``n``
    is not a whole number in [0, 2^53) or ``p`` is outside [0, 1].

    >>> import weft as wf
    >>> wf.random.binomial(wf.random.key(1), (2,), 10, 0.5).dtype
    wf.int64
    """
    _check_scalar("binomial", "n", n, lambda v: 0 <= v < 2**53 and float(v).is_integer())
    _check_scalar("binomial", "p", p, lambda v: 0 <= v <= 1)
    return _draw("binomial", key, shape, (n, p), None, device)


_EXACT = 2.0**53  # integers' bounds: whole numbers a double holds exactly


def integers(key: Key, shape: Any, low: Any, high: Any = None, dtype: Any = None,
             endpoint: bool = False, device: Any = None) -> Array:
    """Whole numbers drawn uniformly from [low, high) (NumPy's ``Generator.integers``:
    [0, low) without ``high``, [low, high] with ``endpoint``), exactly: no bias (Lemire's
    multiply-and-reject on 64 random bits). The bounds are whole numbers within ±2^53;
    int64 unless ``dtype`` (int32, uint32 or int64) says otherwise, the bounds within it.
    Bad scalar bounds raise ValueError here, bad array bounds when the draw is evaluated.

    >>> import weft as wf
    >>> x = wf.random.integers(wf.random.key(1), (1000,), 2, 5)
    >>> x.dtype, int(x.min()), int(x.max())
    (wf.int64, 2, 4)
    """
    if high is None:
        low, high = 0, low
    if endpoint:
        high = high + 1
    out_dtype = dt.int64 if dtype is None else dt.to_dtype(dtype)
    if out_dtype.name not in ("int32", "uint32", "int64"):
        raise TypeError(f"wf.random.integers: dtype must be int32, uint32 or int64, not "
                        f"{out_dtype}")
    bounds = []
    for param, value in (("low", low), ("high", high)):
        if isinstance(value, Array):
            if value.dtype.kind not in "iub" and not value.dtype.is_float:
                raise TypeError(f"wf.random.integers: {param} must be real, not {value.dtype}")
            bounds.append(value)
            continue
        if not isinstance(value, (int, float, np.integer, np.floating)):
            value = np.asarray(value)
            if value.dtype.kind not in "iuf":
                raise TypeError(f"wf.random.integers: {param} must be real, not {value.dtype}")
            bounds.append(asarray(value, device=_device(device)))
            continue
        if not (float(value).is_integer() and abs(value) <= _EXACT):
            raise ValueError(f"wf.random.integers: {param} = {value!r} must be a whole number "
                             "within ±2^53")
        info = np.iinfo(out_dtype.numpy)
        bound = value if param == "low" else value - 1
        if not info.min <= bound <= info.max:
            raise ValueError(f"wf.random.integers: {param} = {value!r} is out of range for "
                             f"{out_dtype}")
        bounds.append(value)
    low, high = bounds
    scalars = [v for v in (low, high) if not isinstance(v, Array)]
    if len(scalars) == 2 and not low < high:
        raise ValueError(f"wf.random.integers: low = {low!r} must be below high = {high!r}")
    out = _draw("integers", key, shape, (low, high), None, device)
    if len(scalars) < 2:  # array bounds: checked where the draw is computed
        lo, hi = (v.astype(dt.float64) if isinstance(v, Array) else float(v)
                  for v in (low, high))
        info = np.iinfo(out_dtype.numpy)
        valid = (lo < hi) & (lo >= float(info.min)) & (hi - 1 <= float(info.max))
        for v in (lo, hi):
            if isinstance(v, Array):
                valid = valid & (apply_op("floor", v) == v) & (apply_op("abs", v) <= _EXACT)
        out = check(out, broadcast_to(valid, out.shape),
                    f"wf.random.integers: the bounds must be whole numbers within ±2^53 "
                    f"and {out_dtype}'s range with low < high; at {{index}} they are not")
    return out if out_dtype is dt.int64 else out.astype(out_dtype)



def _check_scalar(name: str, param: str, value: Any, ok: Any) -> None:
    """Scalar parameters are checked here (ValueError); array parameters give NaN (real
    draws) or -1 (counts) where they are bad."""
    if isinstance(value, (int, float, np.integer, np.floating)) and not ok(value):
        raise ValueError(f"wf.random.{name}: {param} = {value!r} is out of range")


from .generator import Generator, default_rng  # noqa: E402 - it draws through this module
