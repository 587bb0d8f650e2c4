"""Where NumPy's quantile methods read a sorted slice whose count of values is an array (a
slice's numbers that are not NaN, for ``nanquantile``): the positions and the
interpolation weight computed on the device, element-wise, by the formulas
``sorting._virtual_index`` applies on the host to a known count.

>>> import weft as wf
>>> below, above, t = positions("linear", wf.asarray([5.0]), wf.asarray([0.3]))
>>> below.tolist(), above.tolist(), round(float(t[0]), 12)
([1], [2], 0.2)
"""

from __future__ import annotations

from .array import Array, apply_op
from .functions import where
from .sorting import _PLOTTING_POSITIONS, METHODS

# The methods that pick one of the values (their result keeps the values' type).
PICKING = ("lower", "higher", "nearest", "inverted_cdf", "closest_observation")


def _f(name: str, *args: object) -> Array:
    return apply_op(name, *args)


def positions(method: str, n: Array, q: Array) -> tuple[Array, Array, Array | None]:
    """The int64 positions below and above quantile ``q`` among ``n`` sorted values (both
    float64, broadcast together), and the weight of the one above (None for the methods that
    pick one value: then both positions are it). Clamped to [0, n - 1].

    >>> import weft as wf
    >>> low, high, t = positions("nearest", wf.asarray([5.0]), wf.asarray([0.6]))
    >>> low.tolist(), high.tolist(), t
    ([2], [2], None)
    """
    if method not in METHODS:
        raise ValueError(f"nanquantile: method must be one of {', '.join(METHODS)}, got "
                         f"{method!r}")
    last = _f("maximum", n - 1, 0)
    position = (n - 1) * q
    if method in ("lower", "higher", "nearest"):
        rounding = {"lower": "floor", "higher": "ceil", "nearest": "rint"}[method]
        return _picked(_f(rounding, position), last)  # rint: half to even, as NumPy's
    if method in ("inverted_cdf", "closest_observation"):
        at = n * q - 1 - (0.5 if method == "closest_observation" else 0.0)
        below = _f("floor", at)
        odd = _f("fmod", below, 2.0) != 0
        exact = (at == below) & (odd if method == "closest_observation" else True)
        return _picked(where(exact, below, below + 1), last)
    if method in ("linear", "midpoint"):
        pass
    elif method == "averaged_inverted_cdf":
        position = n * q - 1
    else:
        alpha, beta = _PLOTTING_POSITIONS[method]
        position = n * q + (alpha + q * (1 - alpha - beta)) - 1
    below = _f("floor", position)
    fraction = position - below
    if method == "midpoint":
        t = where(fraction == 0, 0.0, 0.5)
    elif method == "averaged_inverted_cdf":
        t = where(fraction == 0, 0.5, 1.0)
    else:
        t = fraction
    # Past either end (or NaN, for an empty slice): both the end.
    beyond = (position >= last) | (position != position)
    low = where(beyond, last, _f("maximum", below, 0))
    high = where(beyond, last, where(position < 0, 0, below + 1))
    return low.astype("int64"), high.astype("int64"), t


def _picked(index: Array, last: Array) -> tuple[Array, Array, None]:
    at = _f("minimum", _f("maximum", index, 0), last).astype("int64")
    return at, at, None


def lerp(a: Array, b: Array, t: Array) -> Array:
    """NumPy's interpolation between ``a`` and ``b``: from the nearer end, so t = 1 gives
    ``b`` exactly.

    >>> import weft as wf
    >>> lerp(wf.asarray([1.0]), wf.asarray([3.0]), wf.asarray([0.75])).tolist()
    [2.5]
    """
    difference = b - a
    return where(t < 0.5, a + difference * t, b - difference * (1 - t))
