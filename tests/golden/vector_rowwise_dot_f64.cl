#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_multiply_add_reduce(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global double* restrict b2,
    const long w0_off,
    const long w1_off,
    const long w1_s0,
    const long w1_s1,
    const long w2_off,
    const long w2_seg,
    const long w2_split,
    const long rows,
    const long cols,
    const long lanes,
    const long splits,
    const long chunk,
    const long contiguous)
{
    __local double red0[256];
    const long lid = get_local_id(0);
    const long seg_local = lid / lanes;
    const long lane = lid - seg_local * lanes;
    const long task = (long)get_group_id(0) * (256 / lanes) + seg_local;
    const long i = task / splits;
    const long split = task - i * splits;
    const long segment = i;
    const long partner_step = 1;
    long begin = split * chunk;
    long end = begin + chunk < cols ? begin + chunk : cols;
    if (i >= rows) end = begin;
    const long span = contiguous ? (end - begin + lanes - 1) / lanes : 1;
    const long first = begin + lane * span;
    const long last = contiguous && first + span < end ? first + span : end;
    const long step = contiguous ? 1 : lanes;
    double acc0 = 0.0;
    long j_next = first;
    if (!contiguous &&
        cols % 2 == 0 &&
        chunk % 2 == 0 &&
        ((ulong)(b0 + w0_off) & 15) == 0 &&
        w1_s1 == 1 && w1_s0 % 2 == 0 && ((ulong)(b1 + w1_off) & 15) == 0) {
        long base = begin;
        for (; base + 8 * lanes <= end; base += 8 * lanes) {
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const long jv = base + (u * lanes + lane) * 2;
                const double2 q0 = *(__global const double2*)(b0 + w0_off + i * cols + jv);
                const double2 q1 = *(__global const double2*)(b1 + w1_off + i * w1_s0 + jv);
                {
                    const long j = jv + 0;
                    const long gid = i * cols + j;
                    const double v0 = q0.x;
                    const double v1 = q1.x;
                    const double v2 = (v0 * v1);  // multiply
                    acc0 = (acc0 + v2);
                }
                {
                    const long j = jv + 1;
                    const long gid = i * cols + j;
                    const double v0 = q0.y;
                    const double v1 = q1.y;
                    const double v2 = (v0 * v1);  // multiply
                    acc0 = (acc0 + v2);
                }
            }
        }
        j_next = base + lane;
    }
    for (; j_next + 3 * step < last; j_next += 4 * step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const long j = j_next + u * step;
            const long gid = i * cols + j;
            const double v0 = b0[w0_off + gid];
            const double v1 = b1[w1_off + i * w1_s0 + j * w1_s1];
            const double v2 = (v0 * v1);  // multiply
            acc0 = (acc0 + v2);
        }
    }
    for (long j = j_next; j < last; j += step) {
        const long gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        const double v1 = b1[w1_off + i * w1_s0 + j * w1_s1];
        const double v2 = (v0 * v1);  // multiply
        acc0 = (acc0 + v2);
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
    if (lane == 0 && segment < rows) {
        b2[w2_off + segment * w2_seg + split * w2_split] = (double)red0[lid];
    }
}
