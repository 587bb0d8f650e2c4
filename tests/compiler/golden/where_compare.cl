#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long w0_off;
    long w1_off;
    long w2_off;
    long w3_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_greater_maximum_where(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global const double* restrict b2,
    __global double* restrict b3,
    const weft_args args)
{
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const double v0 = b0[w0_off + gid];
    const double v1 = b1[w1_off + gid];
    const bool v2 = (v0 > v1);  // greater
    const double v3 = b2[w2_off + gid];
    const double v4 = ((v1 > v3 || isnan(v1)) ? v1 : v3);  // maximum
    const double v5 = (v2 ? v0 : v4);  // where
    b3[w3_off + gid] = (double)v5;
}
