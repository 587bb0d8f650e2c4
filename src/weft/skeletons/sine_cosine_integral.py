"""The sine and cosine integrals as kernel helpers: ``si`` and ``ci``, SciPy's ``sici``.

Si(x) = integral from 0 to x of sin t / t dt, odd; Ci(x) = gamma + log x + integral from 0 to
x of (cos t - 1) / t dt, and for x < 0 SciPy's real Ci(|x|) (the complex one adds iπ). Up to
|x| = 4 each is its power series (alternating terms, largest near |x|: little cancels there);
above, both come from the continued fraction of E1(ix) = -Ci(x) + i(Si(x) - π/2), evaluated
forwards in complex arithmetic (Lentz's way, as ``expint_fraction``) until a step changes it
by less than half an ulp: about 100 steps just above 4, fewer further out. Si is within
5e-16 of mpmath relative; Ci within 4e-15 of its size or of 1/x, whichever is larger (near
Ci's zeros its error is absolute; SciPy's measured 2.8e-15 the same way).
"""

from __future__ import annotations

SINE_COSINE_INTEGRAL: dict[str, str] = {
    # Si(x) where ``cosine`` is 0, else Ci(x).
    "sici": """\
{T} weft_sici_{S}({T} x, int cosine) {{
    if (isnan(x)) return x;
    const {T} ax = fabs(x);
    if (ax == 0) return cosine ? -({T})INFINITY : x;
    if (ax == INFINITY) return cosine ? (x > 0 ? ({T})0 : ({T})NAN)
                                      : copysign(1.57079632679489661923{F}, x);
    {T} si, ci;
    if (ax <= 4) {{
        const {T} square = ax * ax;
        {T} power = ax;
        si = ax;
        for (int k = 1; k < 100; ++k) {{
            power *= -square / ((2 * k) * (2 * k + 1));
            const {T} term = power / (2 * k + 1);
            si += term;
            if (fabs(term) <= {special_eps} * fabs(si)) break;
        }}
        {T} even = 1;
        {T} sum = 0;
        for (int k = 1; k < 100; ++k) {{
            even *= -square / ((2 * k - 1) * (2 * k));
            const {T} term = even / (2 * k);
            sum += term;
            if (fabs(term) <= {special_eps} * fabs(sum)) break;
        }}
        ci = 0.57721566490153286061{F} + log(ax) + sum;
    }} else {{
        // h = 1 / (z + 1 - 1 / (z + 3 - 4 / (z + 5 - ...))) at z = i ax, then
        // E1(z) = e^-z h: real parts *_re, imaginary parts *_im.
        {T} b_re = 1, b_im = ax;
        {T} c_re = 1 / {special_tiny}, c_im = 0;
        const {T} b_norm = b_re * b_re + b_im * b_im;
        {T} d_re = b_re / b_norm, d_im = -b_im / b_norm;
        {T} h_re = d_re, h_im = d_im;
        for (int k = 1; k < 1000; ++k) {{
            const {T} a = -({T})k * k;
            b_re += 2;
            const {T} e_re = a * d_re + b_re, e_im = a * d_im + b_im;
            const {T} e_norm = e_re * e_re + e_im * e_im;
            d_re = e_re / e_norm;
            d_im = -e_im / e_norm;
            const {T} c_norm = c_re * c_re + c_im * c_im;
            c_re = b_re + a * c_re / c_norm;
            c_im = b_im - a * c_im / c_norm;
            const {T} step_re = c_re * d_re - c_im * d_im, step_im = c_re * d_im + c_im * d_re;
            const {T} next_re = h_re * step_re - h_im * step_im;
            h_im = h_re * step_im + h_im * step_re;
            h_re = next_re;
            if (fabs(step_re - 1) + fabs(step_im) <= {special_eps}) break;
        }}
        const {T} cos_x = cos(ax), sin_x = sin(ax);
        const {T} e1_re = cos_x * h_re + sin_x * h_im, e1_im = cos_x * h_im - sin_x * h_re;
        si = 1.57079632679489661923{F} + e1_im;
        ci = -e1_re;
    }}
    return cosine ? ci : copysign(si, x);
}}
""",
    "si": """\
{T} weft_si_{S}({T} x) {{
    return weft_sici_{S}(x, 0);
}}
""",
    "ci": """\
{T} weft_ci_{S}({T} x) {{
    return weft_sici_{S}(x, 1);
}}
""",
}

SINE_COSINE_INTEGRAL_NEEDS: dict[str, tuple[str, ...]] = {"si": ("sici",), "ci": ("sici",)}
