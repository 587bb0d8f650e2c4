"""Inert accelerator lists (weft has no CuPy accelerators)."""

ACCELERATOR_CUB, ACCELERATOR_CUTENSOR = 1, 2
_routine: list = []
_reduction: list = []


def get_routine_accelerators():  # noqa: ANN201
    return list(_routine)


def set_routine_accelerators(names):  # noqa: ANN001, ANN201
    _routine[:] = list(names)


def get_reduction_accelerators():  # noqa: ANN201
    return list(_reduction)


def set_reduction_accelerators(names):  # noqa: ANN001, ANN201
    _reduction[:] = list(names)
