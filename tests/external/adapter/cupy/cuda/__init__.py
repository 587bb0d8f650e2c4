"""What CuPy's tests ask of ``cupy.cuda``: no HIP, no CUB, no cuTENSOR (those tests skip)."""

from . import cub, cutensor, runtime  # noqa: F401
