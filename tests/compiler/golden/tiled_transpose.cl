#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    double s0;
    long w0_off;
    long w0_s1;
    long w1_off;
    long w2_off;
    long w3_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_exp_add_multiply(
    __global const double* restrict b0,
    __global double* restrict b1,
    __global double* restrict b2,
    const weft_args args)
{
    const double s0 = args.s0;
    const int w0_off = (int)args.w0_off;
    const int w0_s1 = (int)args.w0_s1;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    __local double tile0[32][32 + 1];
    const double v4 = s0;
    const int rows = n / cols;
    const int tiles_across = (cols + 32 - 1) / 32;
    const int tile_i = (int)get_group_id(0) / tiles_across;
    const int tile_j = (int)get_group_id(0) - tile_i * tiles_across;
    const int tx = get_local_id(0) % 32;
    const int ty = get_local_id(0) / 32;
#pragma unroll
    for (int k = 0; k < 32; k += 8) {
        const int i = tile_i * 32 + tx;
        const int j = tile_j * 32 + ty + k;
        if (i < rows && j < cols) {
            tile0[ty + k][tx] = b0[w0_off + i + j * w0_s1];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < 32; k += 8) {
        const int i = tile_i * 32 + ty + k;
        const int j = tile_j * 32 + tx;
        const int gid = i * cols + j;
        if (i < rows && j < cols) {
            const double v0 = tile0[tx][ty + k];
            const double v1 = exp(v0);  // exp
            const double v2 = b0[w1_off + gid];
            const double v3 = (v1 + v2);  // add
            const double v5 = (v0 * v4);  // multiply
            b1[w2_off + gid] = (double)v3;
            b2[w3_off + gid] = (double)v5;
        }
    }
}
