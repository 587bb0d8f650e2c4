struct weft_args {
    double s0;
    long long w0_off;
    long long w1_off;
    long long w1_seg;
    long long w1_split;
    long long rows;
    long long cols;
    long long lanes;
    long long splits;
    long long chunk;
};

extern "C" __global__ void weft_exp_multiply_subtract_add_reduce(
    const double* __restrict__ b0,
    double* __restrict__ b1,
    const weft_args args)
{
    const double s0 = args.s0;
    const long long w0_off = args.w0_off;
    const long long w1_off = args.w1_off;
    const long long w1_seg = args.w1_seg;
    const long long w1_split = args.w1_split;
    const long long rows = args.rows;
    const long long cols = args.cols;
    const long long lanes = args.lanes;
    const long long splits = args.splits;
    const long long chunk = args.chunk;
    __shared__ double red0[256];
    const double v2 = s0;
    const long long lid = (long long)threadIdx.x;
    const long long width = 256 / lanes;
    const long long lane = lid / width;
    const long long seg_local = lid - lane * width;
    const long long col_blocks = (cols + width - 1) / width;
    const long long split = (long long)blockIdx.x / col_blocks;
    const long long j = ((long long)blockIdx.x - split * col_blocks) * width + seg_local;
    const long long segment = j;
    const long long partner_step = width;
    long long begin = split * chunk;
    long long end = begin + chunk < rows ? begin + chunk : rows;
    if (j >= cols) end = begin;
    double acc0 = 0.0;
    long long i_next = begin + lane;
    for (; i_next + 3 * lanes < end; i_next += 4 * lanes) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const long long i = i_next + u * lanes;
            const long long gid = i * cols + j;
            const double v0 = b0[w0_off + gid];
            const double v1 = exp(v0);  // exp
            const double v3 = (v1 * v2);  // multiply
            const double v4 = (v3 - v0);  // subtract
            acc0 = (acc0 + v4);
        }
    }
    for (long long i = i_next; i < end; i += lanes) {
        const long long gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        const double v1 = exp(v0);  // exp
        const double v3 = (v1 * v2);  // multiply
        const double v4 = (v3 - v0);  // subtract
        acc0 = (acc0 + v4);
    }
    red0[lid] = (double)acc0;
    __syncthreads();
    for (long long s = lanes >> 1; s > 0; s >>= 1) {
        if (lane < s) {
            const double lhs0 = red0[lid];
            const double rhs0 = red0[lid + s * partner_step];
            red0[lid] = (double)(lhs0 + rhs0);
        }
        __syncthreads();
    }
    if (lane == 0 && segment < cols) {
        b1[w1_off + segment * w1_seg + split * w1_split] = (double)red0[lid];
    }
}
