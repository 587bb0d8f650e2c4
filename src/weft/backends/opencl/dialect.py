"""OpenCL C, as data for the renderer: for GPUs, and for CPUs (PoCL), where ``exp`` and
``log`` are weft's own call-free helpers so that the compiler vectorizes the kernel."""

from dataclasses import replace

from ...dialect import Dialect
from ...skeletons.helpers import BRANCHY_NAMES
from ...skeletons.own_math import NAMES

# OpenCL has no float atomic add: a compare-and-swap loop on the value's bits.
_ATOMIC_ADD = """\
void weft_atomic_add_{T}(volatile __global {T}* p, {T} v) {{
    volatile __global {I}* bits = (volatile __global {I}*)p;
    {I} seen, old = *bits;
    do {{
        seen = old;
        old = {cas}_cmpxchg(bits, seen, as_{I}(as_{T}(seen) + v));
    }} while (old != seen);
}}
"""

OPENCL = Dialect(
    name="opencl",
    kernel_qualifier="__kernel void",
    global_ptr="__global ",
    restrict="restrict",
    global_id="get_global_id(0)",
    index_t="long",
    fp64_preamble="#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\n",
    function_qualifier="",
    local_qualifier="__local",
    barrier="barrier(CLK_LOCAL_MEM_FENCE)",
    local_id="get_local_id(0)",
    group_id="get_group_id(0)",
    claim="atomic_cmpxchg((volatile __global int*){0}, 0, 1) == 0",
    # OpenCL C names a struct type by a typedef (a kernel argument's struct holds no bool:
    # its fields are the storage types, a bool's a uchar).
    scalar_struct=True,
    struct_definition="typedef struct {{\n{fields}}} {name};\n\n",
    storage_types={"bool": "uchar", "uint32": "uint", "int32": "int", "int64": "long",
                   "float32": "float", "float64": "double"},
    compute_types={"bool": "bool", "uint32": "uint", "int32": "int", "int64": "long",
                   "float32": "float", "float64": "double"},
    unsigned_types={"bool": "uchar", "uint32": "uint", "int32": "uint", "int64": "ulong"},
    float_bits={"float32": "as_int({0})", "float64": "as_long({0})"},
    # One IEEE operation each, never contracted into a fused multiply-add (wf.random's
    # streams are the same bits on every device).
    definitions={"WEFT_ADD": "#pragma OPENCL FP_CONTRACT OFF\n#define WEFT_ADD(a, b) ((a) + (b))\n",
                 "WEFT_SUB": "#define WEFT_SUB(a, b) ((a) - (b))\n",
                 "WEFT_MUL": "#define WEFT_MUL(a, b) ((a) * (b))\n",
                 "WEFT_DIV": "#define WEFT_DIV(a, b) ((a) / (b))\n",
                 "WEFT_SQRT": "#define WEFT_SQRT(a) sqrt(a)\n",
                 "weft_atomic_add_float": _ATOMIC_ADD.format(T="float", I="int", cas="atomic"),
                 "weft_atomic_add_double": (
                     "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                     + _ATOMIC_ADD.format(T="double", I="long", cas="atom"))},
    atomic_add={"float32": "weft_atomic_add_float", "float64": "weft_atomic_add_double"},
    vector_types={"float32": "float", "float64": "double", "int32": "int", "uint32": "uint",
                  "int64": "long", "bool": "uchar"},
    vector_make="(({type})({args}))",
    pointer_as_int="(ulong)({0})",
    # OpenCL C 3.0's device-scope atomics (built with -cl-std=CL3.0): the add is a release
    # for the partial result written before it and an acquire for the last group's reads,
    # so no separate fence is needed; the barrier passes that on to the group's other
    # work-items' global reads.
    last_group_add=("atomic_fetch_add_explicit((volatile __global atomic_int*){0}, 1, "
                    "memory_order_acq_rel, memory_scope_device)"),
    global_barrier="barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)",
    group_count="get_num_groups(0)",
    global_size="get_global_size(0)",
    one_item_groups="__attribute__((reqd_work_group_size(1, 1, 1))) __kernel void",
)

# Helpers always inlined too: one left as a call keeps PoCL from vectorizing the kernel;
# except those with a loop, which keeps it from vectorizing anyway.
OPENCL_CPU = replace(OPENCL, own_math=NAMES,
                     function_qualifier="__attribute__((always_inline)) ",
                     looping_function_qualifier="", branchy_forms=BRANCHY_NAMES)
