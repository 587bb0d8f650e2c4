#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_exp_add_multiply(
    __global const double* restrict b0,
    __global double* restrict b1,
    __global double* restrict b2,
    const double s0,
    const long w0_off_64,
    const long w0_s1_64,
    const long w1_off_64,
    const long w2_off_64,
    const long w3_off_64,
    const long n_64,
    const long cols_64)
{
    const int w0_off = (int)w0_off_64;
    const int w0_s1 = (int)w0_s1_64;
    const int w1_off = (int)w1_off_64;
    const int w2_off = (int)w2_off_64;
    const int w3_off = (int)w3_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
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
