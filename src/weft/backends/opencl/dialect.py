"""OpenCL C, as data for the renderer."""

from ...render import Dialect

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
    storage_types={"bool": "uchar", "uint32": "uint", "int32": "int", "int64": "long",
                   "float32": "float", "float64": "double"},
    compute_types={"bool": "bool", "uint32": "uint", "int32": "int", "int64": "long",
                   "float32": "float", "float64": "double"},
    unsigned_types={"bool": "uchar", "uint32": "uint", "int32": "uint", "int64": "ulong"},
    float_bits={"float32": "as_int({0})", "float64": "as_long({0})"},
    vector_types={"float32": "float4", "int32": "int4", "uint32": "uint4"},
    vector_make="(({type})({args}))",
    pointer_as_int="(ulong)({0})",
)
