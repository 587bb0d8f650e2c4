"""NumPy's rules for a histogram's number of equal bins from the data (``bins="auto"``,
``"fd"``, ``"doane"``, ``"scott"``, ``"rice"``, ``"sturges"``, ``"sqrt"``, ``"stone"``): the
statistics a rule needs (extremes, standard deviation, skewness, quartiles) computed on the
device in one evaluation and read back, then NumPy's formula for the bin width on the host.
``"stone"`` scores every candidate count of bins: each candidate's bin edges are searched for
in the data sorted once on the device, which counts every candidate histogram at once.

>>> import weft as wf
>>> wf.histogram(wf.asarray([0.0, 1.0, 2.0, 3.0, 4.0, 10.0]), bins="sturges")[0].tolist()
[3, 2, 0, 1]
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .api import eval as evaluate
from .array import Array
from .creation import asarray
from .reductions import reduce, std
from .sorting import percentile

RULES = ("auto", "fd", "doane", "scott", "rice", "sturges", "sqrt", "stone")


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
    if rule not in RULES:
        raise ValueError(f"{name}: {rule!r} is not a valid estimator for `bins` (one of "
                         f"{', '.join(RULES)})")
    if given is not None:
        x = x[(x >= low) & (x <= high)]  # (a compaction: reads its size back)
    n = x.shape[0]
    if n == 0:
        return 1
    width = (_stone_width(x, n, low, high) if rule == "stone" else
             _width(rule, x, n, None if given is not None else extremes))
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


def _stone_width(x: Array, n: int, low: float, high: float) -> float:
    """NumPy's ``"stone"`` width: of 1 to ``max(100, sqrt(n))`` equal bins over [``low``,
    ``high``], the count minimizing the estimated integrated squared error
    ``(2 - (n + 1) * sum(p_k^2)) / h``, each candidate's proportions ``p_k`` counted as
    NumPy's histogram counts them (a bin holds its left edge, the last its right too). The
    data sorted once, every candidate's edges (in the type NumPy's edges take) are found in
    it by one search on the device; the scores are NumPy's arithmetic on the host."""
    from .searching import searchsorted
    from .sorting import sort

    values = sort(x)
    ends = values[np.array([0, n - 1])].to_numpy()
    ptp = np.subtract(ends[1], ends[0])
    if n <= 1 or ptp == 0:
        return 0.0
    upper = max(100, int(np.sqrt(n)))
    edge_type = np.result_type(low, high, x.dtype.numpy)
    if edge_type.kind in "iub":
        edge_type = np.result_type(edge_type, float)
    candidates = [np.linspace(low, high, k + 1, dtype=edge_type) for k in range(1, upper + 1)]
    found = searchsorted(values, asarray(np.concatenate(candidates), device=x.device),
                         side="left").to_numpy()
    scores = []
    at = 0
    for k in range(1, upper + 1):
        below = found[at:at + k + 1]  # elements under each edge
        at += k + 1
        counts = np.diff(below)
        counts[-1] = n - below[-2]  # the last bin holds its right edge
        p = counts / n
        scores.append((2 - (n + 1) * p.dot(p)) / (ptp / k))
    best = min(range(upper), key=scores.__getitem__) + 1
    if best == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning,
                      stacklevel=4)
    return ptp / best
