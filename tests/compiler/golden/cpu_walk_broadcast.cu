struct weft_args {
    long long w0_off;
    long long w1_off;
    long long w2_off;
    long long w2_s0;
    long long w3_off;
    long long n;
    long long cols;
};

extern "C" __global__ void weft_log_multiply_add(
    const double* __restrict__ b0,
    const double* __restrict__ b1,
    const double* __restrict__ b2,
    double* __restrict__ b3,
    const weft_args args)
{
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w2_s0 = (int)args.w2_s0;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const int items = (int)(gridDim.x * blockDim.x);
    const int run = (n + items - 1) / items;
    const int first = (int)((long long)blockIdx.x * blockDim.x + threadIdx.x) * run;
    const int end = first + run < n ? first + run : n;
    if (first >= end) return;
    if (cols < 16) {
        for (int gid = first; gid < end; ++gid) {
            const int row_guess = (int)((double)gid * (1.0 / (double)cols));
            const int i = row_guess + ((row_guess + 1) * cols <= gid);
            const int j = gid - i * cols;
            const double v0 = b0[w0_off + gid];
            const double v1 = log(v0);  // log
            const double v2 = b1[w1_off + j];
            const double v3 = (v1 * v2);  // multiply
            const double v4 = b2[w2_off + i * w2_s0];
            const double v5 = (v3 + v4);  // add
            b3[w3_off + gid] = (double)v5;
        }
        return;
    }
    for (int i = first / cols, gid0 = i * cols; gid0 < end; ++i, gid0 += cols) {
        const int j_begin = first > gid0 ? first - gid0 : 0;
        const int j_end = end - gid0 < cols ? end - gid0 : cols;
        for (int j = j_begin; j < j_end; ++j) {
            const int gid = gid0 + j;
            const double v0 = b0[w0_off + gid];
            const double v1 = log(v0);  // log
            const double v2 = b1[w1_off + j];
            const double v3 = (v1 * v2);  // multiply
            const double v4 = b2[w2_off + i * w2_s0];
            const double v5 = (v3 + v4);  // add
            b3[w3_off + gid] = (double)v5;
        }
    }
}
