#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long w0_off;
    long w1_off;
    long w1_seg;
    long w1_split;
    long rows;
    long cols;
    long lanes;
    long splits;
    long chunk;
    long contiguous;
} weft_args;

__kernel void weft_add_reduce(
    __global const float* restrict b0,
    __global float* restrict b1,
    const weft_args args)
{
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w1_seg = (int)args.w1_seg;
    const int w1_split = (int)args.w1_split;
    const int rows = (int)args.rows;
    const int cols = (int)args.cols;
    const int lanes = 1;
    const int splits = 1;
    const int chunk = (int)args.chunk;
    const int contiguous = 0;
    __local double red0[256];
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
    int begin = split * chunk;
    int end = begin + chunk < cols ? begin + chunk : cols;
    if (i >= rows) end = begin;
    if (end > i + 1) end = i + 1;
    int span = 1;
    if (contiguous) span = (end - begin + lanes - 1) / lanes;
    const int first = begin + lane * span;
    const int last = contiguous && first + span < end ? first + span : end;
    const int step = contiguous ? 1 : lanes;
    double acc0 = 0.0;
    int j_next = first;
    for (; j_next + 7 * step < last; j_next += 8 * step) {
#pragma unroll
        for (int u = 0; u < 8; ++u) {
            const int j = j_next + u * step;
            const int gid = i * cols + j;
            const float v0 = b0[w0_off + gid];
            const double v1 = ((double)v0);  // cast
            acc0 = (acc0 + v1);
        }
    }
    for (int j = j_next; j < last; j += step) {
        const int gid = i * cols + j;
        const float v0 = b0[w0_off + gid];
        const double v1 = ((double)v0);  // cast
        acc0 = (acc0 + v1);
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
        b1[w1_off + segment * w1_seg + split * w1_split] = (float)red0[lid];
    }
}
