"""NumPy references of the op table's special functions (ops.py): SciPy's, computed in
float64 and rounded once, and those SciPy lacks (Stan's log1m_exp, log_diff_exp, lchoose).
SciPy is imported only when a reference is computed: the reference device and the tests."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np


def scipy_reference(name: str, *fixed: float) -> Callable[..., np.ndarray]:
    """SciPy's ``name`` (after the ``fixed`` leading arguments) in float64, rounded once to
    the arguments' dtype."""
    def reference(*args: np.ndarray) -> np.ndarray:
        from scipy import special

        # SciPy's float32 loops of some functions (betainc) are far less accurate than its
        # float64 ones: compute in float64 and round once, as a float32 result should be.
        dtype = np.result_type(*args)
        wide = [np.asarray(a, dtype=np.float64) for a in args]
        # (SciPy's expn warns that it truncates a real n, as weft's does.)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            result = getattr(special, name)(*fixed, *wide)
        return np.asarray(result).astype(dtype, copy=False) if dtype.kind == "f" else result

    reference.__name__ = name
    return reference


def sici_part(k: int) -> Callable[[np.ndarray], np.ndarray]:
    """SciPy's ``sici(x)[k]``: Si for 0, Ci for 1."""
    both = scipy_reference("sici")

    def reference(x: np.ndarray) -> np.ndarray:
        return both(x)[k]

    reference.__name__ = ("si", "ci")[k]
    return reference


def log1m_exp(x: np.ndarray) -> np.ndarray:
    """log(1 - e^x), NaN above 0 (Stan's log1m_exp)."""
    with np.errstate(all="ignore"):
        near = np.log(-np.expm1(x))
        far = np.log1p(-np.exp(x))
    return np.where(x > 0, np.nan, np.where(x > -np.log(2), near, far)).astype(x.dtype)


def log_diff_exp(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log(e^a - e^b) (Stan's log_diff_exp): -inf where a == b, NaN where b > a."""
    with np.errstate(all="ignore"):
        value = a + log1m_exp(np.where(b == a, -1.0, b - a).astype(a.dtype))
    value = np.where((b == -np.inf) | (a == np.inf), a, value)
    equal = np.where(a < np.inf, -np.inf, np.nan)  # e^inf - e^inf is undefined
    value = np.where(a == b, equal, np.where(b > a, np.nan, value))
    return np.where(np.isnan(a) | np.isnan(b), np.nan, value).astype(a.dtype)


def lchoose(n: np.ndarray, k: np.ndarray) -> np.ndarray:
    """log of the binomial coefficient (Stan's lchoose) through SciPy's gammaln."""
    from scipy import special

    with np.errstate(all="ignore"):
        value = special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)
    value = np.where((n < -1) | (k < -1) | (k > n + 1), np.nan, value)
    return np.where((k == 0) | (k == n), 0, value).astype(n.dtype)
