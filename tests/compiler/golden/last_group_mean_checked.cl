#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long err_off;
    double s0;
    double s1;
    long w0_off;
    long w1_off;
    long w2_off;
    long w2_seg;
    long w2_split;
    long w3_off;
    long rows;
    long cols;
    long lanes;
    long splits;
    long chunk;
    long contiguous;
} weft_args;

__kernel void weft_greater_subtract_add_reduce(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global double* restrict b2,
    __global double* restrict b3,
    __global long* restrict err,
    __global int* restrict err_seen,
    __global int* restrict done_groups,
    const weft_args args)
{
    const int err_off = (int)args.err_off;
    const double s0 = args.s0;
    const double s1 = args.s1;
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w2_seg = (int)args.w2_seg;
    const int w2_split = (int)args.w2_split;
    const int w3_off = (int)args.w3_off;
    const int rows = (int)args.rows;
    const int cols = (int)args.cols;
    const int lanes = 256;
    const int splits = (int)args.splits;
    const int chunk = (int)args.chunk;
    const int contiguous = 0;
    __local double red0[256];
    const double v1 = s0;
    const long v3 = (long)0;
    const int lid = get_local_id(0);
    const int team_lanes = (int)lanes;
    const int seg_local = (int)lid / team_lanes;
    const int lane = lid - seg_local * lanes;
    const int task = (int)get_group_id(0) * (256 / team_lanes) + seg_local;
    int i = task;
    int split = 0;
    if (splits > 1) {
        i = task / splits;
        split = task - i * splits;
    }
    const int segment = i;
    const int partner_step = 1;
    int begin = split * lanes;
    int end = cols;
    if (i >= rows) end = begin;
    int span = 1;
    if (contiguous) span = (end - begin + lanes - 1) / lanes;
    const int first = begin + lane * span;
    const int last = contiguous && first + span < end ? first + span : end;
    const int step = splits * lanes;
    long err_code = -1, err_a = 0, err_b = 0, err_bits = 0;
    double acc0 = 0.0;
    int j_next = first;
    for (; j_next + 3 * step < last; j_next += 4 * step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int j = j_next + u * step;
            const int gid = i * cols + j;
            const double v0 = b0[w0_off + gid];
            const bool v2 = (v0 > v1);  // greater
            const long v4 = (long)j;
            const double v5 = b1[w1_off + gid];
            const double v6 = (v0 - v5);  // subtract
            if (!v2 && err_code < 0) {
                err_code = 0; err_a = (long)v3; err_b = (long)v4;
                err_bits = (long)as_long(v0);
            }
            acc0 = (acc0 + v6);
        }
    }
    for (int j = j_next; j < last; j += step) {
        const int gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        const bool v2 = (v0 > v1);  // greater
        const long v4 = (long)j;
        const double v5 = b1[w1_off + gid];
        const double v6 = (v0 - v5);  // subtract
        if (!v2 && err_code < 0) {
            err_code = 0; err_a = (long)v3; err_b = (long)v4;
            err_bits = (long)as_long(v0);
        }
        acc0 = (acc0 + v6);
    }
    if (err_code >= 0 && atomic_cmpxchg((volatile __global int*)(err + err_off), 0, 1) == 0) {
        err[err_off + 1] = err_code; err[err_off + 2] = err_a;
        err[err_off + 3] = err_b; err[err_off + 4] = err_bits;
        err_seen[0] = 1;
    }
    red0[lid] = (double)acc0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = lanes >> 1; s > 0; s >>= 1) {
        if (lane < s) {
            const double lhs0 = red0[lid];
            const double rhs0 = red0[lid + s * partner_step];
            red0[lid] = (double)(lhs0 + rhs0);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lane == 0 && segment < rows) {
        b2[w2_off + segment * w2_seg + split * w2_split] = (double)red0[lid];
    }
    __local int last_group;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) last_group = atomic_fetch_add_explicit((volatile __global atomic_int*)done_groups, 1, memory_order_acq_rel, memory_scope_device) == (int)get_num_groups(0) - 1;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (last_group) {
        acc0 = 0.0;
        for (int p = lid; p < splits; p += 4 * 256) {
            const double other0_0 = p < splits ? ((volatile __global double*)b2)[w2_off + p * w2_split] : 0.0;
            const double other0_1 = (p + 256) < splits ? ((volatile __global double*)b2)[w2_off + (p + 256) * w2_split] : 0.0;
            const double other0_2 = (p + 512) < splits ? ((volatile __global double*)b2)[w2_off + (p + 512) * w2_split] : 0.0;
            const double other0_3 = (p + 768) < splits ? ((volatile __global double*)b2)[w2_off + (p + 768) * w2_split] : 0.0;
            acc0 = (acc0 + other0_0);
            acc0 = (acc0 + other0_1);
            acc0 = (acc0 + other0_2);
            acc0 = (acc0 + other0_3);
        }
        red0[lid] = (double)acc0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = lanes >> 1; s > 0; s >>= 1) {
            if (lane < s) {
                const double lhs0 = red0[lid];
                const double rhs0 = red0[lid + s * partner_step];
                red0[lid] = (double)(lhs0 + rhs0);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0) {
            b3[w3_off] = (double)red0[0] * s1;
            *done_groups = 0;
        }
    }
}
