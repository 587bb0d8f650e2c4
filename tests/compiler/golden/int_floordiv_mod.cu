struct weft_args {
    int s0;
    int s1;
    long long w0_off;
    long long w1_off;
    long long w2_off;
    long long n;
    long long cols;
};

__device__ int weft_floordiv_i32(int a, int b) {
    if (b == 0) return 0;
    if (b == -1) return (int)((unsigned int)0 - (unsigned int)a);
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}

__device__ int weft_mod_i32(int a, int b) {
    if (b == 0 || b == -1) return 0;
    int r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

extern "C" __global__ void weft_floor_divide_remainder(
    const int* __restrict__ b0,
    int* __restrict__ b1,
    int* __restrict__ b2,
    const weft_args args)
{
    const int s0 = args.s0;
    const int s1 = args.s1;
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const int v1 = s0;
    const int v3 = s1;
    const int gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    const int v0 = b0[w0_off + gid];
    const int v2 = weft_floordiv_i32(v0, v1);  // floor_divide
    const int v4 = weft_mod_i32(v0, v3);  // remainder
    b1[w1_off + gid] = (int)v2;
    b2[w2_off + gid] = (int)v4;
}
