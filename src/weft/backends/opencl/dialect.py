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
    storage_types={"bool": "uchar", "uint32": "uint", "int32": "int", "int64": "long",
                   "float32": "float", "float64": "double"},
    compute_types={"bool": "bool", "uint32": "uint", "int32": "int", "int64": "long",
                   "float32": "float", "float64": "double"},
    unsigned_types={"bool": "uchar", "uint32": "uint", "int32": "uint", "int64": "ulong"},
)
