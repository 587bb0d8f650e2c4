"""J_n and Y_n of integer order as kernel helpers, from the fixed-cost orders 0 and 1
(``bessel_jy01.py``): what ``jv`` and ``yv`` compute at integer orders (SciPy's ``jn`` is
``jv``) and ``yn`` at every order.

The general algorithm (``bessel_jy.py``) runs continued fractions of about x terms whose
lengths differ from element to element (on a GPU a warp waits for its slowest lane). At an
integer order n the three-term recurrence c_(k+1) = (2k / x) c_k - c_(k-1) costs n steps:

- Y_n upward from Y_0 and Y_1 for every x: Y is the recurrence's dominant solution, so the
  rounding does not grow; once Y overflows it stays infinite.
- J_n upward from J_0 and J_1 where x > n (past the turning point J is not dominated); where
  x <= n, where J_n is the minimal solution, Miller's algorithm: downward from order
  n + 3 sqrt(n) + 8, rescaled by powers of two as it grows, then fitted to J_0 and J_1 by
  least squares (they never vanish together); below x = 1e-8 the series' two terms
  (x / 2)^n / n! (1 - x^2 / (4 (n + 1))), where the downward steps would overflow.

Orders up to 64 for J (within 3.1e-15 of mpmath there, to the turning point x = n), up to
2^20 for Y (yn's range).
"""

from __future__ import annotations

BESSEL_INTEGER: dict[str, str] = {
    # c_n from c_0 and c_1 for c_(k+1) = (2 (k + h) / x) c_k - c_(k-1): h = 0 for J and Y,
    # 1/2 for the spherical j and y. Upward: stops once c overflows (Y, y).
    "bessel_upward": """\
{T} weft_bessel_upward_{S}(int n, {T} h, {T} x, {T} c0, {T} c1) {{
    if (n == 0) return c0;
    {T} below = c0, c = c1;
    for (int k = 1; k < n && !isinf(c); ++k) {{
        const {T} above = (2 * (k + h)) * c / x - below;
        below = c;
        c = above;
    }}
    return c;
}}
""",
    # Miller's: the minimal solution at order n >= 1 from its exact c_0 and c_1, downward
    # from order n + 3 sqrt(n) + 8 (within 3.1e-15 of mpmath to the turning point x = n for
    # J to order 64 on 640 points, 6.7e-15 for j to 2000; 2 sqrt(n) + 8 lost digits: 1e-12),
    # rescaled by powers of two as it grows, then fitted to c_0 and c_1 by least squares
    # (they never vanish together).
    "bessel_downward": """\
{T} weft_bessel_downward_{S}(int n, {T} h, {T} x, {T} c0, {T} c1) {{
    const int top = n + (int)(3 * sqrt(({T})n)) + 8, e = sizeof({T}) == 8 ? 500 : 60;
    const {T} big = ldexp(({T})1, e), shrink = ldexp(({T})1, -e);
    {T} above = 0, f = 1, at_n = 0;
    for (int k = top; k > 0; --k) {{
        const {T} below = (2 * (k + h)) * f / x - above;
        above = f;
        f = below;
        if (k - 1 == n) at_n = f;
        if (fabs(f) > big) {{
            f *= shrink;
            above *= shrink;
            at_n *= shrink;
        }}
    }}
    const {T} scale = fmax(fabs(f), fabs(above)), a0 = f / scale, a1 = above / scale;
    return (at_n / scale) * ((c0 * a0 + c1 * a1) / (a0 * a0 + a1 * a1));
}}
""",
    # The series' two terms for c = J (h = 0) or j (h = 1/2) below x = 1e-8, where the
    # downward steps would overflow: prod_(k<=n) x / (2 (k + h)) (1 - x^2 / (4 (n + h + 1))),
    # the product stopping once it underflows (within a few dozen steps).
    "bessel_small": """\
{T} weft_bessel_small_{S}(int n, {T} h, {T} x) {{
    {T} term = 1;
    for (int k = 1; k <= n && term != 0; ++k) term *= x / (2 * (k + h));
    return term * (1 - x * x / (4 * (n + h + 1)));
}}
""",
    "bessel_jn_integer": """\
{T} weft_bessel_jn_integer_{S}(int n, {T} x) {{
    // J_n(x) for 0 <= n <= 64 and 0 < x < inf.
    {T} y;
    const {T} j0 = weft_bessel_jy01_{S}(0, 0, x, &y), j1 = weft_bessel_jy01_{S}(1, 0, x, &y);
    if (n <= 1 || x > n) return weft_bessel_upward_{S}(n, 0, x, j0, j1);
    if (x < 1e-8{F}) return weft_bessel_small_{S}(n, 0, x);
    return weft_bessel_downward_{S}(n, 0, x, j0, j1);
}}
""",
    "bessel_yn_integer": """\
{T} weft_bessel_yn_integer_{S}(int n, {T} x) {{
    // Y_n(x) for 0 <= n <= 2^20 and 0 < x < inf.
    {T} y0, y1;
    weft_bessel_jy01_{S}(0, 1, x, &y0);
    weft_bessel_jy01_{S}(1, 1, x, &y1);
    return weft_bessel_upward_{S}(n, 0, x, y0, y1);
}}
""",
}

BESSEL_INTEGER_NEEDS: dict[str, tuple[str, ...]] = {
    "bessel_jn_integer": ("bessel_jy01", "bessel_upward", "bessel_downward", "bessel_small"),
    "bessel_yn_integer": ("bessel_jy01", "bessel_upward")}
