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
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w1_seg = (int)args.w1_seg;
    const int w1_split = (int)args.w1_split;
    const int rows = (int)args.rows;
    const int cols = (int)args.cols;
    const int lanes = (int)args.lanes;
    const int splits = (int)args.splits;
    const int chunk = (int)args.chunk;
    __shared__ double red0[256];
    const int lid = (long long)threadIdx.x;
    const int width = 256 / lanes;
    const int lane = lid / width;
    const int seg_local = lid - lane * width;
    const int col_blocks = (cols + width - 1) / width;
    const int split = (int)blockIdx.x / col_blocks;
    const int j = ((int)blockIdx.x - split * col_blocks) * width + seg_local;
    const int segment = j;
    const int partner_step = width;
    int begin = split * chunk;
    int end = begin + chunk < rows ? begin + chunk : rows;
    if (j >= cols) end = begin;
    double acc0 = 0.0;
    int i_next = begin + lane;
    for (; i_next + 3 * lanes < end; i_next += 4 * lanes) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int i = i_next + u * lanes;
            const int gid = i * cols + j;
            const double v0 = b0[w0_off + gid];
            const double v1 = exp(v0);  // exp
            const double v2 = s0;
            const double v3 = (v1 * v2);  // multiply
            const double v4 = (v3 - v0);  // subtract
            acc0 = (acc0 + v4);
        }
    }
    for (int i = i_next; i < end; i += lanes) {
        const int gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        const double v1 = exp(v0);  // exp
        const double v2 = s0;
        const double v3 = (v1 * v2);  // multiply
        const double v4 = (v3 - v0);  // subtract
        acc0 = (acc0 + v4);
    }
    red0[lid] = (double)acc0;
    __syncthreads();
    for (int s = lanes >> 1; s > 0; s >>= 1) {
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
