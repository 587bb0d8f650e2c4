"""Writes references.json: reference values computed once with mpmath at 50+ digits, for the
hard domains of weft's special functions and densities (near poles and roots, tails, large
parameters), where SciPy itself is not exact enough to judge by.

Run from the repository root: ``python tests/api/data/make_references.py`` (needs mpmath). Each
entry is ``[arguments..., value]`` with every number written by ``repr`` of a float64.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import mpmath as mp


def _digits_for(*values: float) -> int:
    """Enough digits that nu + 1 and the like are exact for the largest argument."""
    big = max((abs(v) for v in values if math.isfinite(v)), default=1.0)
    return 50 + max(0, int(math.log10(big))) if big > 1 else 50


def student_t(y: float, nu: float, mu: float, sigma: float) -> float:
    with mp.workdps(_digits_for(y, nu, mu, sigma)):
        y_, mu_, s = mp.mpf(y), mp.mpf(mu), mp.mpf(sigma)
        z = (y_ - mu_) / s
        if nu == math.inf:
            return float(-mp.log(s) - mp.log(2 * mp.pi) / 2 - z * z / 2)
        n = mp.mpf(nu)
        return float(mp.loggamma((n + 1) / 2) - mp.loggamma(n / 2) - mp.log(n * mp.pi) / 2
                     - mp.log(s) - (n + 1) / 2 * mp.log1p(z * z / n))


def lchoose(n: float, k: float) -> float:
    # digits enough that n - k + 1 keeps k: the three terms cancel to about k's size
    with mp.workdps(60 + max(0, -int(math.log10(k)))):
        n_, k_ = mp.mpf(n), mp.mpf(k)
        return float(mp.loggamma(n_ + 1) - mp.loggamma(k_ + 1) - mp.loggamma(n_ - k_ + 1))


def ndtri(p: float) -> float:
    with mp.workdps(80):
        q = mp.mpf(p)
        upper = q > 0.5
        tail = 1 - q if upper else q  # the smaller tail, exactly
        # Newton on log Phi(x) = log(tail) from the tail's asymptotic start.
        x = -mp.sqrt(-2 * mp.log(tail)) if tail < 0.3 else mp.mpf(0)
        x = mp.findroot(lambda t: mp.log(mp.ncdf(t)) - mp.log(tail), x)
        return float(-x if upper else x)


def betainc(a: float, b: float, x: float) -> float:
    with mp.workdps(60):
        return float(mp.betainc(mp.mpf(a), mp.mpf(b), 0, mp.mpf(x), regularized=True))


def _near_mean(a: float, b: float, deviations: float) -> float:
    mean = a / (a + b)
    spread = math.sqrt(mean * (1 - mean) / (a + b + 1))
    return min(max(mean + deviations * spread, 1e-300), 1 - 1e-16)


def main() -> None:
    references: dict[str, list[list[float]]] = {}
    references["student_t_lpdf"] = [
        [y, nu, 0.0, 1.0, student_t(y, nu, 0.0, 1.0)]
        for nu in (0.1, 1.0, 3.0, 10.0, 39.9, 40.0, 40.1, 100.0, 1e3, 1e5, 1e10, 1e15, 1e20,
                   1e100, 1e300, math.inf)
        for y in (0.0, 0.5, 3.0, 30.0)]
    references["lchoose"] = [
        [n, k, lchoose(n, k)]
        for n in (0.5, 1.0, 3.0, 20.0, 150.0, 1e4)
        for k in (1e-300, 1e-20, 1e-12, 1e-8, 1e-5, 1e-3)]
    references["ndtri"] = [
        [p, ndtri(p)]
        for p in (5e-324, 1e-320, 1e-310, 2.2250738585072014e-308, 1e-300, 1e-100, 1e-20,
                  1e-10, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-10, 1 - 1e-16)]
    # x from the lower tail to just past the mean a / (a + b), in standard deviations
    references["betainc"] = [
        [a, b, x, betainc(a, b, x)]
        for a, b in ((1e5, 10.0), (1e5, 1.0), (1e4, 10.0), (10.0, 1e5), (5e4, 50.0),
                     (1e3, 3.0), (7e4, 0.015), (2e3, 0.016), (1e5, 0.5), (50.0, 150.0),
                     (5e5, 83.0), (20.0, 199.5))
        for x in [_near_mean(a, b, t) for t in (-8.0, -4.0, -2.0, -1.0, 0.0, 0.5)]]
    path = Path(__file__).with_name("references.json")
    path.write_text(json.dumps(references, indent=0) + "\n")


if __name__ == "__main__":
    main()
