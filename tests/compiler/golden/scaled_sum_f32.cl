typedef struct {
    float s0;
    long w0_off;
    long w1_off;
    long w2_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_add_multiply(
    __global const float* restrict b0,
    __global const float* restrict b1,
    __global float* restrict b2,
    const weft_args args)
{
    const float s0 = args.s0;
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const float v0 = s0;
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const float v1 = b0[w0_off + gid];
    const float v2 = b1[w1_off + gid];
    const float v3 = (v1 + v2);  // add
    const float v4 = (v0 * v3);  // multiply
    b2[w2_off + gid] = (float)v4;
}
