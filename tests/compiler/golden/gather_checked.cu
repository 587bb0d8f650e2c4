struct weft_args {
    long long err_off;
    double s0;
    long long w0_off;
    long long w1_off;
    long long w1_s0;
    long long w1_s1;
    long long w1_rows;
    long long w1_cols;
    long long w2_off;
    long long w3_off;
    long long n;
    long long cols;
};

extern "C" __global__ void weft_greater_multiply(
    const int* __restrict__ b0,
    const double* __restrict__ b1,
    const double* __restrict__ b2,
    double* __restrict__ b3,
    long long* __restrict__ err,
    int* __restrict__ err_seen,
    const weft_args args)
{
    const int err_off = (int)args.err_off;
    const double s0 = args.s0;
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w1_s0 = (int)args.w1_s0;
    const int w1_s1 = (int)args.w1_s1;
    const int w1_rows = (int)args.w1_rows;
    const int w1_cols = (int)args.w1_cols;
    const int w2_off = (int)args.w2_off;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const double v4 = s0;
    const long long v6 = (long long)0;
    const int gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    const int i = 0;
    const int j = gid;
    const int v0 = b0[w0_off + gid];
    const long long v1 = ((long long)v0);  // cast
    const long long v2_r_raw = 0;
    const long long v2_r = v2_r_raw < 0 ? v2_r_raw + w1_rows : v2_r_raw;
    const long long v2_c_raw = v1;
    const long long v2_c = v2_c_raw < 0 ? v2_c_raw + w1_cols : v2_c_raw;
    const bool v2_ok = (v2_r >= 0 && v2_r < w1_rows && v2_c >= 0 && v2_c < w1_cols);
    const double v2 = (v2_ok) ? b1[w1_off + v2_r * w1_s0 + v2_c * w1_s1] : (double)0;
    if (!v2_ok && atomicCAS((int*)(err + err_off), 0, 1) == 0) {
        err[err_off + 1] = 0; err[err_off + 2] = (long long)v2_r_raw;
        err[err_off + 3] = (long long)v2_c_raw; err[err_off + 4] = (long long)0;
        err_seen[0] = 1;
    }
    const double v3 = b2[w2_off + gid];
    const bool v5 = (v3 > v4);  // greater
    const long long v7 = (long long)j;
    if (!v5 && atomicCAS((int*)(err + err_off), 0, 1) == 0) {
        err[err_off + 1] = 1; err[err_off + 2] = (long long)v6;
        err[err_off + 3] = (long long)v7; err[err_off + 4] = (long long)__double_as_longlong(v3);
        err_seen[0] = 1;
    }
    const double v8 = (v2 * v3);  // multiply
    b3[w3_off + gid] = (double)v8;
}
