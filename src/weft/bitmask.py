"""Bit masks, RoughPy's convention: element ``g`` is bit ``g % 32`` of uint32 word ``g // 32``,
lowest bit first, and the bits past the last element are zero.

A mask is read inside the kernel that uses it: ``wf.where(mask, x, y)`` and
``wf.assign(dst, expr, mask=mask)`` test each element's bit in the fused kernel (a gather of
its word, a shift and an and), with no pass that unpacks the mask first. Packing
(``wf.bitmask``) runs on the device too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from .array import Array, apply_op
from .creation import asarray, flat_position, zeros

__all__ = ["BitMask", "bitmask"]

BITS = 32


class BitMask:
    """A mask of ``length`` elements packed into uint32 ``words``.

    >>> import weft as wf
    >>> m = wf.BitMask(wf.asarray([0b101], dtype=wf.uint32), 3)
    >>> m.to_bools().tolist(), len(m)
    ([True, False, True], 3)
    """

    def __init__(self, words: Any, length: int) -> None:
        if isinstance(length, bool) or not isinstance(length, (int, np.integer)) or length < 0:
            raise ValueError(f"BitMask: length must be a non-negative integer, not {length!r}")
        words = (words if isinstance(words, Array) else asarray(words, dtype=dt.uint32)).eval()
        if words.dtype is not dt.uint32:
            raise TypeError(f"BitMask: words must be uint32, not {words.dtype}")
        if words.ndim != 1:
            raise ValueError(f"BitMask: words must be 1-d, not shape {words.shape}")
        need = -(-int(length) // BITS)
        if words.size != need:
            raise ValueError(f"BitMask: {length} elements need {need} words, got {words.size}")
        used = int(length) % BITS
        if used and int(words[need - 1].item()) >> used:
            raise ValueError(f"BitMask: bits past element {length - 1} are set in the last word "
                             f"(0x{int(words[need - 1].item()):08x}); they must be zero, or a "
                             "masked kernel would write past the end")
        self._words = words
        self._length = int(length)

    @property
    def words(self) -> Array:
        """The packed words, a ``wf.uint32`` Array."""
        return self._words

    def __len__(self) -> int:
        return self._length

    def __repr__(self) -> str:
        return f"wf.BitMask({self._length} elements, {self._words.size} words)"

    def to_bools(self) -> Array:
        """The mask as a lazy bool Array (unpacked inside whatever kernel reads it).

        >>> import weft as wf
        >>> wf.bitmask([True, False]).to_bools().tolist()
        [True, False]
        """
        return self.selected((self._length,), "to_bools")

    def selected(self, shape: tuple[int, ...], name: str) -> Array:
        """Each element's bit, as a lazy bool Array of ``shape`` (row-major positions)."""
        size = int(np.prod(shape)) if shape else 1
        if size != self._length:
            raise ValueError(f"{name}: a mask of {self._length} elements does not fit shape "
                             f"{shape} ({size} elements)")
        device = self._words.device
        grid = shape if shape else (1,)
        position = flat_position(grid, device)
        # The word's index is below len(words) for every element: a trusted gather.
        word_index = apply_op("mask_word", position)
        word = Array(ex.gather(self._words._node, (word_index._node,),
                               ex.Gather((0, 0, 0), "array", trusted=True), grid), device)
        out = apply_op("mask_bit", word, position.astype(dt.uint32))
        return out[0] if not shape else out


def bitmask(bools: Any) -> BitMask:
    """Pack a bool array (flattened row-major) into a ``BitMask``, on its device.

    >>> import weft as wf
    >>> wf.bitmask([True, False, True]).words.tolist()
    [5]
    """
    b = bools if isinstance(bools, Array) else asarray(bools)
    if b.dtype is not dt.bool_:
        raise TypeError(f"bitmask: expected a bool array, not {b.dtype}")
    n = b.size
    words = -(-n // BITS)
    if n == 0:
        return BitMask(asarray(np.zeros(0, np.uint32), device=b.device), 0)
    from .matrix import concatenate

    flat = b.eval().reshape(n) if b.ndim != 1 else b
    padded = flat if n == words * BITS else concatenate(
        [flat, zeros(words * BITS - n, dtype=dt.bool_, device=b.device)])
    grid = padded.eval().reshape(words, BITS)
    weight = apply_op("left_shift", asarray(np.uint32(1), device=b.device),
                      Array(ex.index("col", (words, BITS), dt.uint32), b.device))
    packed = apply_op("where", grid, weight, np.uint32(0)).sum(axis=1, dtype=dt.uint32)
    return BitMask(packed.eval(), n)
