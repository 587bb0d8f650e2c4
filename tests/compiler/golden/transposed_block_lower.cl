#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long w0_off;
    long w0_s1;
    long w1_0;
    long w1_i;
    long w1_j;
    long w2_off;
    long w3_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_exp_add(
    __global const double* restrict b0,
    __global double* restrict b1,
    const weft_args args)
{
    const int w0_off = (int)args.w0_off;
    const int w0_s1 = (int)args.w0_s1;
    const int w1_0 = (int)args.w1_0;
    const int w1_i = (int)args.w1_i;
    const int w1_j = (int)args.w1_j;
    const int w2_off = (int)args.w2_off;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
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
