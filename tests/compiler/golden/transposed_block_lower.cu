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
    const int w0_off = (int)args.w0_off;
    const int w0_s1 = (int)args.w0_s1;
    const int w1_0 = (int)args.w1_0;
    const int w1_i = (int)args.w1_i;
    const int w1_j = (int)args.w1_j;
    const int w2_off = (int)args.w2_off;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const int gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    const int i = (int)((unsigned int)gid / (unsigned int)cols);
    const int j = gid - i * cols;
    const double v0 = b0[w0_off + i + j * w0_s1];
    const double v1 = exp(v0);  // exp
    const bool v2 = (w1_0 + w1_i * i + w1_j * j) <= 0;
    const double v3 = v2 ? b0[w2_off + gid] : (double)0;
    const double v4 = v2 ? v3 : (double)0;
    const double v5 = (v1 + v4);  // add
    b1[w3_off + gid] = (double)v5;
}
