"""The modified Bessel functions of the second kind of orders 0 and 1 as kernel helpers:
``k0``, ``k1`` and their exponentially scaled forms ``k0e``, ``k1e`` (SciPy's names and
domains: +inf at 0, NaN below it, 0 at +inf), of fixed cost (no loop, so that a GPU's warp
does not wait on its slowest lane, and a few polynomials where a quadrature cost 96 calls of
exp, sinh and cosh an element):

- x <= 1, from the power series' structure (A&S 9.6.13, 9.6.11): K0 = R0(z) - log(x) I0 and
  K1 = 1/x + log(x) I1 + x R1(z), with I0 = S0(z), I1 = x S1(z) and R0, R1 entire in
  z = x^2, each a polynomial in t = 2z - 1 (degree 12);
- x > 1: sqrt(x) e^x K_n(x) = P_n(u), u = 1/x, a polynomial in t = 2u - 1 (degree 34;
  sqrt(pi/2) at x = inf, where Hankel's expansion starts), so K_n = P_n / sqrt(x) e^-x.

The polynomials interpolate at Chebyshev points (errors below 1.1e-16 of each piece's largest
value after rounding to doubles; ``scripts/fit-bessel-k01`` prints them); the functions are
within a few ulps of 40-digit mpmath (tests/api/test_special.py).
"""

from __future__ import annotations

from .polynomial import templated_horner

# Highest degree first.
POLYNOMIALS: dict[str, tuple[float, ...]] = {
    # error 1.3e-17
    'SMALL_S0': (
        6.403558310611795e-29, 7.382810174961577e-26, 7.153307506218481e-23,
        5.729142864382641e-20, 3.7176349575368974e-17, 1.9067290845487868e-14,
        7.49103301604101e-12, 2.163824118343895e-09, 4.345626715926288e-07, 5.597023382279151e-05,
        0.004071574851713881, 0.1329769664783382, 1.1289609294541276,),
    # error 1.0e-16
    'SMALL_S1': (
        2.461217148963095e-30, 3.0737087734537286e-27, 3.248429708636043e-24,
        2.8613230024854315e-21, 2.062491431184673e-18, 1.1896431864118072e-15,
        5.338841436736604e-13, 1.7978479238498425e-10, 4.32764823668779e-08,
        6.953002745482061e-06, 0.0006716428058734981, 0.03257259881371105, 0.5319078659133528,),
    # error 4.9e-17
    'SMALL_R0': (
        2.0618697804343275e-28, 2.315748522022069e-25, 2.1788483972344454e-22,
        1.6878901119714104e-19, 1.0540717347838999e-16, 5.168640891856198e-14,
        1.9240526422447294e-11, 5.199068658291488e-09, 9.578784932659294e-07,
        0.00010953429263240146, 0.006635139793139439, 0.1524369217993952, 0.26184187925868707,),
    # error 5.6e-17
    'SMALL_R1': (
        -8.019299224907317e-30, -9.769001023515163e-27, -1.0041743264190651e-23,
        -8.572474966726286e-21, -5.9619644644540654e-18, -3.298791292096407e-15,
        -1.4091591062879717e-12, -4.4682862845008475e-10, -9.966866893483063e-08,
        -1.446124325330061e-05, -0.001203335856582189, -0.045049044296694374, -0.3518258282893255,),
    # error 4.1e-17
    'LARGE_P0': (
        1.3309386887069946e-08, -1.788532376221989e-08, -9.232860139423101e-08,
        1.2381253488884088e-07, 2.9916627233933683e-07, -4.0075706801553803e-07,
        -5.893147933298771e-07, 7.886561548811209e-07, 7.876011817197589e-07,
        -1.0535273687336855e-06, -7.464389465299638e-07, 9.97407443697577e-07,
        5.253249912151487e-07, -7.030207395467828e-07, -2.576773179126315e-07,
        3.409252604287025e-07, 1.330338672790293e-07, -1.8778671306986344e-07,
        5.6232699544373416e-08, -1.0896614789154072e-07, 2.6719031919519127e-07,
        -4.797096400009066e-07, 8.723172140568466e-07, -1.660842307508333e-06,
        3.266036577547629e-06, -6.659489053292569e-06, 1.4181596862368107e-05,
        -3.1814771360842256e-05, 7.6082659558429e-05, -0.00019727982196766233,
        0.0005692398883504194, -0.0019084014862483494, 0.008067386548373134,
        -0.052279011491757836, 1.1901571834152027,),
    # error 7.4e-18
    'LARGE_P1': (
        -1.4409059875269334e-08, 1.9384820893042275e-08, 9.989709049193146e-08,
        -1.3410763825607152e-07, -3.235915310706333e-07, 4.3394374492449105e-07,
        6.372490792492253e-07, -8.537100734419378e-07, -8.515501280622891e-07,
        1.140280748120133e-06, 8.068022820019287e-07, -1.079173636343663e-06,
        -5.68048557781302e-07, 7.610744104400959e-07, 2.777480978604577e-07,
        -3.675723496919876e-07, -1.460466914694126e-07, 2.0720934500312303e-07,
        -6.835316551632972e-08, 1.319505794922273e-07, -3.1608935439862705e-07,
        5.723274025681769e-07, -1.052138745840003e-06, 2.0246234811997016e-06,
        -4.031157231301949e-06, 8.343088178154326e-06, -1.8092784591148004e-05,
        4.152312211346827e-05, -0.00010227195387434161, 0.00027603884143778554,
        -0.000844392741379522, 0.003112006645595963, -0.015852854565984446, 0.18797890654571872,
        1.4615569735231244,),
}


def _polynomial(name: str, result: str, indent: int = 12) -> str:
    return templated_horner(POLYNOMIALS[name], "t", result, indent)


BESSEL_K: dict[str, str] = {
    # K_order(x), or e^x K_order(x) where ``scaled``, for 0 < x < inf, order 0 or 1.
    "bessel_k": """\
{T} weft_bessel_k_{S}(int order, int scaled, {T} x) {{
    if (x <= 1) {{
        const {T} t = 2 * x * x - 1, log_x = log(x);
        {T} value;
        if (order == 0) {{
""" + _polynomial("SMALL_S0", "i") + _polynomial("SMALL_R0", "r") + """\
            value = r - log_x * i;
        }} else {{
""" + _polynomial("SMALL_S1", "i") + _polynomial("SMALL_R1", "r") + """\
            value = 1 / x + x * (log_x * i + r);
        }}
        return scaled ? value * exp(x) : value;
    }}
    const {T} t = 2 / x - 1;
    {T} p;
    if (order == 0) {{
""" + _polynomial("LARGE_P0", "p0", 8) + """\
        p = p0;
    }} else {{
""" + _polynomial("LARGE_P1", "p1", 8) + """\
        p = p1;
    }}
    p /= sqrt(x);
    return scaled ? p : p * exp(-x);
}}
""",
}

# SciPy's values off (0, inf): +inf at 0, NaN below (and at NaN), 0 at +inf.
_ONE = """\
{{T}} weft_{name}_{{S}}({{T}} x) {{{{
    if (!(x > 0)) return x == 0 ? INFINITY : NAN;
    if (isinf(x)) return 0;
    return weft_bessel_k_{{S}}({order}, {scaled}, x);
}}}}
"""
for _order in (0, 1):
    for _scaled, _suffix in ((0, ""), (1, "e")):
        BESSEL_K[f"k{_order}{_suffix}"] = _ONE.format(name=f"k{_order}{_suffix}",
                                                       order=_order, scaled=_scaled)

BESSEL_K_NEEDS: dict[str, tuple[str, ...]] = {name: ("bessel_k",) for name in
                                               ("k0", "k1", "k0e", "k1e")}
