"""CUDA C (NVRTC), as data for the renderer."""

from ...dialect import Dialect

CUDA = Dialect(
    name="cuda",
    kernel_qualifier='extern "C" __global__ void',
    global_ptr="",
    restrict="__restrict__",
    global_id="(long long)blockIdx.x * blockDim.x + threadIdx.x",
    index_t="long long",
    fp64_preamble="",
    function_qualifier="__device__ ",
    local_qualifier="__shared__",
    barrier="__syncthreads()",
    local_id="(long long)threadIdx.x",
    group_id="blockIdx.x",
    claim="atomicCAS((int*){0}, 0, 1) == 0",
    storage_types={"bool": "unsigned char", "uint32": "unsigned int", "int32": "int",
                   "int64": "long long", "float32": "float", "float64": "double"},
    compute_types={"bool": "bool", "uint32": "unsigned int", "int32": "int",
                   "int64": "long long", "float32": "float", "float64": "double"},
    unsigned_types={"bool": "unsigned char", "uint32": "unsigned int", "int32": "unsigned int",
                    "int64": "unsigned long long"},
    float_bits={"float32": "__float_as_int({0})", "float64": "__double_as_longlong({0})"},
    definitions={"INFINITY": "#define INFINITY __int_as_float(0x7f800000)\n",
                 "NAN": "#define NAN __int_as_float(0x7fffffff)\n",
                 # Round-to-nearest intrinsics: never contracted into a fused multiply-add.
                 "WEFT_ADD": "#define WEFT_ADD(a, b) __dadd_rn((a), (b))\n",
                 "WEFT_SUB": "#define WEFT_SUB(a, b) __dsub_rn((a), (b))\n",
                 "WEFT_MUL": "#define WEFT_MUL(a, b) __dmul_rn((a), (b))\n",
                 "WEFT_DIV": "#define WEFT_DIV(a, b) __ddiv_rn((a), (b))\n",
                 "WEFT_SQRT": "#define WEFT_SQRT(a) __dsqrt_rn(a)\n"},
    vector_types={"float32": "float", "float64": "double", "int32": "int", "uint32": "uint",
                  "int64": "longlong", "bool": "uchar"},
    vector_make="make_{type}({args})",
    pointer_as_int="(unsigned long long)({0})",
    shuffle_down="__shfl_down_sync(0xffffffffu, {value}, {offset}, {width})",
    shuffle_up="__shfl_up_sync(0xffffffffu, {value}, {offset})",
    scalar_struct=True,
    atomic_add={"float32": "atomicAdd", "float64": "atomicAdd"},
    # CUDA's documented pattern (Programming Guide, memory fence functions): a fence, then an
    # atomic count of finished blocks; the last block reads the others' partial results.
    last_group_add="atomicAdd({0}, 1)",
    global_fence="__threadfence()",
    global_barrier="__syncthreads()",
    group_count="gridDim.x",
    global_size="(gridDim.x * blockDim.x)",
)
