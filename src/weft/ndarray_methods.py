"""NumPy's ``ndarray`` methods and attributes that weft's functions already compute, on
``wf.Array``: ``clip``, ``round``, ``dot``, ``trace``, ``diagonal``, ``squeeze``,
``swapaxes``, ``take``, ``fill``, ``conj``/``conjugate``, ``real``/``imag``, ``tobytes``,
``itemsize``, ``nbytes``, ``item`` with an index, and ``divmod``. Each is a thin alias with NumPy's
parameter names (the reductions, scans, sorts and ``nonzero`` attach theirs in their own
modules).

>>> import weft as wf
>>> wf.asarray([[1.0, -2.0], [3.0, 9.0]]).clip(0, 4).tolist()
[[1.0, 0.0], [3.0, 4.0]]
"""

from __future__ import annotations

from typing import Any

from .array import Array


def clip(self: Array, min: Any = None, max: Any = None) -> Array:  # noqa: A002 - NumPy's
    """``wf.clip(self, min, max)``, as ``ndarray.clip``."""
    import weft

    return weft.clip(self, min, max)


def round(self: Array, decimals: int = 0) -> Array:  # noqa: A001 - NumPy's name
    """``wf.round(self, decimals)``, as ``ndarray.round``."""
    import weft

    return weft.round(self, decimals)


def dot(self: Array, b: Any) -> Array:
    """``wf.linalg.dot(self, b)``, as ``ndarray.dot``."""
    from .linalg import dot as linalg_dot

    return linalg_dot(self, b)


def trace(self: Array, offset: int = 0) -> Array:
    """The sum of the diagonal ``offset`` of a matrix, as ``ndarray.trace``."""
    from .matrix import diagonal

    return diagonal(self, offset).sum()


def diagonal(self: Array, offset: int = 0) -> Array:
    """``wf.diagonal(self, offset)`` (a view), as ``ndarray.diagonal``."""
    from .matrix import diagonal as matrix_diagonal

    return matrix_diagonal(self, offset)


def squeeze(self: Array, axis: int | tuple[int, ...] | None = None) -> Array:
    """``self`` without its axes of length one (those in ``axis``), as ``ndarray.squeeze``."""
    if axis is None:
        axes = {a for a, n in enumerate(self.shape) if n == 1}
    else:
        axes = {int(a) % max(self.ndim, 1) for a in (axis if isinstance(axis, tuple)
                                                     else (axis,))}
        if any(a >= self.ndim or self.shape[a] != 1 for a in axes):
            raise ValueError(f"squeeze: cannot select an axis of {axis} that is not of "
                             f"length one in shape {self.shape}")
    return self.reshape(tuple(n for a, n in enumerate(self.shape) if a not in axes))


def swapaxes(self: Array, axis1: int, axis2: int) -> Array:
    """``self`` with two axes swapped (a transposed view), as ``ndarray.swapaxes``."""
    first, second = (int(a) % max(self.ndim, 1) for a in (axis1, axis2))
    return self if first == second else self.T


def take(self: Array, indices: Any, axis: int | None = None) -> Array:
    """The elements at ``indices`` of the flattened array, or along ``axis``, as
    ``ndarray.take``."""
    from .matrix import ravel

    if axis is None:
        return (self if self.ndim == 1 else ravel(self))[indices]
    if int(axis) % max(self.ndim, 1) == 0:
        return self[indices]
    return self[:, indices]


def fill(self: Array, value: Any) -> None:
    """Set every element to ``value`` in place, as ``ndarray.fill``."""
    self[...] = value


def conj(self: Array) -> Array:
    """A copy of ``self`` (weft's arrays are real), as ``ndarray.conj``."""
    return self.copy()


def tobytes(self: Array) -> bytes:
    """The elements' bytes in row-major order (a copy to the host), as ``ndarray.tobytes``."""
    return self.to_numpy().tobytes()


def item(self: Array, *index: Any) -> Any:
    """The element at ``index`` (a flat position, or one per axis; none for a
    one-element array) as a Python number, as ``ndarray.item``."""
    from .matrix import ravel

    if not index:
        return _read_one(self)
    if len(index) == 1 and self.ndim != 1:
        return _read_one(ravel(self)[index[0]])
    return _read_one(self[index])


def divmod_(self: Array, other: Any) -> tuple[Array, Array]:
    return self // other, self % other


def rdivmod(self: Array, other: Any) -> tuple[Array, Array]:
    return other // self, other % self


def _zeros_like(self: Array) -> Array:
    from .creation import zeros_like

    return zeros_like(self)


_read_one = Array.item  # the one-element read that item() with an index ends in
for _name, _method in (("clip", clip), ("round", round), ("dot", dot), ("trace", trace),
                       ("diagonal", diagonal), ("squeeze", squeeze), ("swapaxes", swapaxes),
                       ("take", take), ("fill", fill), ("conj", conj), ("conjugate", conj),
                       ("tobytes", tobytes), ("item", item), ("__divmod__", divmod_),
                       ("__rdivmod__", rdivmod)):
    setattr(Array, _name, _method)
Array.itemsize = property(lambda self: self.dtype.itemsize,  # type: ignore[attr-defined]
                          doc="Bytes per element, as ``ndarray.itemsize``.")
Array.real = property(lambda self: self,  # type: ignore[attr-defined]
                      doc="The real part: the array itself (weft's arrays are real).")
Array.imag = property(_zeros_like,  # type: ignore[attr-defined]
                      doc="The imaginary part: zeros of the array's shape and dtype.")
Array.nbytes = property(lambda self: self.size * self.dtype.itemsize,  # type: ignore
                        doc="Bytes of the elements, as ``ndarray.nbytes``.")
