struct weft_args {
    double s0;
    long long w0_0;
    long long w0_i;
    long long w0_j;
    long long w0_n;
    long long w1_0;
    long long w1_i;
    long long w1_j;
    long long w2_off;
    long long w3_0;
    long long w3_i;
    long long w3_j;
    long long w3_n;
    long long w4_off;
    long long w4_s1;
    long long w5_off;
    long long n;
    long long cols;
};

extern "C" __global__ void weft_logical_and_where_multiply(
    const double* __restrict__ b0,
    double* __restrict__ b1,
    const weft_args args)
{
    const double s0 = args.s0;
    const long long w0_0 = args.w0_0;
    const long long w0_i = args.w0_i;
    const long long w0_j = args.w0_j;
    const long long w0_n = args.w0_n;
    const long long w1_0 = args.w1_0;
    const long long w1_i = args.w1_i;
    const long long w1_j = args.w1_j;
    const long long w2_off = args.w2_off;
    const long long w3_0 = args.w3_0;
    const long long w3_i = args.w3_i;
    const long long w3_j = args.w3_j;
    const long long w3_n = args.w3_n;
    const long long w4_off = args.w4_off;
    const long long w4_s1 = args.w4_s1;
    const long long w5_off = args.w5_off;
    const long long n = args.n;
    const long long cols = args.cols;
    const long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    const long long i = n <= 4294967295L ? (long long)((unsigned int)gid / (unsigned int)cols) : gid / cols;
    const long long j = gid - i * cols;
    const bool v0 = (w0_0 + w0_i * i + w0_j * j) >= 0 && (w0_0 + w0_i * i + w0_j * j) < w0_n;
    const bool v1 = (w1_0 + w1_i * i + w1_j * j) <= 0;
    const bool v2 = (v0 && v1);  // logical_and
    const double v3 = v2 ? b0[w2_off + gid] : (double)0;
    const double v4 = v1 ? v3 : (double)0;
    const bool v5 = (w3_0 + w3_i * i + w3_j * j) >= 0 && (w3_0 + w3_i * i + w3_j * j) < w3_n;
    const double v6 = v5 ? b0[w4_off + i + j * w4_s1] : (double)0;
    const double v7 = (v5 ? v6 : v4);  // where
    const double v8 = s0;
    const double v9 = (v7 * v8);  // multiply
    b1[w5_off + gid] = (double)v9;
}
