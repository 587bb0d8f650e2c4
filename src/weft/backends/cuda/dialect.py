"""CUDA C (NVRTC), as data for the renderer."""

from ...render import Dialect

CUDA = Dialect(
    name="cuda",
    kernel_qualifier='extern "C" __global__ void',
    global_ptr="",
    restrict="__restrict__",
    global_id="(long long)blockIdx.x * blockDim.x + threadIdx.x",
    index_t="long long",
    fp64_preamble="",
    function_qualifier="__device__ ",
    storage_types={"bool": "unsigned char", "uint32": "unsigned int", "int32": "int",
                   "int64": "long long", "float32": "float", "float64": "double"},
    compute_types={"bool": "bool", "uint32": "unsigned int", "int32": "int",
                   "int64": "long long", "float32": "float", "float64": "double"},
    unsigned_types={"bool": "unsigned char", "uint32": "unsigned int", "int32": "unsigned int",
                    "int64": "unsigned long long"},
)
