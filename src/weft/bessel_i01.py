"""The modified Bessel functions of the first kind of orders 0 and 1 (NumPy's ``i0``, SciPy's
``i0``, ``i0e``, ``i1``, ``i1e``) as compositions of the op table's ops: lazy, fused with their
neighbours, differentiable through the composition.

- |x| <= 8: I0 = S0(x^2) and I1 = x S1(x^2), polynomials of degree 18 in z = x^2 whose
  coefficients are all positive, as the power series' are (Horner's rule adds no
  cancellation);
- |x| > 8: sqrt(|x|) e^-|x| I_n(|x|) = Q_n(8 / |x|), polynomials of degree 26 in t = 16/|x| - 1
  (1 / sqrt(2 pi) at infinity, where the asymptotic series starts).

Chebyshev interpolants (``scripts/fit-bessel-i01``; relative errors below 7e-17 after rounding);
float32 computes in float64 and rounds once, as SciPy's float32 loops.
"""

from __future__ import annotations

from typing import Any

from . import dtypes as dt
from .array import Array, apply_op
from .composites import _horner
from .creation import asarray

_SPLIT = 8.0
# Highest degree first.
_POLYNOMIALS: dict[str, tuple[float, ...]] = {
    # error 1.2e-17
    'NEAR_0': (
        5.396384706795462e-43, 4.049003585516793e-40, 5.4160930911965884e-37,
        5.434698553934258e-34, 4.902653194701293e-31, 3.842840540736517e-28,
        2.597805810072757e-25, 1.4963342843679799e-22, 7.242258512143295e-20,
        2.896903391381146e-17, 9.38596699044486e-15, 2.402807549523021e-12, 4.709502797068029e-10,
        6.78168402777777e-08, 6.781684027777778e-06, 0.00043402777777777775, 0.015625, 0.25, 1.0,),
    # error 2.9e-17
    'NEAR_1': (
        1.3910891048358334e-44, 1.1418680293670395e-41, 1.588314322385468e-38,
        1.6991125672551102e-35, 1.634131228017145e-32, 1.3724500546744444e-29,
        9.991556591787248e-27, 6.2347263768897656e-24, 3.2919356806661625e-21,
        1.4484516958675592e-18, 5.214426105767057e-16, 1.501754718452426e-13,
        3.3639305693342465e-11, 5.6514033564814795e-09, 6.781684027777778e-07,
        5.425347222222222e-05, 0.0026041666666666665, 0.0625, 0.5,),
    # error 6.5e-17
    'FAR_0': (
        4.655655751294525e-11, 1.556423962829591e-11, -3.6353603909526465e-10,
        -1.1746991110551324e-10, 1.3291938884143105e-09, 4.1991218209463363e-10,
        -3.0791787996480336e-09, -9.961827005971165e-10, 5.2159872385826355e-09,
        1.9518431205146255e-09, -7.1046429701883025e-09, -3.799241020140616e-09,
        8.006764881281122e-09, 7.687473295440412e-09, -5.6022211783247e-09,
        -1.3450608319883882e-08, -6.7023325619894366e-09, 7.563107589679047e-09,
        2.1541699603632043e-08, 3.9324793517123454e-08, 8.872278303607728e-08,
        2.9735993216471474e-07, 1.4838475391383468e-06, 1.1143033788559087e-05,
        0.00013621607439240856, 0.0033605519836678844, 0.4021765094450081,),
    # error 1.3e-17
    'FAR_1': (
        -4.848238653363404e-11, -1.4553819054184817e-11, 3.784510012514866e-10,
        1.0940884042721056e-10, -1.3834389708637022e-09, -3.8986710944632543e-10,
        3.2055586346236238e-09, 9.265252428334351e-10, -5.438072168110142e-09,
        -1.842354234931444e-09, 7.441519822394391e-09, 3.7003762012994875e-09,
        -8.488549054437278e-09, -7.768471997806944e-09, 6.180080050252965e-09,
        1.4073201407347145e-08, 6.687257309165881e-09, -8.435630024967513e-09,
        -2.336697227282623e-08, -4.312819645562664e-08, -1.000134929730233e-07,
        -3.483856445811428e-07, -1.8349101048965518e-06, -1.5038547198351201e-05,
        -0.00021923576383438729, -0.009749577193235758, 0.38939845902587233,),
}


def _polynomial(name: str, variable: Array) -> Array:
    return _horner(variable, _POLYNOMIALS[name][::-1])  # (it takes the lowest degree first)


def _bessel_i_parts(x: Any, order: int) -> tuple[Array, Array, Array, Array]:
    """|x|, where the near piece applies, its value (of I_order(|x|)), and the far piece's
    value of e^-|x| I_order(|x|) (each on arguments clamped to its own range)."""
    size = apply_op("abs", asarray(x), dtype=dt.float64)
    near = apply_op("less_equal", size, _SPLIT)
    small = apply_op("fmin", size, _SPLIT)
    series = _polynomial(f"NEAR_{order}", small * small)
    if order:
        series = series * small
    large = apply_op("fmax", size, _SPLIT)
    tail = _polynomial(f"FAR_{order}", 16.0 / large - 1.0) * apply_op("rsqrt", large)
    return size, near, series, tail


def _bessel_i(x: Any, order: int, scaled: bool) -> Array:
    """I_order(x), or e^-|x| I_order(x) where ``scaled``; I1 is odd."""
    size, near, series, tail = _bessel_i_parts(x, order)
    if scaled:
        value = apply_op("where", near, series * apply_op("exp", -size), tail)
        value = apply_op("where", apply_op("isnan", size), size, value)
    else:
        half = apply_op("exp", size * 0.5)
        value = apply_op("where", near, series, half * (half * tail))
        # NaN stays NaN and ±∞ gives +∞ (the clamped branches would give NaN and 0 · ∞).
        value = apply_op("where", apply_op("isnan", size) | apply_op("isinf", size), size,
                         value)
    if order:  # odd (-0.0 gives +0.0, as SciPy's)
        value = apply_op("where", apply_op("less", asarray(x), 0), -value, value)
    return value.astype(dt.real_of(asarray(x).dtype))


def i0(x: Any) -> Array:
    """The modified Bessel function of the first kind of order 0 (NumPy's ``i0``, SciPy's
    ``special.i0``), real for real ``x``; +∞ at ±∞ and finite up to |x| ≈ 713.9 (SciPy's
    gives NaN at ∞ and ∞ from about 709.8).

    >>> import weft as wf
    >>> wf.i0(wf.asarray([0.0, 1.0])).to_numpy().round(6).tolist()
    [1.0, 1.266066]
    """
    return _bessel_i(x, 0, scaled=False)


def i0e(x: Any) -> Array:
    """``exp(-|x|) * i0(x)``: I0 scaled so it does not overflow (SciPy's ``i0e``).

    >>> import weft as wf
    >>> wf.i0e(wf.asarray([0.0, 1000.0])).to_numpy().round(6).tolist()
    [1.0, 0.012617]
    """
    return _bessel_i(x, 0, scaled=True)


def i1(x: Any) -> Array:
    """The modified Bessel function of the first kind of order 1 (SciPy's ``special.i1``),
    odd, the derivative of ``i0``: ±∞ at ±∞ (the von Mises density's d/dκ log I0(κ) is
    ``i1(k) / i0(k)``, or ``i1e(k) / i0e(k)`` for large κ).

    >>> import weft as wf
    >>> wf.i1(wf.asarray([0.0, 1.0, -1.0])).to_numpy().round(6).tolist()
    [0.0, 0.565159, -0.565159]
    """
    return _bessel_i(x, 1, scaled=False)


def i1e(x: Any) -> Array:
    """``exp(-|x|) * i1(x)`` (SciPy's ``i1e``).

    >>> import weft as wf
    >>> wf.i1e(wf.asarray([1.0, 1000.0])).to_numpy().round(6).tolist()
    [0.20791, 0.012611]
    """
    return _bessel_i(x, 1, scaled=True)



__all__ = ["i0", "i0e", "i1", "i1e"]
