"""What is outside weft's scope for CuPy's tests: weft's dtypes, and the words of weft's
errors that say a case needs another dtype or more dimensions."""

from __future__ import annotations

import numpy
import pytest

WEFT_DTYPES = tuple(numpy.dtype(t) for t in (numpy.bool_, numpy.int32, numpy.int64,
                                             numpy.uint32, numpy.float32, numpy.float64))

# weft's own words when asked for something outside its scope (API.md: dtypes and ≤ 2-D).
_OUT_OF_SCOPE_WORDS = ("at most 2 dimensions", "at most 2 dims", "unsupported dtype",
                       "arrays: it holds bool", "weft array from complex")
_SKIPPED = pytest.skip.Exception


def in_weft(dtype: object) -> bool:
    """Whether weft holds arrays of ``dtype``."""
    try:
        return numpy.dtype(dtype) in WEFT_DTYPES
    except TypeError:
        return False


def outside_scope(error: BaseException) -> str | None:
    """The reason ``error`` (raised by weft) marks the case out of weft's scope, or None."""
    if isinstance(error, _SKIPPED):
        return str(error)
    text = str(error)
    for words in _OUT_OF_SCOPE_WORDS:
        if words in text:
            return f"outside weft's scope: {text}"
    return None

