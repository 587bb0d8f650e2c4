"""NumPy's further functions (issue 38, found missing by CuPy's own tests): element-wise
composites, complex-number functions on reals, differences and integrals, convolution,
interpolation, set operations, windows and ``out=``, against NumPy on every device."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

RNG = np.random.default_rng(11)
V = np.array([-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, np.inf, -np.inf, np.nan])
M = RNG.standard_normal((4, 5))
INTS = np.array([[3, -1, 0], [2, 7, -4]], dtype=np.int32)

ELEMENTWISE = [
    ("float_power", lambda m: m.float_power(m.abs(V) + 1, -1.5)),
    ("float_power of ints", lambda m: m.float_power(INTS, 2)),
    ("fabs", lambda m: m.fabs(INTS)), ("deg2rad", lambda m: m.deg2rad(V)),
    ("rad2deg", lambda m: m.rad2deg(INTS)), ("sinc", lambda m: m.sinc(V)),
    ("heaviside", lambda m: m.heaviside(V, 0.5)), ("reciprocal", lambda m: m.reciprocal(V)),
    ("reciprocal of ints", lambda m: m.reciprocal(np.array([1, -1, 2, -3], np.int64))),
    ("isposinf", lambda m: m.isposinf(V)), ("isneginf", lambda m: m.isneginf(V)),
    ("nan_to_num", lambda m: m.nan_to_num(V)),
    ("nan_to_num given", lambda m: m.nan_to_num(V.astype(np.float32), nan=-1.0, posinf=9.0)),
    ("modf", lambda m: m.modf(V)), ("angle", lambda m: m.angle(V, deg=True)),
    ("real", lambda m: m.real(INTS)), ("imag", lambda m: m.imag(INTS)),
    ("conj", lambda m: m.conj(V)),
    ("isreal", lambda m: m.isreal(V)), ("iscomplex", lambda m: m.iscomplex(V)),
    ("logaddexp2", lambda m: m.logaddexp2(M, M.T[:1].T)),
    ("nextafter", lambda m: m.nextafter(V, 0.0)),
]
SCIPY = [("exprel", (V,)), ("rgamma", (np.array([4.0, 0.0, -2.0, -2.5, 0.5, np.inf]),)),
         ("loggamma", (np.array([4.0, 0.0, -2.5, 0.5, np.inf, -np.inf]),)),
         ("softmax", (M,)), ("log_softmax", (M,)), ("cosm1", (V,)),
         ("xlog1py", (np.array([0.0, 0.0, 2.0, -1.5, 3.0]), np.array([5.0, np.nan, -1.0, 0.5,
                                                                      np.inf]))),
         ("i0", (np.concatenate([np.linspace(-30, 30, 61), [100.0, 700.0, np.nan]]),)),
         ("i0e", (np.concatenate([np.linspace(-30, 30, 61), [1e3, -np.inf, np.nan]]),)),
         ("i1", (np.concatenate([np.linspace(-30, 30, 61), [-0.0, 100.0, -700.0, np.nan]]),)),
         ("i1e", (np.concatenate([np.linspace(-30, 30, 61), [-0.0, 1e3, -1e3, np.nan]]),)),
         ("erfcinv", (np.concatenate([np.linspace(0, 2, 201), np.geomspace(1e-300, 1, 61),
                                      2 - np.geomspace(1e-16, 1, 17),
                                      [-1.0, 2.5, np.nan, -0.0]]),))]


def _on(m, f):
    """``f`` with NumPy's arrays as weft arrays when ``m`` is weft."""
    if m is np:
        return f(np)

    class Weft:
        def __getattr__(self, name):
            fn = getattr(wf, name)
            return lambda *a, **k: fn(*[wf.asarray(x) if isinstance(x, np.ndarray) else x
                                         for x in a], **k)
    return f(Weft())


def _same(got, expected, rtol=1e-12):
    got = got if isinstance(got, tuple) else (got,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    for g, e in zip(got, expected):
        assert isinstance(g, wf.Array)
        assert np.dtype(g.dtype) == np.asarray(e).dtype, (g.dtype, np.asarray(e).dtype)
        np.testing.assert_allclose(g.to_numpy(), e, rtol=rtol, atol=1e-300)
        if np.asarray(e).dtype.kind == "f":
            assert np.array_equal(np.signbit(g.to_numpy()), np.signbit(e))


@pytest.mark.parametrize("case", ELEMENTWISE, ids=[c[0] for c in ELEMENTWISE])
def test_elementwise_composites_match_numpy(device, case):
    _, f = case
    with np.errstate(all="ignore"):
        _same(_on(wf, f), f(np))


@pytest.mark.parametrize("name, args", SCIPY, ids=[c[0] for c in SCIPY])
def test_scipy_composites_match_scipy(device, name, args):
    from scipy import special

    with np.errstate(all="ignore"):
        expected = getattr(special, name)(*args)
    _same(getattr(wf, name)(*[wf.asarray(a) for a in args]), expected)


def test_i0_in_float32_is_rounded_once(device):
    from scipy import special

    x = np.linspace(-30, 30, 121).astype(np.float32)
    got = wf.i0(wf.asarray(x))
    assert got.dtype == wf.float32
    np.testing.assert_allclose(got.to_numpy(), special.i0(x.astype(np.float64)), rtol=1.2e-7)


def test_i0_and_i1_against_mpmath(real_device):
    """I0, I1 and their scaled forms within 3 ulps of mpmath on both sides of |x| = 8, where
    the polynomial in x^2 meets the one in 8/|x| (bessel_i01.py), and out to 700."""
    import mpmath

    if not real_device.supports_fp64:
        pytest.skip("no float64 on this device")
    x = np.concatenate([np.linspace(-40, 40, 161), 8 + np.array([-1e-12, 0, 1e-12]),
                        np.geomspace(1e-300, 700, 40)])
    names = ("i0", "i0e", "i1", "i1e")
    got = wf.eval(*[getattr(wf, name)(wf.asarray(x)) for name in names])
    with mpmath.workdps(40):
        for name, values in zip(names, got):
            want = np.array([float(mpmath.besseli(int(name[1]), a)
                                   * (mpmath.exp(-abs(mpmath.mpf(a))) if name[-1] == "e" else 1))
                             for a in x])
            np.testing.assert_allclose(values.to_numpy(), want, rtol=7e-16, atol=0,
                                       err_msg=name)


def test_i0_is_finite_to_its_overflow_and_infinite_at_infinity(device):
    import mpmath

    got = wf.i0(wf.asarray([713.0, -np.inf, np.inf])).to_numpy()
    np.testing.assert_allclose(got[0], float(mpmath.besseli(0, 713)), rtol=1e-14)
    assert got[1] == got[2] == np.inf


def test_logsumexp_takes_scipys_weights_and_sign(device):
    from scipy import special

    weights = RNG.standard_normal(M.shape)
    value, sign = wf.logsumexp(wf.asarray(M), axis=0, b=weights, return_sign=True)
    expected_value, expected_sign = special.logsumexp(M, axis=0, b=weights, return_sign=True)
    np.testing.assert_allclose(value.to_numpy(), expected_value, rtol=1e-12)
    np.testing.assert_array_equal(sign.to_numpy(), expected_sign)
    np.testing.assert_allclose(wf.logsumexp(wf.asarray(M), b=np.abs(weights), keepdims=True)
                               .to_numpy(), special.logsumexp(M, b=np.abs(weights),
                                                              keepdims=True), rtol=1e-12)
    zeroed = np.where(weights > 0.5, 0.0, np.abs(weights))  # SciPy leaves 0-weighted terms out
    np.testing.assert_allclose(wf.logsumexp(wf.asarray(M * 50), b=zeroed).to_numpy(),
                               special.logsumexp(M * 50, b=zeroed), rtol=1e-12)
    np.testing.assert_allclose(wf.softmax(wf.asarray(M), axis=1).to_numpy(),
                               special.softmax(M, axis=1), rtol=1e-12)


def test_predicates_and_equality_answer_as_numpy(device):
    x = wf.asarray(INTS)
    assert wf.isrealobj(x) and not wf.iscomplexobj(x) and wf.iscomplexobj(1j)
    assert wf.isscalar(2.0) and not wf.isscalar(x)
    assert wf.array_equal(x, INTS) is True and wf.array_equal(x, INTS[:1]) is False
    assert wf.array_equal(wf.asarray([np.nan]), [np.nan]) is False
    assert wf.array_equal(wf.asarray([np.nan]), [np.nan], equal_nan=True) is True
    assert wf.array_equiv(wf.asarray([[1, 2], [1, 2]]), [1, 2]) is True
    assert wf.array_equiv(x, [1, 2]) is False
    np.testing.assert_array_equal(x.imag.to_numpy(), np.zeros_like(INTS))
    assert x.real is x
    assert wf.ascontiguousarray(2.0).shape == (1,) and not wf.isfortran(x.T)
    assert wf.can_cast(x, wf.float64) and not wf.can_cast(wf.float64, wf.int32)
    extreme = np.array([np.iinfo(np.int32).min, 5], np.int32)  # |a - b| in reals, as NumPy
    np.testing.assert_array_equal(wf.isclose(wf.asarray(extreme), 0).to_numpy(),
                                  np.isclose(extreme, 0))
    assert bool(wf.allclose(wf.asarray([1, 2]), [1, 2])) and not wf.allclose(x, [[0, 0, 0]])
    assert wf.can_cast(wf.int64, wf.float32, "same_kind") == np.can_cast(np.int64, np.float32,
                                                                         "same_kind")
    np.testing.assert_array_equal(
        wf.cumulative_sum(wf.asarray(5.0), include_initial=True).to_numpy(),
        np.cumulative_sum(np.array(5.0), include_initial=True))
    with pytest.raises(ValueError, match="does not broadcast to x's shape"):
        wf.nan_to_num(wf.asarray([1.0, np.nan]), nan=np.zeros((2, 2)))
    assert wf.gradient(wf.asarray(2.0)) == np.gradient(np.array(2.0)) == ()


GRADIENTS = [
    ("1-d", (RNG.standard_normal(7),), {}),
    ("spacing", (RNG.standard_normal(7), 0.5), {"edge_order": 2}),
    ("coordinates", (RNG.standard_normal(6), np.cumsum(RNG.uniform(0.2, 1.0, 6))),
     {"edge_order": 2}),
    ("matrix", (M,), {}),
    ("matrix per axis", (M, 2.0, np.cumsum(RNG.uniform(0.2, 1.0, 5))), {}),
    ("one axis", (M,), {"axis": -1, "edge_order": 2}),
    ("ints", (INTS,), {}),
]


@pytest.mark.parametrize("case", GRADIENTS, ids=[c[0] for c in GRADIENTS])
def test_gradient_matches_numpy(device, case):
    _, args, kwargs = case
    got = wf.gradient(wf.asarray(args[0]), *args[1:], **kwargs)
    expected = np.gradient(*args, **kwargs)
    assert type(got) is (tuple if isinstance(expected, tuple) else wf.Array)
    got = got if isinstance(got, tuple) else (got,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert np.dtype(g.dtype) == e.dtype
        np.testing.assert_allclose(g.to_numpy(), e, rtol=1e-12, atol=1e-12)


def test_gradient_refuses_what_numpy_refuses(device):
    with pytest.raises(ValueError, match="edge_order 2 needs at least 3"):
        wf.gradient(wf.asarray([1.0, 2.0]), edge_order=2)
    with pytest.raises(ValueError, match="coordinates of length 3"):
        wf.gradient(wf.asarray(M), 1.0, [0.0, 1.0, 2.0])
    with pytest.raises(np.exceptions.AxisError):
        wf.gradient(wf.asarray(M), axis=2)


def test_differences_and_integrals_match_numpy(device):
    x = wf.asarray(M)
    np.testing.assert_allclose(wf.diff(x, n=2, axis=0).to_numpy(), np.diff(M, n=2, axis=0))
    np.testing.assert_array_equal(wf.diff(wf.asarray(INTS), prepend=0, append=[[1], [2]])
                                  .to_numpy(), np.diff(INTS, prepend=0, append=[[1], [2]]))
    np.testing.assert_array_equal(wf.diff(wf.asarray([True, True, False])).to_numpy(),
                                  np.diff([True, True, False]))
    np.testing.assert_array_equal(wf.ediff1d(wf.asarray(INTS), to_end=[7], to_begin=-1)
                                  .to_numpy(), np.ediff1d(INTS, to_end=[7], to_begin=-1))
    t = np.array([0.0, 0.5, 2.0, 2.5, 4.0])
    np.testing.assert_allclose(wf.trapezoid(x, x=t).to_numpy(), np.trapezoid(M, x=t))
    np.testing.assert_allclose(wf.trapezoid(x, dx=0.1, axis=0).to_numpy(),
                               np.trapezoid(M, dx=0.1, axis=0))
    p = np.cumsum(RNG.uniform(-4, 4, 30))
    np.testing.assert_allclose(wf.unwrap(wf.asarray(p)).to_numpy(), np.unwrap(p), rtol=1e-12)
    np.testing.assert_allclose(wf.unwrap(wf.asarray(M * 4), axis=0).to_numpy(),
                               np.unwrap(M * 4, axis=0), rtol=1e-12)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_matches_numpy_in_one_kernel(device, mode):
    a, v = RNG.standard_normal(9), RNG.standard_normal(4)
    got = wf.convolve(wf.asarray(a), wf.asarray(v), mode)
    if device.kind != "reference":
        assert wf.kernel_source(got).count("__kernel") + wf.kernel_source(got).count(
            "__global__") == 1
    np.testing.assert_allclose(got.to_numpy(), np.convolve(a, v, mode), rtol=1e-12)
    np.testing.assert_allclose(wf.convolve(wf.asarray(v), wf.asarray(a), mode).to_numpy(),
                               np.convolve(v, a, mode), rtol=1e-12)
    with pytest.raises(ValueError, match="mode"):
        wf.convolve(wf.asarray(a), wf.asarray(v), "circular")


def test_interp_matches_numpy(device):
    xp = np.array([0.0, 1.0, 1.0, 3.0, 4.5])
    fp = np.array([0.0, 2.0, 3.0, 6.0, -1.0])
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, 4.5, 9.0, np.nan])
    np.testing.assert_allclose(wf.interp(wf.asarray(x), xp, fp).to_numpy(),
                               np.interp(x, xp, fp))
    np.testing.assert_allclose(wf.interp(wf.asarray(x), xp, fp, left=-9, right=9).to_numpy(),
                               np.interp(x, xp, fp, left=-9, right=9))
    xq = np.array([-1.0, 0.5, 2.5, 7.0])
    np.testing.assert_allclose(wf.interp(wf.asarray(xq), [0.0, 1.0, 3.0], [0.0, 2.0, 6.0],
                                         period=4).to_numpy(),
                               np.interp(xq, [0.0, 1.0, 3.0], [0.0, 2.0, 6.0], period=4))


def test_set_operations_match_numpy(device):
    a = np.array([[5, 1, 3], [3, 9, 1]])
    b = np.array([3, 4, 5, 5])
    x = wf.asarray(a)
    np.testing.assert_array_equal(wf.isin(x, b).to_numpy(), np.isin(a, b))
    np.testing.assert_array_equal(wf.isin(x, b, invert=True).to_numpy(),
                                  np.isin(a, b, invert=True))
    for name in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        got = getattr(wf, name)(x, b)
        assert got.device is x.device
        np.testing.assert_array_equal(got.to_numpy(), getattr(np, name)(a, b))
    values, first_a, first_b = wf.intersect1d(x, b, return_indices=True)
    expected = np.intersect1d(a, b, return_indices=True)
    for g, e in zip((values, first_a, first_b), expected):
        np.testing.assert_array_equal(g.to_numpy(), e)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning", "kaiser"])
def test_windows_match_numpy(device, name):
    extra = (8.6,) if name == "kaiser" else ()
    for m in (0, 1, 6, 7):
        got = getattr(wf, name)(m, *extra)
        assert got.dtype == wf.float64
        np.testing.assert_allclose(got.to_numpy(), getattr(np, name)(m, *extra), atol=1e-15)


def test_scan_variants_match_numpy(device):
    v = np.array([[1.0, np.nan, 2.0], [np.nan, 3.0, 4.0]])
    x = wf.asarray(v)
    np.testing.assert_array_equal(wf.nancumsum(x, axis=1).to_numpy(), np.nancumsum(v, axis=1))
    np.testing.assert_array_equal(wf.nancumprod(x).to_numpy(), np.nancumprod(v))
    y = wf.asarray(INTS)
    np.testing.assert_array_equal(
        wf.cumulative_sum(y, axis=0, include_initial=True).to_numpy(),
        np.concatenate([np.zeros((1, 3), np.int64), np.cumsum(INTS, axis=0)]))
    np.testing.assert_array_equal(wf.cumulative_prod(wf.asarray([1, 2, 3])).to_numpy(),
                                  [1, 2, 6])
    with pytest.raises(ValueError, match="give axis"):
        wf.cumulative_sum(y)


def test_out_writes_the_result_and_leaves_it_alone_on_error(device):
    out = wf.zeros((2, 3))
    got = wf.multiply(wf.asarray(INTS), 2.0, out=out)
    assert got is out
    np.testing.assert_array_equal(out.to_numpy(), INTS * 2.0)
    with pytest.raises(ValueError, match="out has shape"):
        wf.add(wf.asarray(INTS), 1.0, out=wf.zeros(3))
    with pytest.raises(TypeError, match="out must be a wf.Array"):
        wf.add(wf.asarray(INTS), 1.0, out=np.zeros((2, 3)))
    np.testing.assert_array_equal(out.to_numpy(), INTS * 2.0)
    product = wf.zeros((4, 4))
    assert wf.matmul(wf.asarray(M), wf.asarray(M.T), out=product) is product
    np.testing.assert_allclose(product.to_numpy(), M @ M.T, rtol=1e-12)
    sums = wf.zeros(M.shape)
    assert wf.nancumsum(wf.asarray(M), axis=1, out=sums) is sums
    np.testing.assert_allclose(sums.to_numpy(), np.cumsum(M, axis=1), rtol=1e-12)


def test_numpys_functions_stay_on_the_device(device):
    v = np.array([1.0, 2.0, 4.0, 7.0, 11.0])
    x = wf.asarray(v)
    calls = [
        lambda m, a: m.gradient(a, 0.5, edge_order=2), lambda m, a: m.diff(a, n=2),
        lambda m, a: m.ediff1d(a), lambda m, a: m.convolve(a, [1.0, -1.0]),
        lambda m, a: m.interp(a, [0.0, 5.0], [0.0, 10.0]), lambda m, a: m.unwrap(a),
        lambda m, a: m.isin(a, [2.0, 7.0]), lambda m, a: m.setdiff1d(a, [2.0]),
        lambda m, a: m.trapezoid(a), lambda m, a: m.nan_to_num(a), lambda m, a: m.sinc(a),
        lambda m, a: m.angle(a), lambda m, a: m.nancumsum(a), lambda m, a: m.imag(a),
    ]
    for call in calls:
        got, expected = call(np, x), call(np, v)
        assert isinstance(got, wf.Array) and got.device is device
        np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-12, atol=1e-15)
    assert np.array_equal(x, v) is True


def test_casting_follows_numpys_rule_and_loses_nothing(device):
    x = wf.asarray([1.5, 2.5])
    out = wf.full(2, 7, dtype=wf.int32)
    with pytest.raises(TypeError, match="cannot cast the result from float64 to int32"):
        wf.add(x, 1.0, out=out)
    with pytest.raises(TypeError, match="cannot cast the result"):
        np.add(x, 1.0, out=out)
    with pytest.raises(TypeError, match="cannot cast argument 1 from float64 to int32"):
        wf.multiply(x, 2.0, dtype=wf.int32, casting="same_kind")
    with pytest.raises(TypeError, match="cannot cast"):
        np.multiply(x, 2.0, dtype=np.int32)
    # weft's own dtype= converts its arguments first (API.md), NumPy's rule only when asked
    assert wf.multiply(x, 2.0, dtype=wf.int32).tolist() == [2, 4]
    with pytest.raises(ValueError, match="casting must be one of"):
        wf.add(x, 1.0, out=wf.zeros(2), casting="lossy")
    np.testing.assert_array_equal(out.to_numpy(), [7, 7])
    assert wf.add(x, 1.0, out=out, casting="unsafe") is out
    np.testing.assert_array_equal(out.to_numpy(), np.add([1.5, 2.5], 1.0).astype(np.int32))
    assert wf.exp(wf.asarray([1, 2]), dtype=wf.float32).dtype == wf.float32
