"""NumPy's rules for a histogram's number of equal bins from the data (``bins="auto"``,
``"fd"``, ``"doane"``, ``"scott"``, ``"rice"``, ``"sturges"``, ``"sqrt"``): the statistics a
rule needs (extremes, standard deviation, skewness, quartiles) computed on the device in one
evaluation and read back, then NumPy's formula for the bin width on the host.

>>> import weft as wf
>>> wf.histogram(wf.asarray([0.0, 1.0, 2.0, 3.0, 4.0, 10.0]), bins="sturges")[0].tolist()
[3, 2, 0, 1]
"""

from __future__ import annotations

import math

import numpy as np

from .api import eval as evaluate
from .array import Array
from .reductions import reduce, std
from .sorting import percentile

RULES = ("auto", "fd", "doane", "scott", "rice", "sturges", "sqrt")


def bin_count(name: str, x: Array, rule: str, low: float, high: float,
              given: tuple[float, float] | None,
              extremes: tuple[float, float] | None = None) -> int:
    """How many equal bins NumPy's ``rule`` gives the 1-D ``x`` over [``low``, ``high``]
    (the data inside a ``given`` range only, as NumPy's); ``extremes``: ``x``'s smallest
    and largest elements where the caller has read them.

    >>> import weft as wf
    >>> bin_count("histogram", wf.asarray([0.0, 1.0, 2.0, 3.0]), "sqrt", 0.0, 3.0, None)
    2
    """
    if rule == "stone":
        raise NotImplementedError(f"{name}: bins='stone' (a histogram per candidate count); "
                                  f"weft has {', '.join(RULES)}")
    if rule not in RULES:
        raise ValueError(f"{name}: {rule!r} is not a valid estimator for `bins` (one of "
                         f"{', '.join(RULES)})")
    if given is not None:
        x = x[(x >= low) & (x <= high)]  # (a compaction: reads its size back)
    n = x.shape[0]
    if n == 0:
        return 1
    width = _width(rule, x, n, None if given is not None else extremes)
    if not width:  # zero for a constant sample, or fd's for a zero quartile range
        return 1
    if x.dtype.kind in "ui" and width < 1:
        width = 1.0
    return math.ceil((float(high) - float(low)) / width)


def _width(rule: str, x: Array, n: int, extremes: tuple[float, float] | None) -> float:
    wanted: dict[str, Array] = {}
    if extremes is None:
        wanted.update(low=reduce("min", x), high=reduce("max", x))
    if rule in ("scott", "doane"):
        wanted["sigma"] = std(x)
    if rule in ("fd", "auto"):
        wanted["quartiles"] = percentile(x, [75.0, 25.0])
    if wanted:
        evaluate(*wanted.values())
    low, high = extremes or (wanted["low"].item(), wanted["high"].item())
    ptp = float(high) - float(low)
    sturges = ptp / (math.log2(n) + 1.0)
    if rule == "sqrt":
        return ptp / math.sqrt(n)
    if rule == "sturges":
        return sturges
    if rule == "rice":
        return ptp / (2.0 * n ** (1.0 / 3))
    if rule == "scott":
        return (24.0 * math.pi ** 0.5 / n) ** (1.0 / 3.0) * float(wanted["sigma"].item())
    if rule == "doane":
        sigma = float(wanted["sigma"].item())
        if n <= 2 or not sigma > 0.0:
            return 0.0
        standard_skew = math.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
        skew = float(reduce("mean", ((x - reduce("mean", x)) / sigma) ** 3).item())
        return ptp / (1.0 + math.log2(n) + math.log2(1.0 + abs(skew) / standard_skew))
    upper, lower = (float(q) for q in np.asarray(wanted["quartiles"].to_numpy()))
    fd = 2.0 * (upper - lower) * n ** (-1.0 / 3.0)
    if rule == "fd":
        return fd
    return min(max(fd, ptp / math.sqrt(n) / 2), sturges)  # auto
