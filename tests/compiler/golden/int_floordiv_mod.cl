typedef struct {
    int s0;
    int s1;
    long w0_off;
    long w1_off;
    long w2_off;
    long n;
    long cols;
} weft_args;

int weft_floordiv_i32(int a, int b) {
    if (b == 0) return 0;
    if (b == -1) return (int)((uint)0 - (uint)a);
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}

int weft_mod_i32(int a, int b) {
    if (b == 0 || b == -1) return 0;
    int r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

__kernel void weft_floor_divide_remainder(
    __global const int* restrict b0,
    __global int* restrict b1,
    __global int* restrict b2,
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
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const int v0 = b0[w0_off + gid];
    const int v2 = weft_floordiv_i32(v0, v1);  // floor_divide
    const int v4 = weft_mod_i32(v0, v3);  // remainder
    b1[w1_off + gid] = (int)v2;
    b2[w2_off + gid] = (int)v4;
}
