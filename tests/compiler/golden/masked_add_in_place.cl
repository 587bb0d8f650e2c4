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

__kernel void weft_mask_word_mask_bit_add(
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
    const int first = (int)(get_global_id(0)) * 4;
    if (first >= n) return;
    if (first + 4 <= n && ((ulong)(b1 + w1_off) & 15) == 0 &&
            ((ulong)(b2 + w2_off) & 15) == 0 &&
            ((ulong)(b3 + w3_off) & 15) == 0) {
        const long v0_0 = (first + 0);
        const long v0_1 = (first + 1);
        const long v0_2 = (first + 2);
        const long v0_3 = (first + 3);
        const long v1_0 = (v0_0 >> 5);  // mask_word
        const long v1_1 = (v0_1 >> 5);  // mask_word
        const long v1_2 = (v0_2 >> 5);  // mask_word
        const long v1_3 = (v0_3 >> 5);  // mask_word
        const uint v2_0 = b0[w0_off + (v1_0) * w0_s1];
        const uint v2_1 = b0[w0_off + (v1_1) * w0_s1];
        const uint v2_2 = b0[w0_off + (v1_2) * w0_s1];
        const uint v2_3 = b0[w0_off + (v1_3) * w0_s1];
        const uint v3_0 = ((uint)v0_0);  // cast
        const uint v3_1 = ((uint)v0_1);  // cast
        const uint v3_2 = ((uint)v0_2);  // cast
        const uint v3_3 = ((uint)v0_3);  // cast
        const bool v4_0 = (((v2_0 >> (v3_0 & 31)) & 1) != 0);  // mask_bit
        const bool v4_1 = (((v2_1 >> (v3_1 & 31)) & 1) != 0);  // mask_bit
        const bool v4_2 = (((v2_2 >> (v3_2 & 31)) & 1) != 0);  // mask_bit
        const bool v4_3 = (((v2_3 >> (v3_3 & 31)) & 1) != 0);  // mask_bit
        const float4 q0 = *(__global const float4*)(b1 + w1_off + first);
        const float v5_0 = q0.x;
        const float v5_1 = q0.y;
        const float v5_2 = q0.z;
        const float v5_3 = q0.w;
        const float4 q1 = *(__global const float4*)(b2 + w2_off + first);
        const float v6_0 = q1.x;
        const float v6_1 = q1.y;
        const float v6_2 = q1.z;
        const float v6_3 = q1.w;
        const float v7_0 = (v5_0 + v6_0);  // add
        const float v7_1 = (v5_1 + v6_1);  // add
        const float v7_2 = (v5_2 + v6_2);  // add
        const float v7_3 = (v5_3 + v6_3);  // add
        const float o0_0 = (float)v7_0;
        const bool p0_0 = v4_0;
        const float o0_1 = (float)v7_1;
        const bool p0_1 = v4_1;
        const float o0_2 = (float)v7_2;
        const bool p0_2 = v4_2;
        const float o0_3 = (float)v7_3;
        const bool p0_3 = v4_3;
        if (p0_0 && p0_1 && p0_2 && p0_3) {
            *(__global float4*)(b3 + w3_off + first) = ((float4)(o0_0, o0_1, o0_2, o0_3));
        } else {
            if (p0_0) b3[w3_off + first + 0] = o0_0;
            if (p0_1) b3[w3_off + first + 1] = o0_1;
            if (p0_2) b3[w3_off + first + 2] = o0_2;
            if (p0_3) b3[w3_off + first + 3] = o0_3;
        }
    } else {
        for (int gid = first; gid < n && gid < first + 4; ++gid) {
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
            if (v4) b3[w3_off + gid] = (float)v7;
        }
    }
}
