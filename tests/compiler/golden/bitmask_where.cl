__kernel void weft_mask_word_mask_bit_add_where(
    __global const uint* restrict b0,
    __global const float* restrict b1,
    __global const float* restrict b2,
    __global float* restrict b3,
    const long w0_off_64,
    const long w0_s0_64,
    const long w0_s1_64,
    const long w0_rows_64,
    const long w0_cols_64,
    const long w1_off_64,
    const long w2_off_64,
    const long w3_off_64,
    const long n_64,
    const long cols_64)
{
    const int w0_off = (int)w0_off_64;
    const int w0_s0 = (int)w0_s0_64;
    const int w0_s1 = (int)w0_s1_64;
    const int w0_rows = (int)w0_rows_64;
    const int w0_cols = (int)w0_cols_64;
    const int w1_off = (int)w1_off_64;
    const int w2_off = (int)w2_off_64;
    const int w3_off = (int)w3_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
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
