"""The measured constants behind weft's launch choices, and the devices measured apart.

Each value cites the measurement that chose it (``docs/tuning-notes.md`` by section); the
choices that read them are in ``variants.py``, a device's own preferences in its backend's
``traits`` (``target.Traits``).

>>> import weft as wf
>>> wf.tuning.MIN_WALK
32
"""

from __future__ import annotations

from dataclasses import dataclass

from .skeletons.reduce import VECTOR_ALIGN, WORK_GROUP

# An element-wise kernel or a rows reduction walking element by element whose grid, buffers
# and index arguments all stay at or under this many elements computes its indexes in 32 bits
# (``KernelIR.index32``): NVIDIA's OpenCL compiler spent a fifth of the narrow GLM's time on
# 64-bit index arithmetic (H100, docs/tuning-notes.md, 13). The vector walk, whose columns
# are 32-bit already (``INT_COLUMNS``), measured 2-3% slower with the rest in 32 bits too (row
# dot products, both backends), and column reductions measured mixed (CUDA 2% slower, OpenCL
# 1.5% faster): both keep 64-bit indexes. The headroom keeps every intermediate index
# under 2^31: a split walk's chunk may reach past its row by up to one row, and a lane's
# unrolled steps by a few thousand elements.
INDEX32_LIMIT = 2**30 - 2**20


# Element-wise kernels on CPUs (skeletons/elementwise.WALK), in work-groups of one work-item:
# each walks a run of at least ELEMENT_RUN elements (a short run is mostly its loop's scalar
# remainder, and each work-group costs PoCL a dispatch), over at most ELEMENT_GROUPS_PER_UNIT
# work-groups per compute unit (enough for PoCL's threads to share the grid out on a busy
# host).
ELEMENT_RUN = 1024
ELEMENT_GROUPS_PER_UNIT = 32

# Element-wise kernels on CPUs that read operands down their columns (a transpose;
# skeletons/elementwise.TILE_WALK): a work-item walks a square block, staging each such operand's
# block in a private tile, at the largest edge of TILE_WALK_EDGES whose tiles fit
# PRIVATE_TILE_BYTES together (a work-item's private arrays are on its thread's stack; where
# none does, the walk reads the operands straight). On
# exp(A.T) + A at 4096^2 (docs/tuning-notes.md, 30), 128 measured 76 ms float64 against 96
# at 64; float32 38 ms at either, against 140-150 through work-group tiles of 32.
TILE_WALK_EDGES = (128, 64, 32, 16)
PRIVATE_TILE_BYTES = 192 * 1024

MIN_WALK = 32
# Rows a split of a banded column reduction (CPUs, variants.band_layout) walks at least: fewer
# and the partial results' second pass costs more than the parallelism gains.
BAND_ROWS = 64
# A banded reduction of at most this many elements is not split: one core walks it in less
# time than the partial results' second launch takes (10-20 us on PoCL; a GLM gradient's
# x.T @ d over 1000 x 10: two launches became one).
BAND_SPLIT_ELEMENTS = 1 << 15
# Elements a lane of a short full reduction walks at least while the reduction spreads over
# the compute units (reduce_layout). H100, device time of a float64 normal density of 10^5
# elements 12.0 -> 5.1 us, a sum of 10^5 4.0 -> 3.8 (docs/tuning-notes.md, 15).
SHORT_WALK = 4
# A lane whose walk is shorter than this many unrolled steps loads its last, partial step's
# vectors together under guards (one at a time, each costs a memory latency, and they are much
# of a short walk: H100, 100000 x 5000 row dot products 1750 -> 1267 us with it). Longer walks
# keep the plain loop: the guarded step's registers slowed a three-array float64 density 20% on
# NVIDIA's OpenCL (docs/tuning-notes.md, 12).
GUARDED_TAIL_STEPS = 4
# Rows shorter than this walk their columns with 32-bit indexes (fewer registers and address
# instructions per vector load).
INT_COLUMNS = 2**31 - 2 * WORK_GROUP * VECTOR_ALIGN * 8
# Bytes of its row a GPU lane walks at least: two unrolled steps of the vector walk (16 vectors
# of 16 bytes), so the loads of the lanes' last, partial step are not most of its time. Short
# rows keep up to MIN_LANES lanes while each walks SHORT_LANE_BYTES: fewer lanes spread a warp
# over more rows. H100, float64 row dot products of 5 * 10^8 elements (docs/tuning-notes.md,
# 12), lanes chosen -> us (the old rule's lanes -> us): 5000 columns 128 -> 1267 (256 -> 1313);
# 1250: 32 -> 1288 (256 -> 1846); 500: 8 -> 1366 (256 -> 3199); 100: 8 -> 1341 (128 -> 7029);
# 64: 4 -> 1358 (64 -> 5615); 16: 1 -> 1582 (16 -> 5072).
LANE_BYTES = 256
SHORT_LANE_BYTES = 96
MIN_LANES = 8
# Lanes per row on CPUs, where a lane walks a contiguous run: few lanes mean many rows per
# work-group and a short tree. PoCL, 2 cores, float64 row sums of 100000 x 500: 193 ms with
# 256 lanes, 34 with 16, 23 with 4, 34 with 1 (4000 x 4000: 15.3 -> 7.6 ms).
CPU_LANES = 4


@dataclass(frozen=True)
class RowsTuning:
    """How a device's rows reductions are planned and compiled: ``lane_bytes``, the bytes of
    its row each GPU lane walks at least, and ``fixed``, whether the kernel takes its launch
    settings as constants (``fixed_settings``)."""

    lane_bytes: int = LANE_BYTES
    fixed: bool = True


# Devices measured apart, where the defaults are slower (docs/tuning-notes.md, 18 and 20;
# float64 row dot products of 5 * 10^8 elements, one machine each, us). The H200 now takes
# the defaults: with fixed settings, 256 bytes a lane against its former 1024, 5000 columns
# 899.8 -> 878.8, 1250: 979.4 -> 884.6, 2000: 915.2 -> 885.5 (20000: 881.6 -> 891.1). The
# H100 keeps its settings as arguments: there the kernels take 96 registers (two groups per
# SM) where constants leave 72 (three), and the lower occupancy is faster, runtime -> fixed:
# 5000 columns 1260.0 -> 1273.5, 1250: 1264.1 -> 1279.1, 2000: 1276.3 -> 1284.6 (20000:
# 1292.5 -> 1283.0). NVIDIA's OpenCL on the same chip is assumed to follow (not measured).
_H100 = RowsTuning(fixed=False)
ROWS_TUNING_BY_DEVICE = {("cuda", "NVIDIA H100 80GB HBM3"): _H100,
                         ("opencl", "NVIDIA H100 80GB HBM3"): _H100}


def rows_tuning(kind: str, name: str) -> RowsTuning:
    """How rows reductions are planned and compiled on the device ``name`` of weft's device
    kind ``kind`` (a backend puts it into the device's traits)."""
    return ROWS_TUNING_BY_DEVICE.get((kind, name), RowsTuning())

# CPU row bands over rows this narrow compile their column count in (variants.reduction).
NARROW_ROWS = 16
# CPU column reductions by row chunks (variants.row_chunks_layout): at most this many
# columns (a float64 partial row of 512 KB stays in a core's L2), and splits per work-group
# the device asks for (each split is a work-group, which runs on one core).
CHUNK_COLUMNS = 1 << 16
CHUNKS_PER_GROUP = 4
# Row walks (rowwalk.py) over rows of at least this many columns: a row's own values are
# computed once per row in the walk, four rows side by side, where a kernel of their own
# vectorizes them over more rows; on narrower rows that costs more than reading the rows
# twice saves (logistic GLM value and gradient, 2 Zen 4 cores, walk against passes: 10^6 x
# 10 1.2-1.4x slower, 10^5 x 256 and 5 * 10^4 x 500 even, 2 * 10^4 x 1000 1.15x faster,
# 5000 x 5000 1.7x faster). Grids of at most BAND_SPLIT_ELEMENTS are walked at any width, by one
# work-item that writes the results itself (one launch instead of two or three).
WALK_COLUMNS = 512
# Row walks on GPUs (CUDA): rows of at least this many columns, at most this many columns per
# lane of a team (each lane keeps its columns' partial results in registers; 40 spilled:
# H200, 100000 x 5000 GLM value and gradient 2.29 / 6.45 ms against 1.49-1.58 / 1.33-1.42
# with 20, logistic / normal), and at least this many rows per team the device aims for.
TEAM_WALK_COLUMNS = 1024
TEAM_LANE_COLUMNS = 24
TEAM_WALK_ROWS = 4

# CUDA matrix-vector products that stay cuBLAS calls (linalg._library_reads_faster): the
# column sums of C-contiguous matrices of at least this many columns and elements, which
# cuBLAS summed 15-25% faster on the H200 (docs/tuning-notes.md 36).
LIBRARY_COLUMNS = 512
LIBRARY_ELEMENTS = 1 << 24

# Launches over at most this many elements run on PoCL's basic device, on the calling thread,
# where the pthread device's handoff to its workers and back cost more than the work's share
# of the cores (backends/opencl/companion.py).
QUICK_ELEMENTS = 1 << 14

# A replay's temporaries of at most this many bytes are made once per runner (per thread) and
# kept between its calls: allocating and releasing each cost 2-3 us a call on PoCL and CUDA,
# and the runner's queue orders each call after the last (docs/tuning-notes.md, 45). Small,
# as every remembered expression's runner keeps its own (up to memo's 4096 of them).
KEPT_TEMPORARY_BYTES = 1 << 12

# An element-wise step of at most this many elements after a CPU reduction of one work-item
# runs in that work-item, after its results (``KernelIR.epilogue``): one launch, not two
# (docs/tuning-notes.md, 46).
EPILOGUE_ELEMENTS = 1024
