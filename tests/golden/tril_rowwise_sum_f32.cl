#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_add_reduce(
    __global const float* restrict b0,
    __global float* restrict b1,
    const long w0_0,
    const long w0_i,
    const long w0_j,
    const long w1_off,
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
    const int team_lanes = (int)lanes;
    const long seg_local = (int)lid / team_lanes;
    const long lane = lid - seg_local * lanes;
    const long task = (long)get_group_id(0) * (256 / team_lanes) + seg_local;
    long i = task;
    long split = 0;
    if (splits > 1) {
        i = task / splits;
        split = task - i * splits;
    }
    const long segment = i;
    const long partner_step = 1;
    long begin = split * chunk;
    long end = begin + chunk < cols ? begin + chunk : cols;
    if (i >= rows) end = begin;
    if (end > i + 1) end = i + 1;
    long span = 1;
    if (contiguous) span = (end - begin + lanes - 1) / lanes;
    const long first = begin + lane * span;
    const long last = contiguous && first + span < end ? first + span : end;
    const long step = contiguous ? 1 : lanes;
    double acc0 = 0.0;
    long j_next = first;
    for (; j_next + 7 * step < last; j_next += 8 * step) {
#pragma unroll
        for (int u = 0; u < 8; ++u) {
            const long j = j_next + u * step;
            const long gid = i * cols + j;
            const bool v0 = (w0_0 + w0_i * i + w0_j * j) <= 0;
            const float v1 = v0 ? b0[w1_off + gid] : (float)0;
            const float v2 = v0 ? v1 : (float)0;
            const double v3 = ((double)v2);  // cast
            acc0 = (acc0 + v3);
        }
    }
    for (long j = j_next; j < last; j += step) {
        const long gid = i * cols + j;
        const bool v0 = (w0_0 + w0_i * i + w0_j * j) <= 0;
        const float v1 = v0 ? b0[w1_off + gid] : (float)0;
        const float v2 = v0 ? v1 : (float)0;
        const double v3 = ((double)v2);  // cast
        acc0 = (acc0 + v3);
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
        b1[w2_off + segment * w2_seg + split * w2_split] = (float)red0[lid];
    }
}
