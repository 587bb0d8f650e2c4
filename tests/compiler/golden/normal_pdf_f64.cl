#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_subtract_divide_multiply_exp(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global const double* restrict b2,
    __global double* restrict b3,
    const double s0,
    const double s1,
    const long w0_off_64,
    const long w1_off_64,
    const long w2_off_64,
    const long w3_off_64,
    const long n_64,
    const long cols_64)
{
    const int w0_off = (int)w0_off_64;
    const int w1_off = (int)w1_off_64;
    const int w2_off = (int)w2_off_64;
    const int w3_off = (int)w3_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
    const double v0 = s0;
    const double v9 = s1;
    const int gid = get_global_id(0);
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
