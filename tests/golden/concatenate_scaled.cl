#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_logical_and_where_multiply(
    __global const double* restrict b0,
    __global double* restrict b1,
    const double s0,
    const long w0_0,
    const long w0_i,
    const long w0_j,
    const long w0_n,
    const long w1_0,
    const long w1_i,
    const long w1_j,
    const long w2_off,
    const long w3_0,
    const long w3_i,
    const long w3_j,
    const long w3_n,
    const long w4_off,
    const long w4_s1,
    const long w5_off,
    const long n,
    const long cols)
{
    const long gid = get_global_id(0);
    if (gid >= n) return;
    const long i = n <= 4294967295L ? (long)((uint)gid / (uint)cols) : gid / cols;
    const long j = gid - i * cols;
    const bool v0 = (w0_0 + w0_i * i + w0_j * j) >= 0 && (w0_0 + w0_i * i + w0_j * j) < w0_n;
    const bool v1 = (w1_0 + w1_i * i + w1_j * j) <= 0;
    const bool v2 = (v0 && v1);  // logical_and
    const double v3 = v2 ? b0[w2_off + gid] : (double)0;
    const double v4 = v1 ? v3 : (double)0;
    const bool v5 = (w3_0 + w3_i * i + w3_j * j) >= 0 && (w3_0 + w3_i * i + w3_j * j) < w3_n;
    const double v6 = v5 ? b0[w4_off + i + j * w4_s1] : (double)0;
    const double v7 = (v5 ? v6 : v4);  // where
    const double v8 = s0;
    const double v9 = (v7 * v8);  // multiply
    b1[w5_off + gid] = (double)v9;
}
