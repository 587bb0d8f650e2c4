"""Errors a kernel reports through its error buffer, worded on the host."""

from __future__ import annotations

from typing import Any

import numpy as np

from .ir import ErrorInfo


def _position(shape: tuple[int, ...], row: int, col: int) -> str:
    if len(shape) == 2:
        return f"[{row}, {col}]"
    if len(shape) == 1:
        return f"[{col}]"
    return ""


def _value(bits: int, dtype: Any) -> Any:
    if dtype.name == "float32":
        return float(np.array([bits & 0xFFFFFFFF], dtype=np.uint32).view(np.float32)[0])
    if dtype.name == "float64":
        return float(np.array([bits], dtype=np.int64).view(np.float64)[0])
    if dtype.name == "bool":
        return bool(bits)
    return int(bits)


def kernel_error(info: ErrorInfo, record: np.ndarray) -> Exception:
    """The error that ``record`` ([flag, error, a, b, bits, ...]) describes."""
    a, b, bits = int(record[2]), int(record[3]), int(record[4])
    if info.kind == "index":
        shape = info.shape
        if len(shape) == 2:
            rows, cols = shape
            if not -rows <= a < rows:
                return IndexError(f"index {a} is out of bounds for axis 0 with size {rows}")
            return IndexError(f"index {b} is out of bounds for axis 1 with size {cols}")
        size = shape[0] if shape else 1
        return IndexError(f"index {b} is out of bounds for axis 0 with size {size}")
    index = _position(info.shape, a, b)
    value = _value(bits, info.dtype)
    message = info.message
    if "{index}" in message or "{value}" in message:
        # Only these two are filled in; any other brace is the message's own text.
        return ValueError(message.replace("{index}", index).replace("{value}", str(value)))
    return ValueError(f"{message}: element {index or '()'} = {value}")
