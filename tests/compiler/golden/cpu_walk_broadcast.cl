#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long w0_off;
    long w1_off;
    long w2_off;
    long w2_s0;
    long w3_off;
    long n;
    long cols;
} weft_args;

__attribute__((reqd_work_group_size(1, 1, 1))) __kernel void weft_log_multiply_add(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global const double* restrict b2,
    __global double* restrict b3,
    const weft_args args)
{
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w2_s0 = (int)args.w2_s0;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const int items = (int)get_global_size(0);
    const int run = (n + items - 1) / items;
    const int first = (int)(get_global_id(0)) * run;
    const int end = first + run < n ? first + run : n;
    if (first >= end) return;
    if (cols < 16) {
        for (int gid = first; gid < end; ++gid) {
            const int row_guess = (int)((double)gid * (1.0 / (double)cols));
            const int i = row_guess + ((row_guess + 1) * cols <= gid);
            const int j = gid - i * cols;
            const double v0 = b0[w0_off + gid];
            const double v1 = log(v0);  // log
            const double v2 = b1[w1_off + j];
            const double v3 = (v1 * v2);  // multiply
            const double v4 = b2[w2_off + i * w2_s0];
            const double v5 = (v3 + v4);  // add
            b3[w3_off + gid] = (double)v5;
        }
        return;
    }
    for (int i = first / cols, gid0 = i * cols; gid0 < end; ++i, gid0 += cols) {
        const int j_begin = first > gid0 ? first - gid0 : 0;
        const int j_end = end - gid0 < cols ? end - gid0 : cols;
        for (int j = j_begin; j < j_end; ++j) {
            const int gid = gid0 + j;
            const double v0 = b0[w0_off + gid];
            const double v1 = log(v0);  // log
            const double v2 = b1[w1_off + j];
            const double v3 = (v1 * v2);  // multiply
            const double v4 = b2[w2_off + i * w2_s0];
            const double v5 = (v3 + v4);  // add
            b3[w3_off + gid] = (double)v5;
        }
    }
}
