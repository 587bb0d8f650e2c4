struct weft_args {
    long long w0_off;
    long long w0_s1;
    long long w1_off;
    long long w2_off;
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
    const long long w1_off = args.w1_off;
    const long long w2_off = args.w2_off;
    const long long n = args.n;
    const long long cols = args.cols;
    const long long first = (long long)blockIdx.x * 1024 + (long long)threadIdx.x;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const long long gid = first + k * 256;
        if (gid >= n) return;
        const long long i = n <= 4294967295L ? (long long)((unsigned int)gid / (unsigned int)cols) : gid / cols;
        const long long j = gid - i * cols;
        const double v0 = b0[w0_off + i + j * w0_s1];
        const double v1 = exp(v0);  // exp
        const double v2 = b0[w1_off + gid];
        const double v3 = (v1 + v2);  // add
        b1[w2_off + gid] = (double)v3;
    }
}
