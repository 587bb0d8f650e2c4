"""A backend's dialect as data: the strings that make kernel source OpenCL C or CUDA C, and
how a dialect that passes its scalar arguments in one struct lays that struct out.

render/ reads a ``Dialect``; each backend declares one (backends/*/dialect.py).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from . import ir

STRUCT = "weft_args"  # the arguments' struct, where a dialect passes one (scalar_struct)

# Struct field formats (Python's struct module) per weft dtype name, as C lays them out.
_FIELD_FORMATS = {"bool": "B", "int32": "i", "uint32": "I", "int64": "q", "float32": "f",
                  "float64": "d"}


def argument_struct(params: tuple[ir.Param, ...]) -> tuple[str, list[int], list[int]]:
    """How the arguments that are not buffers travel in one struct (``Dialect.scalar_struct``):
    a ``struct`` module format with C's padding, their positions among ``params``, and the
    positions among those of bools (which pack as their byte)."""
    fmt, offset, widest = "<", 0, 1
    positions: list[int] = []
    bools: list[int] = []
    for k, p in enumerate(params):
        if isinstance(p, ir.BufferParam):
            continue
        code = _FIELD_FORMATS[p.dtype.name] if isinstance(p, ir.ScalarParam) else "q"
        size = struct.calcsize(code)
        fmt += "x" * (-offset % size) + code
        offset += -offset % size + size
        widest = max(widest, size)
        if code == "B":
            bools.append(len(positions))
        positions.append(k)
    return fmt + "x" * (-offset % widest), positions, bools


class ArgumentLayout:
    """Where a kernel's arguments go when its dialect passes every argument that is not a
    buffer in one struct (``argument_struct``): the buffers' positions among the parameters
    (``slot``: a buffer parameter's place among the kernel's buffer arguments), and the
    struct's format, fields and bools. Each backend adds how it hands them over."""

    __slots__ = ("buffers", "slot", "scalars", "bools", "fmt", "size")

    def __init__(self, params: tuple[ir.Param, ...]) -> None:
        self.buffers = tuple(k for k, p in enumerate(params) if isinstance(p, ir.BufferParam))
        self.slot = {k: j for j, k in enumerate(self.buffers)}
        self.fmt, scalars, bools = argument_struct(params)
        self.scalars = tuple(scalars)
        self.bools = frozenset(bools)
        self.size = struct.calcsize(self.fmt)

    def fields(self, args: list) -> list:
        """The struct's fields of ``args`` (a bool as its byte)."""
        bools = self.bools
        return [int(args[k]) if j in bools else args[k] for j, k in enumerate(self.scalars)]


@dataclass(frozen=True)
class Dialect:
    """The strings that make kernel source OpenCL C or CUDA C."""

    name: str
    kernel_qualifier: str
    global_ptr: str
    restrict: str
    global_id: str
    index_t: str
    fp64_preamble: str
    function_qualifier: str  # before helper functions: "" in OpenCL, "__device__ " in CUDA
    local_qualifier: str  # work-group memory
    barrier: str
    local_id: str
    group_id: str
    claim: str  # an atomic test-and-set of the int at {0}: true for the first caller only
    storage_types: dict[str, str] = field(default_factory=dict)  # dtype name -> buffer type
    compute_types: dict[str, str] = field(default_factory=dict)  # dtype name -> C type
    unsigned_types: dict[str, str] = field(default_factory=dict)  # dtype name -> unsigned
    float_bits: dict[str, str] = field(default_factory=dict)  # dtype name -> bits of {0}
    # Names the dialect's compiler does not predefine: name -> its definition, emitted before
    # a kernel that uses the name (NVRTC has no <math.h>, so no INFINITY).
    definitions: dict[str, str] = field(default_factory=dict)
    # Vector loads and stores: the element type's name per dtype name (the vector type is it
    # and the width: float4, double2), how to build one from its values ({type}, {args}),
    # and a pointer as an integer (alignment tests).
    vector_types: dict[str, str] = field(default_factory=dict)
    vector_make: str = ""
    pointer_as_int: str = ""
    # A warp's shuffle down ({value}, {offset}, {width}); empty: work-group memory trees only.
    shuffle_down: str = ""
    shuffle_up: str = ""  # the same, from the lane ``offset`` below (a scan's)
    # Reductions over one segment finished by their last work-group (one launch, not two):
    # an atomic add of one to the int at {0} returning the old value; a fence before it after
    # which a work-group's global writes are seen by the others (empty where the add itself
    # orders them: a release); a barrier after which the group's other work-items see what
    # the adding one saw; and the launch's work-group count. Empty ``last_group_add``: a
    # second small launch combines the partial results. Whether a device may use it is its
    # backend's call (``Traits.last_group``).
    last_group_add: str = ""
    global_fence: str = ""
    global_barrier: str = ""
    group_count: str = ""
    # The launch's work-item count, and the kernel qualifier that asks for work-groups of one
    # work-item (empty: the dialect has none; such a kernel is launched in groups of
    # ``WORK_GROUP`` and reads its work-item count from the launch).
    global_size: str = ""
    one_item_groups: str = ""
    # Pass every argument that is not a buffer in one struct (CUDA: one argument to convert
    # per launch instead of twenty; PoCL: one clSetKernelArg instead of twenty, each a few
    # hundred ns; the backend packs it as ``argument_struct`` lays it out), declared by
    # ``struct_definition`` (``{name}``, ``{fields}``) where the kernel's text begins.
    scalar_struct: bool = False
    struct_definition: str = "struct {name} {{\n{fields}}};\n\n"
    # Per float dtype name, what adds a value to a global element atomically: ``{0}(&element,
    # value)`` (a scatter-add: a gather's adjoint).
    atomic_add: dict[str, str] = field(default_factory=dict)
    # Library functions replaced by weft's own call-free versions (skeletons/own_math.py),
    # in ops and helpers alike: a CPU device's OpenCL compiler vectorizes a kernel only when
    # nothing in it is a call.
    own_math: frozenset[str] = frozenset()
    # Helpers given their branchier forms (skeletons/helpers.py ``BRANCHY_FORMS``): where a
    # work-item runs alone (CPUs), a second algorithm for part of the domain costs only the
    # elements that take it; where lanes run in lockstep (GPUs), both paths in one helper
    # slowed every lane (kv: the H200's mixed-x kv 4.97 -> 11.99 ms).
    branchy_forms: frozenset[str] = frozenset()
    # Before helper functions that hold a loop, where it differs from ``function_qualifier``
    # (None: the same). A loop inside a kernel's body keeps PoCL from vectorizing it whether
    # or not the helper is inlined, and inlining the incomplete beta function's loops made
    # its kernel take 4.5 s to build instead of 1.3.
    looping_function_qualifier: str | None = None

    @property
    def one_item_kernel_qualifier(self) -> str:
        """The qualifier of a kernel whose work-groups hold one work-item where the dialect
        can ask for that, else the plain one (the kernel is launched in groups of
        ``WORK_GROUP`` and only their first work-item, or every one, works)."""
        return self.one_item_groups or self.kernel_qualifier
