"""The associated Legendre function P_v^m(x) of integer order m and real degree v as a
kernel helper: SciPy's ``lpmv`` (Ferrers' functions, with the Condon-Shortley phase).

Integer degrees: P_m^m = (-1)^m (2m - 1)!! (1 - x^2)^(m/2), P_(m+1)^m = (2m + 1) x P_m^m,
and upward (n - m + 1) P_(n+1)^m = (2n + 1) x P_n^m - (n + m) P_(n-1)^m, which is stable for
this minimal-growth direction on [-1, 1]. A negative degree is P_(-v-1) = P_v; a negative
order P_v^(-m) = (-1)^m Gamma(v - m + 1) / Gamma(v + m + 1) P_v^m. SciPy's values elsewhere:
0 for m > v, NaN for -m > v, for |x| > 1 unless m = 0 (a polynomial then, +-inf at +-inf),
for an infinite order or degree and for a non-integer order; NaN too for degrees beyond 1e7
(SciPy's values reach about 1e11), the recurrence taking a step a degree.

Other degrees (``weft_lpmv_series``), on [-1, 1] only (SciPy's domain; its values beyond
x = 3 are not the function's): the hypergeometric series
P_v^k = (-1)^k prod_(j=1..k) (v + j)(v - j + 1) / (2^k k!) (1 - x^2)^(k/2)
F(k - v, k + v + 1; k + 1; (1 - x) / 2) for x >= 0, and for x < 0 its continuation to
(1 + x) / 2 (c - a - b = -k: k terms in ((1 - x) / (1 + x))^(k/2) and a series with
log((1 + x) / 2) and digammas, each digamma after the first one addition); the degree's
fractional part from sinpi exactly; one walk gives two consecutive degrees (a GPU's warp ran
three calls' loops one after another: 81 -> 8 ms per 10^7 on an H200). At degrees where a
series' terms would grow (and cancel)
by more than e^6, the upward recurrence from two series values: for x >= 0 from degree k + the
fraction, and for x < 0 from past the turning degree k / sqrt(2 (1 + x)), since near -1 the
function is the recessive solution upward below it (a start at degree k lost up to 1e-4).
At x = -1 the sign of the value next to it, as +-inf.
"""

from __future__ import annotations

LEGENDRE: dict[str, str] = {
    "lpmv_series": """\
{T} weft_lpmv_series_{S}({T} k, {T} v, {T} x, {T}* next) {{
    // P_v^k(x) and (in *next) P_(v+1)^k(x) for a non-integer degree v > -1 and k >= 0,
    // -1 < x <= 1 (module docstring), in one walk of the series: the two degrees share the
    // argument's powers, the scales' denominators and (x < 0) the logarithm and digammas.
    const {T} a = k - v, b = k + v + 1;  // degree v + 1: a - 1 and b + 1
    if (x >= 0) {{
        const {T} z = (1 - x) / 2;
        {T} term = 1, total = 1, term_next = 1, total_next = 1;
        for (int i = 0; i < {special_steps}; ++i) {{
            const {T} step = z / ((k + 1 + i) * (i + 1));
            term *= (a + i) * (b + i) * step;
            term_next *= (a - 1 + i) * (b + 1 + i) * step;
            total += term;
            total_next += term_next;
            if (i > a + 1 && fabs(term) <= {special_eps} * fabs(total)
                && fabs(term_next) <= {special_eps} * fabs(total_next)) break;
        }}
        const {T} root = sqrt(1 - x) * sqrt(1 + x);
        {T} scale = 1, scale_next = 1;
        for (int i = 1; i <= (int)k; ++i) {{
            const {T} step = -root / (2 * i);
            scale *= (v + i) * (v - i + 1) * step;
            scale_next *= (v + 1 + i) * (v + 2 - i) * step;
        }}
        *next = scale_next * total_next;
        return scale * total;
    }}
    const {T} w = (1 + x) / 2;
    const {T} s = sinpi(v) * 0.31830988618379067154{F};  // sin(pi v) / pi; -s for v + 1
    {T} head = 0, head_next = 0;
    if (k > 0) {{
        // -(k - 1)! s ((1 - x) / (1 + x))^(k/2) sum_(i < k) (-v)_i (v + 1)_i w^i / (i! (1 - k)_i)
        {T} term = 1, sum = 1, term_next = 1, sum_next = 1;
        for (int i = 0; i + 2 <= (int)k; ++i) {{
            const {T} step = w / ((i + 1) * (1 - k + i));
            term *= (i - v) * (v + 1 + i) * step;
            term_next *= (i - v - 1) * (v + 2 + i) * step;
            sum += term;
            sum_next += term_next;
        }}
        const {T} ratio = sqrt((1 - x) / (1 + x));
        {T} factor = ratio;
        for (int i = 1; i < (int)k; ++i) factor *= i * ratio;
        head = -s * factor * sum;
        head_next = s * factor * sum_next;
    }}
    // prod (v + j)(v - j + 1) s ((1 - x^2) / 4)^(k/2) sum_i (a)_i (b)_i w^i / (i! (i + k)!)
    //     (log w - psi(i + 1) - psi(i + k + 1) + psi(a + i) + psi(b + i)); each step's
    // digamma increments and coefficient ratio share one division per degree.
    const {T} psi_a = weft_digamma_{S}(a), psi_b = weft_digamma_{S}(b);
    {T} bracket = log(w) + 2 * 0.57721566490153286061{F} + psi_a + psi_b, coef = 1;
    for (int i = 1; i <= (int)k; ++i) {{
        bracket -= 1 / ({T})i;
        coef /= i;
    }}
    {T} bracket_next = bracket - 1 / (a - 1) + 1 / b, coef_next = coef;
    {T} total = 0, total_next = 0;
    for (int i = 0; i < {special_steps}; ++i) {{
        const {T} term = coef * bracket, term_next = coef_next * bracket_next;
        total += term;
        total_next += term_next;
        if (i > a + 1 && fabs(term) <= {special_eps} * fabs(total)
            && fabs(term_next) <= {special_eps} * fabs(total_next)) break;
        const {T} lower = (i + 1) * (i + k + 1), sides = 2 * i + k + 2;
        const {T} upper = (a + i) * (b + i), upper_next = (a - 1 + i) * (b + 1 + i);
        const {T} r = 1 / (lower * upper), r_next = 1 / (lower * upper_next);
        bracket += (lower * (a + b + 2 * i) - upper * sides) * r;
        bracket_next += (lower * (a + b + 2 * i) - upper_next * sides) * r_next;
        coef *= upper * upper * r * w;
        coef_next *= upper_next * upper_next * r_next * w;
    }}
    const {T} half_root = sqrt(1 - x) * sqrt(1 + x) / 2;
    {T} scale = s, scale_next = -s;
    for (int i = 1; i <= (int)k; ++i) {{
        scale *= (v + i) * (v - i + 1) * half_root;
        scale_next *= (v + 1 + i) * (v + 2 - i) * half_root;
    }}
    *next = head_next + scale_next * total_next;
    return head + scale * total;
}}
""",
    "lpmv": """\
{T} weft_lpmv_{S}({T} m, {T} v, {T} x) {{
    if (isnan(m) || isnan(v) || isnan(x) || isinf(m) || isinf(v)) return NAN;
    if (m != floor(m)) return NAN;
    const {T} k = fabs(m);
    if (v != floor(v)) {{
        if (fabs(x) > 1) return NAN;
        const {T} n = v < -0.5{F} ? -v - 1 : v;
        if (n > 1e7{F}) return NAN;  // (a loop step a degree)
        const int at_pole = x == -1;
        const {T} y = at_pole ? nextafter(({T})-1, ({T})0) : x;
        const {T} fraction = n - floor(n + 0.5{F});  // in [-1/2, 1/2)
        const {T} w = y < 0 ? (1 + y) / 2 : (1 - y) / 2;
        {T} start = fraction + k;
        if (y < 0) start = fmax(start, fraction + ceil(k / (2 * sqrt(w))));
        // One call site for every lane: the series at n itself, or at the recurrence's start.
        const int direct = n < start + 1 || 2 * n * sqrt(w) <= 6;
        {T} high;
        {T} low = weft_lpmv_series_{S}(k, direct ? n : start, y, &high);
        if (direct) {{
            high = low;
        }} else {{
            for ({T} j = start + 1; j < n - 0.5{F}; j += 1) {{
                const {T} next = ((2 * j + 1) * y * high - (j + k) * low) / (j - k + 1);
                low = high;
                high = next;
            }}
        }}
        if (m < 0) {{
            {T} ratio = 1;
            for (int i = 1; i <= (int)k; ++i) ratio /= (n + i) * (n - i + 1);
            high *= ((int)k % 2 ? -ratio : ratio);
        }}
        return at_pole ? copysign(({T})INFINITY, high) : high;
    }}
    const {T} n = v < 0 ? -v - 1 : v;
    if (n > 1e7{F}) return NAN;  // (a loop step a degree)
    if (k > 0 && fabs(x) > 1) return NAN;
    if (isinf(x)) return n == 0 ? ({T})1 : x < 0 && fmod(n, ({T})2) == 1 ? -INFINITY : INFINITY;
    if (k > n) return m > 0 ? ({T})0 : NAN;
    const {T} root = sqrt(1 - x) * sqrt(1 + x);  // (1 - x^2)^(1/2), exact near +-1
    {T} low = 1;  // P_k^k
    for (int i = 1; i <= (int)k; ++i) low *= -(2 * i - 1) * root;
    {T} high = low;
    if (n > k) {{
        high = x * (2 * k + 1) * low;  // P_(k+1)^k
        for ({T} j = k + 1; j < n; j += 1) {{
            const {T} next = ((2 * j + 1) * x * high - (j + k) * low) / (j - k + 1);
            low = high;
            high = next;
        }}
    }}
    if (m < 0) {{
        // (-1)^k (n - k)! / (n + k)!
        {T} ratio = 1;
        for ({T} j = n - k + 1; j <= n + k; j += 1) ratio /= j;
        high *= ((int)k % 2 ? -ratio : ratio);
    }}
    return high;
}}
""",
}

LEGENDRE_NEEDS: dict[str, tuple[str, ...]] = {
    "lpmv": ("lpmv_series",),
    "lpmv_series": ("digamma",),
}
