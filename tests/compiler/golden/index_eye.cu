struct weft_args {
    long long s0;
    long long w0_off;
    long long n;
    long long cols;
};

extern "C" __global__ void weft_subtract_equal(
    double* __restrict__ b0,
    const weft_args args)
{
    const long long s0 = args.s0;
    const int w0_off = (int)args.w0_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const long long v3 = s0;
    const int gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    const int i = (int)((unsigned int)gid / (unsigned int)cols);
    const int j = gid - i * cols;
    const long long v0 = (long long)j;
    const long long v1 = (long long)i;
    const long long v2 = ((long long)((unsigned long long)v0 - (unsigned long long)v1));  // subtract
    const bool v4 = (v2 == v3);  // equal
    const double v5 = ((double)v4);  // cast
    b0[w0_off + gid] = (double)v5;
}
