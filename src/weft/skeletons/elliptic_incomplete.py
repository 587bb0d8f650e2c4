"""The incomplete elliptic integrals of the first and second kinds in the parameter m
(SciPy's ``ellipkinc`` F(phi|m) and ``ellipeinc`` E(phi|m)) as kernel helpers, through
Carlson's symmetric forms (DLMF 19.25.5, 19.25.9):

    F(psi|m) = s R_F(c^2, d^2, 1),  E(psi|m) = s R_F(c^2, d^2, 1) - (m/3) s^3 R_D(c^2, d^2, 1)

with s = sin psi, c = cos psi and d^2 = c^2 + (1 - m) s^2 (1 - m s^2 without its cancellation
for m <= 1), for the amplitude reduced to |psi| <= pi/2 by phi = n pi + psi (pi in two parts),
and F(phi) = 2n K(m) + F(psi), E likewise (K = R_F(0, 1 - m, 1)). R_F and R_D by Carlson's
duplication (DLMF 19.36.1-2): each step quarters the arguments' spread, until it is below
0.0025 (double; 0.05 in float), where the series' fifth-order remainder is below the rounding.
For m > 1 the integrals are real while m sin^2 phi <= 1 (SciPy answers NaN for every m > 1:
weft gives the values, as mpmath); NaN where d^2 < 0, and for m > 1 beyond |phi| = pi/2.
"""

from __future__ import annotations

ELLIPTIC_INCOMPLETE: dict[str, str] = {
    "carlson_rf": """\
{T} weft_carlson_rf_{S}({T} x, {T} y, {T} z) {{
    // R_F(x, y, z) = (1/2) integral of dt / sqrt((t + x)(t + y)(t + z)), x, y, z >= 0.
    const {T} spread = sizeof({T}) == 8 ? 0.0025{F} : 0.05{F};
    {T} mean = (x + y + z) / 3;
    for (int k = 0; k < 100; ++k) {{
        const {T} size = fmax(fabs(mean - x), fmax(fabs(mean - y), fabs(mean - z)));
        if (size <= spread * fabs(mean)) break;
        const {T} sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
        const {T} lambda = sx * (sy + sz) + sy * sz;
        x = 0.25{F} * (x + lambda);
        y = 0.25{F} * (y + lambda);
        z = 0.25{F} * (z + lambda);
        mean = (x + y + z) / 3;
    }}
    const {T} dx = 1 - x / mean, dy = 1 - y / mean, dz = -(dx + dy);
    const {T} e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
    return (1 - e2 / 10 + e3 / 14 + e2 * e2 / 24 - 3 * e2 * e3 / 44) / sqrt(mean);
}}
""",
    "carlson_rd": """\
{T} weft_carlson_rd_{S}({T} x, {T} y, {T} z) {{
    // R_D(x, y, z) = (3/2) integral of dt / sqrt((t + x)(t + y)(t + z)^3).
    const {T} spread = sizeof({T}) == 8 ? 0.0025{F} : 0.05{F};
    {T} sum = 0, scale = 1;
    {T} mean = (x + y + 3 * z) / 5;
    for (int k = 0; k < 100; ++k) {{
        const {T} size = fmax(fabs(mean - x), fmax(fabs(mean - y), fabs(mean - z)));
        if (size <= spread * fabs(mean)) break;
        const {T} sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
        const {T} lambda = sx * (sy + sz) + sy * sz;
        sum += scale / (sz * (z + lambda));
        scale *= 0.25{F};
        x = 0.25{F} * (x + lambda);
        y = 0.25{F} * (y + lambda);
        z = 0.25{F} * (z + lambda);
        mean = (x + y + 3 * z) / 5;
    }}
    const {T} dx = 1 - x / mean, dy = 1 - y / mean, dz = -(dx + dy) / 3;
    const {T} xy = dx * dy, z2 = dz * dz;
    const {T} e2 = xy - 6 * z2, e3 = (3 * xy - 8 * z2) * dz, e4 = 3 * (xy - z2) * z2;
    const {T} e5 = xy * z2 * dz;
    const {T} series = 1 - 3 * e2 / 14 + e3 / 6 + 9 * e2 * e2 / 88 - 3 * e4 / 22
                       - 9 * e2 * e3 / 52 + 3 * e5 / 26;
    return 3 * sum + scale * series / (mean * sqrt(mean));
}}
""",
    "elliptic_incomplete": """\
{T} weft_elliptic_incomplete_{S}({T} phi, {T} m, int second) {{
    // F(phi|m), or E(phi|m) where second.
    if (isnan(phi) || isnan(m)) return NAN;
    // SciPy's limits: at m = -inf F is 0 and E +-inf; at m = +inf NaN; at phi = +-inf, +-inf
    // for m <= 1 (F and E grow by 2K and 2E each half turn), NaN beyond.
    if (m == -INFINITY) {{
        if (isinf(phi)) return second ? phi : NAN;
        return phi == 0 ? phi : (second ? copysign(({T})INFINITY, phi) : 0);
    }}
    if (isinf(m)) return NAN;
    if (isinf(phi)) return m <= 1 ? phi : NAN;
    // F(phi|1) = atanh(sin phi): +-inf from the double nearest pi/2 on (SciPy's pole).
    if (!second && m == 1 && fabs(phi) >= 1.57079632679489655800{F}) {{
        return copysign(({T})INFINITY, phi);
    }}
    const {T} turns = rint(phi / 3.14159265358979323846{F});
    const {T} psi = fma(-turns, 3.14159265358979311600{F}, phi) - turns * 1.2246467991473532e-16{F};
    const {T} s = sin(psi), c = cos(psi);
    const {T} c2 = c * c, d2 = c2 + (1 - m) * s * s;
    if (d2 < 0) return NAN;
    if (second && m == 1) return s + 2 * turns;  // E(phi|1) = sin(psi) + 2n: no cancellation
    const {T} rf = weft_carlson_rf_{S}(c2, d2, 1);
    {T} value = s * rf;
    if (second && m != 0) value -= m / 3 * s * s * s * weft_carlson_rd_{S}(c2, d2, 1);
    if (turns != 0) {{
        if (m > 1) return NAN;
        const {T} k = weft_carlson_rf_{S}(0, 1 - m, 1);
        const {T} whole = second ? k - m / 3 * weft_carlson_rd_{S}(0, 1 - m, 1) : k;
        value += 2 * turns * whole;
    }}
    return value;
}}
""",
    "ellipkinc": """\
{T} weft_ellipkinc_{S}({T} phi, {T} m) {{
    return weft_elliptic_incomplete_{S}(phi, m, 0);
}}
""",
    "ellipeinc": """\
{T} weft_ellipeinc_{S}({T} phi, {T} m) {{
    return weft_elliptic_incomplete_{S}(phi, m, 1);
}}
""",
}

ELLIPTIC_INCOMPLETE_NEEDS: dict[str, tuple[str, ...]] = {
    "elliptic_incomplete": ("carlson_rf", "carlson_rd"),
    "ellipkinc": ("elliptic_incomplete",), "ellipeinc": ("elliptic_incomplete",),
}
