"""The incomplete gamma and beta functions' derivatives in their shape parameters, as kernel
helpers: ``gamma_p_da`` (dP(a, x)/da, so dQ/da is its negative), ``ibeta_da`` and
``ibeta_db`` (dI_x(a, b)/da and /db). They are the adjoint rules' building blocks for
``gamma_p``, ``gamma_q``, ``ibeta`` and, by the implicit function theorem, their inverses.

Each follows its function's own evaluation (special.py) and differentiates it as it goes:

- P's power series below x = a + 1: P = x^a e^-x / Gamma(a + 1) sum_n u_n with
  u_n = prod_{k <= n} x / (a + k), and du_n/da = -u_n H_n, H_n = sum_{k <= n} 1 / (a + k),
  all terms of one sign;
- above, Legendre's continued fraction of Q, evaluated by modified Lentz with every
  quantity carried together with its derivative in a (forward mode): the derivative
  converges with the fraction and keeps Q's relative accuracy far in the upper tail, where
  1 - P would have none;
- from a = 1e6, Temme's uniform expansion of the forward function, differentiated in
  closed form;
- ibeta: the continued fraction below the mean, with its derivative carried the same way,
  and the symmetry I_x(a, b) = 1 - I_1-x(b, a) above.

The prefactors' logarithmic derivatives, log x - psi(a + 1) and their beta analogues, nearly
cancel near the mean for large parameters: from 10 up they are formed as log(x / a) (log1p
near 1) less psi(a + 1) - log a from its asymptotic series (``digamma_gap``), so no two
large logarithms meet. The beta derivatives use the continued fraction also where the
forward function takes DiDonato and Morris's expansion for large a (its digits there:
docs/special.md).
"""

INCOMPLETE_DERIVATIVES: dict[str, str] = {
    # psi(a + 1) - log(a) for a >= 10: the asymptotic series through B_14 (the next term,
    # 3617 / (8160 a^16), is below 5e-17 there).
    "digamma_gap": """\
{T} weft_digamma_gap_{S}({T} a) {{
    const {T} r = 1 / a;
    const {T} r2 = r * r;
    return r * (0.5{F} + r * (-1.0{F} / 12 + r2 * (1.0{F} / 120 + r2 * (-1.0{F} / 252
        + r2 * (1.0{F} / 240 + r2 * (-1.0{F} / 132 + r2 * (691.0{F} / 32760
        + r2 * (-1.0{F} / 12))))))));
}}
""",
    # log(x) - psi(a + 1): d/da of log(x^a e^-x / Gamma(a + 1)).
    "gamma_log_shift": """\
{T} weft_gamma_log_shift_{S}({T} a, {T} x) {{
    if (a < 10) return log(x) - weft_digamma_{S}(a + 1);
    const {T} u = (x - a) / a;
    return (fabs(u) < 0.25{F} ? log1p(u) : log(x / a)) - weft_digamma_gap_{S}(a);
}}
""",
    # dQ/da of Temme's expansion (special.py's gamma_temme), with lambda = x / a = 1 + u and
    # d eta / da = -u / (a eta): Q = erfc(z) / 2 + E (c0 + c1 / a), z = eta sqrt(a / 2),
    # E = e^(-a eta^2 / 2) / sqrt(2 pi a), so d(erfc(z) / 2)/da = E (u / eta - eta / 2) and
    # dE/da = E (u - eta^2 / 2 - 1 / (2 a)).
    "gamma_temme_da": """\
{T} weft_gamma_temme_da_{S}({T} a, {T} x) {{
    const {T} u = (x - a) / a;
    const {T} half_eta2 = fabs(u) < 0.25{F} ? -weft_log1pmx_{S}(u) : u - log(x / a);
    const {T} eta = copysign(sqrt(2 * half_eta2), u);
    const {T} ratio = eta == 0 ? 1 : u / eta;  // (u / eta -> 1 as x -> a)
    const {T} deta = -ratio / a;
    const int small_eta = fabs(eta) < 1e-3{F};
    const {T} c0 = small_eta
        ? -1.0{F} / 3 + eta * (1.0{F} / 12 + eta * (-2.0{F} / 135 + eta * (1.0{F} / 864
            + eta * 3.527336860670194e-4{F})))
        : 1 / u - 1 / eta;
    const {T} dc0 = small_eta
        ? deta * (1.0{F} / 12 + eta * (-4.0{F} / 135 + eta * (3.0{F} / 864
            + eta * 1.4109347442680776e-3{F})))
        : (1 + u) / (a * u * u) + deta / (eta * eta);
    const int beyond = fabs(eta) >= 1;
    const {T} c1 = beyond ? 0 : -1.0{F} / 540 + eta * (-1.0{F} / 288 + eta * (
        1.0{F} / 378 - eta * 9.9022633744855967e-4{F}));
    const {T} dc1 = beyond ? 0 : deta * (-1.0{F} / 288 + eta * (2.0{F} / 378
        - eta * 2.970679012345679e-3{F}));
    const {T} e = exp(-a * half_eta2) / sqrt(6.28318530717958647693{F} * a);
    return e * (ratio - 0.5{F} * eta + (u - half_eta2 - 0.5{F} / a) * (c0 + c1 / a) + dc0
                + (dc1 - c1 / a) / a);
}}
""",
    # One modified-Lentz step of a continued fraction b0 + a1 / (b1 + a2 / (b2 + ...)), each
    # quantity carried with its derivative in a parameter (forward mode): the term an, bn
    # and their derivatives dan, dbn update the state; the step's factor delta (by which h,
    # the fraction so far, was multiplied) and its derivative are returned through it.
    "lentz_d": """\
typedef struct {{
    {T} c, dc, d, dd, h, dh, delta, ddelta;
}} weft_lentz_d_{S};

{Q}void weft_lentz_d_step_{S}(weft_lentz_d_{S} *s, {T} an, {T} dan, {T} bn, {T} dbn) {{
    {T} e = bn + an * s->d, de = dbn + dan * s->d + an * s->dd;
    if (fabs(e) < {special_tiny}) {{
        e = {special_tiny};
        de = 0;
    }}
    {T} f = bn + an / s->c, df = dbn + (dan - an * s->dc / s->c) / s->c;
    if (fabs(f) < {special_tiny}) {{
        f = {special_tiny};
        df = 0;
    }}
    s->d = 1 / e;
    s->dd = -de * s->d * s->d;
    s->c = f;
    s->dc = df;
    s->delta = s->d * s->c;
    s->ddelta = s->dd * s->c + s->d * s->dc;
    s->dh = s->dh * s->delta + s->h * s->ddelta;
    s->h *= s->delta;
}}
""",
    # dP(a, x)/da for a, x >= 0 (dQ/da is its negative). At a = 0, the one-sided limit
    # -E1(x).
    "gamma_p_da": """\
{T} weft_gamma_p_da_{S}({T} a, {T} x) {{
    if (isnan(a) || isnan(x)) return a + x;
    if (a < 0 || x < 0 || (a == 0 && x == 0) || (isinf(a) && isinf(x))) return NAN;
    if (x == 0 || isinf(x) || isinf(a)) return 0;
    if (a >= 1e6{F}) return -weft_gamma_temme_da_{S}(a, x);
    const {T} shift = weft_gamma_log_shift_{S}(a, x);
    const {T} prefix = weft_gamma_prefix_{S}(a, x);
    if (x < a + 1) {{
        {T} term = 1, harmonic = 0, sum = 1, weighted = 0;
        for (int n = 1; n < {special_steps}; ++n) {{
            const {T} inverse = 1 / (a + n);
            term *= x * inverse;
            harmonic += inverse;
            sum += term;
            weighted += term * harmonic;
            if (term <= {special_eps} * sum && term * harmonic <= {special_eps} * weighted)
                break;
        }}
        return prefix * (shift * sum - weighted);
    }}
    // Q = a prefix h; d(a prefix)/da = prefix (1 + a shift). Each Lentz quantity v with its
    // derivative dv: an = -i (i - a) (d: i), b = x + 1 - a + 2 i (d: -1).
    {T} b = x + 1 - a;
    weft_lentz_d_{S} s = {{1 / {special_tiny}, 0, 1 / b, 1 / (b * b), 1 / b, 1 / (b * b), 0, 0}};
    for (int i = 1; i < {special_steps}; ++i) {{
        b += 2;
        weft_lentz_d_step_{S}(&s, -i * (i - a), i, b, -1);
        // (relative to the whole result: dh alone may be zero, and then only rounding)
        if (fabs(s.delta - 1) <= {special_eps} && fabs(a * s.h * s.ddelta)
                <= {special_eps} * (fabs(a * s.dh) + fabs((1 + a * shift) * s.h)))
            break;
    }}
    return -prefix * ((1 + a * shift) * s.h + a * s.dh);
}}
""",
    # dI_x(a, b)/da (first != 0) or /db for x at or below the mean, y = 1 - x: I = K h with
    # K = x^a y^b / (a B(a, b)) and h the continued fraction of ibeta_cf, whose steps and
    # Lentz quantities are carried with their derivatives. d log K/da = log x - 1/a - psi(a)
    # + psi(a + b), d log K/db = log y - psi(b) + psi(a + b); from a, b = 10, through
    # digamma_gap: log(x c / a) + G(c) - G(a) - 1/c and log(y c / b) + G(c) - G(b) + 1/b
    # - 1/c, c = a + b, G(t) = psi(t + 1) - log t.
    "ibeta_lower_d": """\
{T} weft_ibeta_lower_d_{S}({T} a, {T} b, {T} x, {T} y, int first) {{
    const {T} total = a + b;
    {T} shift;
    if (a >= 10 && b >= 10) {{
        const {T} u = (x * b - y * a) / a;
        const {T} v = -u * a / b;
        const {T} gaps = weft_digamma_gap_{S}(total) - 1 / total;
        shift = first
            ? (fabs(u) < 0.25{F} ? log1p(u) : log(x * total / a)) + gaps
                - weft_digamma_gap_{S}(a)
            : (fabs(v) < 0.25{F} ? log1p(v) : log(y * total / b)) + gaps
                - weft_digamma_gap_{S}(b) + 1 / b;
    }} else {{
        const {T} log_x = x <= 0.5{F} ? log(x) : log1p(-y);
        const {T} log_y = x <= 0.5{F} ? log1p(-x) : log(y);
        shift = first ? log_x - 1 / a - weft_digamma_{S}(a) + weft_digamma_{S}(total)
                      : log_y - weft_digamma_{S}(b) + weft_digamma_{S}(total);
    }}
    const {T} start = total * x / (a + 1);
    {T} e = 1 - start;
    {T} de = first ? -x * (1 - b) / ((a + 1) * (a + 1)) : -x / (a + 1);
    if (fabs(e) < {special_tiny}) {{
        e = {special_tiny};
        de = 0;
    }}
    weft_lentz_d_{S} s = {{1, 0, 1 / e, -de / (e * e), 1 / e, -de / (e * e), 0, 0}};
    for (int m = 1; m < {special_steps}; ++m) {{
        const int m2 = 2 * m;
        {T} step = m / (a - 1 + m2) * ((b - m) * x / (a + m2));
        weft_lentz_d_step_{S}(&s, step, first ? -step * (1 / (a - 1 + m2) + 1 / (a + m2))
                                              : m / (a - 1 + m2) * (x / (a + m2)), 1, 0);
        step = -(a + m) / (a + m2) * ((total + m) * x / (a + 1 + m2));
        weft_lentz_d_step_{S}(&s, step, first ? step * (1 / (a + m) + 1 / (total + m)
                                                        - 1 / (a + m2) - 1 / (a + 1 + m2))
                                              : step / (total + m), 1, 0);
        if (fabs(s.delta - 1) <= {special_eps}
                && fabs(s.h * s.ddelta) <= {special_eps} * (fabs(s.dh) + fabs(shift * s.h)))
            return weft_ibeta_prefix_{S}(a, b, x, y) / a * (shift * s.h + s.dh);
    }}
    return NAN;  // (as ibeta_cf: an unconverged fraction is not an answer)
}}
""",
    "ibeta_da": """\
{T} weft_ibeta_da_{S}({T} a, {T} b, {T} x) {{
    if (isnan(a) || isnan(b) || isnan(x)) return a + b + x;
    if (a <= 0 || b <= 0 || x < 0 || x > 1 || (isinf(a) && isinf(b))) return NAN;
    if (x == 0 || x == 1 || isinf(a) || isinf(b)) return 0;
    const {T} y = 1 - x;
    if (x * (a + b + 2) > a + 1) return -weft_ibeta_lower_d_{S}(b, a, y, x, 0);
    return weft_ibeta_lower_d_{S}(a, b, x, y, 1);
}}
""",
    "ibeta_db": """\
{T} weft_ibeta_db_{S}({T} a, {T} b, {T} x) {{
    if (isnan(a) || isnan(b) || isnan(x)) return a + b + x;
    if (a <= 0 || b <= 0 || x < 0 || x > 1 || (isinf(a) && isinf(b))) return NAN;
    if (x == 0 || x == 1 || isinf(a) || isinf(b)) return 0;
    const {T} y = 1 - x;
    if (x * (a + b + 2) > a + 1) return -weft_ibeta_lower_d_{S}(b, a, y, x, 1);
    return weft_ibeta_lower_d_{S}(a, b, x, y, 0);
}}
""",
}

INCOMPLETE_DERIVATIVES_NEEDS: dict[str, tuple[str, ...]] = {
    "gamma_log_shift": ("digamma", "digamma_gap"),
    "gamma_temme_da": ("log1pmx",),
    "gamma_p_da": ("gamma_log_shift", "gamma_prefix", "gamma_temme_da", "lentz_d"),
    "ibeta_lower_d": ("digamma", "digamma_gap", "ibeta_prefix", "lentz_d"),
    "ibeta_da": ("ibeta_lower_d",),
    "ibeta_db": ("ibeta_lower_d",),
}
