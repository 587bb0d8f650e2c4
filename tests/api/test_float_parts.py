"""frexp (float_parts.py) against NumPy on every device: edges, subnormals, the whole
float64 range, float32, integers, NumPy's protocol, and its mantissa's gradient."""

from __future__ import annotations

import numpy as np

import weft as wf

EDGES = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -2.0**-1074 * 3, 2.0**-1022,
                  1.7e308, 2.0**1023, 0.5, 1.0, 1 - 2.0**-53, 1 + 2.0**-52, -3.0, 0.3, 7.0])


def test_frexp_matches_numpy(device):
    rng = np.random.default_rng(13)
    wide = rng.standard_normal(3000) * 10.0 ** rng.uniform(-300, 300, 3000)
    x = np.concatenate([EDGES, wide, 2.0 ** np.arange(-1074, 1024, 7)])
    if not device.supports_fp64:
        x = x[(np.abs(x) > 1e-38) & (np.abs(x) < 1e38) | ~np.isfinite(x)]
    mantissa, exponent = wf.frexp(wf.asarray(x))
    want_m, want_e = np.frexp(x)
    assert exponent.dtype == np.int32
    np.testing.assert_array_equal(mantissa.to_numpy(), want_m)
    np.testing.assert_array_equal(exponent.to_numpy(), want_e)
    assert np.signbit(mantissa.to_numpy()[1])  # -0.0 keeps its sign
    # float32 (normal numbers: a device may flush float32 subnormals), and integers.
    small = (rng.standard_normal(2000) * 10.0 ** rng.uniform(-30, 30, 2000)).astype(np.float32)
    m32, e32 = wf.frexp(wf.asarray(small))
    assert m32.dtype == np.float32
    np.testing.assert_array_equal(m32.to_numpy(), np.frexp(small)[0])
    np.testing.assert_array_equal(e32.to_numpy(), np.frexp(small)[1])
    whole = np.array([3, -4, 0, 1000])
    for got, want in zip(wf.frexp(wf.asarray(whole)), np.frexp(whole), strict=True):
        np.testing.assert_array_equal(got.to_numpy(), want)


def test_frexp_through_numpy_and_its_gradient(device):
    m, e = np.frexp(wf.asarray([3.0, 10.0]))
    assert isinstance(m, wf.Array) and m.tolist() == [0.75, 0.625] and e.tolist() == [2, 4]
    slope = wf.grad(lambda a: wf.sum(wf.frexp(a)[0]))(wf.asarray([3.0, 10.0, -0.1]))
    np.testing.assert_array_equal(slope.to_numpy(), [0.25, 0.0625, 8.0])
