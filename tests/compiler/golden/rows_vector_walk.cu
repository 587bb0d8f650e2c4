struct weft_args {
    long long err_off;
    double s0;
    long long w0_off;
    long long w1_off;
    long long w2_off;
    long long w2_seg;
    long long w2_split;
    long long rows;
    long long cols;
    long long lanes;
    long long splits;
    long long chunk;
    long long contiguous;
};

extern "C" __global__ void weft_greater_multiply_add_reduce(
    const double* __restrict__ b0,
    const double* __restrict__ b1,
    double* __restrict__ b2,
    long long* __restrict__ err,
    int* __restrict__ err_seen,
    const weft_args args)
{
    const long long err_off = args.err_off;
    const double s0 = args.s0;
    const long long w0_off = args.w0_off;
    const long long w1_off = args.w1_off;
    const long long w2_off = args.w2_off;
    const long long w2_seg = args.w2_seg;
    const long long w2_split = args.w2_split;
    const long long rows = args.rows;
    const long long cols = args.cols;
    const long long lanes = 32;
    const long long splits = 1;
    const long long chunk = args.chunk;
    const long long contiguous = 0;
    __shared__ double red0[256];
    const double v1 = s0;
    const long long lid = (long long)threadIdx.x;
    const int team_lanes = (int)lanes;
    const long long seg_local = (int)lid / team_lanes;
    const long long lane = lid - seg_local * lanes;
    const long long task = (long long)blockIdx.x * (256 / team_lanes) + seg_local;
    long long i = task;
    long long split = 0;
    if (splits > 1) {
        i = task / splits;
        split = task - i * splits;
    }
    const long long segment = i;
    const long long partner_step = 1;
    long long begin = split * chunk;
    long long end = begin + chunk < cols ? begin + chunk : cols;
    if (i >= rows) end = begin;
    long long span = 1;
    if (contiguous) span = ((end - begin + lanes - 1) / lanes + 2 - 1) / 2 * 2;
    const long long first = begin + lane * span;
    const long long last = contiguous && first + span < end ? first + span : end;
    const long long step = contiguous ? 1 : lanes;
    const int vector_step = contiguous ? 2 : lanes * 2;
    const long long walk_start = contiguous ? first : begin;
    const long long walk = (contiguous ? last : end) - walk_start;
    const int vector_end = walk_start + (walk > 0 ? walk / 2 * 2 : 0);
    long long err_code = -1, err_a = 0, err_b = 0, err_bits = 0;
    double acc0 = 0.0;
    double2 q0[4];
    double2 q1[4];
    const long long r0 = w0_off + i * cols;
    const long long r1 = w1_off;
    int j_next = contiguous ? first : begin + lane * 2;
    for (; j_next + 3 * vector_step < vector_end;
         j_next += 4 * vector_step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int j0 = j_next + u * vector_step;
            const long long gid0 = i * cols + j0;
            q0[u] = *(const double2*)(b0 + r0 + j0);
            q1[u] = *(const double2*)(b1 + r1 + j0);
        }
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int j0 = j_next + u * vector_step;
            const long long gid0 = i * cols + j0;
            const long long j_0 = j0 + 0;
            const long long gid_0 = gid0 + 0;
            const long long j_1 = j0 + 1;
            const long long gid_1 = gid0 + 1;
            const double v0_0 = q0[u].x;
            const double v0_1 = q0[u].y;
            const bool v2_0 = (v0_0 > v1);  // greater
            const bool v2_1 = (v0_1 > v1);  // greater
            const long long v3_0 = (long long)i;
            const long long v3_1 = (long long)i;
            const long long v4_0 = (long long)j_0;
            const long long v4_1 = (long long)j_1;
            const double v5_0 = q1[u].x;
            const double v5_1 = q1[u].y;
            const double v6_0 = (v0_0 * v5_0);  // multiply
            const double v6_1 = (v0_1 * v5_1);  // multiply
            if (!v2_0 && err_code < 0) {
                err_code = 0; err_a = (long long)v3_0; err_b = (long long)v4_0;
                err_bits = (long long)__double_as_longlong(v0_0);
            }
            if (!v2_1 && err_code < 0) {
                err_code = 0; err_a = (long long)v3_1; err_b = (long long)v4_1;
                err_bits = (long long)__double_as_longlong(v0_1);
            }
            acc0 = (acc0 + v6_0);
            acc0 = (acc0 + v6_1);
        }
    }
    if (j_next < vector_end) {
#pragma unroll
        for (int u = 0; u < 3; ++u) {
            const int j0 = j_next + u * vector_step;
            const long long gid0 = i * cols + j0;
            if (j0 < vector_end) {
                q0[u] = *(const double2*)(b0 + r0 + j0);
                q1[u] = *(const double2*)(b1 + r1 + j0);
            }
        }
#pragma unroll
        for (int u = 0; u < 3; ++u) {
            const int j0 = j_next + u * vector_step;
            const long long gid0 = i * cols + j0;
            if (j0 < vector_end) {
                const long long j_0 = j0 + 0;
                const long long gid_0 = gid0 + 0;
                const long long j_1 = j0 + 1;
                const long long gid_1 = gid0 + 1;
                const double v0_0 = q0[u].x;
                const double v0_1 = q0[u].y;
                const bool v2_0 = (v0_0 > v1);  // greater
                const bool v2_1 = (v0_1 > v1);  // greater
                const long long v3_0 = (long long)i;
                const long long v3_1 = (long long)i;
                const long long v4_0 = (long long)j_0;
                const long long v4_1 = (long long)j_1;
                const double v5_0 = q1[u].x;
                const double v5_1 = q1[u].y;
                const double v6_0 = (v0_0 * v5_0);  // multiply
                const double v6_1 = (v0_1 * v5_1);  // multiply
                if (!v2_0 && err_code < 0) {
                    err_code = 0; err_a = (long long)v3_0; err_b = (long long)v4_0;
                    err_bits = (long long)__double_as_longlong(v0_0);
                }
                if (!v2_1 && err_code < 0) {
                    err_code = 0; err_a = (long long)v3_1; err_b = (long long)v4_1;
                    err_bits = (long long)__double_as_longlong(v0_1);
                }
                acc0 = (acc0 + v6_0);
                acc0 = (acc0 + v6_1);
            }
        }
    }
    for (long long j = vector_end + (contiguous ? 0 : lane); j < last; j += step) {
        const long long gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        const bool v2 = (v0 > v1);  // greater
        const long long v3 = (long long)i;
        const long long v4 = (long long)j;
        const double v5 = b1[w1_off + j];
        const double v6 = (v0 * v5);  // multiply
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
            for (long long w = 1; w < (lanes >> 5); ++w) {
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
}
