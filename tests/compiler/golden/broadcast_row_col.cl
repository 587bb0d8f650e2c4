#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_multiply_add(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global const double* restrict b2,
    __global double* restrict b3,
    const long w0_off_64,
    const long w1_off_64,
    const long w2_off_64,
    const long w2_s0_64,
    const long w3_off_64,
    const long n_64,
    const long cols_64)
{
    const int w0_off = (int)w0_off_64;
    const int w1_off = (int)w1_off_64;
    const int w2_off = (int)w2_off_64;
    const int w2_s0 = (int)w2_s0_64;
    const int w3_off = (int)w3_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const int i = (int)((uint)gid / (uint)cols);
    const int j = gid - i * cols;
    const double v0 = b0[w0_off + gid];
    const double v1 = b1[w1_off + j];
    const double v2 = (v0 * v1);  // multiply
    const double v3 = b2[w2_off + i * w2_s0];
    const double v4 = (v2 + v3);  // add
    b3[w3_off + gid] = (double)v4;
}
