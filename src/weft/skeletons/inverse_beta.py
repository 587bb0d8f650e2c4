"""The inverses of the regularized incomplete beta function in x, as kernel helpers
(``ibeta_inv``, ``ibetac_inv``: SciPy's ``betaincinv`` and ``betainccinv``), beside the
forward function of special.py, whose helpers they call (``ibeta``, ``ibeta_prefix``,
``lbeta``).

Both digits that matter are kept: the answer's, by solving for x where x <= 1/2 and for
1 - x (I_1-x(b, a) = 1 - I_x(a, b)) where not, so that neither is ever 1 - (1 - small); and
the target's, by solving on the tail whose probability is at most 1/2 (the given one, or its
complement, exact there), evaluated as itself, never as 1 minus the other tail.
"""

INVERSE_BETA: dict[str, str] = {
    # z with F(z) = t, F = I_z(a, b) (upper == 0) or its upper tail I_1-z(b, a), for
    # 0 < t <= 1/2 and finite a, b > 0. Newton's iteration on log F (each step moves by
    # log(F / t) F / F', F' the beta density, signed), so targets down to 1e-300 keep their
    # digits, inside a bracket that every evaluation narrows; a step that leaves it bisects
    # instead (geometrically while the bracket spans orders of magnitude). Started from the
    # tail's leading term (I_z ~ z^a / (a B(a, b)) near 0, its upper tail ~ (1 - z)^b /
    # (b B(a, b)) near 1), or from the mean where that term says nothing useful.
    "ibeta_tail_inv": """\
{T} weft_ibeta_tail_inv_{S}({T} a, {T} b, {T} t, int upper) {{
    const {T} log_t = log(t);
    const {T} mean = a / (a + b);
    const {T} log_b_function = weft_lbeta_{S}(a, b);
    {T} z = upper ? 1 - exp((log_t + log(b) + log_b_function) / b)
        : exp((log_t + log(a) + log_b_function) / a);
    if (!(z > 0 && z < 1) || (upper ? z < mean : z > mean)) z = mean;
    {T} low = 0, high = 1;
    for (int i = 0; i < 400; ++i) {{
        // An upper tail is 1 - I_z while that is above 1/10 (ten ulps at most), or while z
        // is below 1e-8; else I_1-z(b, a), whose 1 - z rounds z by 1e-16 absolute, harmless
        // above 1e-8. (A tail below 1/10 at z below 1e-8 loses digits either way.)
        const {T} lower = weft_ibeta_{S}(a, b, z);
        const {T} f = !upper ? lower
            : (lower < 0.9{F} || z < 1e-8{F} ? 1 - lower : weft_ibeta_{S}(b, a, 1 - z));
        if ((f < t) != upper) low = z; else high = z;
        const {T} density = weft_ibeta_prefix_{S}(a, b, z, 1 - z) / (z * (1 - z));
        {T} next = -1;
        if (f > 0 && density > 0) {{
            const {T} change = (log(f) - log_t) * f / density;
            next = upper ? z + change : z - change;
            // (z itself is an end of the bracket now, so test before the bracket does)
            if (fabs(next - z) <= 4 * {special_eps} * z) return next;
        }}
        if (!(next > low && next < high)) {{
            next = low == 0 ? 0.0625{F} * high
                : (high > 4 * low ? sqrt(low * high) : low + 0.5{F} * (high - low));
        }}
        if (next == low || next == high) return next;  // the bracket holds no double between
        z = next;
    }}
    return z;
}}
""",
    # x with I_x(a, b) = p (upper == 0) or 1 - I_x(a, b) = p.
    "ibeta_inv_either": """\
{T} weft_ibeta_inv_either_{S}({T} a, {T} b, {T} p, int upper) {{
    if (isnan(a) || isnan(b) || isnan(p)) return a + b + p;
    if (!(a > 0) || !(b > 0) || p < 0 || p > 1) return NAN;
    if (p == (upper ? 1 : 0)) return 0;
    if (p == (upper ? 0 : 1)) return 1;
    if (isinf(a) || isinf(b)) return NAN;  // (SciPy's answer inside (0, 1) too)
    const {T} t = p <= 0.5{F} ? p : 1 - p;  // the smaller tail's probability, exact
    const int lower_is_small = (p <= 0.5{F}) != upper;
    const {T} lower = lower_is_small ? t : 1 - t;  // I_x(a, b) at the answer
    // (I at 1/2 says on which side of 1/2 the answer lies; half is an OpenCL type.)
    if (lower <= weft_ibeta_{S}(a, b, 0.5{F})) {{
        return weft_ibeta_tail_inv_{S}(a, b, t, !lower_is_small);
    }}
    return 1 - weft_ibeta_tail_inv_{S}(b, a, t, lower_is_small);
}}
""",
    "ibeta_inv": """\
{T} weft_ibeta_inv_{S}({T} a, {T} b, {T} p) {{
    return weft_ibeta_inv_either_{S}(a, b, p, 0);
}}
""",
    "ibetac_inv": """\
{T} weft_ibetac_inv_{S}({T} a, {T} b, {T} q) {{
    return weft_ibeta_inv_either_{S}(a, b, q, 1);
}}
""",
}

INVERSE_BETA_NEEDS: dict[str, tuple[str, ...]] = {
    "ibeta_tail_inv": ("lbeta", "ibeta", "ibeta_prefix"),
    "ibeta_inv_either": ("ibeta_tail_inv",),
    "ibeta_inv": ("ibeta_inv_either",),
    "ibetac_inv": ("ibeta_inv_either",),
}
