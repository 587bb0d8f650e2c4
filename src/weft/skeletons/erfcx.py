"""The scaled complementary error function e^(x^2) erfc(x) (SciPy's ``erfcx``) as a kernel
helper of fixed cost (no loop, so that a GPU's warp does not wait on its slowest lane):

- 0 <= a <= 2: a polynomial in a - 1 (degree 24);
- a > 2: sqrt(pi) a erfcx(a) as a polynomial in u = 4 / a^2 (degree 26; 1 at a = inf, where
  the asymptotic series starts), so erfcx(a) = Q(u) / (sqrt(pi) a);
- x < 0: 2 e^(x^2) - erfcx(-x), a difference of at most 1 against at least 2, with x^2 split
  exactly into x2 + d (an FMA) so that e^(x^2) = e^x2 (1 + d) keeps its digits; +inf from
  about x = -26.6 (e^(x^2) overflows).

Both polynomials interpolate at Chebyshev points (relative errors 1.4e-17 and 2.4e-17 after
rounding; ``scripts/fit-erfcx`` prints them); the function is within an ulp or two of mpmath
(tests/api/test_special.py). 0 at +inf, NaN at NaN.
"""

from __future__ import annotations

from .polynomial import templated_horner

# relative error 1.4e-17
NEAR = (
    4.399523933914218e-12, -1.8001786876135125e-11, 4.492935978202763e-11,
    -1.7383304277406256e-10, 7.347116942232067e-10, -2.755836868288335e-09,
    1.0004024254431804e-08, -3.59029426923252e-08, 1.2603262835313098e-07,
    -4.3146362203225214e-07, 1.4396659973184314e-06, -4.675489848346245e-06,
    1.4753176585668967e-05, -4.514392166971391e-05, 0.00013366297421713342,
    -0.0003819545274415544, 0.0010502693997956046, -0.0027690647759162908, 0.006970142374957635,
    -0.01666186909040932, 0.03757229621529088, -0.07922696894132691, 0.15437156137190844,
    -0.27321201478389856, 0.427583576155807,)

# relative error 2.4e-17
FAR = (
    8.64073980247689e-11, -1.434611777109548e-10, -3.4277013478238303e-10, 5.611302389088422e-10,
    8.23641783995085e-10, -1.3635645692283146e-09, -7.932228535835968e-10, 1.245182996496704e-09,
    1.5619255123961944e-09, -2.8104394717134744e-09, 2.45539856753722e-09,
    -5.2950109172287715e-09, 1.3079678022168368e-08, -2.8414601901134594e-08,
    6.309307297021113e-08, -1.465893442801666e-07, 3.5388743475461023e-07, -8.918220048745326e-07,
    2.364013517462348e-06, -6.6522761115761375e-06, 2.0117558669136256e-05,
    -6.651709249170516e-05, 0.0002466357461602282, -0.0010676869570453594, 0.005797967157019049,
    -0.046181019061062825, 0.9466095316542427,)

ERFCX: dict[str, str] = {
    "erfcx": """\
{T} weft_erfcx_{S}({T} x) {{
    if (isnan(x)) return NAN;
    const {T} a = fabs(x);
    {T} positive;  // erfcx(|x|)
    if (a <= 2) {{
        const {T} t = a - 1;
""" + templated_horner(NEAR, "t", "near", indent=8) + """\
        positive = near;
    }} else {{
        const {T} t = 8 / (a * a) - 1;
""" + templated_horner(FAR, "t", "far", indent=8) + """\
        positive = far / (1.7724538509055160273{F} * a);
    }}
    if (x >= 0) return positive;
    if (x < -27) return INFINITY;  // (2 e^(x^2) overflows from -26.64)
    const {T} x2 = x * x, rest = fma(x, x, -x2);
    return 2 * (exp(x2) * (1 + rest)) - positive;
}}
""",
}
