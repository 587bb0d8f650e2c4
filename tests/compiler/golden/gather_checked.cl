#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long err_off;
    double s0;
    long w0_off;
    long w1_off;
    long w1_s0;
    long w1_s1;
    long w1_rows;
    long w1_cols;
    long w2_off;
    long w3_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_greater_multiply(
    __global const int* restrict b0,
    __global const double* restrict b1,
    __global const double* restrict b2,
    __global double* restrict b3,
    __global long* restrict err,
    __global int* restrict err_seen,
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
    const long v6 = (long)0;
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const int i = 0;
    const int j = gid;
    const int v0 = b0[w0_off + gid];
    const long v1 = ((long)v0);  // cast
    const long v2_r_raw = 0;
    const long v2_r = v2_r_raw < 0 ? v2_r_raw + w1_rows : v2_r_raw;
    const long v2_c_raw = v1;
    const long v2_c = v2_c_raw < 0 ? v2_c_raw + w1_cols : v2_c_raw;
    const bool v2_ok = (v2_r >= 0 && v2_r < w1_rows && v2_c >= 0 && v2_c < w1_cols);
    const double v2 = (v2_ok) ? b1[w1_off + v2_r * w1_s0 + v2_c * w1_s1] : (double)0;
    if (!v2_ok && atomic_cmpxchg((volatile __global int*)(err + err_off), 0, 1) == 0) {
        err[err_off + 1] = 0; err[err_off + 2] = (long)v2_r_raw;
        err[err_off + 3] = (long)v2_c_raw; err[err_off + 4] = (long)0;
        err_seen[0] = 1;
    }
    const double v3 = b2[w2_off + gid];
    const bool v5 = (v3 > v4);  // greater
    const long v7 = (long)j;
    if (!v5 && atomic_cmpxchg((volatile __global int*)(err + err_off), 0, 1) == 0) {
        err[err_off + 1] = 1; err[err_off + 2] = (long)v6;
        err[err_off + 3] = (long)v7; err[err_off + 4] = (long)as_long(v3);
        err_seen[0] = 1;
    }
    const double v8 = (v2 * v3);  // multiply
    b3[w3_off + gid] = (double)v8;
}
