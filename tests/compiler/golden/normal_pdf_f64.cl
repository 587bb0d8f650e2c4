#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    double s0;
    double s1;
    long w0_off;
    long w1_off;
    long w2_off;
    long w3_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_subtract_divide_multiply_exp(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global const double* restrict b2,
    __global double* restrict b3,
    const weft_args args)
{
    const double s0 = args.s0;
    const double s1 = args.s1;
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
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
