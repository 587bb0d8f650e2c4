"""Source text helpers shared by the renderers: C literals and indentation."""

from __future__ import annotations

import numpy as np

from ..dtypes import DType
from ..ir import (
    ERROR_BUFFER,
    ERROR_OFFSET,
)

# A checked launch's error record: its place in the shared error buffer.
ERROR_RECORD = f"({ERROR_BUFFER} + {ERROR_OFFSET})"


def c_literal(value: float | int | bool, dtype: DType) -> str:
    """``value`` as a C constant of ``dtype`` (infinities included)."""
    if dtype.name == "bool":
        return "true" if value else "false"
    if dtype.is_float:
        if np.isinf(value):
            return "INFINITY" if value > 0 else "-INFINITY"
        if np.isnan(value):
            return "NAN"
        text = repr(float(value))
        return text + ("f" if dtype.name == "float32" else "")
    value = int(value)
    if dtype.name == "int64" and value == np.iinfo(np.int64).min:
        return "(-9223372036854775807L - 1)"
    suffix = {"int64": "L", "uint32": "u"}.get(dtype.name, "")
    return f"{value}{suffix}"


def dedent(text: str, levels: int = 1) -> str:
    """``text`` with ``levels`` indentation steps fewer on every line that has them."""
    pad = "    " * levels
    return "".join(line[len(pad):] if line.startswith(pad) else line
                   for line in text.splitlines(keepends=True))


def indent(text: str, levels: int = 1) -> str:
    pad = "    " * levels
    return "".join(pad + line if line.strip() else line
                   for line in text.splitlines(keepends=True))
