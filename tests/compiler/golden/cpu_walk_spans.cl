#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    double s0;
    long w0_0;
    long w0_i;
    long w0_j;
    long w0_n;
    long w1_off;
    long w2_0;
    long w2_i;
    long w2_j;
    long w2_n;
    long w3_off;
    long w4_off;
    long w5_off;
    long n;
    long cols;
} weft_args;

long weft_span_end(const long d, const long k, const long t,
    const long lo, const long hi) {
    long turn = hi;
    if (k > 0 && d < t) turn = lo + (t - d + k - 1) / k;
    else if (k < 0 && d >= t) turn = lo + (d - t) / -k + 1;
    return turn < hi ? turn : hi;
}

__attribute__((reqd_work_group_size(1, 1, 1))) __kernel void weft_multiply_where_sin(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global double* restrict b2,
    __global double* restrict b3,
    const weft_args args)
{
    const double s0 = args.s0;
    const int w0_0 = (int)args.w0_0;
    const int w0_i = (int)args.w0_i;
    const int w0_j = (int)args.w0_j;
    const int w0_n = (int)args.w0_n;
    const int w1_off = (int)args.w1_off;
    const int w2_0 = (int)args.w2_0;
    const int w2_i = (int)args.w2_i;
    const int w2_j = (int)args.w2_j;
    const int w2_n = (int)args.w2_n;
    const int w3_off = (int)args.w3_off;
    const int w4_off = (int)args.w4_off;
    const int w5_off = (int)args.w5_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const double v3 = s0;
    const int items = (int)get_global_size(0);
    const int run = (n + items - 1) / items;
    const int first = (int)(get_global_id(0)) * run;
    const int end = first + run < n ? first + run : n;
    for (int lo = first; lo < end; ) {
        int hi = end;
        const long v0_d = w0_0 + w0_i * 0 + w0_j * (long)lo;
        const bool v0 = v0_d >= 0 && v0_d < w0_n;
        hi = (int)weft_span_end(v0_d, w0_j, 0, lo, hi);
        hi = (int)weft_span_end(v0_d, w0_j, w0_n, lo, hi);
        const long v2_d = w2_0 + w2_i * 0 + w2_j * (long)lo;
        const bool v2 = v2_d >= 0 && v2_d < w2_n;
        hi = (int)weft_span_end(v2_d, w2_j, 0, lo, hi);
        hi = (int)weft_span_end(v2_d, w2_j, w2_n, lo, hi);
        for (int gid = lo; gid < hi; ++gid) {
            const int i = 0;
            const int j = gid;
            const double v1 = v0 ? b0[w1_off + gid] : (double)0;
            const double v4 = v2 ? b1[w3_off + gid] : (double)0;
            const double v5 = (v3 * v4);  // multiply
            const double v6 = (v2 ? v5 : v1);  // where
            const double v7 = (v2 ? v4 : v1);  // where
            const double v8 = sin(v7);  // sin
            b2[w4_off + gid] = (double)v6;
            b3[w5_off + gid] = (double)v8;
        }
        lo = hi;
    }
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long w0_0;
    long w0_i;
    long w0_j;
    long w0_n;
    long w1_0;
    long w1_i;
    long w1_j;
    long w2_off;
    long w2_s0;
    long w2_s1;
    long w3_0;
    long w3_i;
    long w3_j;
    long w3_n;
    long w4_off;
    long w4_s1;
    long w5_off;
    long n;
    long cols;
} weft_args;

long weft_span_end(const long d, const long k, const long t,
    const long lo, const long hi) {
    long turn = hi;
    if (k > 0 && d < t) turn = lo + (t - d + k - 1) / k;
    else if (k < 0 && d >= t) turn = lo + (d - t) / -k + 1;
    return turn < hi ? turn : hi;
}

long weft_rows_end(const long row, const long cols, const long hi) {
    return row * cols < hi ? row * cols : hi;
}

__attribute__((reqd_work_group_size(1, 1, 1))) __kernel void weft_logical_and_where(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global double* restrict b2,
    const weft_args args)
{
    const int w0_0 = (int)args.w0_0;
    const int w0_i = (int)args.w0_i;
    const int w0_j = (int)args.w0_j;
    const int w0_n = (int)args.w0_n;
    const int w1_0 = (int)args.w1_0;
    const int w1_i = (int)args.w1_i;
    const int w1_j = (int)args.w1_j;
    const int w2_off = (int)args.w2_off;
    const int w2_s0 = (int)args.w2_s0;
    const int w2_s1 = (int)args.w2_s1;
    const int w3_0 = (int)args.w3_0;
    const int w3_i = (int)args.w3_i;
    const int w3_j = (int)args.w3_j;
    const int w3_n = (int)args.w3_n;
    const int w4_off = (int)args.w4_off;
    const int w4_s1 = (int)args.w4_s1;
    const int w5_off = (int)args.w5_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const int items = (int)get_global_size(0);
    const int run = (n + items - 1) / items;
    const int first = (int)(get_global_id(0)) * run;
    const int end = first + run < n ? first + run : n;
    if (first >= end) return;
    if (cols < 16) {
        if (w0_j == 0 && w1_j == 0 && w3_j == 0) {
            const int rows_end = (end + cols - 1) / cols;
            for (int lo = first; lo < end; ) {
                int hi = end;
                const int lo_i = lo / cols;
                const long v0_d = w0_0 + w0_i * lo_i + w0_j * (long)0;
                const bool v0 = v0_d >= 0 && v0_d < w0_n;
                hi = (int)weft_rows_end(weft_span_end(v0_d, w0_i, 0, lo_i, rows_end), cols, hi);
                hi = (int)weft_rows_end(weft_span_end(v0_d, w0_i, w0_n, lo_i, rows_end), cols, hi);
                const long v1_d = w1_0 + w1_i * lo_i + w1_j * (long)0;
                const bool v1 = v1_d <= 0;
                hi = (int)weft_rows_end(weft_span_end(v1_d, w1_i, 1, lo_i, rows_end), cols, hi);
                const long v5_d = w3_0 + w3_i * lo_i + w3_j * (long)0;
                const bool v5 = v5_d >= 0 && v5_d < w3_n;
                hi = (int)weft_rows_end(weft_span_end(v5_d, w3_i, 0, lo_i, rows_end), cols, hi);
                hi = (int)weft_rows_end(weft_span_end(v5_d, w3_i, w3_n, lo_i, rows_end), cols, hi);
                for (int gid = lo; gid < hi; ++gid) {
                    const int row_guess = (int)((double)gid * (1.0 / (double)cols));
                    const int i = row_guess + ((row_guess + 1) * cols <= gid);
                    const int j = gid - i * cols;
                    const bool v2 = (v0 && v1);  // logical_and
                    const double v3 = v2 ? b0[w2_off + i * w2_s0 + j * w2_s1] : (double)0;
                    const double v4 = v1 ? v3 : (double)0;
                    const double v6 = v5 ? b1[w4_off + i + j * w4_s1] : (double)0;
                    const double v7 = (v5 ? v6 : v4);  // where
                    b2[w5_off + gid] = (double)v7;
                }
                lo = hi;
            }
            return;
        }
        for (int gid = first; gid < end; ++gid) {
            const int row_guess = (int)((double)gid * (1.0 / (double)cols));
            const int i = row_guess + ((row_guess + 1) * cols <= gid);
            const int j = gid - i * cols;
            const bool v0 = (w0_0 + w0_i * i + w0_j * j) >= 0 && (w0_0 + w0_i * i + w0_j * j) < w0_n;
            const bool v1 = (w1_0 + w1_i * i + w1_j * j) <= 0;
            const bool v2 = (v0 && v1);  // logical_and
            const double v3 = v2 ? b0[w2_off + i * w2_s0 + j * w2_s1] : (double)0;
            const double v4 = v1 ? v3 : (double)0;
            const bool v5 = (w3_0 + w3_i * i + w3_j * j) >= 0 && (w3_0 + w3_i * i + w3_j * j) < w3_n;
            const double v6 = v5 ? b1[w4_off + i + j * w4_s1] : (double)0;
            const double v7 = (v5 ? v6 : v4);  // where
            b2[w5_off + gid] = (double)v7;
        }
        return;
    }
    for (int i = first / cols, gid0 = i * cols; gid0 < end; ++i, gid0 += cols) {
        const int j_begin = first > gid0 ? first - gid0 : 0;
        const int j_end = end - gid0 < cols ? end - gid0 : cols;
        for (int lo = j_begin; lo < j_end; ) {
            int hi = j_end;
            const long v0_d = w0_0 + w0_i * i + w0_j * (long)lo;
            const bool v0 = v0_d >= 0 && v0_d < w0_n;
            hi = (int)weft_span_end(v0_d, w0_j, 0, lo, hi);
            hi = (int)weft_span_end(v0_d, w0_j, w0_n, lo, hi);
            const long v1_d = w1_0 + w1_i * i + w1_j * (long)lo;
            const bool v1 = v1_d <= 0;
            hi = (int)weft_span_end(v1_d, w1_j, 1, lo, hi);
            const long v5_d = w3_0 + w3_i * i + w3_j * (long)lo;
            const bool v5 = v5_d >= 0 && v5_d < w3_n;
            hi = (int)weft_span_end(v5_d, w3_j, 0, lo, hi);
            hi = (int)weft_span_end(v5_d, w3_j, w3_n, lo, hi);
            for (int j = lo; j < hi; ++j) {
                const int gid = gid0 + j;
                const bool v2 = (v0 && v1);  // logical_and
                const double v3 = v2 ? b0[w2_off + i * w2_s0 + j * w2_s1] : (double)0;
                const double v4 = v1 ? v3 : (double)0;
                const double v6 = v5 ? b1[w4_off + i + j * w4_s1] : (double)0;
                const double v7 = (v5 ? v6 : v4);  // where
                b2[w5_off + gid] = (double)v7;
            }
            lo = hi;
        }
    }
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
    long w0_0;
    long w0_i;
    long w0_j;
    long w0_n;
    long w1_off;
    long w2_0;
    long w2_i;
    long w2_j;
    long w2_n;
    long w3_off;
    long w3_s0;
    long w4_off;
    long w5_off;
    long n;
    long cols;
} weft_args;

long weft_span_end(const long d, const long k, const long t,
    const long lo, const long hi) {
    long turn = hi;
    if (k > 0 && d < t) turn = lo + (t - d + k - 1) / k;
    else if (k < 0 && d >= t) turn = lo + (d - t) / -k + 1;
    return turn < hi ? turn : hi;
}

long weft_rows_end(const long row, const long cols, const long hi) {
    return row * cols < hi ? row * cols : hi;
}

__attribute__((reqd_work_group_size(1, 1, 1))) __kernel void weft_add_where_cos(
    __global const double* restrict b0,
    __global const double* restrict b1,
    __global double* restrict b2,
    const weft_args args)
{
    const int w0_0 = (int)args.w0_0;
    const int w0_i = (int)args.w0_i;
    const int w0_j = (int)args.w0_j;
    const int w0_n = (int)args.w0_n;
    const int w1_off = (int)args.w1_off;
    const int w2_0 = (int)args.w2_0;
    const int w2_i = (int)args.w2_i;
    const int w2_j = (int)args.w2_j;
    const int w2_n = (int)args.w2_n;
    const int w3_off = (int)args.w3_off;
    const int w3_s0 = (int)args.w3_s0;
    const int w4_off = (int)args.w4_off;
    const int w5_off = (int)args.w5_off;
    const int n = (int)args.n;
    const int cols = (int)args.cols;
    const int items = (int)get_global_size(0);
    const int run = (n + items - 1) / items;
    const int first = (int)(get_global_id(0)) * run;
    const int end = first + run < n ? first + run : n;
    if (first >= end) return;
    if (cols < 16) {
        if (w0_j == 0 && w2_j == 0) {
            const int rows_end = (end + cols - 1) / cols;
            for (int lo = first; lo < end; ) {
                int hi = end;
                const int lo_i = lo / cols;
                const long v0_d = w0_0 + w0_i * lo_i + w0_j * (long)0;
                const bool v0 = v0_d >= 0 && v0_d < w0_n;
                hi = (int)weft_rows_end(weft_span_end(v0_d, w0_i, 0, lo_i, rows_end), cols, hi);
                hi = (int)weft_rows_end(weft_span_end(v0_d, w0_i, w0_n, lo_i, rows_end), cols, hi);
                const long v2_d = w2_0 + w2_i * lo_i + w2_j * (long)0;
                const bool v2 = v2_d >= 0 && v2_d < w2_n;
                hi = (int)weft_rows_end(weft_span_end(v2_d, w2_i, 0, lo_i, rows_end), cols, hi);
                hi = (int)weft_rows_end(weft_span_end(v2_d, w2_i, w2_n, lo_i, rows_end), cols, hi);
                for (int gid = lo; gid < hi; ++gid) {
                    const int row_guess = (int)((double)gid * (1.0 / (double)cols));
                    const int i = row_guess + ((row_guess + 1) * cols <= gid);
                    const int j = gid - i * cols;
                    const double v1 = v0 ? b0[w1_off + gid] : (double)0;
                    const double v3 = v2 ? b1[w3_off + i * w3_s0] : (double)0;
                    const double v4 = v2 ? b0[w4_off + j] : (double)0;
                    const double v5 = (v3 + v4);  // add
                    const double v6 = (v2 ? v5 : v1);  // where
                    const double v7 = cos(v6);  // cos
                    b2[w5_off + gid] = (double)v7;
                }
                lo = hi;
            }
            return;
        }
        for (int gid = first; gid < end; ++gid) {
            const int row_guess = (int)((double)gid * (1.0 / (double)cols));
            const int i = row_guess + ((row_guess + 1) * cols <= gid);
            const int j = gid - i * cols;
            const bool v0 = (w0_0 + w0_i * i + w0_j * j) >= 0 && (w0_0 + w0_i * i + w0_j * j) < w0_n;
            const double v1 = v0 ? b0[w1_off + gid] : (double)0;
            const bool v2 = (w2_0 + w2_i * i + w2_j * j) >= 0 && (w2_0 + w2_i * i + w2_j * j) < w2_n;
            const double v3 = v2 ? b1[w3_off + i * w3_s0] : (double)0;
            const double v4 = v2 ? b0[w4_off + j] : (double)0;
            const double v5 = (v3 + v4);  // add
            const double v6 = (v2 ? v5 : v1);  // where
            const double v7 = cos(v6);  // cos
            b2[w5_off + gid] = (double)v7;
        }
        return;
    }
    for (int i = first / cols, gid0 = i * cols; gid0 < end; ++i, gid0 += cols) {
        const int j_begin = first > gid0 ? first - gid0 : 0;
        const int j_end = end - gid0 < cols ? end - gid0 : cols;
        for (int lo = j_begin; lo < j_end; ) {
            int hi = j_end;
            const long v0_d = w0_0 + w0_i * i + w0_j * (long)lo;
            const bool v0 = v0_d >= 0 && v0_d < w0_n;
            hi = (int)weft_span_end(v0_d, w0_j, 0, lo, hi);
            hi = (int)weft_span_end(v0_d, w0_j, w0_n, lo, hi);
            const long v2_d = w2_0 + w2_i * i + w2_j * (long)lo;
            const bool v2 = v2_d >= 0 && v2_d < w2_n;
            hi = (int)weft_span_end(v2_d, w2_j, 0, lo, hi);
            hi = (int)weft_span_end(v2_d, w2_j, w2_n, lo, hi);
            for (int j = lo; j < hi; ++j) {
                const int gid = gid0 + j;
                const double v1 = v0 ? b0[w1_off + gid] : (double)0;
                const double v3 = v2 ? b1[w3_off + i * w3_s0] : (double)0;
                const double v4 = v2 ? b0[w4_off + j] : (double)0;
                const double v5 = (v3 + v4);  // add
                const double v6 = (v2 ? v5 : v1);  // where
                const double v7 = cos(v6);  // cos
                b2[w5_off + gid] = (double)v7;
            }
            lo = hi;
        }
    }
}
