#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    double s0;
    long w0_0;
    long w0_i;
    long w0_j;
    long w0_n;
    long w1_0;
    long w1_i;
    long w1_j;
    long w2_off;
    long w3_0;
    long w3_i;
    long w3_j;
    long w3_n;
    long w4_off;
    long w4_s1;
    long w5_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_logical_and_where_multiply(
    __global const double* restrict b0,
    __global double* restrict b1,
    const weft_args args)
{
    const double s0 = args.s0;
    const int w0_0 = (int)args.w0_0;
    const int w0_i = (int)args.w0_i;
    const int w0_j = (int)args.w0_j;
    const int w0_n = (int)args.w0_n;
    const int w1_0 = (int)args.w1_0;
    const int w1_i = (int)args.w1_i;
    const int w1_j = (int)args.w1_j;
    const int w2_off = (int)args.w2_off;
    const int w3_0 = (int)args.w3_0;
    const int w3_i = (int)args.w3_i;
    const int w3_j = (int)args.w3_j;
    const int w3_n = (int)args.w3_n;
    const int w4_off = (int)args.w4_off;
    const int w4_s1 = (int)args.w4_s1;
    const int w5_off = (int)args.w5_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
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
