"""Hand-written kernels, an implementation the benchmark runner can select (``hand-cuda``,
``hand-opencl``): for the fusion paper's comparison (issue 7), the value of
``normal_id_glm_lpdf`` with scalar ``alpha`` and ``sigma``, and the sum of a normal log density
over three arrays, in CUDA (through CuPy's RawKernel) and in OpenCL (through PyOpenCL); for the
bit-mask comparison (issue 6), an in-place add under a bit mask and without one, in CUDA.

They are the kernels a careful person would write by hand for these two computations, tuned the
usual ways, and nothing weft-specific:

- GLM with many columns: one warp (CUDA) or 32 work-items (OpenCL) per row, lanes striding over
  the row so that a warp reads consecutive addresses, four loads in flight per lane, a shuffle
  (or local-memory) tree for the dot product; each row's squared residual is accumulated per
  lane, reduced per block and added to the result with one atomic (CUDA) or written as a
  per-group partial that a one-group pass sums (OpenCL has no double atomics).
- GLM with few columns: one thread per row, the row's k values read in a short loop.
- Normal density: a grid-stride loop, one block reduction, one atomic (or partial) per block.
- Masked add: four elements per thread, the mask's word loaded once per element, a
  conditional store.

The constant terms (-n log sigma - n log sqrt(2 pi)) are added on the host. Every function
returns a callable that runs the whole computation and leaves a 0-d result on the device.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
BLOCK = 256

CUDA_SOURCE = r"""
__device__ double block_sum(double v) {
    __shared__ double warp_sums[32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    double s = 0.0;
    if (warp == 0) {
        s = lane < (blockDim.x >> 5) ? warp_sums[lane] : 0.0;
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    }
    return s;  // meaningful in thread 0
}

// Σ ((y - alpha - x[i,:] . beta) / sigma)^2, one warp per row
extern "C" __global__ void glm_rows_by_warp(const double* __restrict__ x,
        const double* __restrict__ y, const double* __restrict__ beta, double alpha,
        double inv_sigma, long long n, long long k, double* out) {
    const int lane = threadIdx.x & 31;
    const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
    double acc = 0.0;
    for (long long row = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
         row < n; row += warps) {
        const double* xr = x + row * k;
        double d0 = 0.0, d1 = 0.0, d2 = 0.0, d3 = 0.0;
        long long j = lane;
        for (; j + 96 < k; j += 128) {
            d0 += xr[j] * beta[j];
            d1 += xr[j + 32] * beta[j + 32];
            d2 += xr[j + 64] * beta[j + 64];
            d3 += xr[j + 96] * beta[j + 96];
        }
        for (; j < k; j += 32) d0 += xr[j] * beta[j];
        double dot = (d0 + d1) + (d2 + d3);
        for (int o = 16; o > 0; o >>= 1) dot += __shfl_down_sync(0xffffffffu, dot, o);
        if (lane == 0) {
            const double z = (y[row] - alpha - dot) * inv_sigma;
            acc += z * z;
        }
    }
    const double s = block_sum(acc);
    if (threadIdx.x == 0) atomicAdd(out, s);
}

// the same, one thread per row (few columns)
extern "C" __global__ void glm_rows_by_thread(const double* __restrict__ x,
        const double* __restrict__ y, const double* __restrict__ beta, double alpha,
        double inv_sigma, long long n, long long k, double* out) {
    double acc = 0.0;
    for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; row < n;
         row += (long long)gridDim.x * blockDim.x) {
        const double* xr = x + row * k;
        double dot = 0.0;
        for (long long j = 0; j < k; ++j) dot += xr[j] * beta[j];
        const double z = (y[row] - alpha - dot) * inv_sigma;
        acc += z * z;
    }
    const double s = block_sum(acc);
    if (threadIdx.x == 0) atomicAdd(out, s);
}

// Σ -0.5 ((y - mu) / sigma)^2 - log sigma
extern "C" __global__ void normal_lpdf_sum(const double* __restrict__ y,
        const double* __restrict__ mu, const double* __restrict__ sigma, long long n,
        double* out) {
    double acc = 0.0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        const double s = sigma[i];
        const double z = (y[i] - mu[i]) / s;
        acc += -0.5 * z * z - log(s);
    }
    const double total = block_sum(acc);
    if (threadIdx.x == 0) atomicAdd(out, total);
}
"""

OPENCL_SOURCE = r"""
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define WG 256

double group_sum(double v, __local double* scratch) {
    const int lid = get_local_id(0);
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return scratch[0];
}

// 32 work-items per row, lanes striding over the row
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void glm_rows_by_warp(__global const double* restrict x, __global const double* restrict y,
        __global const double* restrict beta, double alpha, double inv_sigma, long n, long k,
        __global double* partial) {
    __local double scratch[WG];
    const int lid = get_local_id(0), lane = lid & 31, team = lid >> 5;
    const long teams = (long)get_num_groups(0) * (WG / 32);
    double acc = 0.0;
    // every team of the group takes the same number of turns: the barriers need it
    for (long first = (long)get_group_id(0) * (WG / 32); first < n; first += teams) {
        const long row = first + team;
        double d0 = 0.0, d1 = 0.0, d2 = 0.0, d3 = 0.0;
        if (row < n) {
            __global const double* xr = x + row * k;
            long j = lane;
            for (; j + 96 < k; j += 128) {
                d0 += xr[j] * beta[j];
                d1 += xr[j + 32] * beta[j + 32];
                d2 += xr[j + 64] * beta[j + 64];
                d3 += xr[j + 96] * beta[j + 96];
            }
            for (; j < k; j += 32) d0 += xr[j] * beta[j];
        }
        scratch[lid] = (d0 + d1) + (d2 + d3);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = 16; s > 0; s >>= 1) {
            if (lane < s) scratch[lid] += scratch[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lane == 0 && row < n) {
            const double z = (y[row] - alpha - scratch[lid]) * inv_sigma;
            acc += z * z;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const double s = group_sum(acc, scratch);
    if (lid == 0) partial[get_group_id(0)] = s;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void glm_rows_by_thread(__global const double* restrict x, __global const double* restrict y,
        __global const double* restrict beta, double alpha, double inv_sigma, long n, long k,
        __global double* partial) {
    __local double scratch[WG];
    double acc = 0.0;
    for (long row = get_global_id(0); row < n; row += get_global_size(0)) {
        __global const double* xr = x + row * k;
        double dot = 0.0;
        for (long j = 0; j < k; ++j) dot += xr[j] * beta[j];
        const double z = (y[row] - alpha - dot) * inv_sigma;
        acc += z * z;
    }
    const double s = group_sum(acc, scratch);
    if (get_local_id(0) == 0) partial[get_group_id(0)] = s;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void normal_lpdf_sum(__global const double* restrict y, __global const double* restrict mu,
        __global const double* restrict sigma, long n, __global double* partial) {
    __local double scratch[WG];
    double acc = 0.0;
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
        const double s = sigma[i];
        const double z = (y[i] - mu[i]) / s;
        acc += -0.5 * z * z - log(s);
    }
    const double total = group_sum(acc, scratch);
    if (get_local_id(0) == 0) partial[get_group_id(0)] = total;
}

// one group: the partials' sum into out[0]
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sum_partials(__global const double* partial, long count, __global double* out) {
    __local double scratch[WG];
    double acc = 0.0;
    for (long i = get_local_id(0); i < count; i += WG) acc += partial[i];
    const double total = group_sum(acc, scratch);
    if (get_local_id(0) == 0) out[0] = total;
}
"""

MASKED_SOURCE = r"""
template <typename T>
__device__ void masked_add(T* __restrict__ dst, const T* __restrict__ lhs,
                           const T* __restrict__ rhs, const unsigned* __restrict__ words,
                           long long n) {
    const long long first = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const long long i = first + (long long)k * blockDim.x;
        if (i < n && ((words[i >> 5] >> (i & 31)) & 1u)) dst[i] = lhs[i] + rhs[i];
    }
}

template <typename T>
__device__ void add(T* __restrict__ dst, const T* __restrict__ lhs,
                    const T* __restrict__ rhs, long long n) {
    const long long first = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const long long i = first + (long long)k * blockDim.x;
        if (i < n) dst[i] = lhs[i] + rhs[i];
    }
}

extern "C" {
__global__ void masked_add_f32(float* d, const float* a, const float* b, const unsigned* w,
                               long long n) { masked_add(d, a, b, w, n); }
__global__ void masked_add_f64(double* d, const double* a, const double* b, const unsigned* w,
                               long long n) { masked_add(d, a, b, w, n); }
__global__ void add_f32(float* d, const float* a, const float* b, long long n) {
    add(d, a, b, n);
}
__global__ void add_f64(double* d, const double* a, const double* b, long long n) {
    add(d, a, b, n);
}
}
"""

FEW_COLUMNS = 32  # below a warp's width, one thread per row wastes no lanes


class CudaKernels:
    """The CUDA kernels, on CuPy arrays; ``blocks`` fills every SM."""

    def __init__(self, cp: Any) -> None:
        self.cp = cp
        self.module = cp.RawModule(code=CUDA_SOURCE)
        self.masked = None
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        self.blocks = props["multiProcessorCount"] * (props["maxThreadsPerMultiProcessor"]
                                                      // BLOCK)

    def glm(self, x: Any, y: Any, beta: Any, alpha: float, sigma: float):
        cp = self.cp
        n, k = x.shape
        kernel = self.module.get_function("glm_rows_by_thread" if k < FEW_COLUMNS
                                          else "glm_rows_by_warp")
        out = cp.zeros((), dtype=cp.float64)
        constant = -n * math.log(sigma) - n * LOG_SQRT_2PI
        args = (x, y, beta, np.float64(alpha), np.float64(1.0 / sigma), np.int64(n),
                np.int64(k), out)

        def run():
            out.fill(0)
            kernel((self.blocks,), (BLOCK,), args)
            return out * -0.5 + constant
        return run

    def masked_add(self, dst: Any, lhs: Any, rhs: Any, selected: Any | None = None):
        """dst = lhs + rhs where the bit mask's words ``selected`` select (everywhere for
        None)."""
        cp = self.cp
        module = self.masked
        if module is None:
            module = self.masked = cp.RawModule(code=MASKED_SOURCE, options=("-std=c++17",))
        n = dst.size
        short = "f32" if dst.dtype == cp.float32 else "f64"
        grid = (-(-n // (BLOCK * 4)),)
        if selected is None:
            kernel = module.get_function(f"add_{short}")
            args = (dst, lhs, rhs, np.int64(n))
        else:
            kernel = module.get_function(f"masked_add_{short}")
            args = (dst, lhs, rhs, selected, np.int64(n))

        def run():
            kernel(grid, (BLOCK,), args)
            return dst
        return run

    def normal_lpdf(self, y: Any, mu: Any, sigma: Any):
        cp = self.cp
        kernel = self.module.get_function("normal_lpdf_sum")
        out = cp.zeros((), dtype=cp.float64)
        n = y.size
        args = (y, mu, sigma, np.int64(n), out)

        def run():
            out.fill(0)
            kernel((self.blocks,), (BLOCK,), args)
            return out - n * LOG_SQRT_2PI
        return run


class OpenCLKernels:
    """The OpenCL kernels, on PyOpenCL buffers in weft's context for the device."""

    def __init__(self, device: Any) -> None:
        import pyopencl as cl

        self.cl = cl
        self.context = device.handle.context
        self.queue = cl.CommandQueue(self.context)
        self.program = cl.Program(self.context, OPENCL_SOURCE).build()
        self.sum_partials = cl.Kernel(self.program, "sum_partials")
        cl_device = self.context.devices[0]
        self.groups = cl_device.max_compute_units * (8 if cl_device.type
                                                     & cl.device_type.GPU else 1)
        self.partial = cl.Buffer(self.context, cl.mem_flags.READ_WRITE, 8 * self.groups)
        self.out = cl.Buffer(self.context, cl.mem_flags.READ_WRITE, 8)

    def upload(self, host: np.ndarray) -> Any:
        mf = self.cl.mem_flags
        return self.cl.Buffer(self.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=host)

    def _reduced(self, kernel: Any, args: tuple, scale: float, constant: float):
        cl, queue = self.cl, self.queue
        finish = self.sum_partials
        global_size = (self.groups * BLOCK,)

        def run():
            kernel(queue, global_size, (BLOCK,), *args, self.partial)
            finish(queue, (BLOCK,), (BLOCK,), self.partial, np.int64(self.groups), self.out)
            return run  # its value() reads the result

        def value() -> float:
            host = np.empty(1, np.float64)
            cl.enqueue_copy(queue, host, self.out)
            return float(host[0]) * scale + constant
        run.value = value
        return run

    def glm(self, x: np.ndarray, y: np.ndarray, beta: np.ndarray, alpha: float, sigma: float):
        n, k = x.shape
        kernel = (self.program.glm_rows_by_thread if k < FEW_COLUMNS
                  else self.program.glm_rows_by_warp)
        args = (self.upload(x), self.upload(y), self.upload(beta), np.float64(alpha),
                np.float64(1.0 / sigma), np.int64(n), np.int64(k))
        return self._reduced(kernel, args, -0.5, -n * math.log(sigma) - n * LOG_SQRT_2PI)

    def normal_lpdf(self, y: np.ndarray, mu: np.ndarray, sigma: np.ndarray):
        args = (self.upload(y), self.upload(mu), self.upload(sigma), np.int64(y.size))
        return self._reduced(self.program.normal_lpdf_sum, args, 1.0, -y.size * LOG_SQRT_2PI)

    def sync(self) -> None:
        self.queue.finish()
