"""What a device prefers, as data: its ``Traits``, read by the launch choices.

A backend answers ``traits(device)`` once per device (``Device.traits``). The answers are
numbers and flags that never change for a device, so the choices that read them (vector
loads, elements per thread, tiled transposes, how a reduction splits, whether its last group
finishes it) need no device object: a test passes other traits instead of changing a
backend. Occupancy is not a trait: it depends on the compiled kernel
(``backend.resident_groups``). Each value cites its measurement where the backend sets it.

>>> import weft as wf
>>> wf.target.Traits().elementwise_vector_width(1 << 22)
1
"""

from __future__ import annotations

from dataclasses import dataclass

from .tuning import LANE_BYTES

# From this many elements, an element-wise kernel's threads take several elements or
# vectors where the device's traits ask for them: below it, latency, not bandwidth, decides.
LARGE_GRID = 1 << 20


@dataclass(frozen=True)
class Traits:
    """A device's launch preferences. The defaults are a device that prefers nothing: one
    element per thread, no vector loads, no tiles, reductions never split (the reference
    interpreter)."""

    is_cpu: bool = False  # lanes of a rows reduction walk contiguous runs
    compute_units: int = 0  # groups a short full reduction takes at least (0: unknown)
    vector_width: int = 1  # consecutive elements per thread by vector loads, from vector_from
    vector_from: int = LARGE_GRID
    per_thread: int = 1  # elements per thread of an element-wise kernel, from per_thread_from
    per_thread_from: int = LARGE_GRID
    # Elements per vector load in a rows reduction's walk, by the widest walked element's
    # size in bytes (an absent size: one element per load).
    rows_vector_widths: tuple[tuple[int, int], ...] = ()
    tiles_transposes: bool = False  # column-wise loads go through work-group tiles
    reduction_groups: int = 0  # work-groups a reduction aims for (0: never split a walk)
    last_group: bool = False  # a split reduction's last group finishes it (one launch)
    # Element-wise kernels give each work-item a run of consecutive elements to walk
    # (skeletons/elementwise.WALK): a per-element bounds check makes PoCL's vectorized
    # work-item loop use masked loads and stores (c*(a+b), 2^24 float64 on 2 Zen 3 cores:
    # 11-13.5 ms against 7.1-7.7). A check in the last work-group only was undone where the
    # kernel is long: LLVM then keeps the test in the loop (lgamma, 2^24 float64 on 2 Zen 4
    # cores: 345 ms against 190-217 walking runs).
    walks_elements: bool = False
    # Element-wise kernels over 2-d grids find an element's row by a multiply with the
    # reciprocal of the row length (then corrected by one), not an integer division: x86 has
    # no vector division, so a division per element kept PoCL from vectorizing (a 20000 x 200
    # float64 x - mean(x, 0): 13.4 ms against 3.1 for x * 2, 2 Zen 3 cores).
    reciprocal_rows: bool = False
    # Column reductions give each work-item a band of this many contiguous columns with
    # private accumulators, walking its rows (0: GPU teams walking a column). PoCL runs a
    # work-group's work-items one after another, so a team's column walk strides through
    # memory; a band reads each row's part contiguously and vectorizes (4096 x 4096 float64
    # column sums, 2 Zen 3 cores: 53 ms -> 7.6 ms in a hand kernel, NumPy 7.6-9.7).
    column_band: int = 0
    # Rows reductions give each work-item one split of one row, walked this many columns at
    # a time into as many independent accumulators (0: GPU teams): one running sum is a
    # chain of dependent adds that PoCL cannot vectorize.
    row_band: int = 0
    # Rows reductions (tuning.rows_tuning, measured per device): bytes of its row each GPU
    # lane walks at least, and whether the kernel takes its launch settings as constants.
    rows_lane_bytes: int = LANE_BYTES
    rows_fixed: bool = True
    # Bytes of parameters a kernel may take (0: no limit): the scheduler computes what reads
    # more leaves than that in parts (breadth.py).
    parameter_bytes: int = 0

    def elementwise_vector_width(self, n: int) -> int:
        """Consecutive elements per thread through vector loads for a grid of ``n``."""
        return self.vector_width if n >= self.vector_from else 1

    def elementwise_per_thread(self, n: int) -> int:
        """Elements each thread of an element-wise kernel over ``n`` elements computes."""
        return self.per_thread if n >= self.per_thread_from else 1

    def rows_vector_width(self, itemsize: int) -> int:
        """Elements per vector load in a rows walk whose widest element has ``itemsize``
        bytes (1: element by element)."""
        return dict(self.rows_vector_widths).get(itemsize, 1)


def vector_widths(load_bytes: int) -> tuple[tuple[int, int], ...]:
    """``rows_vector_widths`` for loads of ``load_bytes`` bytes, for weft's element sizes."""
    return tuple((size, max(1, load_bytes // size)) for size in (1, 4, 8))
