struct weft_args {
    long long w0_off;
    long long w0_s1;
    long long w1_0;
    long long w1_i;
    long long w1_j;
    long long w2_off;
    long long w3_off;
    long long n;
    long long cols;
};

extern "C" __global__ void weft_exp_add(
    const double* __restrict__ b0,
    double* __restrict__ b1,
    const weft_args args)
{
    const long long w0_off = args.w0_off;
    const long long w0_s1 = args.w0_s1;
    const long long w1_0 = args.w1_0;
    const long long w1_i = args.w1_i;
    const long long w1_j = args.w1_j;
    const long long w2_off = args.w2_off;
    const long long w3_off = args.w3_off;
    const long long n = args.n;
    const long long cols = args.cols;
    const long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    const long long i = n <= 4294967295L ? (long long)((unsigned int)gid / (unsigned int)cols) : gid / cols;
    const long long j = gid - i * cols;
    const double v0 = b0[w0_off + i + j * w0_s1];
    const double v1 = exp(v0);  // exp
    const bool v2 = (w1_0 + w1_i * i + w1_j * j) <= 0;
    const double v3 = v2 ? b0[w2_off + gid] : (double)0;
    const double v4 = v2 ? v3 : (double)0;
    const double v5 = (v1 + v4);  // add
    b1[w3_off + gid] = (double)v5;
}
