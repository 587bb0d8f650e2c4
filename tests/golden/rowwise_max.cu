#define INFINITY __int_as_float(0x7f800000)

struct weft_args {
    long long w0_off;
    long long w1_off;
    long long w1_seg;
    long long w1_split;
    long long rows;
    long long cols;
    long long lanes;
    long long splits;
    long long chunk;
    long long contiguous;
};

extern "C" __global__ void weft_maximum_reduce(
    const double* __restrict__ b0,
    double* __restrict__ b1,
    const weft_args args)
{
    const long long w0_off = args.w0_off;
    const long long w1_off = args.w1_off;
    const long long w1_seg = args.w1_seg;
    const long long w1_split = args.w1_split;
    const long long rows = args.rows;
    const long long cols = args.cols;
    const long long lanes = args.lanes;
    const long long splits = args.splits;
    const long long chunk = args.chunk;
    const long long contiguous = args.contiguous;
    __shared__ double red0[256];
    const long long lid = (long long)threadIdx.x;
    const int team_lanes = (int)lanes;
    const long long seg_local = (int)lid / team_lanes;
    const long long lane = lid - seg_local * lanes;
    const long long task = (long long)blockIdx.x * (256 / team_lanes) + seg_local;
    long long i = task;
    long long split = 0;
    if (splits > 1) {
        i = task / splits;
        split = task - i * splits;
    }
    const long long segment = i;
    const long long partner_step = 1;
    long long begin = split * chunk;
    long long end = begin + chunk < cols ? begin + chunk : cols;
    if (i >= rows) end = begin;
    long long span = 1;
    if (contiguous) span = (end - begin + lanes - 1) / lanes;
    const long long first = begin + lane * span;
    const long long last = contiguous && first + span < end ? first + span : end;
    const long long step = contiguous ? 1 : lanes;
    double acc0 = -INFINITY;
    long long j_next = first;
    for (; j_next + 3 * step < last; j_next += 4 * step) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const long long j = j_next + u * step;
            const long long gid = i * cols + j;
            const double v0 = b0[w0_off + gid];
            acc0 = ((acc0 > v0 || isnan(acc0)) ? acc0 : v0);
        }
    }
    for (long long j = j_next; j < last; j += step) {
        const long long gid = i * cols + j;
        const double v0 = b0[w0_off + gid];
        acc0 = ((acc0 > v0 || isnan(acc0)) ? acc0 : v0);
    }
    const int shuffle_width = lanes < 32 ? (int)lanes : 32;
    for (int o = shuffle_width >> 1; o > 0; o >>= 1) {
        { const double other0 = (double)__shfl_down_sync(0xffffffffu, acc0, o, shuffle_width); acc0 = ((acc0 > other0 || isnan(acc0)) ? acc0 : other0); }
    }
    if (lanes > 32) {
        if ((lid & 31) == 0) {
            red0[lid >> 5] = (double)acc0;
        }
        __syncthreads();
        if (lane == 0) {
            for (long long w = 1; w < (lanes >> 5); ++w) {
                { const double other0 = red0[(lid >> 5) + w]; acc0 = ((acc0 > other0 || isnan(acc0)) ? acc0 : other0); }
            }
        }
    }
    if (lane == 0) {
        red0[lid] = (double)acc0;
    }
    if (lane == 0 && segment < rows) {
        b1[w1_off + segment * w1_seg + split * w1_split] = (double)red0[lid];
    }
}
