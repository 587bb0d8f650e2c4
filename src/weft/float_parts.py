"""NumPy's functions that take a float apart or round it toward zero: ``modf`` (fraction
and whole), ``frexp`` (mantissa and power of two) and ``fix``, lazy and fused.

>>> import weft as wf
>>> mantissa, exponent = wf.frexp(wf.asarray([8.0, 0.3]))
>>> mantissa.tolist(), exponent.tolist()
([0.5, 0.6], [4, -1])
"""

from __future__ import annotations

from typing import Any

from . import dtypes as dt
from .array import Array, apply_op
from .creation import asarray

__all__ = ["modf", "frexp", "fix"]


def modf(x: Any) -> tuple[Array, Array]:
    """The fractional and integral parts, each with ``x``'s sign (NumPy's ``modf``; ±∞ has
    fractional part ±0).

    >>> import weft as wf
    >>> [p.tolist() for p in wf.modf(wf.asarray([1.5, -2.25]))]
    [[0.5, -0.25], [1.0, -2.0]]
    """
    x = asarray(x)
    real = dt.real_of(x.dtype)
    whole = apply_op("trunc", x, dtype=real)
    fraction = apply_op("where", apply_op("isinf", x), 0, apply_op("subtract", x, whole,
                                                                    dtype=real), dtype=real)
    fraction = apply_op("copysign", fraction, x, dtype=real)
    return fraction, whole


def frexp(x: Any) -> tuple[Array, Array]:
    """The mantissa in [0.5, 1) in magnitude and the int32 power of two, ``x = m * 2**e``
    (NumPy's ``frexp``): ``(x, 0)`` at 0, ±∞ and NaN; exact for subnormals.

    >>> import weft as wf
    >>> [p.tolist() for p in wf.frexp(wf.asarray([-3.0, 0.0]))]
    [[-0.75, 0.0], [2, 0]]
    """
    x = asarray(x)
    real = dt.real_of(x.dtype)
    ordinary = apply_op("logical_and", apply_op("isfinite", x), apply_op("not_equal", x, 0))
    safe = apply_op("where", ordinary, x, 1.0, dtype=real)
    # log2 may round across a power of two: one step either way puts |m| in [0.5, 1).
    guess = apply_op("add", apply_op("floor", apply_op("log2", apply_op("abs", safe))), 1.0)
    exponent = guess.astype(dt.int32)
    mantissa = apply_op("ldexp", safe, apply_op("negative", exponent))
    size = apply_op("abs", mantissa)
    high, low = apply_op("greater_equal", size, 1.0), apply_op("less", size, 0.5)
    mantissa = apply_op("where", high, apply_op("multiply", mantissa, 0.5, dtype=real),
                        apply_op("where", low, apply_op("multiply", mantissa, 2.0, dtype=real),
                                 mantissa, dtype=real), dtype=real)
    exponent = apply_op("add", exponent, apply_op("subtract", high.astype(dt.int32),
                                                  low.astype(dt.int32)), dtype=dt.int32)
    return (apply_op("where", ordinary, mantissa, x, dtype=real),
            apply_op("where", ordinary, exponent, 0, dtype=dt.int32))


def fix(x: Any) -> Array:
    """Round toward zero, keeping the dtype (NumPy's ``fix``: ``trunc`` for floats, a copy
    for integers and booleans).

    >>> import weft as wf
    >>> wf.fix(wf.asarray([-1.5, 2.5, 0.4])).tolist()
    [-1.0, 2.0, 0.0]
    """
    x = asarray(x)
    if x.dtype.kind == "b":
        return apply_op("logical_or", x, False)
    return apply_op("trunc", x)
