#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_exp_add(
    __global const double* restrict b0,
    __global double* restrict b1,
    const long w0_off_64,
    const long w0_s1_64,
    const long w1_0_64,
    const long w1_i_64,
    const long w1_j_64,
    const long w2_off_64,
    const long w3_off_64,
    const long n_64,
    const long cols_64)
{
    const int w0_off = (int)w0_off_64;
    const int w0_s1 = (int)w0_s1_64;
    const int w1_0 = (int)w1_0_64;
    const int w1_i = (int)w1_i_64;
    const int w1_j = (int)w1_j_64;
    const int w2_off = (int)w2_off_64;
    const int w3_off = (int)w3_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const int i = (int)((uint)gid / (uint)cols);
    const int j = gid - i * cols;
    const double v0 = b0[w0_off + i + j * w0_s1];
    const double v1 = exp(v0);  // exp
    const bool v2 = (w1_0 + w1_i * i + w1_j * j) <= 0;
    const double v3 = v2 ? b0[w2_off + gid] : (double)0;
    const double v4 = v2 ? v3 : (double)0;
    const double v5 = (v1 + v4);  // add
    b1[w3_off + gid] = (double)v5;
}
