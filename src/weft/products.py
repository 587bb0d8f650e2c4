"""NumPy's Kronecker and cross products, lazy: ``kron`` as a repeated array times a tiled
one (views and gathers, one fused kernel), ``cross`` of 3-vectors from their components.

>>> import weft as wf
>>> wf.kron(wf.asarray([1.0, 2.0]), wf.asarray([1.0, 10.0])).tolist()
[1.0, 10.0, 2.0, 20.0]
"""

from __future__ import annotations

from typing import Any

from .array import Array
from .creation import asarray
from .matrix import stack
from .rearrange import repeat, tile

__all__ = ["kron", "cross"]


def _array(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray(x)


def kron(a: Any, b: Any) -> Array:
    """The Kronecker product, as NumPy's ``kron``: each element of ``a`` times the whole of
    ``b``, in blocks (operands of up to 2 dimensions; a 1-D one with a matrix as a row).

    >>> import weft as wf
    >>> wf.kron(wf.eye(2), wf.asarray([[1.0, 2.0]])).tolist()
    [[1.0, 2.0, 0.0, 0.0], [0.0, 0.0, 1.0, 2.0]]
    """
    x, y = _array(a), _array(b)
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    if x.ndim == 1 and y.ndim == 1:
        return repeat(x, y.size) * tile(y, x.size)
    x = x.reshape(1, x.size) if x.ndim == 1 else x
    y = y.reshape(1, y.size) if y.ndim == 1 else y
    (m, n), (p, q) = x.shape, y.shape
    return repeat(repeat(x, p, axis=0), q, axis=1) * tile(y, (m, n))


def cross(a: Any, b: Any, axis: int = -1) -> Array:
    """The cross product of 3-vectors along the last axis, as NumPy's ``cross``; vectors
    broadcast against each other (2-vectors raise ``ValueError``, as NumPy from 2.x).

    >>> import weft as wf
    >>> wf.cross(wf.asarray([1.0, 0.0, 0.0]), wf.asarray([0.0, 1.0, 0.0])).tolist()
    [0.0, 0.0, 1.0]
    """
    x, y = _array(a), _array(b)
    if x.ndim > 2 or y.ndim > 2:
        raise ValueError("cross: weft arrays have at most 2 dimensions")
    if axis not in (-1, x.ndim - 1) or axis not in (-1, y.ndim - 1):
        raise NotImplementedError("cross: vectors along the last axis only (NumPy's default)")
    sizes = (x.shape[-1] if x.ndim else 0, y.shape[-1] if y.ndim else 0)
    if sizes != (3, 3):
        raise ValueError(f"cross: both input arrays must be (arrays of) 3-dimensional "
                         f"vectors, but they are {sizes[0]} and {sizes[1]} dimensional")
    x0, x1, x2 = (x[..., k] for k in range(3))
    y0, y1, y2 = (y[..., k] for k in range(3))
    return stack([x1 * y2 - x2 * y1, x2 * y0 - x0 * y2, x0 * y1 - x1 * y0], axis=-1)
