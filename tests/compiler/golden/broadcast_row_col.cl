#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long w0_off;
    long w1_off;
    long w2_off;
    long w2_s0;
    long w3_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_multiply_add(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global const double* restrict b2,
    __global double* restrict b3,
    const weft_args args)
{
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w2_s0 = (int)args.w2_s0;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
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
