"""NumPy's window functions (``bartlett``, ``blackman``, ``hamming``, ``hanning``,
``kaiser``): float64 arrays of ``M`` points made on the current device by one fused kernel
each.
"""

from __future__ import annotations

import math
import operator
from typing import Any

from . import dtypes as dt
from .array import Array, apply_op
from .creation import arange, ones, zeros


def _points(m: Any, name: str) -> tuple[int, Array | None]:
    """``M`` as an int, and the symmetric positions 1-M, 3-M, ..., M-1 over M-1 (None where
    NumPy's answer is empty or [1])."""
    try:
        m = operator.index(m)
    except TypeError:
        raise TypeError(f"{name}: M must be an integer, not {m!r}") from None
    if m <= 1:
        return m, None
    return m, arange(1 - m, m, 2, dtype=dt.float64) / (m - 1)


def _trivial(m: int) -> Array:
    return ones((1,), dtype=dt.float64) if m == 1 else zeros((0,), dtype=dt.float64)


def _cosine_sum(m: Any, name: str, *terms: float) -> Array:
    """Σ_k terms[k] cos(k π x) over the symmetric positions x."""
    m, x = _points(m, name)
    if x is None:
        return _trivial(m)
    out = terms[0] + terms[1] * apply_op("cos", x * math.pi)
    for k, coefficient in enumerate(terms[2:], start=2):
        out = out + coefficient * apply_op("cos", x * (k * math.pi))
    return out


def bartlett(M: Any) -> Array:  # noqa: N803 (NumPy's name)
    """The Bartlett (triangular) window of ``M`` points.

    >>> import weft as wf
    >>> wf.bartlett(5).tolist()
    [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    m, x = _points(M, "bartlett")
    if x is None:
        return _trivial(m)
    return 1 - apply_op("abs", x)


def blackman(M: Any) -> Array:  # noqa: N803 (NumPy's name)
    """The Blackman window of ``M`` points.

    >>> import weft as wf
    >>> [abs(round(v, 6)) for v in wf.blackman(3).tolist()]
    [0.0, 1.0, 0.0]
    """
    return _cosine_sum(M, "blackman", 0.42, 0.5, 0.08)


def hamming(M: Any) -> Array:  # noqa: N803 (NumPy's name)
    """The Hamming window of ``M`` points.

    >>> import weft as wf
    >>> [round(v, 6) for v in wf.hamming(3).tolist()]
    [0.08, 1.0, 0.08]
    """
    return _cosine_sum(M, "hamming", 0.54, 0.46)


def hanning(M: Any) -> Array:  # noqa: N803 (NumPy's name)
    """The Hann window of ``M`` points.

    >>> import weft as wf
    >>> [round(v, 6) for v in wf.hanning(3).tolist()]
    [0.0, 1.0, 0.0]
    """
    return _cosine_sum(M, "hanning", 0.5, 0.5)


def kaiser(M: Any, beta: float) -> Array:  # noqa: N803 (NumPy's name)
    """The Kaiser window of ``M`` points with shape ``beta``:
    ``I0(beta * sqrt(1 - x²)) / I0(beta)`` over the symmetric positions x.

    >>> import weft as wf
    >>> [round(v, 6) for v in wf.kaiser(3, 5.0).tolist()]
    [0.036711, 1.0, 0.036711]
    """
    from .bessel_i01 import i0

    m, x = _points(M, "kaiser")
    if x is None:
        return _trivial(m)
    inside = apply_op("sqrt", apply_op("fmax", 1 - x * x, 0.0))
    return i0(inside * float(beta)) / i0(float(beta))


__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]
