"""J and Y of orders 0 and 1 as straight-line kernel helpers: SciPy's ``j0``, ``j1``, ``y0``,
``y1``, and ``yn`` by the forward recurrence from them.

The general algorithm (``bessel_jy.py``) runs continued fractions of about x terms, whose
lengths differ from element to element: on a GPU a warp waits for its slowest lane (it was
46x behind CuPy's rational forms on an H200). Here every element evaluates fixed polynomials:

- x <= 5, in z = x^2 through t = z / 12.5 - 1 on [-1, 1]:
  J0 = (z - j01^2)(z - j02^2) A0(t) and J1 = x (z - j11^2) A1(t), with J's zeros factored
  out (each as (x - j_hi - j_lo)(x + j_hi), a double-double zero): next to j01 and j11 J
  keeps its relative accuracy, and j02 (beyond 5) keeps A0's range narrow, so that Horner's
  rule loses nothing near x = 5; Y0 = (2/pi) log(x) J0 + B0(t) and
  Y1 = (2/pi) (log(x) J1 - 1/x) + x B1(t), B0 and B1 entire in z.
- x > 5, Hankel's form: with chi = x - (2n + 1) pi / 4, J_n = sqrt(2 / (pi x))
  (P_n cos chi - Q_n sin chi) and Y_n = sqrt(2 / (pi x)) (P_n sin chi + Q_n cos chi), P_n
  and x Q_n polynomials in t = 50 / x^2 - 1. cos chi and sin chi are sums of cos x and sin x
  (no rounding of pi / 4 is added to x's), so J and Y keep an absolute error of about an ulp
  of the envelope sqrt(2 / (pi x)) up to the largest doubles.

The polynomials interpolate at Chebyshev points (degrees 14-17 and 20; errors below 2e-16
of each piece's largest value after rounding to doubles); ``scripts/fit-bessel-jy01`` prints
them, and tests/api/test_bessel_jy01.py checks the functions against mpmath on both sides of
x = 5, next to the zeros and at the ends of the range.
"""

from __future__ import annotations

from .polynomial import templated_horner

# Highest degree first.
POLYNOMIALS: dict[str, tuple[float, ...]] = {
    # relative error 4.3e-17
    'SMALL_A0': (
        9.959735198897267e-22, -8.055083315921048e-20, 5.711726613962134e-18,
        -3.5218732280095956e-16, 1.8671531900537605e-14, -8.404187991772375e-13,
        3.1637259177536936e-11, -9.781438944762927e-10, 2.4286220370253752e-08,
        -4.706291664571183e-07, 6.8549548472017165e-06, -7.121705240575852e-05,
        0.0004876827177655839, -0.0019210870437164043, 0.0031873556303932387,),
    # relative error 2.1e-17
    'SMALL_A1': (
        -3.211886258873469e-20, 2.4377326942569336e-18, -1.615111780157618e-16,
        9.260767006661193e-15, -4.540045818265696e-13, 1.8773820373349458e-11,
        -6.443130987407829e-10, 1.7995159919477946e-08, -3.991381169521697e-07,
        6.814683895178348e-06, -8.592956232073762e-05, 0.0007552540432951285,
        -0.004240225993395717, 0.013090777521810029, -0.01587595431164548,),
    # relative error 3.2e-17
    'SMALL_B0': (
        -3.4872676270259017e-19, 2.7721643819039412e-17, -1.9291380270158828e-15,
        1.165564391431475e-13, -6.043182348694375e-12, 2.6539990842050466e-10,
        -9.720964496817148e-09, 2.9142206877725446e-07, -6.985504367743399e-06,
        0.00012994629092087043, -0.001802809666552602, 0.01763534538933875, -0.11151682184328618,
        0.38851639956570944, -0.4705763655297288, -0.4326558222855125, 0.4837248578102995,),
    # relative error 1.6e-16
    'SMALL_B1': (
        1.0952246513678087e-22, -1.0453378298123554e-20, 8.842353518537872e-19,
        -6.58365815060043e-17, 4.27459078773724e-15, -2.3954772773131e-13, 1.1448948813735717e-11,
        -4.6013042443703284e-10, 1.5288901821936093e-08, -4.113778077369878e-07,
        8.73309830485033e-06, -0.00014141835794491777, 0.0016688031328635938,
        -0.013433433740818153, 0.06634695354779108, -0.16312020358118715, 0.09108650838448444,
        0.13974939033568806,),
    # relative error 2.6e-17
    'LARGE_P0': (
        5.682684156147412e-13, -9.362306733713465e-13, -1.4100304551624328e-12,
        2.212266137520626e-12, 3.2112251221807147e-12, -5.48124433789587e-12,
        1.2301824392475191e-12, -3.905191859591994e-12, 1.7662104054893337e-11,
        -4.171359959161613e-11, 1.0222481695617527e-10, -2.826933790146138e-10,
        8.54333353527064e-10, -2.8711174517114804e-09, 1.1058694645395798e-08,
        -5.0864251336242376e-08, 2.9759006198814616e-07, -2.4599633255626353e-06,
        3.49173058123235e-05, -0.0013274931272003324, 0.9986347659091991,),
    # relative error 1.2e-16
    'LARGE_Q0': (
        -5.222334538147709e-12, 8.407447245972002e-12, 1.3633406780516713e-11,
        -2.1081528293493824e-11, -2.876663066287588e-11, 4.744412482513226e-11,
        -2.8897963164132056e-12, 1.6678461752076892e-11, -1.1522676555173416e-10,
        2.5748918322321475e-10, -5.837301243408102e-10, 1.5212036979839156e-09,
        -4.294872965473153e-09, 1.329785673178523e-08, -4.639792333561936e-08,
        1.8870285034356504e-07, -9.409875233313307e-07, 6.2391131754646214e-06,
        -6.33871544253684e-05, 0.0013142139729101702, -0.12361496352611864,),
    # relative error 9.0e-17
    'LARGE_P1': (
        -5.992923727675507e-13, 9.88566081106912e-13, 1.4826945801821902e-12,
        -2.3277547509690364e-12, -3.392929117964213e-12, 5.80318129482217e-12,
        -1.3623592537943857e-12, 4.275483656948167e-12, -1.90330076859151e-11,
        4.513251147397199e-11, -1.1121841492323424e-10, 3.0914867218285957e-10,
        -9.40207832322745e-10, 3.185563668348202e-09, -1.240311769426231e-08,
        5.7916602664568055e-08, -3.466718727773931e-07, 2.9786211094498147e-06,
        -4.5782806531033735e-05, 0.0022414632139171197, 1.0022906462560661,),
    # relative error 9.0e-17
    'LARGE_Q1': (
        5.499288063650921e-12, -8.86347063753487e-12, -1.4321526134962363e-11,
        2.2160827936692544e-11, 3.0330329715038467e-11, -5.011071335870982e-11,
        3.475677955109186e-12, -1.854885856511523e-11, 1.2375002645863873e-10,
        -2.7758256253151096e-10, 6.32848600734026e-10, -1.6567269593951687e-09,
        4.7033027636616916e-09, -1.4665578811212324e-08, 5.164154996988851e-08,
        -2.1266727479894664e-07, 1.0798853844438713e-06, -7.369927953913392e-06,
        7.898094177972238e-05, -0.001864849621841231, 0.3730474331740802,),
}
# The first positive zeros of J0 and J1, each as a double and the rest (mpmath).
J0_ZEROS = ((2.404825557695773, -1.176691651530894e-16), (5.520078110286311, 8.088597146146722e-17))
J1_ZERO = (3.8317059702075125, -1.5269184090088067e-16)


def _polynomial(name: str, variable: str, indent: int, declare: bool = True) -> str:
    return templated_horner(POLYNOMIALS[name], "t", variable, indent, declare)


def _zero_factor(zero: tuple[float, float]) -> str:
    high, low = zero
    sign = "+" if low < 0 else "-"
    return f"((x - {high!r}{{F}}) {sign} {abs(low)!r}{{F}}) * (x + {high!r}{{F}})"


def _hankel(order: int) -> str:
    # cos chi and sin chi times sqrt(2), from cos x and sin x.
    cos_chi, sin_chi = ("c + s", "s - c") if order == 0 else ("s - c", "-(s + c)")
    return (_polynomial(f"LARGE_P{order}", "p", 8, declare=False)
            + _polynomial(f"LARGE_Q{order}", "q", 8, declare=False)
            + f"        cos_chi = {cos_chi};\n        sin_chi = {sin_chi};\n")


BESSEL_JY01: dict[str, str] = {
    "bessel_jy01": """\
{T} weft_bessel_jy01_{S}(int order, int want_y, {T} x, {T} *y) {{
    // J_order(x), and Y_order(x) into *y where want_y, for order 0 or 1 and 0 < x < inf.
    const {T} two_over_pi = 0.63661977236758134308{F};
    if (x <= 5) {{
        const {T} t = x * x * 0.08{F} - 1;
        if (order == 0) {{
""" + _polynomial("SMALL_A0", "a", 12) + """\
            const {T} j = """ + _zero_factor(J0_ZEROS[0]) + """
                * """ + _zero_factor(J0_ZEROS[1]) + """ * a;
            if (want_y) {{
""" + _polynomial("SMALL_B0", "b", 16) + """\
                *y = two_over_pi * log(x) * j + b;
            }}
            return j;
        }}
""" + _polynomial("SMALL_A1", "a", 8) + """\
        const {T} j = x * """ + _zero_factor(J1_ZERO) + """ * a;
        if (want_y) {{
""" + _polynomial("SMALL_B1", "b", 12) + """\
            *y = two_over_pi * (log(x) * j - 1 / x) + x * b;
        }}
        return j;
    }}
    const {T} t = 50 / (x * x) - 1;
    const {T} s = sin(x), c = cos(x);
    {T} p, q, cos_chi, sin_chi;  // P_n, x Q_n
    if (order == 0) {{
""" + _hankel(0) + """\
    }} else {{
""" + _hankel(1) + """\
    }}
    const {T} r = sqrt(0.31830988618379067154{F} / x);
    q /= x;
    if (want_y) *y = r * (p * sin_chi + q * cos_chi);
    return r * (p * cos_chi - q * sin_chi);
}}
""",
    "j0": """\
{T} weft_j0_{S}({T} x) {{
    // SciPy's j0: even, 1 at 0, 0 at +-inf.
    x = fabs(x);
    if (x == 0) return 1;
    if (!(x < INFINITY)) return isnan(x) ? x : 0;
    {T} unused;
    return weft_bessel_jy01_{S}(0, 0, x, &unused);
}}
""",
    "j1": """\
{T} weft_j1_{S}({T} x) {{
    // SciPy's j1: odd, 0 at 0 and at +-inf.
    const {T} a = fabs(x);
    if (a == 0 || isnan(a)) return x;
    if (isinf(a)) return 0;
    {T} unused;
    const {T} j = weft_bessel_jy01_{S}(1, 0, a, &unused);
    return x < 0 ? -j : j;
}}
""",
    **{name: """\
{{T}} weft_NAME_{{S}}({{T}} x) {{{{
    // SciPy's NAME: NaN below 0, -inf at 0; 0 at inf (SciPy: NaN).
    if (!(x > 0)) return x == 0 ? -INFINITY : NAN;
    if (isinf(x)) return 0;
    {{T}} y;
    weft_bessel_jy01_{{S}}(ORDER, 1, x, &y);
    return y;
}}}}
""".replace("NAME", name).replace("ORDER", name[1]).format() for name in ("y0", "y1")},
    "yn": """\
{T} weft_yn_{S}({T} n, {T} x) {{
    // SciPy's yn: the order truncated toward zero; Y_-n = (-1)^n Y_n. Y_(k+1) = (2k / x) Y_k
    // - Y_(k-1), stable forward for every x, from Y0 and Y1; once Y overflows it stays
    // infinite. Orders beyond 2^20 take the general algorithm (and its limits).
    if (isnan(n) || isnan(x) || x < 0) return NAN;
    const {T} m = trunc(n), a = fabs(m);
    if (a > 1048576) return weft_yv_{S}(m, x);
    const {T} sign = m < 0 && fmod(a, ({T})2) != 0 ? -1 : 1;
    if (x == 0) return -sign * INFINITY;
    if (isinf(x)) return 0;
    return sign * weft_bessel_yn_integer_{S}((int)a, x);
}}
""",
}

BESSEL_JY01_NEEDS: dict[str, tuple[str, ...]] = {
    "j0": ("bessel_jy01",), "j1": ("bessel_jy01",), "y0": ("bessel_jy01",),
    "y1": ("bessel_jy01",), "yn": ("bessel_yn_integer", "yv"),
}
