typedef struct {
    float s0;
    long w0_off;
    long w1_off;
    long w2_off;
    long w3_off;
    long n;
    long cols;
} weft_args;

__kernel void weft_add_multiply(
    __global const float* restrict b0,
    __global const float* restrict b1,
    __global float* restrict b2,
    __global float* restrict b3,
    const weft_args args)
{
    const float s0 = args.s0;
    const int w0_off = (int)args.w0_off;
    const int w1_off = (int)args.w1_off;
    const int w2_off = (int)args.w2_off;
    const int w3_off = (int)args.w3_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const float v0 = s0;
    const int first = (int)(get_global_id(0)) * 4;
    if (first >= n) return;
    if (first + 4 <= n && ((ulong)(b0 + w0_off) & 15) == 0 &&
            ((ulong)(b1 + w1_off) & 15) == 0 &&
            ((ulong)(b2 + w2_off) & 15) == 0 &&
            ((ulong)(b3 + w3_off) & 15) == 0) {
        const float4 q0 = *(__global const float4*)(b0 + w0_off + first);
        const float v1_0 = q0.x;
        const float v1_1 = q0.y;
        const float v1_2 = q0.z;
        const float v1_3 = q0.w;
        const float4 q1 = *(__global const float4*)(b1 + w1_off + first);
        const float v2_0 = q1.x;
        const float v2_1 = q1.y;
        const float v2_2 = q1.z;
        const float v2_3 = q1.w;
        const float v3_0 = (v1_0 + v2_0);  // add
        const float v3_1 = (v1_1 + v2_1);  // add
        const float v3_2 = (v1_2 + v2_2);  // add
        const float v3_3 = (v1_3 + v2_3);  // add
        const float v4_0 = (v0 * v3_0);  // multiply
        const float v4_1 = (v0 * v3_1);  // multiply
        const float v4_2 = (v0 * v3_2);  // multiply
        const float v4_3 = (v0 * v3_3);  // multiply
        const float v5_0 = (v1_0 * v2_0);  // multiply
        const float v5_1 = (v1_1 * v2_1);  // multiply
        const float v5_2 = (v1_2 * v2_2);  // multiply
        const float v5_3 = (v1_3 * v2_3);  // multiply
        const float o0_0 = (float)v4_0;
        const float o0_1 = (float)v4_1;
        const float o0_2 = (float)v4_2;
        const float o0_3 = (float)v4_3;
        const float o1_0 = (float)v5_0;
        const float o1_1 = (float)v5_1;
        const float o1_2 = (float)v5_2;
        const float o1_3 = (float)v5_3;
        *(__global float4*)(b2 + w2_off + first) = ((float4)(o0_0, o0_1, o0_2, o0_3));
        *(__global float4*)(b3 + w3_off + first) = ((float4)(o1_0, o1_1, o1_2, o1_3));
    } else {
        for (int gid = first; gid < n && gid < first + 4; ++gid) {
            const float v1 = b0[w0_off + gid];
            const float v2 = b1[w1_off + gid];
            const float v3 = (v1 + v2);  // add
            const float v4 = (v0 * v3);  // multiply
            const float v5 = (v1 * v2);  // multiply
            b2[w2_off + gid] = (float)v4;
            b3[w3_off + gid] = (float)v5;
        }
    }
}
