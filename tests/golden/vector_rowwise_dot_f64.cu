struct weft_args {
    long long w0_off;
    long long w1_off;
    long long w1_s0;
    long long w1_s1;
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

extern "C" __global__ void weft_multiply_add_reduce(
    const double* __restrict__ b0,
    const double* __restrict__ b1,
    double* __restrict__ b2,
    const weft_args args)
{
    const long long w0_off = args.w0_off;
    const long long w1_off = args.w1_off;
    const long long w1_s0 = args.w1_s0;
    const long long w1_s1 = args.w1_s1;
    const long long w2_off = args.w2_off;
    const long long w2_seg = args.w2_seg;
    const long long w2_split = args.w2_split;
    const long long rows = args.rows;
    const long long cols = args.cols;
    const long long lanes = args.lanes;
    const long long splits = args.splits;
    const long long chunk = args.chunk;
    const long long contiguous = args.contiguous;
    __shared__ double red0[256];
    const long long lid = (long long)threadIdx.x;
    const long long seg_local = lid / lanes;
    const long long lane = lid - seg_local * lanes;
    const long long task = (long long)blockIdx.x * (256 / lanes) + seg_local;
    const long long i = task / splits;
    const long long split = task - i * splits;
    const long long segment = i;
    const long long partner_step = 1;
    long long begin = split * chunk;
    long long end = begin + chunk < cols ? begin + chunk : cols;
    if (i >= rows) end = begin;
    const long long span = contiguous ? (end - begin + lanes - 1) / lanes : 1;
    const long long first = begin + lane * span;
    const long long last = contiguous && first + span < end ? first + span : end;
    const long long step = contiguous ? 1 : lanes;
    double acc0 = 0.0;
    long long j_next = first;
    if (!contiguous &&
        cols % 2 == 0 &&
        chunk % 2 == 0 &&
        ((unsigned long long)(b0 + w0_off) & 15) == 0 &&
        w1_s1 == 1 && w1_s0 % 2 == 0 && ((unsigned long long)(b1 + w1_off) & 15) == 0) {
        long long base = begin;
        for (; base + 8 * lanes <= end; base += 8 * lanes) {
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const long long jv = base + (u * lanes + lane) * 2;
                const double2 q0 = *(const double2*)(b0 + w0_off + i * cols + jv);
                const double2 q1 = *(const double2*)(b1 + w1_off + i * w1_s0 + jv);
                {
                    const long long j = jv + 0;
                    const long long gid = i * cols + j;
                    const double v0 = q0.x;
                    const double v1 = q1.x;
                    const double v2 = (v0 * v1);  // multiply
                    acc0 = (acc0 + v2);
                }
                {
                    const long long j = jv + 1;
                    const long long gid = i * cols + j;
                    const double v0 = q0.y;
                    const double v1 = q1.y;
                    const double v2 = (v0 * v1);  // multiply
                    acc0 = (acc0 + v2);
                }
            }
        }
        j_next = base + lane;
    }
    for (; j_next + 3 * step < last; j_next += 4 * step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const long long j = j_next + u * step;
            const long long gid = i * cols + j;
            const double v0 = b0[w0_off + gid];
            const double v1 = b1[w1_off + i * w1_s0 + j * w1_s1];
            const double v2 = (v0 * v1);  // multiply
            acc0 = (acc0 + v2);
        }
    }
    for (long long j = j_next; j < last; j += step) {
        const long long gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        const double v1 = b1[w1_off + i * w1_s0 + j * w1_s1];
        const double v2 = (v0 * v1);  // multiply
        acc0 = (acc0 + v2);
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
