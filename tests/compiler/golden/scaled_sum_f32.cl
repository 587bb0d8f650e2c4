__kernel void weft_add_multiply(
    __global const float* restrict b0,
    __global const float* restrict b1,
    __global float* restrict b2,
    const float s0,
    const long w0_off_64,
    const long w1_off_64,
    const long w2_off_64,
    const long n_64,
    const long cols_64)
{
    const int w0_off = (int)w0_off_64;
    const int w1_off = (int)w1_off_64;
    const int w2_off = (int)w2_off_64;
    const int n = (int)n_64;
    const int cols = (int)cols_64;
    const float v0 = s0;
    const int gid = get_global_id(0);
    if (gid >= n) return;
    const float v1 = b0[w0_off + gid];
    const float v2 = b1[w1_off + gid];
    const float v3 = (v1 + v2);  // add
    const float v4 = (v0 * v3);  // multiply
    b2[w2_off + gid] = (float)v4;
}
