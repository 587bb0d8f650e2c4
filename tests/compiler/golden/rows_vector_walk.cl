#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long err_off;
    double s0;
    long w0_off;
    long w1_off;
    long w2_off;
    long w2_seg;
    long w2_split;
    long rows;
    long cols;
    long lanes;
    long splits;
    long chunk;
    long contiguous;
} weft_args;

__kernel void weft_greater_multiply_add_reduce(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global double* restrict b2,
    __global long* restrict err,
    __global int* restrict err_seen,
    const weft_args args)
{
    const long err_off = args.err_off;
    const double s0 = args.s0;
    const long w0_off = args.w0_off;
    const long w1_off = args.w1_off;
    const long w2_off = args.w2_off;
    const long w2_seg = args.w2_seg;
    const long w2_split = args.w2_split;
    const long rows = args.rows;
    const long cols = args.cols;
    const long lanes = 32;
    const long splits = 1;
    const long chunk = args.chunk;
    const long contiguous = 0;
    __local double red0[256];
    const double v1 = s0;
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
    long span = 1;
    if (contiguous) span = ((end - begin + lanes - 1) / lanes + 2 - 1) / 2 * 2;
    const long first = begin + lane * span;
    const long last = contiguous && first + span < end ? first + span : end;
    const long step = contiguous ? 1 : lanes;
    const int vector_step = contiguous ? 2 : lanes * 2;
    const long walk_start = contiguous ? first : begin;
    const long walk = (contiguous ? last : end) - walk_start;
    const int vector_end = walk_start + (walk > 0 ? walk / 2 * 2 : 0);
    long err_code = -1, err_a = 0, err_b = 0, err_bits = 0;
    double acc0 = 0.0;
    double2 q0[4];
    double2 q1[4];
    const long r0 = w0_off + i * cols;
    const long r1 = w1_off;
    int j_next = contiguous ? first : begin + lane * 2;
    for (; j_next + 3 * vector_step < vector_end;
         j_next += 4 * vector_step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int j0 = j_next + u * vector_step;
            const long gid0 = i * cols + j0;
            q0[u] = *(__global const double2*)(b0 + r0 + j0);
            q1[u] = *(__global const double2*)(b1 + r1 + j0);
        }
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int j0 = j_next + u * vector_step;
            const long gid0 = i * cols + j0;
            const long j_0 = j0 + 0;
            const long gid_0 = gid0 + 0;
            const long j_1 = j0 + 1;
            const long gid_1 = gid0 + 1;
            const double v0_0 = q0[u].x;
            const double v0_1 = q0[u].y;
            const bool v2_0 = (v0_0 > v1);  // greater
            const bool v2_1 = (v0_1 > v1);  // greater
            const long v3_0 = (long)i;
            const long v3_1 = (long)i;
            const long v4_0 = (long)j_0;
            const long v4_1 = (long)j_1;
            const double v5_0 = q1[u].x;
            const double v5_1 = q1[u].y;
            const double v6_0 = (v0_0 * v5_0);  // multiply
            const double v6_1 = (v0_1 * v5_1);  // multiply
            if (!v2_0 && err_code < 0) {
                err_code = 0; err_a = (long)v3_0; err_b = (long)v4_0;
                err_bits = (long)as_long(v0_0);
            }
            if (!v2_1 && err_code < 0) {
                err_code = 0; err_a = (long)v3_1; err_b = (long)v4_1;
                err_bits = (long)as_long(v0_1);
            }
            acc0 = (acc0 + v6_0);
            acc0 = (acc0 + v6_1);
        }
    }
    if (j_next < vector_end) {
#pragma unroll
        for (int u = 0; u < 3; ++u) {
            const int j0 = j_next + u * vector_step;
            const long gid0 = i * cols + j0;
            if (j0 < vector_end) {
                q0[u] = *(__global const double2*)(b0 + r0 + j0);
                q1[u] = *(__global const double2*)(b1 + r1 + j0);
            }
        }
#pragma unroll
        for (int u = 0; u < 3; ++u) {
            const int j0 = j_next + u * vector_step;
            const long gid0 = i * cols + j0;
            if (j0 < vector_end) {
                const long j_0 = j0 + 0;
                const long gid_0 = gid0 + 0;
                const long j_1 = j0 + 1;
                const long gid_1 = gid0 + 1;
                const double v0_0 = q0[u].x;
                const double v0_1 = q0[u].y;
                const bool v2_0 = (v0_0 > v1);  // greater
                const bool v2_1 = (v0_1 > v1);  // greater
                const long v3_0 = (long)i;
                const long v3_1 = (long)i;
                const long v4_0 = (long)j_0;
                const long v4_1 = (long)j_1;
                const double v5_0 = q1[u].x;
                const double v5_1 = q1[u].y;
                const double v6_0 = (v0_0 * v5_0);  // multiply
                const double v6_1 = (v0_1 * v5_1);  // multiply
                if (!v2_0 && err_code < 0) {
                    err_code = 0; err_a = (long)v3_0; err_b = (long)v4_0;
                    err_bits = (long)as_long(v0_0);
                }
                if (!v2_1 && err_code < 0) {
                    err_code = 0; err_a = (long)v3_1; err_b = (long)v4_1;
                    err_bits = (long)as_long(v0_1);
                }
                acc0 = (acc0 + v6_0);
                acc0 = (acc0 + v6_1);
            }
        }
    }
    for (long j = vector_end + (contiguous ? 0 : lane); j < last; j += step) {
        const long gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        const bool v2 = (v0 > v1);  // greater
        const long v3 = (long)i;
        const long v4 = (long)j;
        const double v5 = b1[w1_off + j];
        const double v6 = (v0 * v5);  // multiply
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
