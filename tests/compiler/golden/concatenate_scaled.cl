#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_logical_and_where_multiply(
    __global const double* restrict b0,
    __global double* restrict b1,
    const double s0,
    const long w0_0_64,
    const long w0_i_64,
    const long w0_j_64,
    const long w0_n_64,
    const long w1_0_64,
    const long w1_i_64,
    const long w1_j_64,
    const long w2_off_64,
    const long w3_0_64,
    const long w3_i_64,
    const long w3_j_64,
    const long w3_n_64,
    const long w4_off_64,
    const long w4_s1_64,
    const long w5_off_64,
    const long n_64,
    const long cols_64)
{
    const int w0_0 = (int)w0_0_64;
    const int w0_i = (int)w0_i_64;
    const int w0_j = (int)w0_j_64;
    const int w0_n = (int)w0_n_64;
    const int w1_0 = (int)w1_0_64;
    const int w1_i = (int)w1_i_64;
    const int w1_j = (int)w1_j_64;
    const int w2_off = (int)w2_off_64;
    const int w3_0 = (int)w3_0_64;
    const int w3_i = (int)w3_i_64;
    const int w3_j = (int)w3_j_64;
    const int w3_n = (int)w3_n_64;
    const int w4_off = (int)w4_off_64;
    const int w4_s1 = (int)w4_s1_64;
    const int w5_off = (int)w5_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
    const double v8 = s0;
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const int i = (int)((uint)gid / (uint)cols);
    const int j = gid - i * cols;
    const bool v0 = (w0_0 + w0_i * i + w0_j * j) >= 0 && (w0_0 + w0_i * i + w0_j * j) < w0_n;
    const bool v1 = (w1_0 + w1_i * i + w1_j * j) <= 0;
    const bool v2 = (v0 && v1);  // logical_and
    const double v3 = v2 ? b0[w2_off + gid] : (double)0;
    const double v4 = v1 ? v3 : (double)0;
    const bool v5 = (w3_0 + w3_i * i + w3_j * j) >= 0 && (w3_0 + w3_i * i + w3_j * j) < w3_n;
    const double v6 = v5 ? b0[w4_off + i + j * w4_s1] : (double)0;
    const double v7 = (v5 ? v6 : v4);  // where
    const double v9 = (v7 * v8);  // multiply
    b1[w5_off + gid] = (double)v9;
}
