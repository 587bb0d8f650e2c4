"""weft's own call-free ``exp`` and ``log`` (the OpenCL dialect of CPU devices): within an
ulp or two over their whole ranges, subnormals and special values exact. float64 results are
compared with NumPy's, float32 results with the float64 value rounded (the true value to
far better than a float32 ulp)."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

OWN = [d for d in wf.devices() if "exp" in d.backend.dialect_of(d).own_math]
pytestmark = pytest.mark.skipif(not OWN, reason="no device computes its own exp and log")


def _ulps(got: np.ndarray, want: np.ndarray) -> float:
    """The largest error in units of the last place of ``got``'s type (``want`` may be
    float64 for a float32 ``got``)."""
    finite = np.isfinite(want) & (want != 0) & (np.abs(want) <= np.finfo(got.dtype).max)
    spacing = np.spacing(np.abs(want[finite]).astype(got.dtype)).astype(np.float64)
    return float((np.abs(got[finite].astype(np.float64) - want[finite]) / spacing).max())


def _specials(got: np.ndarray, want: np.ndarray) -> list:
    other = ~(np.isfinite(want) & (want != 0))
    same = (got[other] == want[other]) | (np.isnan(got[other]) & np.isnan(want[other]))
    return list(zip(got[other][~same], want[other][~same]))


@pytest.fixture(params=OWN, ids=str)
def cpu(request):
    with wf.device(request.param) as d:
        yield d


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_exp(cpu, dtype):
    info = np.finfo(dtype)
    top = float(np.log(info.max))
    bottom = float(np.log(float(info.smallest_subnormal))) - 1
    rng = np.random.default_rng(0)
    x = np.concatenate([np.linspace(bottom, top + 1, 400_001), rng.uniform(-30, 30, 100_000),
                        rng.standard_normal(10_000) * 1e-8,
                        [0.0, -0.0, np.inf, -np.inf, np.nan, top, -top, bottom]]).astype(dtype)
    got = wf.exp(wf.asarray(x)).to_numpy()
    with np.errstate(over="ignore"):
        want = np.exp(x.astype(np.float64))
    assert "#define exp(x) weft_exp(x)" in wf.kernel_source(wf.exp(wf.asarray(x)))
    assert _ulps(got, want) <= (1.0 if dtype == np.float64 else 2.0)
    with np.errstate(over="ignore"):
        assert not _specials(got, want.astype(dtype))
    tiny = (want > 0) & (want < info.tiny)  # subnormal results: within one unit of the last
    assert np.all(np.abs(got[tiny] - want[tiny]) <= info.smallest_subnormal)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_log(cpu, dtype):
    info = np.finfo(dtype)
    rng = np.random.default_rng(1)
    x = np.concatenate([
        np.exp(rng.uniform(np.log(float(info.smallest_subnormal)), np.log(float(info.max)),
                           300_000)),
        rng.uniform(0.5, 2.0, 200_000), 1 + rng.standard_normal(10_000) * 1e-6,
        [0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 1.0, float(info.max),
         float(info.tiny), float(info.smallest_subnormal)]]).astype(dtype)
    got = wf.log(wf.asarray(x)).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.log(x.astype(np.float64))
    assert _ulps(got, want) <= 1.5
    assert not _specials(got, want.astype(dtype))


def test_a_density_stays_exact(cpu):
    rng = np.random.default_rng(2)
    y, mu, sigma = rng.standard_normal(10_000), 0.3, 1.7
    lp = wf.stats.normal_lpdf(wf.asarray(y), mu, sigma)
    want = (-0.5 * ((y - mu) / sigma) ** 2 - np.log(sigma) - 0.5 * np.log(2 * np.pi)).sum()
    np.testing.assert_allclose(float(lp), want, rtol=1e-13)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_log1p_and_expm1(cpu, dtype):
    rng = np.random.default_rng(3)
    small = rng.standard_normal(50_000) * 10.0 ** rng.uniform(-30, 0, 50_000)
    x = np.concatenate([small, rng.uniform(-0.999, 10, 100_000),
                        np.exp(rng.uniform(-5, 80, 50_000)),
                        [0.0, -0.0, -1.0, -2.0, np.inf, -np.inf, np.nan]]).astype(dtype)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        got = wf.log1p(wf.asarray(x)).to_numpy()
        want = np.log1p(x.astype(np.float64))
        bound = 2.5 if dtype == np.float64 else 1.0  # float32 goes through float64
        assert _ulps(got, want) <= bound
        assert not _specials(got, want.astype(dtype))
        top = 709.7 if dtype == np.float64 else 88.7
        y = np.concatenate([small, rng.uniform(-40, top, 100_000),
                            [0.0, -0.0, np.inf, -np.inf, np.nan, top + 20]]).astype(dtype)
        got = wf.expm1(wf.asarray(y)).to_numpy()
        want = np.expm1(y.astype(np.float64))
        assert _ulps(got, want) <= bound
        assert not _specials(got, want.astype(dtype))


def test_isnan_and_isfinite(cpu):
    x = np.array([0.0, -1.5, np.inf, -np.inf, np.nan, 1e308, 5e-324])
    a = wf.asarray(x)
    np.testing.assert_array_equal(wf.isnan(a).to_numpy(), np.isnan(x))
    np.testing.assert_array_equal(wf.isfinite(a).to_numpy(), np.isfinite(x))
    with np.errstate(over="ignore"):
        x32 = x.astype(np.float32)  # 1e308 becomes inf
    np.testing.assert_array_equal(wf.isfinite(wf.asarray(x32)).to_numpy(), np.isfinite(x32))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_builtin_backed_functions_are_exact(cpu, dtype):
    """sqrt, fabs, floor, ceil, trunc, rint, fmin, fmax and copysign through the compiler's
    builtins (single instructions): bit for bit NumPy's, signed zeros and specials included."""
    rng = np.random.default_rng(5)
    info = np.finfo(dtype)
    x = np.concatenate([rng.standard_normal(20_000) * 1e3, rng.uniform(-3, 3, 20_000),
                        np.arange(-8, 8.5, 0.5), [0.0, -0.0, np.inf, -np.inf, np.nan,
                                                  info.max, -info.max, info.tiny,
                                                  info.smallest_subnormal]]).astype(dtype)
    y = rng.permutation(x)
    device_x, device_y = wf.asarray(x), wf.asarray(y)
    with np.errstate(invalid="ignore"):
        cases = {"sqrt": (wf.sqrt(device_x), np.sqrt(x)), "abs": (wf.abs(device_x), np.abs(x)),
                 "floor": (wf.floor(device_x), np.floor(x)),
                 "ceil": (wf.ceil(device_x), np.ceil(x)),
                 "trunc": (wf.trunc(device_x), np.trunc(x)),
                 "rint": (wf.rint(device_x), np.rint(x)),
                 "fmin": (wf.fmin(device_x, device_y), np.fmin(x, y)),
                 "fmax": (wf.fmax(device_x, device_y), np.fmax(x, y)),
                 "copysign": (wf.copysign(device_x, device_y), np.copysign(x, y))}
    for name, (got, want) in cases.items():
        assert f"weft_{'fabs' if name == 'abs' else name}" in wf.kernel_source(got), name
        got = got.to_numpy()
        assert got.dtype == want.dtype, name
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8), err_msg=name)


def _mp_ulps(got: np.ndarray, x: np.ndarray, f) -> float:
    """The largest error of ``got`` = f(x) in ulps of ``got``'s type, against mpmath at 300
    bits."""
    mpmath = pytest.importorskip("mpmath")
    worst = 0.0
    with mpmath.workprec(300):
        for g, v in zip(got.tolist(), x.tolist()):
            want = f(mpmath.mpf(v))
            ulp = float(np.spacing(got.dtype.type(abs(float(want)))))
            worst = max(worst, float(abs(mpmath.mpf(g) - want)) / ulp)
    return worst


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_trigonometric_walks_take_the_huge_path_only_where_a_run_needs_it(cpu, dtype):
    """A walk's first pass skips the huge-argument reduction and notes a huge argument; the
    runs holding one are walked again in full. Huge values planted among ordinary ones, at a
    run's ends and inside it, and NaN and infinities, all within an ulp of mpmath."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(12)
    x = rng.uniform(-1e4, 1e4, 40000)
    huge = [1e30, -3e20, 2.0**50, -(2.0**50), 2.0**28, 7e15, np.inf, -np.inf, np.nan]
    at = [0, 1, 19999, 20000, 20001, 39999, 5000, 5001, 30000]
    x[at] = huge
    x = x.astype(dtype)
    device_x = wf.asarray(x)
    source = wf.kernel_source(wf.sin(device_x) * 2 + wf.cos(device_x))
    assert "int weft_huge = 0;" in source and "weft_sin_fast((x), &weft_huge)" in source
    picked = np.concatenate([at, rng.choice(40000, 300, replace=False)])
    for f, ref in ((wf.sin, mpmath.sin), (wf.cos, mpmath.cos), (wf.tan, mpmath.tan)):
        got = f(device_x).to_numpy()
        finite = np.isfinite(x[picked])
        assert _mp_ulps(got[picked][finite], x[picked][finite].astype(np.float64), ref) <= 1.5
        assert np.isnan(got[picked][~finite]).all()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sums_of_sines_take_the_huge_path_only_where_a_part_needs_it(cpu, dtype):
    """Row, column and full sums of sin and cos (rows and columns bands, columns by row
    chunks): a part holding a huge argument is walked again, its accumulators reset; the
    sums match those of the element-wise values (each within an ulp of mpmath: above)."""
    rng = np.random.default_rng(13)
    x = rng.uniform(-1e3, 1e3, (64, 1000))
    x[[3, 40, 63], [0, 500, 999]] = [1e30, -3e20, 2.0**52]
    x = x.astype(dtype)
    device_x = wf.asarray(x)
    flat = wf.asarray(x.ravel())
    tall = wf.asarray(x.reshape(640, 100))
    tol = 1e-12 if dtype == np.float64 else 1e-5
    for sums, axis in ((device_x, 1), (device_x, 0), (tall, 0), (flat, None)):
        assert "int weft_huge = 0;" in wf.kernel_source(wf.sin(sums).sum(axis=axis))
        sines = wf.sin(sums).to_numpy().astype(np.float64)
        np.testing.assert_allclose(wf.sin(sums).sum(axis=axis).to_numpy(),
                                   sines.sum(axis=axis), rtol=tol, atol=tol * 1e3)
    cosines = wf.cos(flat).to_numpy().astype(np.float64)
    assert float(wf.sum(wf.cos(flat))) == pytest.approx(cosines.sum(), rel=tol, abs=tol * 1e3)


def test_sin_and_cos_over_the_whole_double_range(cpu):
    """Own sin and cos: argument reductions exact enough for every double, the worst known
    (x within 5e-19 of a multiple of pi/2) included; within an ulp against mpmath."""
    rng = np.random.default_rng(6)
    x = np.concatenate([
        rng.uniform(-10, 10, 1500), rng.uniform(-1e6, 1e6, 500),
        np.exp(rng.uniform(-40, 709, 1500)) * rng.choice([-1.0, 1.0], 1500),
        rng.uniform(2.0**50, 2.0**53, 300),  # both reductions' edge
        np.pi / 2 * np.arange(1, 400),  # the doubles nearest multiples of pi/2
        [6381956970095103 * 2.0**797, -6381956970095103 * 2.0**797, 2.0**1023, 1e22,
         np.finfo(np.float64).max, 0.5, 1e-5, 2.0**-27]])
    device_x = wf.asarray(x)
    source = wf.kernel_source(wf.sin(device_x))
    assert "#define sin(x) weft_sin(x)" in source and "weft_two_over_pi" in source
    assert _mp_ulps(wf.sin(device_x).to_numpy(), x, __import__("mpmath").sin) <= 1.0
    assert _mp_ulps(wf.cos(device_x).to_numpy(), x, __import__("mpmath").cos) <= 1.0


def test_sin_and_cos_specials_and_float32(cpu):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -1e-300, 2.0**-30])
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(np.signbit(wf.sin(wf.asarray(x)).to_numpy()),
                                      np.signbit(np.sin(x)))  # sin(-0.0) is -0.0
        for f, ref in ((wf.sin, np.sin), (wf.cos, np.cos)):
            got, want = f(wf.asarray(x)).to_numpy(), ref(x)
            assert not _specials(got, want)
            np.testing.assert_array_equal(got[np.isfinite(want)], want[np.isfinite(want)])
    rng = np.random.default_rng(7)
    x32 = rng.uniform(-1e5, 1e5, 100_000).astype(np.float32)
    for f, ref in ((wf.sin, np.sin), (wf.cos, np.cos)):
        assert _ulps(f(wf.asarray(x32)).to_numpy(), ref(x32.astype(np.float64))) <= 0.6
    # Beyond 2^50 a float's reduction reads 2/pi's bits too (through selects, not a table).
    big = (np.exp(rng.uniform(np.log(2.0**50), np.log(3.4e38), 1500))
           * rng.choice([-1.0, 1.0], 1500)).astype(np.float32)
    mpmath = pytest.importorskip("mpmath")
    for f, ref in ((wf.sin, mpmath.sin), (wf.cos, mpmath.cos)):
        assert _mp_ulps(f(wf.asarray(big)).to_numpy(), big, ref) <= 0.6


# The floats nearest a multiple of pi/2 (within 2^-29.2 .. 2^-25.6 of one), from the
# exhaustive search of scripts/hardest-float-reductions: 2^2 .. 2^25 take the FMA reduction,
# the others the integer product with 2/pi's bits.
_HARDEST_FLOATS = ("0x1.f37c8ap+95", "0x1.47d0fep+34", "0x1.f9cbe2p+7", "0x1.32ede2p+85",
                   "0x1.628d4cp+40", "0x1.130930p+76", "0x1.b08c4ap+111", "0x1.4665d2p+25",
                   "0x1.2d97c8p+2", "0x1.abb4b0p+89", "0x1.0f79a0p+57", "0x1.9a48dep+15",
                   "0x1.7f4134p+101", "0x1.4ac55cp+21", "0x1.5c0e66p+73", "0x1.9c8dc8p+77",
                   "0x1.27a94ap+29", "0x1.7b9b40p+126")


def test_float32_sin_cos_and_tan_where_the_reduction_is_hardest(cpu):
    """float32 sin, cos and tan within 0.6 ulp of mpmath at the floats nearest multiples of
    pi/2 (both reductions), around the switch between them at 2^28, and at random floats of
    every size."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(11)
    hardest = np.array([float.fromhex(h) for h in _HARDEST_FLOATS])
    switch = np.nextafter(np.float32(2.0**28), np.float32(0.0))
    x = np.concatenate([hardest, -hardest, [switch, np.float32(2.0**28)],
                        np.float32(2.0**28) + rng.integers(-4000, 4000, 200) * 16.0,
                        np.exp(rng.uniform(-40, 88, 600)) * rng.choice([-1.0, 1.0], 600),
                        np.pi / 2 * np.arange(1, 200)]).astype(np.float32)
    device_x = wf.asarray(x)
    assert "weft_reduce_half_pi_float" in wf.kernel_source(wf.sin(device_x))
    for f, ref in ((wf.sin, mpmath.sin), (wf.cos, mpmath.cos), (wf.tan, mpmath.tan)):
        assert _mp_ulps(f(device_x).to_numpy(), x, ref) <= 0.6, f


def test_tgamma_against_mpmath(cpu):
    """Own tgamma: within 6 ulps of mpmath over the positive doubles up to its overflow at
    171.62, between -1/2 and 0, and by reflection down to its underflow (SciPy's gamma is
    off by 5.9, 3.0 and 6.3 ulps there); float32 rounded from it. Poles and the infinities
    as C's tgamma: +-0 give +-inf, the negative integers and -inf NaN."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(12)
    x = np.concatenate([rng.uniform(0, 171.6, 1200), rng.uniform(-0.5, 0.5, 300),
                        rng.uniform(-175, -0.5, 1200), np.arange(1, 40) + 0.0,
                        np.arange(1, 40) + 0.5, -np.arange(1, 40) - 0.5, [1e-300, 7.9999, 8.0]])
    device_x = wf.asarray(x)
    assert "#define tgamma(x) weft_tgamma(x)" in wf.kernel_source(wf.tgamma(device_x))
    got = wf.tgamma(device_x).to_numpy()
    finite = np.abs(got) >= np.finfo(np.float64).tiny  # (subnormal results checked below)
    assert _mp_ulps(got[finite], x[finite], mpmath.gamma) <= 6.0
    x32 = x[(x > -30) & (x < 34) & (np.abs(x) > 1e-30)].astype(np.float32)
    assert _mp_ulps(wf.tgamma(wf.asarray(x32)).to_numpy(), x32, mpmath.gamma) <= 0.6
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, -2.0, -170.0, -2.0**60,
                         171.7, 1e300, -1e300, 5e-324, -5e-324])
    want = [np.inf, -np.inf, np.inf, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan,
            np.inf, np.inf, np.nan, np.inf, -np.inf]
    for dtype in (np.float64, np.float32):
        with np.errstate(over="ignore"):  # (+-1e300 are +-inf as floats)
            got = wf.tgamma(wf.asarray(specials.astype(dtype))).to_numpy()
        np.testing.assert_array_equal(got, np.array(want, dtype))
    # Beyond -171.6 the results are subnormal, then zero, with the sign of sin(pi x).
    tiny = np.array([-172.5, -176.25, -181.5, -190.5, -1000.25])
    got = wf.tgamma(wf.asarray(tiny)).to_numpy()
    with mpmath.workprec(200):
        want = np.array([float(mpmath.gamma(v)) for v in tiny])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=2 * 5e-324)
    assert np.array_equal(np.signbit(got), np.signbit(want))


def test_the_tables_behind_sin_and_cos():
    """2/pi's bits and pi/2's four parts, against mpmath."""
    mpmath = pytest.importorskip("mpmath")
    from weft.skeletons import trig

    with mpmath.workprec(1600):
        words = trig.TWO_OVER_PI_WORDS
        value = sum(mpmath.mpf(w) * mpmath.mpf(2) ** (-64 * k) for k, w in enumerate(words))
        assert abs(value - 2 / mpmath.pi) < mpmath.mpf(2) ** (-64 * (len(words) - 1))
        parts = sum(mpmath.mpf(float.fromhex(p)) for p in trig.HALF_PI_PARTS)
        assert abs(parts - mpmath.pi / 2) < mpmath.mpf(2) ** -215


def test_lgamma_against_mpmath(cpu):
    """Own lgamma: relative to mpmath within 3 ulps on the positive axis, next to the zeros
    at 1 and 2 too (SciPy's gammaln is off by 10^4 ulps there); for negative arguments
    within 4 ulps of max(|lgamma|, 1) (the reflection's error is absolute); float32 rounded
    from float64."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(8)
    positive = np.concatenate([
        rng.uniform(0, 30, 1000), 1 + rng.uniform(-1e-3, 1e-3, 200),
        2 + rng.uniform(-1e-3, 1e-3, 200), 10 ** rng.uniform(-300, 305, 500),
        [0.5, 1.5, 8.0, np.nextafter(8.0, 0), np.nextafter(1.5, 0), 1e-310, 2.5e305]])
    device_x = wf.asarray(positive)
    assert "#define lgamma(x) weft_lgamma(x)" in wf.kernel_source(wf.lgamma(device_x))
    assert _mp_ulps(wf.lgamma(device_x).to_numpy(), positive, mpmath.loggamma) <= 3.0
    negative = -np.concatenate([rng.uniform(0.5, 30, 1000), 10 ** rng.uniform(0, 15, 300) + 0.3,
                                rng.uniform(0, 0.5, 300)])
    got = wf.lgamma(wf.asarray(negative)).to_numpy()
    with mpmath.workprec(200):
        want = np.array([float(mpmath.log(abs(mpmath.gamma(mpmath.mpf(v))))) for v in negative])
    assert np.all(np.abs(got - want) <= 4 * np.spacing(np.maximum(np.abs(want), 1.0)))
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, -2.0, -1e20, 1.0, 2.0])
    np.testing.assert_array_equal(wf.lgamma(wf.asarray(specials)).to_numpy(),  # -inf: SciPy's
                                  [np.inf] * 3 + [-np.inf, np.nan] + [np.inf] * 3 + [0.0, 0.0])
    x32 = positive[(positive > 1e-37) & (positive < 1e36)].astype(np.float32)[::4]
    assert _mp_ulps(wf.lgamma(wf.asarray(x32)).to_numpy(), x32, mpmath.loggamma) <= 0.51


def test_erf_and_erfc_against_mpmath(cpu):
    """Own erf and erfc: within 3 ulps of mpmath over the doubles, erfc's tail down to the
    subnormals included (SciPy's erfc is 400 ulps off at x = 23); float32 rounded from
    float64."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(10)
    x = np.concatenate([rng.uniform(-7, 7, 1500), rng.uniform(-27, 27, 600),
                        10 ** rng.uniform(-300, 0, 200) * rng.choice([-1.0, 1.0], 200),
                        [0.5, -0.5, 1.5, 3.0, 6.0, 12.0, np.nextafter(0.5, 0), 26.0, 26.5]])
    device_x = wf.asarray(x)
    assert "#define erfc(x) weft_erfc(x)" in wf.kernel_source(wf.erfc(device_x))
    assert _mp_ulps(wf.erf(device_x).to_numpy(), x, mpmath.erf) <= 2.0
    normal = np.abs(x) < 26.5  # erfc's results below are subnormal: compared absolutely
    assert _mp_ulps(wf.erfc(device_x).to_numpy()[normal], x[normal], mpmath.erfc) <= 3.0
    subnormal = np.array([26.6, 27.0, 27.2, 27.4, 40.0])
    with mpmath.workprec(200):
        want = np.array([float(mpmath.erfc(v)) for v in subnormal])
    assert np.all(np.abs(wf.erfc(wf.asarray(subnormal)).to_numpy() - want) <= 5e-324)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan])
    got_erf = wf.erf(wf.asarray(specials)).to_numpy()
    np.testing.assert_array_equal(got_erf, [0.0, -0.0, 1.0, -1.0, np.nan])
    assert np.signbit(got_erf[1])
    np.testing.assert_array_equal(wf.erfc(wf.asarray(specials)).to_numpy(),
                                  [1.0, 1.0, 0.0, 2.0, np.nan])
    x32 = x[np.abs(x) < 9].astype(np.float32)[::3]
    for f, ref in ((wf.erf, mpmath.erf), (wf.erfc, mpmath.erfc)):
        assert _mp_ulps(f(wf.asarray(x32)).to_numpy(), x32, ref) <= 0.51


def test_pow_against_mpmath_and_numpys_special_cases(cpu):
    """Own pow: within 2 ulps of mpmath (NumPy's: 1) for bases across the doubles, results
    near 1 and near the overflow threshold; every special case as NumPy's power, zeros' signs
    included; float32 rounded from float64."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.uniform(0, 10, 800), 10 ** rng.uniform(-300, 300, 800),
                        rng.uniform(0.9, 1.1, 800), -rng.uniform(0, 10, 800)])
    y = np.concatenate([rng.uniform(-20, 20, 800), rng.uniform(-1, 1, 800),
                        rng.uniform(-5000, 5000, 800), np.round(rng.uniform(-30, 30, 800))])
    got = (wf.asarray(x) ** wf.asarray(y)).to_numpy()
    assert "#define pow(x, y) weft_pow(x, y)" in wf.kernel_source(wf.asarray(x) ** wf.asarray(y))
    with mpmath.workprec(300):
        want = np.array([float(mpmath.power(mpmath.mpf(a), mpmath.mpf(b))) for a, b in zip(x, y)])
    normal = np.isfinite(want) & (np.abs(want) >= np.finfo(np.float64).tiny)
    assert np.all(np.abs(got - want)[normal] <= 2 * np.spacing(np.abs(want[normal])))
    assert np.all(np.abs(got - want)[~normal & np.isfinite(want)] <= 5e-324)
    edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1e-310,
                      -1e-310])
    exponents = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, 3.0, -3.0, 0.5,
                          -0.5, 2.5, 1e300, -1e300, 2.0**53 + 2, 1e4])
    bx, by = (a.ravel() for a in np.meshgrid(edges, exponents))
    got = (wf.asarray(bx) ** wf.asarray(by)).to_numpy()
    with np.errstate(all="ignore"):
        want = bx ** by
    exact = ~np.isfinite(want) | (want == 0) | np.isin(np.abs(bx), [0.0, 1.0, np.inf])
    np.testing.assert_array_equal(got[exact], want[exact])
    signed = exact & ~np.isnan(want)  # (a NaN's sign bit is no one's business)
    np.testing.assert_array_equal(np.signbit(got[signed]), np.signbit(want[signed]))
    np.testing.assert_allclose(got[~exact], want[~exact], rtol=3e-16)
    pick = np.r_[0:800, 1600:2400]  # bases a float holds
    x32, y32 = x[pick].astype(np.float32), (y[pick] / 4).astype(np.float32)
    got32 = (wf.asarray(x32) ** wf.asarray(y32)).to_numpy()
    with np.errstate(all="ignore"):
        want32 = x32.astype(np.float64) ** y32.astype(np.float64)
    fits = np.isfinite(want32) & (np.abs(want32) > np.finfo(np.float32).tiny) & (
        np.abs(want32) < np.finfo(np.float32).max)
    assert _ulps(got32[fits], want32[fits]) <= 0.51


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_powers_with_exact_values_are_exact(device, dtype):
    """A power whose value the type holds comes out exactly, as NumPy's: integer powers of
    2, 3, 5, 7 and 10 (each base to every exponent that keeps it exact, and 2 to negative
    ones), from arrays and from a scalar base. Own pow on CPUs once gave 2.0 ** 4.0 an ulp
    under 16 (rounding e^h (1 + l) twice); NVIDIA's pow gives 3.0 ** 1.0 as
    2.9999999999999996 (helpers.py's pow_exact mends it)."""
    if dtype == np.float64 and not device.supports_fp64:
        pytest.skip("no float64 on this device")
    digits = np.finfo(dtype).nmant + 1
    bases, exponents = [], []
    for base in (2, 3, 5, 7, 10):
        top = int(digits / np.log2(base)) if base != 2 else 60
        bases += [base] * (top + 1)
        exponents += list(range(top + 1))
    bases += [2] * 60
    exponents += list(range(-60, 0))
    b = np.array(bases, dtype=dtype)
    e = np.array(exponents, dtype=dtype)
    want = np.power(b, e)
    assert np.all(want == np.power(b.astype(object), e.astype(int)).astype(dtype))
    np.testing.assert_array_equal((wf.asarray(b) ** wf.asarray(e)).to_numpy(), want)
    tens = e[b == 10]
    np.testing.assert_array_equal((dtype(10.0) ** wf.asarray(tens)).to_numpy(),
                                  np.power(dtype(10.0), tens))
    np.testing.assert_array_equal(wf.logspace(0, 10, 11, base=2.0, dtype=dtype).to_numpy(),
                                  2.0 ** np.arange(11, dtype=dtype))


def test_tanh_sinh_cosh_against_mpmath(cpu):
    """Own tanh, sinh and cosh: within 3 ulps of mpmath, through the switch at 22 and up to
    sinh's and cosh's overflow at 710.48; signed zeros, infinities and NaN as NumPy's;
    float32 rounded from float64."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(12)
    x = np.concatenate([rng.uniform(-30, 30, 1500), rng.uniform(-710.4, 710.4, 500),
                        10 ** rng.uniform(-300, 0, 300) * rng.choice([-1.0, 1.0], 300),
                        [21.999, 22.0, 22.001, 710.475, -710.475, 1e-8]])
    device_x = wf.asarray(x)
    assert "#define tanh(x) weft_tanh(x)" in wf.kernel_source(wf.tanh(device_x))
    for f, ref in ((wf.tanh, mpmath.tanh), (wf.sinh, mpmath.sinh), (wf.cosh, mpmath.cosh)):
        assert _mp_ulps(f(device_x).to_numpy(), x, ref) <= 3.0, f.__name__
    edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 711.0, -711.0, 800.0])
    for f, ref in ((wf.tanh, np.tanh), (wf.sinh, np.sinh), (wf.cosh, np.cosh)):
        got = f(wf.asarray(edges)).to_numpy()
        with np.errstate(over="ignore"):
            want = ref(edges)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got[:2]), np.signbit(want[:2]))
    x32 = x[np.abs(x) < 80].astype(np.float32)[::3]
    for f, ref in ((wf.tanh, mpmath.tanh), (wf.sinh, mpmath.sinh), (wf.cosh, mpmath.cosh)):
        assert _mp_ulps(f(wf.asarray(x32)).to_numpy(), x32, ref) <= 0.51, f.__name__


def _signed_mpmath(f):
    return lambda v: f(v) if v >= 0 else -f(-v)


# name -> (weft function, mpmath function, arguments, ulps of mpmath allowed for float64).
# Bounds as measured on the worst of the arguments below; OpenCL allows 3 to 6 for these.
_RANDOM = np.random.default_rng(13)
_WIDE = np.concatenate([np.exp(_RANDOM.uniform(-744, 709, 1500)) * _RANDOM.choice([-1, 1], 1500),
                        _RANDOM.uniform(-6, 6, 1500)])
_UNIT = np.concatenate([_RANDOM.uniform(-1, 1, 1500), 1 - np.exp(_RANDOM.uniform(-36, 0, 400)),
                        -1 + np.exp(_RANDOM.uniform(-36, 0, 400)), [0.5, -0.5, 1e-300]])
_ELEMENTARY = {
    "tan": (wf.tan, "tan", _WIDE, 2.0),
    "atan": (wf.atan, "atan", _WIDE, 2.0),
    "asin": (wf.asin, "asin", _UNIT, 3.0),
    "acos": (wf.acos, "acos", _UNIT, 3.0),
    "log2": (wf.log2, "log", np.abs(_WIDE), 1.0),
    "log10": (wf.log10, "log10", np.abs(_WIDE), 1.0),
    "exp2": (wf.exp2, "exp2", _RANDOM.uniform(-1021, 1023, 2000), 1.0),
    "cbrt": (wf.cbrt, "cbrt", _WIDE, 1.0),
    "asinh": (wf.asinh, "asinh", _WIDE, 3.0),
    "acosh": (wf.acosh, "acosh", 1 + np.abs(_WIDE[::2]), 3.0),
    "atanh": (wf.atanh, "atanh", _UNIT, 3.0),
}


@pytest.mark.parametrize("name", sorted(_ELEMENTARY))
def test_elementary_functions_against_mpmath(cpu, name):
    """Own tan, atan, asin, acos, log2, log10, exp2, cbrt, asinh, acosh and atanh: within
    the bounds above of mpmath over their domains; float32 rounded from float64."""
    mpmath = pytest.importorskip("mpmath")
    f, mp_name, x, bound = _ELEMENTARY[name]
    special = {"log": lambda v: mpmath.log(v, 2), "exp2": lambda v: mpmath.mpf(2) ** v,
               "cbrt": _signed_mpmath(mpmath.cbrt)}  # (older mpmath has no exp2)
    reference = special[mp_name] if mp_name in special else getattr(mpmath, mp_name)
    device_x = wf.asarray(x)
    assert f"#define {name}(x) weft_{name}(x)" in wf.kernel_source(f(device_x))
    assert _mp_ulps(f(device_x).to_numpy(), x, reference) <= bound
    info = np.finfo(np.float32)
    x32 = x[(np.abs(x) < 1e30) & ((np.abs(x) > 1e-30) | (x == 0))].astype(np.float32)[::4]
    if name == "exp2":
        x32 = (x32 / 8).astype(np.float32)
    assert np.all(np.abs(x32) <= info.max)
    assert _mp_ulps(f(wf.asarray(x32)).to_numpy(), x32, reference) <= 0.51


def test_elementary_functions_special_values_as_numpys(cpu):
    """Signed zeros, infinities, NaN, the ends of the domains, exact values (log2 of powers
    of two, exp2 of integers down to the subnormals) bit for bit NumPy's."""
    edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 8.0,
                      1.5, -1.5, 1e308, -1e308, 5e-324, -5e-324, 2.0**-1022, 1e-300])
    for name in ("tan", "atan", "asin", "acos", "log2", "log10", "exp2", "cbrt", "asinh",
                 "acosh", "atanh"):
        ref = getattr(np, {"asin": "arcsin", "acos": "arccos", "atan": "arctan",
                           "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh"}
                      .get(name, name))
        got = getattr(wf, name)(wf.asarray(edges)).to_numpy()
        with np.errstate(all="ignore"):
            want = ref(edges)
        assert not _specials(got, want), name
        signed = want == 0
        np.testing.assert_array_equal(np.signbit(got[signed]), np.signbit(want[signed]),
                                      err_msg=name)
    powers = np.arange(-1074.0, 1024.0)
    np.testing.assert_array_equal(wf.log2(wf.asarray(2.0**powers)).to_numpy(), powers)
    np.testing.assert_array_equal(wf.exp2(wf.asarray(powers)).to_numpy(), 2.0**powers)
    np.testing.assert_array_equal(wf.exp2(wf.asarray([1024.0, -1075.0, -1080.0])).to_numpy(),
                                  [np.inf, 0.0, 0.0])
    # Perfect cubes exactly, and a subnormal's within an ulp of the exact root (NumPy 2.4's
    # cbrt of -27 is -3.0000000000000004 on a Zen 4 host, as a scalar and beside a subnormal
    # in an array, though -3.0 in an array of normal numbers).
    tiny = 1e-309 * 1e-9
    cubes = wf.cbrt(wf.asarray([-27.0, 64.0, tiny])).to_numpy()
    assert cubes[0] == -3.0 and cubes[1] == 4.0
    mpmath = pytest.importorskip("mpmath")
    exact = float(mpmath.cbrt(mpmath.mpf(tiny)))
    assert abs(cubes[2] - exact) <= np.spacing(exact)


def test_atan2_and_hypot_against_mpmath_and_their_special_cases(cpu):
    """Own atan2 (2 ulps) and hypot (1 ulp) against mpmath over magnitudes far apart and near
    the overflow and underflow thresholds; every IEEE special case as NumPy's, the signs of
    zeros and of pi included."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(14)
    y = rng.standard_normal(1500) * np.exp(rng.uniform(-700, 700, 1500))
    x = rng.standard_normal(1500) * np.exp(rng.uniform(-700, 700, 1500))
    y[:300], x[:300] = rng.standard_normal(300), rng.standard_normal(300)
    device_y, device_x = wf.asarray(y), wf.asarray(x)
    assert "weft_atan2(x, y)" in wf.kernel_source(wf.arctan2(device_y, device_x))
    with mpmath.workprec(300):
        for f, ref, bound in ((wf.arctan2, mpmath.atan2, 2.0), (wf.hypot, mpmath.hypot, 1.0)):
            got = f(device_y, device_x).to_numpy()
            worst = 0.0
            for g, a, b in zip(got.tolist(), y.tolist(), x.tolist()):
                want = ref(mpmath.mpf(a), mpmath.mpf(b))
                worst = max(worst, float(abs(mpmath.mpf(g) - want))
                            / float(np.spacing(abs(float(want)))))
            assert worst <= bound, f.__name__
    edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e308, 5e-324])
    ey, ex = (a.ravel() for a in np.meshgrid(edges, edges))
    for f, ref in ((wf.arctan2, np.arctan2), (wf.hypot, np.hypot)):
        got = f(wf.asarray(ey), wf.asarray(ex)).to_numpy()
        want = ref(ey, ex)
        assert not _specials(got, want), f.__name__
        np.testing.assert_array_equal(np.signbit(got[~np.isnan(want)]),
                                      np.signbit(want[~np.isnan(want)]), err_msg=f.__name__)
        close = np.isfinite(want) & (want != 0)
        np.testing.assert_allclose(got[close], want[close], rtol=5e-16)


def test_helpers_call_sin_and_cos_through_branches(cpu):
    """Special functions' device code calls the fast versions and the general ones only for
    a huge argument (trig.helpers_with_branches); the kernel's own cos stays general. Huge
    arguments and ordinary ones against mpmath."""
    mpmath = pytest.importorskip("mpmath")
    x = np.array([0.5, 7.0, 30.0, 1e4, 2.0**50, 3e15, 1e300])
    source = wf.kernel_source(wf.j0(wf.asarray(x)) + wf.cos(wf.asarray(x)))
    assert "weft_cos_branchy(x)" in source and "#define cos(x) weft_cos(x)" in source
    got = (wf.j0(wf.asarray(x)) + wf.cos(wf.asarray(x))).to_numpy()
    with mpmath.workdps(40):
        want = [float(mpmath.besselj(0, v) + mpmath.cos(v)) for v in x]
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-300)
