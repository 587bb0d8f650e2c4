"""Issue 37's moonshot, measured before it is built: a logistic GLM's value and gradient
reading ``x`` once, as a hand-written CUDA kernel (CuPy's RawModule), against weft's traced
``value_and_grad`` (a value pass over ``x``, then ``x.T @ d``) and the device's copy rate, in
one process.

    PYTHONPATH=src python benchmarks/one_pass_glm.py [ROWS COLUMNS]

The kernel is the plan for weft's one-pass skeleton. Work-groups stay resident and walk rows
(row ``i`` to group ``i mod groups``); a group's lanes own the columns ``2 * (lane + c * WG)``
and the next (``double2`` loads), holding their ``beta`` and their partial gradient in
registers for the whole walk. Per row (or ``R`` rows at a time) each lane loads its columns
into registers, the group adds the lanes' dot products (warp shuffles, then one word per warp
in local memory), every lane forms the row's derivative ``d`` from the same sum, and adds
``d * x`` from the registers it loaded: ``x`` leaves memory once. Each group then writes its
partial gradient and value, and a one-group pass adds them. ``WG``, ``R`` and groups per SM
are compiled in and swept here.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np

import weft as wf

SOURCE = r"""
#define K {K}
#define WG {WG}
#define R {R}
#define NV (K / 2)
#define C ((NV + WG - 1) / WG)
__device__ __forceinline__ double inv_logit(double x) {{
    const double e = exp(-fabs(x));
    return x >= 0 ? 1 / (1 + e) : e / (1 + e);
}}
__device__ __forceinline__ double log_inv_logit(double x) {{
    return -((-x > 0 ? -x : 0.0) + log1p(exp(-fabs(x))));
}}
extern "C" __global__ void __launch_bounds__(WG) glm_once(
    const double* __restrict__ x, const int* __restrict__ y, const double* __restrict__ beta,
    const double alpha, const long n, double* __restrict__ gpart, double* __restrict__ vpart)
{{
    __shared__ double red[R][WG / 32];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    double2 b[C], g[C];
    const double2* beta2 = (const double2*)beta;
    #pragma unroll
    for (int c = 0; c < C; ++c) {{
        const int v = tid + c * WG;
        b[c] = v < NV ? beta2[v] : make_double2(0, 0);
        g[c] = make_double2(0, 0);
    }}
    double value = 0, dsum = 0;
    for (long i0 = (long)blockIdx.x * R; i0 < n; i0 += (long)gridDim.x * R) {{
        double2 xv[R][C];
        double s[R];
        #pragma unroll
        for (int r = 0; r < R; ++r) {{
            const long i = i0 + r;
            const double2* row = (const double2*)(x + i * K);
            #pragma unroll
            for (int c = 0; c < C; ++c) {{
                const int v = tid + c * WG;
                xv[r][c] = (i < n && v < NV) ? row[v] : make_double2(0, 0);
            }}
        }}
        #pragma unroll
        for (int r = 0; r < R; ++r) {{
            double acc = 0;
            #pragma unroll
            for (int c = 0; c < C; ++c) acc += xv[r][c].x * b[c].x + xv[r][c].y * b[c].y;
            #pragma unroll
            for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
            if (lane == 0) red[r][warp] = acc;
        }}
        __syncthreads();
        #pragma unroll
        for (int r = 0; r < R; ++r) {{
            double t = 0;
            #pragma unroll
            for (int w = 0; w < WG / 32; ++w) t += red[r][w];
            s[r] = t;
        }}
        __syncthreads();
        #pragma unroll
        for (int r = 0; r < R; ++r) {{
            const long i = i0 + r;
            if (i < n) {{
                const double eta = alpha + s[r];
                const double sign = 2.0 * y[i] - 1.0;
                const double d = sign * inv_logit(-sign * eta);
                if (tid == 0) {{ value += log_inv_logit(sign * eta); dsum += d; }}
                #pragma unroll
                for (int c = 0; c < C; ++c) {{
                    g[c].x += d * xv[r][c].x;
                    g[c].y += d * xv[r][c].y;
                }}
            }}
        }}
    }}
    double2* out = (double2*)(gpart + (long)blockIdx.x * K);
    #pragma unroll
    for (int c = 0; c < C; ++c) {{ const int v = tid + c * WG; if (v < NV) out[v] = g[c]; }}
    if (tid == 0) {{ vpart[2 * blockIdx.x] = value; vpart[2 * blockIdx.x + 1] = dsum; }}
}}
extern "C" __global__ void glm_finish(const double* __restrict__ gpart, const int groups,
                                      double* __restrict__ grad) {{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= K) return;
    double acc = 0;
    for (int q = 0; q < groups; ++q) acc += gpart[(long)q * K + j];
    grad[j] = acc;
}}
"""

# (lanes per group, rows per step, groups per SM)
CONFIGS = [(128, 1, 4), (128, 1, 3), (128, 2, 2), (256, 1, 2), (256, 2, 1), (512, 1, 1)]


def median_ms(f: Callable[[], object], synchronize: Callable[[], None], reps: int = 30) -> float:
    f()
    synchronize()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f()
        synchronize()
        times.append(time.perf_counter() - start)
    return float(np.median(times)) * 1e3


def _copier(cp: object, x: object) -> Callable[[], object]:
    copy = cp.empty_like(x)
    return lambda: cp.copyto(copy, x)


def _one_pass(cp: object, data: tuple, lanes: int, per_step: int, groups: int
              ) -> tuple[Callable[[], object], object]:
    """The one-pass kernel and its finishing pass compiled for a setting: a call running
    both (returning the value and d alpha) and the gradient it writes."""
    x, y, beta, alpha = data
    rows, cols = x.shape
    module = cp.RawModule(code=SOURCE.format(K=cols, WG=lanes, R=per_step),
                          options=("-std=c++17",))
    kernel, finish = module.get_function("glm_once"), module.get_function("glm_finish")
    gpart, vpart, out = cp.empty((groups, cols)), cp.empty(2 * groups), cp.empty(cols)
    args = (x, y, beta, np.float64(alpha), np.int64(rows), gpart, vpart)

    def run() -> object:
        kernel((groups,), (lanes,), args)
        finish(((cols + 255) // 256,), (256,), (gpart, np.int32(groups), out))
        return vpart.reshape(groups, 2).sum(axis=0)
    return run, out


def main(rows: int, cols: int) -> None:
    import cupy as cp

    if cols % 2:
        raise SystemExit("COLUMNS must be even (the kernel loads double2)")
    rng = np.random.default_rng(0)
    x = cp.asarray(rng.standard_normal((rows, cols)) / np.sqrt(cols))
    y = cp.asarray((rng.random(rows) < 0.5).astype(np.int32))
    beta = cp.asarray(rng.standard_normal(cols))
    alpha = 0.1
    sync = cp.cuda.runtime.deviceSynchronize
    sms = cp.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"]
    rate = 2 * x.nbytes / median_ms(_copier(cp, x), sync) / 1e6  # GB/s
    once = x.nbytes / rate / 1e6
    print(f"{cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}, logistic GLM "
          f"{rows} x {cols} float64: copy {rate:.0f} GB/s (read + write); reading x once "
          f"{once:.3f} ms, twice {2 * once:.3f} ms")

    wf.set_device("cuda:0")
    wx, wy = wf.asarray(x), wf.asarray(y)
    traced = wf.function(wf.value_and_grad(
        lambda b, a: wf.stats.bernoulli_logit_glm_lpmf(wy, wx, a, b), argnums=(0, 1)))
    wb = wf.asarray(beta)
    ms = median_ms(lambda: traced(wb, alpha), sync)
    value, (grad, dalpha) = traced(wb, alpha)
    want_value, want_grad, want_dalpha = float(value), grad.to_numpy(), float(dalpha)
    print(f"weft.function value_and_grad: {ms:.3f} ms ({ms / once:.2f}x reading x once)")

    for lanes, per_step, per_sm in CONFIGS:
        groups = sms * per_sm
        run, out = _one_pass(cp, (x, y, beta, alpha), lanes, per_step, groups)
        ms = median_ms(run, sync)
        got_value, got_dalpha = (float(v) for v in run())
        error = np.max(np.abs(out.get() - want_grad)) / np.max(np.abs(want_grad))
        assert abs(got_value - want_value) <= 1e-9 * abs(want_value), (got_value, want_value)
        assert abs(got_dalpha - want_dalpha) <= 1e-9 * abs(want_dalpha)
        assert error < 1e-12, error
        print(f"one pass, {lanes} lanes, {per_step} row(s) a step, {groups} groups: "
              f"{ms:.3f} ms ({ms / once:.2f}x reading x once); value, d alpha and the "
              f"gradient agree with weft's (gradient to {error:.0e})")


if __name__ == "__main__":
    shape = [int(a) for a in sys.argv[1:3]] or [100_000, 5000]
    main(*shape)
