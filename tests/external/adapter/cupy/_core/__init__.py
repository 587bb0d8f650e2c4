"""CuPy's internal accelerator and compute-type switches, as inert settings.

The tests that force a CuPy accelerator (CUB, cuTENSOR) skip through ``cupy.cuda``; the
compute-type tests run their float16 cases, which weft does not have (out of scope).
"""

from . import _accelerator, _cub_reduction, _routines_linalg, _routines_math  # noqa: F401
from ._accelerator import get_routine_accelerators, set_routine_accelerators  # noqa: F401

_compute_types: dict = {}


def get_compute_type(dtype):  # noqa: ANN001, ANN201
    return _compute_types.get(dtype, _routines_linalg.COMPUTE_TYPE_DEFAULT)


def set_compute_type(dtype, compute_type):  # noqa: ANN001, ANN201
    _compute_types[dtype] = compute_type
