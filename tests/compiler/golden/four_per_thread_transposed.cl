#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long w0_off;
    long w0_s1;
    long w1_off;
    long w2_off;
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
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
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
