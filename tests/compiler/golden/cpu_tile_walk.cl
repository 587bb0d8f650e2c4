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

__attribute__((reqd_work_group_size(1, 1, 1))) __kernel void weft_exp_add_multiply(
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
    double tile0[128][128 + 1];
    const double v4 = s0;
    const int rows = n / cols;
    const int tiles_across = (cols + 128 - 1) / 128;
    const int tile_i = (int)(get_global_id(0)) / tiles_across;
    const int tile_j = (int)(get_global_id(0)) - tile_i * tiles_across;
    const int i0 = tile_i * 128;
    const int j0 = tile_j * 128;
    const int tile_rows = (int)(rows - i0 < 128 ? rows - i0 : 128);
    const int tile_cols = (int)(cols - j0 < 128 ? cols - j0 : 128);
    for (int tj = 0; tj < tile_cols; ++tj) {
        const int j = j0 + tj;
        for (int ti = 0; ti < tile_rows; ++ti) {
            const int i = i0 + ti;
            tile0[tj][ti] = b0[w0_off + i + j * w0_s1];
        }
    }
    for (int ti = 0; ti < tile_rows; ++ti) {
        const int i = i0 + ti;
        for (int tj = 0; tj < tile_cols; ++tj) {
            const int j = j0 + tj;
            const int gid = i * cols + j;
            const double v0 = tile0[tj][ti];
            const double v1 = exp(v0);  // exp
            const double v2 = b0[w1_off + gid];
            const double v3 = (v1 + v2);  // add
            const double v5 = (v0 * v4);  // multiply
            b1[w2_off + gid] = (double)v3;
            b2[w3_off + gid] = (double)v5;
        }
    }
}
