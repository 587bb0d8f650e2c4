#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    double s0;
    long w0_off;
    long w1_off;
    long w1_seg;
    long w1_split;
    long rows;
    long cols;
    long lanes;
    long splits;
    long chunk;
} weft_args;

__kernel void weft_exp_multiply_subtract_add_reduce(
    __global const double* restrict b0,
    __global double* restrict b1,
    const weft_args args)
{
    const double s0 = args.s0;
    const long w0_off = args.w0_off;
    const long w1_off = args.w1_off;
    const long w1_seg = args.w1_seg;
    const long w1_split = args.w1_split;
    const long rows = args.rows;
    const long cols = args.cols;
    const long lanes = args.lanes;
    const long splits = args.splits;
    const long chunk = args.chunk;
    __local double red0[256];
    const double v2 = s0;
    const long lid = get_local_id(0);
    const long width = 256 / lanes;
    const long lane = lid / width;
    const long seg_local = lid - lane * width;
    const long col_blocks = (cols + width - 1) / width;
    const long split = (long)get_group_id(0) / col_blocks;
    const long j = ((long)get_group_id(0) - split * col_blocks) * width + seg_local;
    const long segment = j;
    const long partner_step = width;
    long begin = split * chunk;
    long end = begin + chunk < rows ? begin + chunk : rows;
    if (j >= cols) end = begin;
    double acc0 = 0.0;
    long i_next = begin + lane;
    for (; i_next + 3 * lanes < end; i_next += 4 * lanes) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const long i = i_next + u * lanes;
            const long gid = i * cols + j;
            const double v0 = b0[w0_off + gid];
            const double v1 = exp(v0);  // exp
            const double v3 = (v1 * v2);  // multiply
            const double v4 = (v3 - v0);  // subtract
            acc0 = (acc0 + v4);
        }
    }
    for (long i = i_next; i < end; i += lanes) {
        const long gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        const double v1 = exp(v0);  // exp
        const double v3 = (v1 * v2);  // multiply
        const double v4 = (v3 - v0);  // subtract
        acc0 = (acc0 + v4);
    }
    red0[lid] = (double)acc0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (long s = lanes >> 1; s > 0; s >>= 1) {
        if (lane < s) {
            const double lhs0 = red0[lid];
            const double rhs0 = red0[lid + s * partner_step];
            red0[lid] = (double)(lhs0 + rhs0);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && segment < cols) {
        b1[w1_off + segment * w1_seg + split * w1_split] = (double)red0[lid];
    }
}
