"""Every op of the op table × every dtype, against its NumPy reference, on every device."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import weft as wf
from weft import ops
from weft.ops import OPS

DTYPES = [wf.bool_, wf.int32, wf.int64, wf.float32, wf.float64, wf.uint32]

# Domains that keep the reference finite where it matters (specials are added separately).
POSITIVE = {"log", "log2", "log10", "sqrt", "rsqrt"}
UNIT = {"asin", "acos", "atanh"}
SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.5, 3.5])


def _values(name: str, dtype: wf.DType, n: int, position: int) -> np.ndarray:
    # the same values for a test whichever tests ran before it
    rng = np.random.default_rng(zlib.crc32(f"{name}-{dtype.name}-{n}-{position}".encode()))
    npd = dtype.numpy
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.kind in "ui":
        info = np.iinfo(npd)
        if name in ("left_shift", "right_shift") and position == 1:
            return rng.integers(0, info.bits + 4, n).astype(npd)
        if name == "power" and position == 1:
            low = -2 if dtype.kind == "i" else 0
            return rng.integers(low, 6, n).astype(npd)
        low = max(info.min, -60)
        vals = rng.integers(low, 60, n).astype(npd)
        extremes = np.array([info.min, info.max, 0, 1, info.max // 2], dtype=npd)
        if dtype.kind == "i":
            extremes = np.concatenate([extremes, np.array([-1], dtype=npd)])
        vals[: extremes.size] = extremes
        return vals
    if name in POSITIVE:
        vals = rng.uniform(0.01, 50, n)
    elif name in UNIT:
        vals = rng.uniform(-0.99, 0.99, n)
    elif name == "acosh":
        vals = rng.uniform(1.0, 50, n)
    elif name == "log1p":
        vals = rng.uniform(-0.99, 50, n)
    elif name == "ldexp" and position == 1:
        return rng.integers(-10, 10, n).astype(npd)
    else:
        vals = rng.uniform(-4, 4, n)
    vals[: SPECIALS.size] = np.roll(SPECIALS, position)
    return vals.astype(npd)


SPECIAL = {name for name, *_ in ops.SPECIAL_FUNCTIONS}  # dense grids in test_special.py
SPECIAL |= {f"random_{name}" for name, *_ in ops.RANDOM_DRAWS}  # test_random.py
# Derivatives in parameters, whose references are mpmath's (over a minute of a 2-core run
# here) or differences of SciPy's: against mpmath in test_grad.py, test_grad_incomplete.py
# test_bessel_kv.py, test_bessel_jy.py and test_bessel_iv.py, edges included.
SPECIAL |= {"zeta_ds", "gamma_p_da", "ibeta_da", "ibeta_db", "kv_dv", "kve_dv", "jv_dv", "yv_dv",
            "iv_dv", "ive_dv"}
# Jacobi's sn, cn, dn take the amplitude ellipj_ph computes as an argument, not a free one:
# against mpmath through wf.ellipj in test_elliptic_jacobi.py.
SPECIAL |= {"ellipj_ph", "ellipj_sn", "ellipj_cn", "ellipj_dn"}
# The spherical j_n and y_n: against SciPy on a grid of orders in test_spherical_bessel.py.
SPECIAL |= {"sph_jn", "sph_yn"}


def _names():
    return [name for name in OPS if name not in SPECIAL]


def _expected(op, args: list[np.ndarray], dtypes, result, compute):
    converted = [a.astype(t.numpy) for a, t in zip(args, dtypes)]
    return ops.reference(op, converted, result)


def _signature(op, dtype):
    arg_dtypes = [dtype] * op.arity
    if op.rule == ops.WHERE:
        arg_dtypes[0] = wf.bool_
    if op.rule == ops.LDEXP:
        arg_dtypes[1] = wf.int32
    return arg_dtypes, ops.signature(op, arg_dtypes, None)


@pytest.mark.parametrize("name", _names())
def test_op_matches_numpy(device, name):
    """Every dtype of the op, evaluated together: one kernel with an output per dtype (a
    compile is most of a case's time on a CPU device)."""
    op = OPS[name]
    cases = []
    for dtype in DTYPES:
        try:
            arg_dtypes, (wanted, result, _) = _signature(op, dtype)
        except TypeError:
            x = wf.asarray(_values(name, dtype, 16, 0))
            with pytest.raises(TypeError, match=name):
                wf.apply_op(name, *([x] * op.arity))
            continue
        if result.name == "float64" and not device.supports_fp64:
            continue
        host = [_values(name, t, 257, k) for k, t in enumerate(arg_dtypes)]
        lazy = wf.apply_op(name, *[wf.asarray(h) for h in host])
        cases.append((dtype, host, wanted, result, lazy))
    computed = wf.eval(*[lazy for *_, lazy in cases]) if cases else ()
    for (dtype, host, wanted, result, _), array in zip(cases, computed):
        _check(name, op, dtype, host, wanted, result, array.to_numpy())


def _check(name, op, dtype, host, wanted, result, got):
    where = f"{name} of {dtype.name}"
    expected = _expected(op, host, wanted, result, None)
    assert got.dtype == expected.dtype, where
    if result.kind == "f":
        rtol = 2e-6 if result.name == "float32" else 1e-13
        if name in ("fmod", "remainder", "floor_divide"):
            rtol = 1e-5 if result.name == "float32" else 1e-12
        if result.name == "float32":
            # Where NumPy's float32 loop itself cancels (logaddexp near 0), the device may
            # be closer to the exact value: compare with the float64 result rounded too.
            wide = _expected(op, host, [dt if dt.kind != "f" else wf.float64 for dt in wanted],
                             wf.float64, wf.float64)
            with np.errstate(over="ignore"):  # nextafter(float32 max, inf) in float64
                wide = wide.astype(np.float32)
            closer = np.isclose(got, wide, rtol=rtol, atol=0, equal_nan=True)
            expected = np.where(closer, got, expected)
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=0, equal_nan=True,
                                   err_msg=where)
        # Signs of zeros and infinities agree too.
        finite = np.isfinite(expected) & (expected == 0)
        assert np.array_equal(np.signbit(got[finite]), np.signbit(expected[finite])) or name in (
            "sign", "fdim", "maximum", "minimum", "fmax", "fmin"), where
    else:
        np.testing.assert_array_equal(got, expected, err_msg=where)


@pytest.mark.parametrize("name", [n for n, op in OPS.items() if op.arity == 2
                                  and n not in SPECIAL and not op.internal])
def test_binary_op_with_python_scalar(device, name):
    op = OPS[name]
    dtype = wf.float32 if "f" in op.accepts else wf.int32
    if op.rule == ops.LOGICAL:
        dtype = wf.bool_
    host = _values(name, dtype, 64, 0)
    scalar = {"f": 1.5, "u": 3, "i": 3, "b": True}[dtype.kind]
    if name == "ldexp":
        scalar = 3
    got = wf.apply_op(name, wf.asarray(host), scalar).to_numpy()
    arg_dtypes = [dtype, wf.int32 if name == "ldexp" else dtype]
    wanted, result, compute = ops.signature(op, arg_dtypes, None)
    expected = _expected(op, [host, np.full(64, scalar)], wanted, result, compute)
    assert got.dtype == expected.dtype, "a weak scalar keeps the array's dtype"
    if result.kind == "f":
        np.testing.assert_allclose(got, expected, rtol=2e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


def test_every_listed_function_exists():
    listed = ("abs sign negative exp exp2 expm1 log log2 log10 log1p sqrt cbrt rsqrt square sin "
              "cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh hypot pow fmod "
              "copysign ldexp fdim floor ceil trunc round minimum maximum fmin fmax clip where "
              "isnan isinf isfinite signbit logical_and logical_or logical_not logical_xor")
    missing = [n for n in listed.split() if not callable(getattr(wf, n, None))]
    assert not missing


def test_integer_semantics_match_numpy(device):
    a = np.array([7, -7, 7, -7, 0, np.iinfo(np.int32).min, 5], dtype=np.int32)
    b = np.array([2, 2, -2, -2, 0, -1, 0], dtype=np.int32)
    x, y = wf.asarray(a), wf.asarray(b)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal((x // y).to_numpy(), a // b)
        np.testing.assert_array_equal((x % y).to_numpy(), a % b)
    big = np.array([np.iinfo(np.int32).max], dtype=np.int32)
    np.testing.assert_array_equal((wf.asarray(big) + 1).to_numpy(), big + np.int32(1))


def test_round_is_half_to_even(device):
    v = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 1e300])
    np.testing.assert_array_equal(wf.round(wf.asarray(v)).to_numpy(), np.round(v))
    np.testing.assert_allclose(wf.round(wf.asarray(v), 2).to_numpy(), np.round(v, 2))
    i = np.array([15, 25, -35], dtype=np.int64)
    np.testing.assert_array_equal(wf.round(wf.asarray(i), -1).to_numpy(), np.round(i, -1))


def test_clip_and_where(device):
    v = np.array([-3.0, 0.5, np.nan, 9.0])
    np.testing.assert_array_equal(wf.clip(wf.asarray(v), 0, 1).to_numpy(), np.clip(v, 0, 1))
    np.testing.assert_array_equal(wf.clip(wf.asarray(v), None, 1).to_numpy(), np.clip(v, None, 1))
    unlimited = wf.clip(wf.asarray(v))  # no limits: a copy, as NumPy 2's
    np.testing.assert_array_equal(unlimited.to_numpy(), np.clip(v))
    c = v > 0
    np.testing.assert_array_equal(
        wf.where(wf.asarray(c), wf.asarray(v), -1.0).to_numpy(), np.where(c, v, -1.0))


@pytest.mark.parametrize("exponent", [2, 3, 4, 1, 0.5, -1, 2.0, np.float64(2.0), 1.5, 5, 0])
def test_constant_powers_are_reduced_and_keep_numpys_values(device, exponent):
    from conftest import kernel_count

    rng = np.random.default_rng(5)
    for dtype in (np.float64, np.float32):
        a = np.concatenate([rng.normal(size=200), [0.0, -0.0, np.inf, -np.inf, np.nan, 1e30,
                                                   -3.0]]).astype(dtype)
        x = wf.asarray(a)
        got = (x ** exponent).to_numpy()
        with np.errstate(all="ignore"):
            expected = a ** exponent
        assert got.dtype == expected.dtype
        if exponent in (2, 0.5, -1, 1, 2.0):  # NumPy's ** takes the same operations
            if dtype == np.float32 and device.kind == "opencl":
                # OpenCL's float sqrt and division need not round correctly (NVIDIA's: 1 ulp)
                np.testing.assert_allclose(got, expected, rtol=np.finfo(dtype).eps, atol=0)
            else:
                np.testing.assert_array_equal(got, expected)
            number = ~np.isnan(expected)  # a NaN's sign bit means nothing
            assert np.array_equal(np.signbit(got[number]), np.signbit(expected[number]))
        else:
            np.testing.assert_allclose(got, expected, rtol=3 * np.finfo(dtype).eps,
                                       atol=0)
    if device.kind != "reference":
        source = wf.kernel_source(wf.asarray([1.5, 2.5]) ** exponent)
        assert kernel_count(source) == (0 if exponent == 1 else 1)  # x ** 1: an O(1) copy
        assert ("pow(" in source) == (exponent in (1.5, 5, 0))
