"""``cupyx.scipy.special`` made of weft: SciPy's name for each of weft's special functions.

A function weft does not have raises ``AttributeError`` (the test fails: a missing function
counts against weft).
"""

from __future__ import annotations

from typing import Any

import weft

# SciPy's names where weft's differ (SciPy's loggamma is not weft's lgamma: it is NaN for
# negative reals, lgamma the log of |Γ|).
_WEFT_NAMES = {"gamma": "tgamma", "psi": "digamma"}


def multigammaln(a: Any, d: int) -> Any:
    """SciPy's ``multigammaln(a, d)``: weft's ``lgamma(a, p=d)``."""
    return weft.lgamma(a, d)


def __getattr__(name: str) -> Any:
    try:
        return getattr(weft, _WEFT_NAMES.get(name, name))
    except AttributeError:
        raise AttributeError(
            f"weft has no {name!r} (cupyx.scipy.special.{name} in CuPy's tests)") from None
