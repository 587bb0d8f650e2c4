"""Weighted means, covariances and correlations as NumPy's ``average``, ``cov`` and
``corrcoef``: lazy, on the device, built on weft's reductions and ``@``.

>>> import weft as wf
>>> x = wf.asarray([[1.0, 2.0, 4.0], [2.0, 1.0, 0.0]])
>>> [round(v, 6) for v in wf.corrcoef(x).ravel().tolist()]
[1.0, -0.981981, -0.981981, 1.0]
"""

from __future__ import annotations

from typing import Any

from . import dtypes as dt
from .array import Array, apply_op
from .creation import asarray, broadcast_to, full_like
from .functions import clip, where
from .indexing import checked_axis
from .matrix import check
from .reductions import reduce

__all__ = ["average", "cov", "corrcoef"]


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray(x)


def _real(x: Array, *others: Array) -> dt.DType:
    """NumPy's result type of the operands and a float: the default real for integers."""
    return dt.real_of(dt.resolve([x.dtype, *(o.dtype for o in others)], []))


def average(a: Any, axis: int | None = None, weights: Any = None, returned: bool = False,
            *, keepdims: bool = False) -> Any:
    """The weighted mean along ``axis``, as NumPy's ``average``: ``sum(a * w) / sum(w)``,
    ``weights`` of ``a``'s shape or, with ``axis``, 1-D along it. ``returned``: also the
    sum of the weights (the count without weights), broadcast to the mean's shape. Weights
    that sum to zero raise ``ValueError`` on reading (NumPy: ``ZeroDivisionError``).

    >>> import weft as wf
    >>> wf.average(wf.asarray([1.0, 2.0, 4.0]), weights=wf.asarray([3.0, 1.0, 0.0])).item()
    1.25
    """
    x = _array(a)
    if axis is not None:
        axis = checked_axis("average", axis, x.ndim)
    if weights is None:
        real = _real(x)
        mean = reduce("mean", x.astype(real), axis, keepdims)
        count = x.size if axis is None else x.shape[axis]
        return (mean, full_like(mean, count)) if returned else mean
    w = _array(weights)
    real = _real(x, w)
    if w.shape != x.shape:
        if axis is None:
            raise TypeError(f"average: weights of shape {w.shape} differ from a's shape "
                            f"{x.shape}: give axis")
        if w.ndim != 1 or w.shape[0] != x.shape[axis]:
            raise ValueError(f"average: weights must be 1-D of length {x.shape[axis]} "
                             f"(a's axis {axis}) or of a's shape {x.shape}, got {w.shape}")
        if x.ndim == 2:
            w = w.reshape((w.size, 1) if axis == 0 else (1, w.size))
    xr, wr = x.astype(real), w.astype(real)
    total = reduce("sum", broadcast_to(wr, x.shape), axis, keepdims)
    total = check(total, total != 0, "average: weights sum to zero, can't be normalized "
                                     "(at {index})")
    mean = reduce("sum", xr * wr, axis, keepdims) / total
    return (mean, total) if returned else mean


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False,
        ddof: int | None = None, fweights: Any = None, aweights: Any = None, *,
        dtype: Any = None) -> Array:
    """The covariance matrix of the variables in ``m`` (rows, or columns if not
    ``rowvar``; ``y`` adds variables), as NumPy's ``cov``: deviations from the (weighted)
    means, ``X @ X.T`` over ``N - ddof`` (``ddof`` 1 unless ``bias``), with NumPy's
    treatment of frequency (``fweights``) and reliability (``aweights``) weights; in
    float64 unless ``dtype`` says otherwise, as NumPy. One variable gives a 0-d array.

    >>> import weft as wf
    >>> round(wf.cov(wf.asarray([1.0, 2.0, 4.0])).item(), 12)
    2.333333333333
    """
    x = _array(m)
    if x.ndim > 2:
        raise ValueError(f"cov: m must have at most 2 dimensions, got shape {x.shape}")
    # NumPy computes covariances in float64 whatever the input (float32 included).
    real = dt.to_dtype(dtype) if dtype is not None else dt.float64
    variables = x.astype(real).reshape((1, x.size)) if x.ndim < 2 else x.astype(real)
    if not rowvar and variables.shape[0] != 1:
        variables = variables.T
    if y is not None:
        more = _array(y)
        if more.ndim > 2:
            raise ValueError(f"cov: y must have at most 2 dimensions, got shape {more.shape}")
        more = more.astype(real).reshape((1, more.size)) if more.ndim < 2 else more.astype(
            real)
        if not rowvar and more.shape[0] != 1:
            more = more.T
        if more.shape[1] != variables.shape[1]:
            raise ValueError(f"cov: m and y must have as many observations, got "
                             f"{variables.shape[1]} and {more.shape[1]}")
        from .matrix import concatenate

        variables = concatenate([variables, more], axis=0)
    if ddof is not None and ddof != int(ddof):
        raise ValueError(f"cov: ddof must be an integer, got {ddof!r}")
    ddof = (0 if bias else 1) if ddof is None else int(ddof)
    n = variables.shape[1]
    weight = None
    for name, given in (("fweights", fweights), ("aweights", aweights)):
        if given is None:
            continue
        w = _array(given)
        if w.ndim != 1 or w.shape[0] != n:
            raise ValueError(f"cov: {name} must be 1-D of length {n} (the observations), "
                             f"got shape {w.shape}")
        if name == "fweights" and w.dtype.kind not in "iub":
            raise TypeError(f"cov: fweights must be integers, not {w.dtype}")
        w = check(w.astype(real), w >= 0, f"cov: {name} cannot be negative ({{index}})")
        weight = w if weight is None else weight * w
    if weight is None:
        deviations = variables - reduce("mean", variables, 1, True)
        factor: Any = float(max(n - ddof, 0))
        weighted = deviations
    else:
        total = reduce("sum", weight, None, False)
        means = reduce("sum", variables * weight.reshape(1, n), 1, True) / total
        deviations = variables - means
        weighted = deviations * weight.reshape(1, n)
        if ddof == 0:
            factor = total
        elif aweights is None:
            factor = total - ddof
        else:
            factor = total - ddof * reduce("sum", weight * _array(aweights).astype(real),
                                           None, False) / total
        factor = where(factor > 0, factor, 0.0)
    from .linalg import matmul

    covariance = matmul(deviations, weighted.T) / factor
    return covariance.reshape(()) if covariance.shape == (1, 1) else covariance


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> Array:
    """The correlation coefficients of the variables (as ``cov``'s), as NumPy's
    ``corrcoef``: the covariances over the products of the standard deviations, clipped to
    [-1, 1].

    >>> import weft as wf
    >>> c = wf.corrcoef(wf.asarray([1.0, 2.0, 4.0]), wf.asarray([2.0, 4.0, 8.0]))
    >>> [round(v, 12) for v in c.ravel().tolist()]
    [1.0, 1.0, 1.0, 1.0]
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c  # NumPy's: 1, or NaN for a constant variable
    from .matrix import diagonal

    deviation = apply_op("sqrt", diagonal(c))
    c = c / deviation.reshape(deviation.size, 1) / deviation.reshape(1, deviation.size)
    return clip(c, -1.0, 1.0)

