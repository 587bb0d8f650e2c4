"""weft's own call-free ``lgamma`` for CPU dialects (``own_math.py``): log |Gamma(x)| over
all doubles and floats, within a few ulps of mpmath, relative also next to its zeros at 1 and 2
(tested).

Every element computes each of these and a select picks one (a branch would go both ways in
a vectorized kernel anyway):

- |x| < 1/2: lgamma(x) = x Q(x) - log |x|, from Gamma(x) = Gamma(1 + x) / x;
- 1/2 <= x < 3/2: t Q(t), t = x - 1 (exact);
- 3/2 <= x < 8: x = z + n, z in [3/2, 5/2), n <= 6 (exact); lgamma(x) = t P(t) + log(z (z + 1)
  ... (z + n - 1)), t = z - 2;
- x >= 8: Stirling's series, (x - 1/2) log x - x + log(2 pi) / 2 + sum B_2k / (2k (2k - 1)
  x^(2k - 1)), k <= 8 (the first term left out is below 10^-17 of the result);
- x <= -1/2: reflection, lgamma(x) = log pi - log |x sin(pi x)| - lgamma(-x), sin(pi x) from
  x's distance to its nearest integer r (exact), as sin(pi |r|) or cos(pi (1/2 - |r|)) on
  [0, pi/4] (trig.py's kernels; pi times it as a double-double by an FMA).

Q(t) = lgamma(1 + t) / t and P(t) = lgamma(2 + t) / t are polynomials of degree 27 and 17 that
interpolate them at Chebyshev points of [-1/2, 1/2] (relative error 6e-17 after rounding the
coefficients; ``scripts/fit-own-lgamma`` prints them). Poles (0 and the negative integers) and
infinities give +inf, NaN stays NaN; float32 goes through float64.
"""

LGAMMA_PARTS = """\
// lgamma(1 + t) and lgamma(2 + t) for |t| <= 1/2 (t Q(t), t P(t)).
double OVERLOADABLE weft_lgamma_near_one(double t) {
    double q = 0.21762817640022097;
    q = q * t + -0.22471180158915516;
    q = q * t + -0.14857260899606312;
    q = q * t + 0.1528715168258553;
    q = q * t + 0.14011729595820724;
    q = q * t + -0.14497971020532596;
    q = q * t + 0.01333577663873192;
    q = q * t + -0.014509338086091672;
    q = q * t + 0.057003000096539545;
    q = q * t + -0.059850048562680856;
    q = q * t + 0.054501409023364235;
    q = q * t + -0.057737256640806416;
    q = q * t + 0.0626116167474043;
    q = q * t + -0.06678275881746833;
    q = q * t + 0.07142491150665906;
    q = q * t + -0.07692423568567124;
    q = q * t + 0.08335423437020126;
    q = q * t + -0.09095442301348973;
    q = q * t + 0.10009944506030896;
    q = q * t + -0.1113342530365414;
    q = q * t + 0.1255096697597847;
    q = q * t + -0.14404989701106719;
    q = q * t + 0.16955717699509998;
    q = q * t + -0.2073855510262953;
    q = q * t + 0.2705808084277935;
    q = q * t + -0.4006856343865406;
    q = q * t + 0.8224670334241132;
    q = q * t + -0.5772156649015329;
    return t * q;
}

double OVERLOADABLE weft_lgamma_near_two(double t) {
    double p = 2.7475390051909663e-07;
    p = p * t + -5.811277768921246e-07;
    p = p * t + 9.242852225162277e-07;
    p = p * t + -1.9743106888421067e-06;
    p = p * t + 4.3828545383846665e-06;
    p = p * t + -9.45628851510172e-06;
    p = p * t + 2.050601970174762e-05;
    p = p * t + -4.4923727564247656e-05;
    p = p * t + 9.945761692157133e-05;
    p = p * t + -0.00022315497746292723;
    p = p * t + 0.0005096695196526673;
    p = p * t + -0.0011927539009983087;
    p = p * t + 0.002890510330865901;
    p = p * t + -0.007385551028935545;
    p = p * t + 0.02058080842778338;
    p = p * t + -0.06735230105319563;
    p = p * t + 0.3224670334241132;
    p = p * t + 0.42278433509846713;
    return t * p;
}

// For 3/2 <= y < 8: y = z + n with z in [3/2, 5/2) and n <= 6 (exact); sets *z and returns
// z (z + 1) ... (z + n - 1). Where the caller takes another path (``elsewhere``), z = 2.
double OVERLOADABLE weft_down_to_near_two(double y, int elsewhere, double* z) {
    const double n = __builtin_fmin(__builtin_fmax(__builtin_floor(y - 1.5), 0.0), 6.0);
    const double w = elsewhere ? 2.0 : y - n;
    *z = w;
    return (n >= 1.0 ? w : 1.0) * (n >= 2.0 ? w + 1.0 : 1.0)
        * (n >= 3.0 ? w + 2.0 : 1.0) * (n >= 4.0 ? w + 3.0 : 1.0)
        * (n >= 5.0 ? w + 4.0 : 1.0) * (n >= 6.0 ? w + 5.0 : 1.0);
}

// Stirling's series after its leading terms: sum B_2k / (2k (2k - 1) y^(2k - 1)), k <= 8.
double OVERLOADABLE weft_stirling_tail(double y) {
    const double w = 1.0 / y, w2 = w * w;
    double s = -0.029550653594771242;
    s = s * w2 + 0.00641025641025641;
    s = s * w2 + -0.0019175269175269176;
    s = s * w2 + 0.0008417508417508417;
    s = s * w2 + -0.0005952380952380953;
    s = s * w2 + 0.0007936507936507937;
    s = s * w2 + -0.002777777777777778;
    s = s * w2 + 0.08333333333333333;
    return w * s;
}

// sin(pi r) for r in [0, 1/2]: sin(pi r) or cos(pi (1/2 - r)) on [0, pi/4] (trig.py's
// kernels; pi times it as a double-double by an FMA).
double OVERLOADABLE weft_sin_pi_near(double r) {
    const int sine = r <= 0.25;
    const double u = sine ? r : 0.5 - r;
    const double uh = 3.14159265358979311600 * u;
    const double ul = __builtin_fma(3.14159265358979311600, u, -uh)
        + 1.22464679914735317720e-16 * u;
    return sine ? weft_sin_kernel(uh, ul) : weft_cos_kernel(uh, ul);
}
"""

LGAMMA = """\
double OVERLOADABLE weft_lgamma(double x) {
    const double y = x <= -0.5 ? -x : x;  // what the positive path sees
    const double a = __builtin_fabs(y);
    const int small = a < 0.5, near_one = y >= 0.5 && y < 1.5, big = y >= 8.0;
    const double t1 = small ? y : y - 1.0;
    double z;
    const double product = weft_down_to_near_two(y, small || near_one || big, &z);
    const double log_part = weft_log(small ? a : (big ? y : product));
    const double scale = small ? -1.0 : (near_one ? 0.0 : (big ? y - 0.5 : 1.0));
    const double polynomial = small || near_one ? weft_lgamma_near_one(t1)
        : (big ? weft_stirling_tail(big ? y : 8.0) - y + 0.91893853320467274178
               : weft_lgamma_near_two(z - 2.0));
    const double positive = polynomial + scale * log_part;
    // Reflection for x <= -1/2: |sin(pi x)| = sin(pi |r|), r = x - rint(x).
    const double sin_pi = weft_sin_pi_near(__builtin_fabs(x - __builtin_rint(x)));
    const double reflected = 1.14472988584940017414 - weft_log(-x * sin_pi) - positive;
    const double result = x <= -0.5 ? reflected : positive;
    return x == INFINITY || x == -INFINITY ? INFINITY : (x != x ? x : result);
}
"""

TGAMMA = """\
double OVERLOADABLE weft_tgamma(double x) {
    const double y = x <= -0.5 ? -x : x;  // what the positive path sees
    const int small = __builtin_fabs(y) < 0.5, near_one = y >= 0.5 && y < 1.5;
    const int big = y >= 8.0;
    // y < 8: exp(lgamma) of the polynomials, where lgamma is at most 1/2 (its rounding
    // stays relative), times z (z + 1) ... (y - 1) or over y.
    const double t1 = small ? y : y - 1.0;
    double z;
    const double product = weft_down_to_near_two(y, small || near_one || big, &z);
    const double near = weft_exp(small || near_one ? weft_lgamma_near_one(t1)
                                                   : weft_lgamma_near_two(z - 2.0));
    const double low = small ? near / y : (near_one ? near : near * product);
    // y >= 8: Stirling, Gamma(y) = e^a sqrt(2 pi) e^tail(y), a = (y - 1/2) log y - y as
    // two doubles; e^a as e^(a_hi / 2) twice, so that each factor stays finite wherever
    // Gamma or its reciprocal does (up to y = 200; beyond, both are out of range).
    const double yb = big ? __builtin_fmin(y, 200.0) : 8.0;
    double log_lo;
    const double log_hi = weft_log_parts(yb, &log_lo);
    const double m = yb - 0.5;  // exact
    const double ph = m * log_hi;
    const double pl = __builtin_fma(m, log_hi, -ph) + m * log_lo;
    const double ah = ph - yb;
    const double part = ah - ph;  // Knuth's two-sum
    const double al = (ph - (ah - part)) + (-yb - part) + pl;
    const double e_half = weft_exp(0.5 * ah);
    const double head = big ? e_half * (2.50662827463100050242
                                      * weft_exp(al + weft_stirling_tail(yb))) : low;
    const double last = big ? e_half : 1.0;
    const double positive = head * last;
    // Reflection for x <= -1/2: Gamma(x) = -pi / (x sin(pi x) Gamma(-x)), sin(pi x) =
    // (-1)^k sin(pi (x - k)) for k = rint(x); the poles (r = 0) give NaN.
    const double k = __builtin_rint(x), r = x - k;
    const int odd = __builtin_rint(k * 0.5) != k * 0.5;
    const double sin_abs = weft_sin_pi_near(__builtin_fabs(r));
    const double sin_pi = (r < 0.0) != odd ? -sin_abs : sin_abs;
    const double reflected = r == 0.0 ? NAN
        : (-3.14159265358979311600 / (x * sin_pi * head)) / last;
    const double result = x <= -0.5 ? reflected : positive;
    return x == INFINITY ? x : (x == -INFINITY ? NAN : (x != x ? x : result));
}
"""
