struct weft_args {
    double s0;
    double s1;
    long long w0_off;
    long long w1_off;
    long long w2_off;
    long long w3_off;
    long long n;
    long long cols;
};

extern "C" __global__ void weft_subtract_divide_multiply_exp(
    const double* __restrict__ b0,
    const double* __restrict__ b1,
    const double* __restrict__ b2,
    double* __restrict__ b3,
    const weft_args args)
{
    const double s0 = args.s0;
    const double s1 = args.s1;
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const double v0 = s0;
    const double v9 = s1;
    const int gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    const double v1 = b0[w0_off + gid];
    const double v2 = b1[w1_off + gid];
    const double v3 = (v1 - v2);  // subtract
    const double v4 = b2[w2_off + gid];
    const double v5 = (v3 / v4);  // divide
    const double v6 = (v0 * v5);  // multiply
    const double v7 = (v6 * v5);  // multiply
    const double v8 = exp(v7);  // exp
    const double v10 = (v4 * v9);  // multiply
    const double v11 = (v8 / v10);  // divide
    b3[w3_off + gid] = (double)v11;
}
