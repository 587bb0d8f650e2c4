#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_subtract_equal(
    __global double* restrict b0,
    const long s0,
    const long w0_off_64,
    const long n_64,
    const long cols_64)
{
    const int w0_off = (int)w0_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
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
