struct weft_args {
    long long w0_off;
    long long w1_off;
    long long w2_off;
    long long w2_s0;
    long long w3_off;
    long long n;
    long long cols;
};

extern "C" __global__ void weft_multiply_add(
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
    const int gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    const int i = (int)((unsigned int)gid / (unsigned int)cols);
    const int j = gid - i * cols;
    const double v0 = b0[w0_off + gid];
    const double v1 = b1[w1_off + j];
    const double v2 = (v0 * v1);  // multiply
    const double v3 = b2[w2_off + i * w2_s0];
    const double v4 = (v2 + v3);  // add
    b3[w3_off + gid] = (double)v4;
}
