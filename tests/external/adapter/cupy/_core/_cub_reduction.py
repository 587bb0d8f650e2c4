"""The size CuPy's CUB tests read (those tests skip here)."""

_CUB_REDUCE_SIZE_THRESHOLD = 2**10
