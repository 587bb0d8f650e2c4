struct weft_args {
    double s0;
    long long w0_off;
    long long w0_s1;
    long long w1_off;
    long long w2_off;
    long long w3_off;
    long long n;
    long long cols;
};

extern "C" __global__ void weft_exp_add_multiply(
    const double* __restrict__ b0,
    double* __restrict__ b1,
    double* __restrict__ b2,
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
    __shared__ double tile0[32][32 + 1];
    const double v4 = s0;
    const int rows = n / cols;
    const int tiles_across = (cols + 32 - 1) / 32;
    const int tile_i = (int)blockIdx.x / tiles_across;
    const int tile_j = (int)blockIdx.x - tile_i * tiles_across;
    const int tx = (long long)threadIdx.x % 32;
    const int ty = (long long)threadIdx.x / 32;
#pragma unroll
    for (int k = 0; k < 32; k += 8) {
        const int i = tile_i * 32 + tx;
        const int j = tile_j * 32 + ty + k;
        if (i < rows && j < cols) {
            tile0[ty + k][tx] = b0[w0_off + i + j * w0_s1];
        }
    }
    __syncthreads();
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
