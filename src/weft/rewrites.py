"""Operations rewritten when they are built, because a constant operand decides what they
compute: ``x ** c`` for a few constants ``c``, and comparisons with a Python int beyond the
other operand's integer type. ``array.apply_op`` asks here first.

>>> import weft as wf
>>> (wf.asarray([1.5, 2.0]) ** 2).tolist()
[2.25, 4.0]
>>> (wf.asarray([1, 2], dtype=wf.int32) < 2**40).tolist()
[True, True]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import expr as ex
from .dtypes import DType

if TYPE_CHECKING:
    from .array import Array
    from .devices import Device

# x ** c for a constant c, as the operations NumPy's ``**`` itself takes for it (2: square,
# 0.5: sqrt, -1: reciprocal, 1: a copy: the same results) or cheaper ones (3, 4 by
# multiplying, within 2 ulps of pow). A run-time pow cost PoCL 70 times a multiply. The
# exponent then becomes structure: it decides the operations, so it is part of the
# expression's key. Any other exponent stays a kernel argument of pow. (-0.5 stays pow:
# rsqrt differs from it at -0 and -inf, where NumPy keeps pow's answers.)
REDUCED_POWERS = {2: ("square",), 3: ("square", "times_base"), 4: ("square", "square"),
                  1: (), 0.5: ("sqrt",), -1: ("reciprocal",)}


def power_by_constant(base: Any, exponent: Any, compute: DType, device: Device
                      ) -> Array | None:
    """``base ** exponent`` computed in ``compute`` without pow, or None where pow stays."""
    value = exponent.item() if isinstance(exponent, np.generic) else exponent
    if isinstance(value, bool) or value not in REDUCED_POWERS:
        return None
    if not compute.is_float and (value < 0 or value == 0.5):
        return None  # integer powers below 1 are NumPy's business (it raises or truncates)
    from .array import Array, apply_op

    x = Array(ex.cast(base._node, compute) if isinstance(base, Array)
              else ex.scalar(base.item() if isinstance(base, np.generic) else base, compute),
              device)
    out = x.copy()
    for step in REDUCED_POWERS[value]:
        if step == "square":
            out = apply_op("square", out)
        elif step == "times_base":
            out = apply_op("multiply", out, x)
        elif step == "reciprocal":
            out = apply_op("divide", 1, out)
        else:
            out = apply_op(step, out)
    return out


# A comparison with a Python int beyond the other operand's integer type, which NumPy 2
# answers exactly: the same comparison against the type's nearest bound, with the operator
# that answers alike for every value of the type. Keyed by (op with the int on the right,
# whether the int lies above the type's range).
COMPARISONS = {"less", "less_equal", "greater", "greater_equal", "equal", "not_equal"}
_AGAINST_BOUND = {
    ("less", True): "less_equal", ("less_equal", True): "less_equal",
    ("greater", True): "greater", ("greater_equal", True): "greater",
    ("equal", True): "greater", ("not_equal", True): "less_equal",
    ("less", False): "less", ("less_equal", False): "less",
    ("greater", False): "greater_equal", ("greater_equal", False): "greater_equal",
    ("equal", False): "less", ("not_equal", False): "greater_equal",
}
_MIRRORED = {"less": "greater", "less_equal": "greater_equal", "greater": "less",
             "greater_equal": "less_equal", "equal": "equal", "not_equal": "not_equal"}


def compare_beyond_range(name: str, operands: list[Any], position: int, dtype: DType
                         ) -> Array:
    """Comparison ``name`` of ``operands``, whose int at ``position`` lies beyond ``dtype``."""
    from .array import apply_op

    value = operands[position]
    other = operands[1 - position]
    if position == 0:
        name = _MIRRORED[name]
    above = value > 0
    info = np.iinfo(dtype.numpy)
    bound = int(info.max) if above else int(info.min)
    return apply_op(_AGAINST_BOUND[name, above], other, bound, dtype=dtype)
