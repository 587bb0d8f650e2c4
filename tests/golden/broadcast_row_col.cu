extern "C" __global__ void weft_multiply_add(
    const double* __restrict__ b0,
    const double* __restrict__ b1,
    const double* __restrict__ b2,
    double* __restrict__ b3,
    const long long w0_off,
    const long long w1_off,
    const long long w1_s0,
    const long long w1_s1,
    const long long w2_off,
    const long long w2_s0,
    const long long w2_s1,
    const long long w3_off,
    const long long n,
    const long long cols)
{
    const long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) return;
    const long long i = n <= 4294967295L ? (long long)((unsigned int)gid / (unsigned int)cols) : gid / cols;
    const long long j = gid - i * cols;
    const double v0 = b0[w0_off + gid];
    const double v1 = b1[w1_off + i * w1_s0 + j * w1_s1];
    const double v2 = (v0 * v1);  // multiply
    const double v3 = b2[w2_off + i * w2_s0 + j * w2_s1];
    const double v4 = (v2 + v3);  // add
    b3[w3_off + gid] = (double)v4;
}
