"""erfinv and inv_Phi as kernel helpers, without iterations or calls but ``sqrt`` and ``log``
(which CPU dialects have as weft's own), so that PoCL vectorizes them: erfinv(y) = y G(w),
w = -log(1 - y^2) = -log((1 - y)(1 + y)), with G a polynomial on each of five pieces of w
(``scripts/fit-erfinv`` fits them and prints ``PIECES``; relative errors below 1.7e-16). Every
piece is evaluated and a select picks one: a vectorized kernel would run every branch anyway,
and a GPU's few extra multiply-adds are free beside its memory traffic.

1 - y is exact from y = 1/2 up, and inv_Phi's tails hand their 2p (exact) over as 1 - y, so
no digit of the tail is lost down to the smallest subnormal probability. float32 goes through
float64 (``THROUGH_DOUBLE`` in special.py).
"""

from .polynomial import pieces

PIECES = (
    # w in [0.0, 6.25]: relative error 5.7e-17
    ('w', 6.25, 3.125, [
     3.240704459379902e-21, -1.113483769832702e-21, -3.4996044354754177e-19,
     1.150022252066253e-18, 1.557432024623325e-17, -1.3016928016796445e-16,
     -4.0282154327661744e-17, 6.596407712420834e-15, -4.001237735091896e-14,
     -8.118399443074353e-14, 2.6304834740560442e-12, -1.2976885526532075e-11,
     -5.414287198084716e-11, 1.0512181539804126e-09, -4.11266082002324e-09,
     -2.9070382262927266e-08, 4.234788173782339e-07, -1.3654691850603575e-06,
     -1.3882523394405316e-05, 0.00018673420802464837, -0.000740702534154477,
     -0.00603367087142785, 0.2401581824255883, 1.6536545626831027]),
    # s in [2.5, 4.0]: relative error 1.7e-16
    ('s', 4.0, 3.25, [
     -3.831039946072411e-10, 9.071950571029922e-08, -2.6860975725571463e-07,
     1.832399988132858e-08, 1.4958263152984917e-06, -4.013946398190292e-06,
     2.9273722115986924e-06, 1.2475343474376931e-05, -4.731952918337189e-05,
     6.828484052292924e-05, 2.4031363245440546e-05, -0.00035503751863069763,
     0.0009532893521118177, -0.0016882755561681802, 0.0024914420976198813,
     -0.0037512085075638536, 0.0053709145535581985, 1.0052589676941592, 3.0838856104922208]),
    # s in [4.0, 6.0]: relative error 3.2e-17
    ('s', 6.0, 5.0, [
     -2.0206839273385553e-11, 4.2668668676493114e-11, 6.869285868891558e-11,
     -4.366544333711153e-10, 1.3177381452471373e-09, -3.4730285633305726e-09,
     7.819550568096926e-09, -1.5253388264250333e-08, 2.9019834968850064e-08,
     -6.755712778929848e-08, 2.2905238242935614e-07, -9.93029099566192e-07,
     4.526052614925938e-06, -1.9681770744754725e-05, 7.599527808779528e-05,
     -0.0002150301198248758, -0.00013871931837979997, 1.0103004648645453,
     4.849906401408584]),
    # s in [6.0, 10.0]: relative error 4.7e-17
    ('s', 10.0, 8.0, [
     2.1493330145826773e-16, -1.7913586748381126e-15, 1.1085031468575918e-14,
     -8.916592544218823e-14, 7.315903422095262e-13, -5.704305601808221e-12,
     4.3466278686559375e-11, -3.232879767649801e-10, 2.3213661166968555e-09,
     -1.5820044963175752e-08, 9.869600419633525e-08, -5.098752305381686e-07,
     1.2565358349379477e-06, 1.9100490387506207e-05, -0.0004698827521119593,
     1.0076068546712011, 7.8771136061629345]),
    # s in [10.0, 28.0]: relative error 1.5e-16
    ('s', 28.0, 19.0, [
     6.288912331374545e-30, -1.163986848934535e-28, -7.852590277841817e-28,
     1.4947232352009746e-26, 3.092803523424845e-25, -5.600200159349244e-24,
     3.2080925657553456e-23, -5.194396116945211e-22, 1.296553758424843e-20,
     -2.0523481631335829e-19, 2.8081197232930633e-18, -3.5563244223370667e-17,
     3.0983155722379486e-16, 1.987676633819598e-15, -2.053338585976225e-13,
     7.498971315441755e-12, -2.2090246555577066e-10, 5.940513495033158e-09,
     -1.5270736587106586e-07, 3.849489794775043e-06, -9.721005043808121e-05,
     1.0025348182729248, 18.92561425342672]),
)


def _core() -> str:
    statements, choice = pieces(PIECES, {"w": "w", "s": "s"})
    lines = ["{T} weft_erfinv_core_{S}({T} y, {T} w) {{", "    const double s = sqrt(w);",
             *statements, f"    return y * {choice};", "}}", ""]
    return "\n".join(lines).replace("double", "{T}")


ERFINV: dict[str, str] = {
    # y G(w) for y = |x| in [0, 1] and its w (their callers compute w without cancelling).
    "erfinv_core": _core(),
    "erfinv": """\
{T} weft_erfinv_{S}({T} x) {{
    const {T} y = fabs(x);
    const {T} w = y < 0.5{F} ? -log1p(-y * y) : -log((1 - y) * (1 + y));
    const {T} z = y == 1 ? ({T})INFINITY : weft_erfinv_core_{S}(y, w);
    return y <= 1 ? copysign(z, x) : NAN;
}}
""",
    # Phi^-1(p) = sqrt(2) erfinv(2p - 1): 2p - 1 exact in the middle; in the tails 1 - y is
    # 2 min(p, 1 - p), exact, and y itself only scales the result.
    "inv_Phi": """\
{T} weft_inv_Phi_{S}({T} p) {{
    const int middle = p >= 0.25{F} && p <= 0.75{F};
    const {T} d = 2 * p - 1;
    const {T} c = 2 * (p < 0.5{F} ? p : 1 - p);
    const {T} y = middle ? fabs(d) : 1 - c;
    const {T} w = middle ? -log1p(-d * d) : -log(c * (2 - c));
    const {T} z = 1.41421356237309504880{F} * weft_erfinv_core_{S}(y, w);
    const {T} signed_z = middle ? copysign(z, d) : (p < 0.5{F} ? -z : z);
    return p == 0 ? -INFINITY : (p == 1 ? INFINITY : (p > 0 && p < 1 ? signed_z : NAN));
}}
""",
}
