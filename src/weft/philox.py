"""Philox 4x32-10 and the draws built on it, in NumPy: the reference device's random numbers.

This mirrors the device code in ``skeletons/random.py`` operation for operation. Every
floating-point step is one IEEE operation (+ - * / sqrt, floor, frexp, ldexp, comparisons),
never contracted into a fused multiply-add, and the logarithm and exponential are weft's own
polynomials with the coefficients below, shared with the device code. So the same key gives
the same bits on the reference device, PoCL, OpenCL GPUs and CUDA.

Element ``i`` of a draw owns the counters ``(i mod 2^32, i div 2^32, n, stream)``: ``n``
counts the Philox blocks it has used (rejection loops take more than one), ``stream``
separates the two gamma variates of a beta draw.
"""

from __future__ import annotations

import math

import numpy as np

PHILOX_M = (0xD2511F53, 0xCD9E8D57)
PHILOX_W = (0x9E3779B9, 0xBB67AE85)
MASK32 = np.uint64(0xFFFFFFFF)

# log(m) = 2f + 2f f^2 P(f^2), f = (m - 1) / (m + 1), m in [sqrt(1/2), sqrt(2)): the
# coefficients 1 / (2k + 1); |f^2| < 0.0295 leaves below 1e-17 after eleven.
LOG_COEFFICIENTS = [1.0 / (2 * k + 1) for k in range(1, 12)]
# exp(r) for |r| <= ln(2) / 2: Taylor to r^13 (the rest is below 1e-17).
EXP_COEFFICIENTS = [1.0 / math.factorial(k) for k in range(14)]
LN2_HI = 6.93147180369123816490e-01  # ln 2 in 32 bits: k * LN2_HI is exact
LN2_LO = 1.90821492927058770002e-10
INV_LN2 = 1.44269504088896338700e00
SQRT_HALF = 0.70710678118654752440
TWO_POW_53 = 2.0**-53
# cos(y) and sin(y) / y for |y| <= pi / 4 as polynomials in y^2: Taylor to y^16 and y^17
# (the rest is below 1e-16 relative).
COS_COEFFICIENTS = [(-1.0) ** k / math.factorial(2 * k) for k in range(9)]
SIN_COEFFICIENTS = [(-1.0) ** k / math.factorial(2 * k + 1) for k in range(9)]
TWO_PI = 6.283185307179586


def philox(counter: list[np.ndarray], key: tuple[np.ndarray, np.ndarray]) -> list[np.ndarray]:
    """Ten Philox 4x32 rounds on uint64 arrays that hold 32-bit words."""
    c0, c1, c2, c3 = (np.asarray(c, dtype=np.uint64) for c in counter)
    k0, k1 = (np.asarray(k, dtype=np.uint64) for k in key)
    for r in range(10):
        if r:
            k0 = (k0 + np.uint64(PHILOX_W[0])) & MASK32
            k1 = (k1 + np.uint64(PHILOX_W[1])) & MASK32
        p0 = np.uint64(PHILOX_M[0]) * c0
        p1 = np.uint64(PHILOX_M[1]) * c2
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & MASK32,
                          (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & MASK32)
    return [c0, c1, c2, c3]


def _poly(coefficients: list[float], x: np.ndarray) -> np.ndarray:
    result = np.full_like(x, coefficients[-1])
    for c in reversed(coefficients[:-1]):
        result = result * x + c
    return result


def rlog(x: np.ndarray) -> np.ndarray:
    """log(x) for finite x > 0, as the device computes it."""
    m, e = np.frexp(x)
    low = m < SQRT_HALF
    m = np.where(low, m * 2.0, m)
    e = (e - low).astype(np.float64)
    f = (m - 1.0) / (m + 1.0)
    f2 = f * f
    series = (f + f) + (f + f) * f2 * _poly(LOG_COEFFICIENTS, f2)
    return e * LN2_HI + series + e * LN2_LO


def cos_turns(t: np.ndarray) -> np.ndarray:
    """cos(2 pi t) for t in [0, 1), as the device computes it: the nearest quarter turn
    taken out exactly, then the polynomials on the rest (|2 pi r| <= pi / 4)."""
    quarter = (t * 4.0 + 0.5).astype(np.int64)  # t >= 0: truncation is floor
    r = t - quarter.astype(np.float64) * 0.25
    y = r * TWO_PI
    y2 = y * y
    c = _poly(COS_COEFFICIENTS, y2)
    s = y * _poly(SIN_COEFFICIENTS, y2)
    q = quarter & 3
    return np.where(q == 0, c, np.where(q == 1, -s, np.where(q == 2, -c, s)))


def rexp(x: np.ndarray) -> np.ndarray:
    """exp(x), as the device computes it (0 below -745.2, inf above 709.8)."""
    k = np.floor(x * INV_LN2 + 0.5)
    safe = np.clip(k, -1100.0, 1100.0)
    r = (x - safe * LN2_HI) - safe * LN2_LO
    value = np.ldexp(_poly(EXP_COEFFICIENTS, r), safe.astype(np.int32))
    return np.where(x < -745.2, 0.0, np.where(x > 709.8, np.inf, value))


def rlogfact(k: np.ndarray) -> np.ndarray:
    """log(k!) for whole k >= 0 (as doubles): exact products to 15!, Stirling above."""
    k = np.asarray(k, dtype=np.float64)
    product = np.ones_like(k)
    for j in range(2, 16):
        product = np.where(k >= j, product * float(j), product)
    x = np.maximum(k, 15.0) + 1.0
    ix = 1.0 / x
    ix2 = ix * ix
    stirling = ((x - 0.5) * rlog(x) - x + 0.91893853320467274178
                + ix * (1.0 / 12 - ix2 * (1.0 / 360 - ix2 * (1.0 / 1260 - ix2 * (1.0 / 1680)))))
    return np.where(k < 16, rlog(product), stirling)


class Stream:
    """Per-element Philox streams; ``blocks`` takes one block for the elements in ``active``."""

    def __init__(self, k0: np.ndarray, k1: np.ndarray, index: np.ndarray, stream: int = 0):
        index = np.asarray(index, dtype=np.int64).astype(np.uint64)
        self.key = (np.asarray(k0, np.uint64), np.asarray(k1, np.uint64))
        self.lo, self.hi = index & MASK32, index >> np.uint64(32)
        self.n = np.zeros(index.shape, dtype=np.uint64)
        self.stream = np.uint64(stream)

    def words(self, active: np.ndarray) -> list[np.ndarray]:
        words = philox([self.lo, self.hi, self.n, np.broadcast_to(self.stream, self.n.shape)],
                       self.key)
        self.n = np.where(active, self.n + np.uint64(1), self.n)
        return words

    def uniform_pair(self, active: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Two doubles on [0, 1), 53 bits each, from one block."""
        w = self.words(active)
        a = ((w[0] << np.uint64(21)) | (w[1] >> np.uint64(11))).astype(np.float64)
        b = ((w[2] << np.uint64(21)) | (w[3] >> np.uint64(11))).astype(np.float64)
        return a * TWO_POW_53, b * TWO_POW_53

    def open_uniform(self, active: np.ndarray) -> np.ndarray:
        """A double on (0, 1): an odd multiple of 2^-53 (never 0, so its log is finite)."""
        w = self.words(active)
        bits = (w[0] << np.uint64(20)) | (w[1] >> np.uint64(12))
        return (bits * np.uint64(2) + np.uint64(1)).astype(np.float64) * TWO_POW_53

    def normal(self, active: np.ndarray) -> np.ndarray:
        """Box-Muller from one block: a radius from an open uniform (52 bits), an angle
        from a uniform on [0, 1) (53 bits). No rejection: straight-line device code."""
        w = self.words(active)
        bits = (w[0] << np.uint64(20)) | (w[1] >> np.uint64(12))
        u = (bits * np.uint64(2) + np.uint64(1)).astype(np.float64) * TWO_POW_53
        t = ((w[2] << np.uint64(21)) | (w[3] >> np.uint64(11))).astype(np.float64) * TWO_POW_53
        return np.sqrt(-2.0 * rlog(u)) * cos_turns(t)

    def gamma(self, alpha: np.ndarray, active: np.ndarray) -> np.ndarray:
        """Marsaglia and Tsang; for alpha < 1, Gamma(alpha + 1) U^(1 / alpha)."""
        small = alpha < 1.0
        a = np.where(small, alpha + 1.0, alpha)
        d = a - 1.0 / 3
        c = 1.0 / np.sqrt(d * 9.0)
        result = np.zeros(self.n.shape)
        pending = active.copy()
        while pending.any():
            z = self.normal(pending)
            t = z * c + 1.0
            v = t * t * t
            u = self.open_uniform(pending)
            positive = t > 0.0
            safe_v = np.where(positive, v, 1.0)
            z2 = z * z
            ok = pending & positive & (
                (u < 1.0 - 0.0331 * (z2 * z2))
                | (rlog(u) < z2 * 0.5 + d * ((1.0 - safe_v) + rlog(safe_v))))
            result = np.where(ok, d * safe_v, result)
            pending &= ~ok
        boost = np.ones(self.n.shape)
        if (small & active).any():
            u = self.open_uniform(small & active)
            boost = np.where(small, rexp(rlog(u) / np.where(small, alpha, 1.0)), 1.0)
        return result * boost


def _key_words(k0, k1, i):
    return np.asarray(k0, np.uint64), np.asarray(k1, np.uint64), np.asarray(i, np.int64)


def uniform(k0, k1, i, low, high):
    low, high = np.broadcast_arrays(np.asarray(low, np.float64), np.asarray(high, np.float64))
    s = Stream(*_key_words(k0, k1, i))
    u, _ = s.uniform_pair(np.ones(s.n.shape, bool))
    return low + (high - low) * u


def normal(k0, k1, i, loc, scale):
    s = Stream(*_key_words(k0, k1, i))
    z = s.normal(np.ones(s.n.shape, bool))
    scale = np.asarray(scale, np.float64)
    value = np.asarray(loc, np.float64) + scale * z
    return np.where(scale >= 0, value, np.nan)


def exponential(k0, k1, i, rate):
    s = Stream(*_key_words(k0, k1, i))
    u = s.open_uniform(np.ones(s.n.shape, bool))
    rate = np.asarray(rate, np.float64)
    return np.where(rate > 0, -rlog(u) / np.where(rate > 0, rate, 1.0), np.nan)


def gamma(k0, k1, i, alpha, scale):
    alpha, scale = (np.asarray(v, np.float64) for v in (alpha, scale))
    s = Stream(*_key_words(k0, k1, i))
    ok = (alpha > 0) & (alpha < np.inf) & (scale > 0)
    alpha = np.broadcast_to(np.where(ok, alpha, 1.0), s.n.shape)
    value = s.gamma(alpha, np.ones(s.n.shape, bool)) * scale
    return np.where(ok, value, np.nan)


def beta(k0, k1, i, a, b):
    a, b = (np.asarray(v, np.float64) for v in (a, b))
    k0, k1, i = _key_words(k0, k1, i)
    ok = (a > 0) & (b > 0) & (a < np.inf) & (b < np.inf)
    first, second = Stream(k0, k1, i, 0), Stream(k0, k1, i, 1)
    everyone = np.ones(first.n.shape, bool)
    x = first.gamma(np.broadcast_to(np.where(ok, a, 1.0), everyone.shape), everyone)
    y = second.gamma(np.broadcast_to(np.where(ok, b, 1.0), everyone.shape), everyone)
    return np.where(ok, x / (x + y), np.nan)


def bernoulli(k0, k1, i, p):
    s = Stream(*_key_words(k0, k1, i))
    u, _ = s.uniform_pair(np.ones(s.n.shape, bool))
    return u < np.asarray(p, np.float64)


def poisson(k0, k1, i, lam):
    """Knuth's product of uniforms below 10, Hörmann's PTRS from 10; -1 for a bad lam."""
    s = Stream(*_key_words(k0, k1, i))
    lam = np.broadcast_to(np.asarray(lam, np.float64), s.n.shape)
    bad = ~((lam >= 0) & (lam < 1e15))
    lam = np.where(bad, 0.0, lam)
    result = np.zeros(s.n.shape, np.int64)
    small = lam < 10
    # Knuth: count uniforms until their product falls to exp(-lam) or below.
    limit = rexp(-lam)
    product = np.ones(s.n.shape)
    pending = small.copy()
    count = np.zeros(s.n.shape, np.int64)
    while pending.any():
        u = s.open_uniform(pending)
        product = np.where(pending, product * u, product)
        done = pending & (product <= limit)
        result = np.where(done, count, result)
        count = np.where(pending & ~done, count + 1, count)
        pending &= ~done
    # PTRS.
    big = ~small
    if big.any():
        lam_b = np.where(big, lam, 10.0)
        slam = np.sqrt(lam_b)
        loglam = rlog(lam_b)
        b = slam * 2.53 + 0.931
        a = b * 0.02483 - 0.059
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2.0)
        pending = big.copy()
        while pending.any():
            u0, v = s.uniform_pair(pending)
            u = u0 - 0.5
            us = 0.5 - np.abs(u)
            safe_us = np.where(us > 0, us, 0.5)
            k = np.floor(((a + a) / safe_us + b) * u + lam_b + 0.43)
            quick = pending & (us >= 0.07) & (v <= vr)
            result = np.where(quick, k.astype(np.int64), result)
            pending &= ~quick
            reject = (k < 0) | ((us < 0.013) & (v > us)) | (us <= 0) | (v <= 0)
            safe_k = np.where(k >= 0, k, 0.0)
            safe_v = np.where(v > 0, v, 1.0)
            lhs = rlog(safe_v) + rlog(inv_alpha) - rlog(a / (safe_us * safe_us) + b)
            rhs = -lam_b + safe_k * loglam - rlogfact(safe_k)
            accept = pending & ~reject & (lhs <= rhs)
            result = np.where(accept, safe_k.astype(np.int64), result)
            pending &= ~accept
    return np.where(bad, -1, result)


def binomial(k0, k1, i, n, p):
    """Inversion while n min(p, 1-p) < 10, Hörmann's BTRS above; -1 for bad n or p."""
    s = Stream(*_key_words(k0, k1, i))
    n = np.broadcast_to(np.asarray(n, np.float64), s.n.shape)
    p = np.broadcast_to(np.asarray(p, np.float64), s.n.shape)
    bad = ~((n >= 0) & (n < 2.0**53) & (np.floor(n) == n) & (p >= 0) & (p <= 1))
    n = np.where(bad, 0.0, n)
    p = np.where(bad, 0.0, p)
    flip = p > 0.5
    q_small = np.where(flip, 1.0 - p, p)  # the success probability actually drawn, <= 1/2
    q_large = 1.0 - q_small
    result = np.zeros(s.n.shape, np.int64)
    small = n * q_small < 10
    # Inversion: walk the probabilities up from k = 0.
    ratio = q_small / q_large
    step = (n + 1.0) * ratio
    first = rexp(n * rlog(np.where(q_large > 0, q_large, 1.0)))
    pending = small & (q_small > 0) & (n > 0)
    while pending.any():
        u = s.open_uniform(pending)
        prob = first
        k = np.zeros(s.n.shape)
        searching = pending.copy()
        while searching.any():
            hit = searching & (u < prob)
            result = np.where(hit, k.astype(np.int64), result)
            pending &= ~hit
            searching &= ~hit
            u = np.where(searching, u - prob, u)
            k = np.where(searching, k + 1.0, k)
            prob = np.where(searching, prob * (step / np.where(k > 0, k, 1.0) - ratio), prob)
            searching &= k <= n  # rounding left u above the last term: draw a new u
    # BTRS.
    big = ~small
    if big.any():
        nb = np.where(big, n, 100.0)
        pb = np.where(big, q_small, 0.5)
        qb = 1.0 - pb
        spq = np.sqrt(nb * pb * qb)
        b = spq * 2.53 + 1.15
        a = b * 0.0248 - 0.0873 + pb * 0.01
        c = nb * pb + 0.5
        vr = 0.92 - 4.2 / b
        alpha = (5.1 / b + 2.83) * spq
        lpq = rlog(pb / qb)
        m = np.floor((nb + 1.0) * pb)
        h = rlogfact(m) + rlogfact(nb - m)
        pending = big.copy()
        while pending.any():
            u0, v = s.uniform_pair(pending)
            u = u0 - 0.5
            us = 0.5 - np.abs(u)
            safe_us = np.where(us > 0, us, 0.5)
            k = np.floor(((a + a) / safe_us + b) * u + c)
            out = (k < 0) | (k > nb) | (us <= 0)
            quick = pending & ~out & (us >= 0.07) & (v <= vr)
            result = np.where(quick, k.astype(np.int64), result)
            pending &= ~quick
            safe_k = np.clip(k, 0.0, nb)
            safe_v = np.where(v > 0, v, 1.0)
            lhs = rlog(safe_v * alpha / (a / (safe_us * safe_us) + b))
            rhs = h - rlogfact(safe_k) - rlogfact(nb - safe_k) + (safe_k - m) * lpq
            accept = pending & ~out & (v > 0) & (lhs <= rhs)
            result = np.where(accept, safe_k.astype(np.int64), result)
            pending &= ~accept
    result = np.where(flip, n.astype(np.int64) - result, result)
    return np.where(bad, -1, result)


def _mulhi64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The high 64 bits of the 128-bit product of uint64 arrays, from 32-bit halves."""
    a_lo, a_hi, b_lo, b_hi = a & MASK32, a >> np.uint64(32), b & MASK32, b >> np.uint64(32)
    p0, p1, p2, p3 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
    middle = (p0 >> np.uint64(32)) + (p1 & MASK32) + (p2 & MASK32)
    return p3 + (p1 >> np.uint64(32)) + (p2 >> np.uint64(32)) + (middle >> np.uint64(32))


def integers(k0, k1, i, low, high):
    """Whole numbers in [low, high): Lemire's multiply-and-reject on the first 64 bits of a
    block (exact, no bias); -1 where the bounds are not whole numbers with low < high within
    2^53 (``wf.random.integers`` checks array bounds in the kernel instead: -1 may be a
    draw)."""
    s = Stream(*_key_words(k0, k1, i))
    low = np.broadcast_to(np.asarray(low, np.float64), s.n.shape)
    high = np.broadcast_to(np.asarray(high, np.float64), s.n.shape)
    bad = ~((low < high) & (np.abs(low) <= 2.0**53) & (np.abs(high) <= 2.0**53)
            & (np.floor(low) == low) & (np.floor(high) == high))
    low_i = np.where(bad, 0, low).astype(np.int64)
    span = (np.where(bad, 1, high).astype(np.int64) - low_i).astype(np.uint64)
    with np.errstate(over="ignore"):
        threshold = (np.uint64(0) - span) % span
        result = np.zeros(s.n.shape, np.int64)
        pending = ~bad
        while pending.any():
            w = s.words(pending)
            x = (w[0] << np.uint64(32)) | w[1]
            low_bits = x * span
            ok = pending & (low_bits >= threshold)
            result = np.where(ok, low_i + _mulhi64(x, span).astype(np.int64), result)
            pending &= ~ok
    return np.where(bad, -1, result)
