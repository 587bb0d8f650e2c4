typedef struct {
    long w0_off;
    long w0_s0;
    long w0_s1;
    long w0_rows;
    long w0_cols;
    long w1_off;
    long w2_off;
    long w3_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_mask_word_mask_bit_add_where(
    __global const uint* restrict b0,
    __global const float* restrict b1,
    __global const float* restrict b2,
    __global float* restrict b3,
    const weft_args args)
{
    const int w0_off = (int)args.w0_off;
    const int w0_s0 = (int)args.w0_s0;
    const int w0_s1 = (int)args.w0_s1;
    const int w0_rows = (int)args.w0_rows;
    const int w0_cols = (int)args.w0_cols;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const int i = 0;
    const int j = gid;
    const long v0 = (long)j;
    const long v1 = (v0 >> 5);  // mask_word
    const uint v2 = b0[w0_off + (v1) * w0_s1];
    const uint v3 = ((uint)v0);  // cast
    const bool v4 = (((v2 >> (v3 & 31)) & 1) != 0);  // mask_bit
    const float v5 = b1[w1_off + gid];
    const float v6 = b2[w2_off + gid];
    const float v7 = (v5 + v6);  // add
    const float v8 = (v4 ? v7 : v5);  // where
    b3[w3_off + gid] = (float)v8;
}
