#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_greater_multiply(
    __global const int* restrict b0,
    __global const double* restrict b1,
    __global const double* restrict b2,
    __global double* restrict b3,
    __global long* restrict err,
    const long err_off_64,
    __global int* restrict err_seen,
    const double s0,
    const long w0_off_64,
    const long w1_off_64,
    const long w1_s0_64,
    const long w1_s1_64,
    const long w1_rows_64,
    const long w1_cols_64,
    const long w2_off_64,
    const long w3_off_64,
    const long n_64,
    const long cols_64)
{
    const int err_off = (int)err_off_64;
    const int w0_off = (int)w0_off_64;
    const int w1_off = (int)w1_off_64;
    const int w1_s0 = (int)w1_s0_64;
    const int w1_s1 = (int)w1_s1_64;
    const int w1_rows = (int)w1_rows_64;
    const int w1_cols = (int)w1_cols_64;
    const int w2_off = (int)w2_off_64;
    const int w3_off = (int)w3_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
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
