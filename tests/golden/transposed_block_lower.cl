#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_exp_add(
    __global const double* restrict b0,
    __global double* restrict b1,
    const long w0_off,
    const long w0_s1,
    const long w1_0,
    const long w1_i,
    const long w1_j,
    const long w2_off,
    const long w3_off,
    const long n,
    const long cols)
{
    const long gid = get_global_id(0);
    if (gid >= n) return;
    const long i = n <= 4294967295L ? (long)((uint)gid / (uint)cols) : gid / cols;
    const long j = gid - i * cols;
    const double v0 = b0[w0_off + i + j * w0_s1];
    const double v1 = exp(v0);  // exp
    const bool v2 = (w1_0 + w1_i * i + w1_j * j) <= 0;
    const double v3 = v2 ? b0[w2_off + gid] : (double)0;
    const double v4 = v2 ? v3 : (double)0;
    const double v5 = (v1 + v4);  // add
    b1[w3_off + gid] = (double)v5;
}
