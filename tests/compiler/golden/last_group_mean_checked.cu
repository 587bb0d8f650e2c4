struct weft_args {
    long long err_off;
    double s0;
    double s1;
    long long w0_off;
    long long w1_off;
    long long w2_off;
    long long w2_seg;
    long long w2_split;
    long long w3_off;
    long long rows;
    long long cols;
    long long lanes;
    long long splits;
    long long chunk;
    long long contiguous;
};

extern "C" __global__ void weft_greater_subtract_add_reduce(
    const double* __restrict__ b0,
    const double* __restrict__ b1,
    double* __restrict__ b2,
    double* __restrict__ b3,
    long long* __restrict__ err,
    int* __restrict__ err_seen,
    int* __restrict__ done_groups,
    const weft_args args)
{
    const int err_off = (int)args.err_off;
    const double s0 = args.s0;
    const double s1 = args.s1;
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w2_seg = (int)args.w2_seg;
    const int w2_split = (int)args.w2_split;
    const int w3_off = (int)args.w3_off;
    const int rows = (int)args.rows;
    const int cols = (int)args.cols;
    const int lanes = 256;
    const int splits = (int)args.splits;
    const int chunk = (int)args.chunk;
    const int contiguous = 0;
    __shared__ double red0[256];
    const double v1 = s0;
    const long long v3 = (long long)0;
    const int lid = (long long)threadIdx.x;
    const int team_lanes = (int)lanes;
    const int seg_local = (int)lid / team_lanes;
    const int lane = lid - seg_local * lanes;
    const int task = (int)blockIdx.x * (256 / team_lanes) + seg_local;
    int i = task;
    int split = 0;
    if (splits > 1) {
        i = task / splits;
        split = task - i * splits;
    }
    const int segment = i;
    const int partner_step = 1;
    int begin = split * lanes;
    int end = cols;
    if (i >= rows) end = begin;
    int span = 1;
    if (contiguous) span = (end - begin + lanes - 1) / lanes;
    const int first = begin + lane * span;
    const int last = contiguous && first + span < end ? first + span : end;
    const int step = splits * lanes;
    long long err_code = -1, err_a = 0, err_b = 0, err_bits = 0;
    double acc0 = 0.0;
    int j_next = first;
    for (; j_next + 3 * step < last; j_next += 4 * step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int j = j_next + u * step;
            const int gid = i * cols + j;
            const double v0 = b0[w0_off + gid];
            const bool v2 = (v0 > v1);  // greater
            const long long v4 = (long long)j;
            const double v5 = b1[w1_off + gid];
            const double v6 = (v0 - v5);  // subtract
            if (!v2 && err_code < 0) {
                err_code = 0; err_a = (long long)v3; err_b = (long long)v4;
                err_bits = (long long)__double_as_longlong(v0);
            }
            acc0 = (acc0 + v6);
        }
    }
    for (int j = j_next; j < last; j += step) {
        const int gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        const bool v2 = (v0 > v1);  // greater
        const long long v4 = (long long)j;
        const double v5 = b1[w1_off + gid];
        const double v6 = (v0 - v5);  // subtract
        if (!v2 && err_code < 0) {
            err_code = 0; err_a = (long long)v3; err_b = (long long)v4;
            err_bits = (long long)__double_as_longlong(v0);
        }
        acc0 = (acc0 + v6);
    }
    if (err_code >= 0 && atomicCAS((int*)(err + err_off), 0, 1) == 0) {
        err[err_off + 1] = err_code; err[err_off + 2] = err_a;
        err[err_off + 3] = err_b; err[err_off + 4] = err_bits;
        err_seen[0] = 1;
    }
    const int shuffle_width = lanes < 32 ? (int)lanes : 32;
    for (int o = shuffle_width >> 1; o > 0; o >>= 1) {
        { const double other0 = (double)__shfl_down_sync(0xffffffffu, acc0, o, shuffle_width); acc0 = (acc0 + other0); }
    }
    if (lanes > 32) {
        if ((lid & 31) == 0) {
            red0[lid >> 5] = (double)acc0;
        }
        __syncthreads();
        if (lane == 0) {
            for (int w = 1; w < (lanes >> 5); ++w) {
                { const double other0 = red0[(lid >> 5) + w]; acc0 = (acc0 + other0); }
            }
        }
    }
    if (lane == 0) {
        red0[lid] = (double)acc0;
    }
    if (lane == 0 && segment < rows) {
        b2[w2_off + segment * w2_seg + split * w2_split] = (double)red0[lid];
    }
    __shared__ int last_group;
    __threadfence();
    __syncthreads();
    if (lid == 0) last_group = atomicAdd(done_groups, 1) == (int)gridDim.x - 1;
    __syncthreads();
    if (last_group) {
        acc0 = 0.0;
        for (int p = lid; p < splits; p += 4 * 256) {
            const double other0_0 = p < splits ? ((volatile double*)b2)[w2_off + p * w2_split] : 0.0;
            const double other0_1 = (p + 256) < splits ? ((volatile double*)b2)[w2_off + (p + 256) * w2_split] : 0.0;
            const double other0_2 = (p + 512) < splits ? ((volatile double*)b2)[w2_off + (p + 512) * w2_split] : 0.0;
            const double other0_3 = (p + 768) < splits ? ((volatile double*)b2)[w2_off + (p + 768) * w2_split] : 0.0;
            acc0 = (acc0 + other0_0);
            acc0 = (acc0 + other0_1);
            acc0 = (acc0 + other0_2);
            acc0 = (acc0 + other0_3);
        }
        const int shuffle_width = lanes < 32 ? (int)lanes : 32;
        for (int o = shuffle_width >> 1; o > 0; o >>= 1) {
            { const double other0 = (double)__shfl_down_sync(0xffffffffu, acc0, o, shuffle_width); acc0 = (acc0 + other0); }
        }
        if (lanes > 32) {
            if ((lid & 31) == 0) {
                red0[lid >> 5] = (double)acc0;
            }
            __syncthreads();
            if (lane == 0) {
                for (int w = 1; w < (lanes >> 5); ++w) {
                    { const double other0 = red0[(lid >> 5) + w]; acc0 = (acc0 + other0); }
                }
            }
        }
        if (lane == 0) {
            red0[lid] = (double)acc0;
        }
        if (lid == 0) {
            b3[w3_off] = (double)red0[0] * s1;
            *done_groups = 0;
        }
    }
}
