#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long s0;
    long w0_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_subtract_equal(
    __global double* restrict b0,
    const weft_args args)
{
    const long s0 = args.s0;
    const int w0_off = (int)args.w0_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const long v3 = s0;
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const int i = (int)((uint)gid / (uint)cols);
    const int j = gid - i * cols;
    const long v0 = (long)j;
    const long v1 = (long)i;
    const long v2 = ((long)((ulong)v0 - (ulong)v1));  // subtract
    const bool v4 = (v2 == v3);  // equal
    const double v5 = ((double)v4);  // cast
    b0[w0_off + gid] = (double)v5;
}
