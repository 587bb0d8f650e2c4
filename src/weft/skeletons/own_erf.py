"""weft's own call-free ``erf`` and ``erfc`` for CPU dialects (``own_math.py``), within a few
ulps of mpmath over all doubles (tested); float32 goes through float64.

- |x| < 1/2: erf(x) = x E(x^2), E a polynomial of degree 9 in x^2 - 1/8; erfc = 1 - erf
  there.
- |x| >= 1/2: erfc(|x|) = e^(-x^2) erfcx(|x|), erfcx by polynomials in |x| - centre on five
  pieces of [1/2, 27.3] (erfc is below the smallest subnormal beyond); x^2 is split into
  h + l exactly (an FMA) and e^(-x^2) = e^(-h) (1 - l), so the square's rounding, which
  would cost up to 700 ulps at x = 26, costs nothing. erf = 1 - erfc there, and erfc of a
  negative x is 2 - erfc(|x|).

Every piece is evaluated and a select picks one (a vectorized kernel would run every branch
anyway). ``scripts/fit-own-erfc`` fits the polynomials and prints ``PIECES`` (relative errors
below 1.5e-16).
"""

from .polynomial import horner, pieces

PIECES = (
    # z in [0.0, 0.25]: relative error 9.9e-17
    ('z', 0.25, 0.125, [
     -1.462091340945175e-07, 1.472638166720668e-06, -1.3368122563503264e-05,
     0.0001081874881429891, -0.0007691400523053416, 0.004716969080927518,
     -0.024383165104478667, 0.10323658675594927, -0.34913647109358337, 1.0830752376761712]),
    # x in [0.5, 1.5]: relative error 3.6e-17
    ('x', 1.5, 1.0, [
     1.3716404009685037e-07, -4.7149552910444656e-07, 1.4347231601399635e-06,
     -4.6577024858576775e-06, 1.4754332179107884e-05, -4.5148081402348914e-05,
     0.0001336628208483249, -0.0003819539752978225, 0.0010502694113207914,
     -0.002769064817408498, 0.0069701423744990346, -0.01666186908875851,
     0.03757229621529906, -0.07922696894135635, 0.15437156137190838, -0.2732120147838984,
     0.427583576155807]),
    # x in [1.5, 3.0]: relative error 4.4e-17
    ('x', 3.0, 2.25, [
     3.2046329099911795e-11, -1.4104897974664246e-10, 5.244423079267356e-10,
     -2.2142217950010853e-09, 9.26421813251652e-09, -3.761448653298436e-08,
     1.4943175590236855e-07, -5.806286124148284e-07, 2.203022246197225e-06,
     -8.150284306867367e-06, 2.9353247329964907e-05, -0.00010272108101899408,
     0.00034853542204785887, -0.0011437284836634967, 0.0036189953543580102,
     -0.011002060756439735, 0.03199262741070626, -0.08848650280874916, 0.23108725873039188]),
    # x in [3.0, 6.0]: relative error 9.7e-17
    ('x', 6.0, 4.5, [
     2.796256096079432e-16, -1.739235249034333e-15, 7.406191554852865e-15,
     -4.471845887377254e-14, 2.8373594679567976e-13, -1.6801265535064187e-12,
     9.786792686590515e-12, -5.6583604363407236e-11, 3.2320747696199433e-10,
     -1.822314079557745e-09, 1.0139579714474986e-08, -5.565075559266143e-08,
     3.011263511055057e-07, -1.605497025334082e-06, 8.429241997445513e-06,
     -4.3550828562693365e-05, 0.00022126645452907306, -0.0011045761167899032,
     0.005413125434612245, -0.02601592863093981, 0.12248480427384142]),
    # x in [6.0, 12.0]: relative error 6.1e-17
    ('x', 12.0, 9.0, [
     -2.367616415144507e-22, 2.398562620503587e-21, -1.2473831486676571e-20,
     1.2423023961035198e-19, -1.4819380117060795e-18, 1.4686174117086352e-17,
     -1.4183924298597233e-16, 1.3915728321758998e-15, -1.360971442942522e-14,
     1.3224459760040385e-13, -1.2785607783373686e-12, 1.2300448098599511e-11,
     -1.1773643470617088e-10, 1.1211303236020016e-09, -1.061998626275987e-08,
     1.0006439739697722e-07, -9.377495291666915e-07, 8.739938954911304e-06,
     -8.100382441673368e-05, 0.0007465142976603415, -0.006840134415568259,
     0.06230772403777468]),
    # x in [12.0, 27.3]: relative error 1.5e-16
    ('x', 27.3, 19.65, [
     1.6964717220457313e-30, -3.43737216136372e-29, 1.2478688534123557e-28,
     -2.49521091567665e-27, 1.3334729944369483e-25, -2.685875499729783e-24,
     4.706889890535883e-23, -9.446214492819944e-22, 1.9299138097687487e-20,
     -3.864558160909121e-19, 7.716667760552646e-18, -1.5414027393945397e-16,
     3.075430499084397e-15, -6.128006004032063e-14, 1.2195264040167952e-12,
     -2.423945318416463e-11, 4.811833950774321e-10, -9.540091805680973e-09,
     1.8890635399957495e-07, -3.735860085584227e-06, 7.378746339010477e-05,
     -0.001455527445743964, 0.028674901772258746]),
)


def _kernels() -> str:
    (_, _, small_centre, small), *large = PIECES
    statements, choice = pieces(large, {"x": "a"})
    lines = ["// erf(x) for |x| <= 1/2.", "double OVERLOADABLE weft_erf_small(double x) {",
             f"    const double z = x * x - {small_centre!r};", horner(small, "z", "e"),
             "    return x * e;", "}",
             "// erfc(a) for a >= 1/2.", "double OVERLOADABLE weft_erfc_large(double a) {",
             *statements,
             "    const double h = a * a, l = __builtin_fma(a, a, -h);",
             f"    const double erfcx = {choice};",
             f"    return a <= {large[-1][1]!r} ? weft_exp(-h) * (1.0 - l) * erfcx : 0.0;",
             "}", ""]
    return "\n".join(lines)


ERF_KERNELS = _kernels()

ERF = """\
double OVERLOADABLE weft_erf(double x) {
    const double a = __builtin_fabs(x);
    const double small = weft_erf_small(x);
    const double large = __builtin_copysign(1.0 - weft_erfc_large(a), x);
    return x != x ? x : (a < 0.5 ? small : large);
}
"""

ERFC = """\
double OVERLOADABLE weft_erfc(double x) {
    const double a = __builtin_fabs(x);
    const double small = 1.0 - weft_erf_small(x);
    const double large = weft_erfc_large(a);
    return x != x ? x : (a < 0.5 ? small : (x > 0.0 ? large : 2.0 - large));
}
"""
