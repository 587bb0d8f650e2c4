#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_exp_add(
    __global const double* restrict b0,
    __global double* restrict b1,
    const long w0_off_64,
    const long w0_s1_64,
    const long w1_off_64,
    const long w2_off_64,
    const long n_64,
    const long cols_64)
{
    const int w0_off = (int)w0_off_64;
    const int w0_s1 = (int)w0_s1_64;
    const int w1_off = (int)w1_off_64;
    const int w2_off = (int)w2_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
    const int first = (int)get_group_id(0) * 1024 + get_local_id(0);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int gid = first + k * 256;
        if (gid >= n) return;
        const int i = (int)((uint)gid / (uint)cols);
        const int j = gid - i * cols;
        const double v0 = b0[w0_off + i + j * w0_s1];
        const double v1 = exp(v0);  // exp
        const double v2 = b0[w1_off + gid];
        const double v3 = (v1 + v2);  // add
        b1[w2_off + gid] = (double)v3;
    }
}
