"""NumPy's protocols on weft arrays (API.md 14): NumPy functions that weft implements return
lazy weft arrays on the same device with NumPy's values; others raise TypeError naming the
function; nothing is copied to the host unless asked (np.asarray)."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf
from weft.numpy_protocols import _UFUNC_OPS

RNG = np.random.default_rng(21)
A = RNG.uniform(0.2, 0.9, (3, 4))
B = RNG.uniform(0.2, 0.9, (3, 4))


def _weft_on(device, result) -> np.ndarray:
    assert isinstance(result, wf.Array) and result.device is device, type(result)
    return result.to_numpy()


def test_every_ufunc_weft_has_is_its_op(device):
    x, y = wf.asarray(A), wf.asarray(B)
    checked = 0
    for ufunc, name in sorted(_UFUNC_OPS.items(), key=lambda item: item[1]):
        args = (A, B)[:ufunc.nin]
        if any(a.dtype.kind != "f" for a in args) or ufunc.nin > 2:
            continue
        floats = "d" * ufunc.nin + "->"
        if name == "ldexp" or ufunc.types[0][0] in "?" or not any(
                t.startswith(floats) for t in ufunc.types):
            continue  # (integer ufuncs: in the test below)
        with np.errstate(all="ignore"):
            expected = ufunc(*args)
        got = _weft_on(device, ufunc(*(x, y)[:ufunc.nin]))
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-300,
                                   err_msg=f"numpy.{ufunc.__name__}")
        checked += 1
    assert checked >= 30


def test_every_numpy_ufunc_weft_defines_stays_on_the_device(device):
    """NumPy's ufuncs that weft defines by name but not as an op's reference (composites
    such as ``np.reciprocal``, ``np.deg2rad``; the test above checks the op table's) and
    the integer shifts give weft's lazy results with NumPy's values; ``np.power`` and
    ``np.sign`` reach their ops (their references wrap the ufuncs), with a NumPy scalar
    first too (``np.float64(2.0) ** x``); ufuncs weft lacks raise TypeError naming them."""
    import weft
    from weft.numpy_protocols import _same_named_ufuncs

    x, y = wf.asarray(A), wf.asarray(B)
    ints = RNG.integers(0, 5, (3, 4)).astype(np.int32)
    i, j = wf.asarray(ints), wf.asarray(ints % 3)
    cases = [(f"numpy.{u.__name__}", u(*(x, y)[:u.nin]), u(*(A, B)[:u.nin]))
             for u in _same_named_ufuncs() if u is not np.matmul and u.nout == 1]
    assert len(cases) >= 9
    cases += [("numpy.modf", np.modf(x)[0], np.modf(A)[0]),
              ("numpy.left_shift", np.left_shift(i, j), np.left_shift(ints, ints % 3)),
              ("numpy.right_shift", np.right_shift(i, j), np.right_shift(ints, ints % 3)),
              ("numpy.gcd", np.gcd(i - 2, j * 4), np.gcd(ints - 2, ints % 3 * 4)),
              ("numpy.lcm", np.lcm(i - 2, j * 4), np.lcm(ints - 2, ints % 3 * 4)),
              ("numpy.power", np.power(x, 2), np.power(A, 2)),
              ("numpy.sign", np.sign(x - 0.5), np.sign(A - 0.5)),
              ("a NumPy scalar ** x", np.float64(2.0) ** wf.asarray(np.arange(11.0)),
               2.0 ** np.arange(11.0))]
    wf.eval(*[got for _, got, _ in cases])
    for label, got, expected in cases:
        np.testing.assert_allclose(_weft_on(device, got), expected, rtol=1e-12, atol=1e-300,
                                   err_msg=label)
    for name in sorted(dir(np)):
        ufunc = getattr(np, name)
        if (isinstance(ufunc, np.ufunc) and name == ufunc.__name__
                and not callable(getattr(weft, name, None))):
            with pytest.raises(TypeError, match=f"numpy.{name}"):
                ufunc(*(x, y, x)[:ufunc.nin])
    with pytest.raises(TypeError, match="dtype"):
        np.reciprocal(x, dtype=np.float32)


def test_reductions_functions_and_mixed_operands(device):
    x, y = wf.asarray(A), wf.asarray(B)
    cases = [
        (np.sum(x, axis=0), A.sum(axis=0)), (np.sum(x), A.sum()),
        (np.mean(x, axis=1, keepdims=True), A.mean(axis=1, keepdims=True)),
        (np.max(x, axis=(0, 1)), A.max()), (np.prod(x, 1), A.prod(1)),
        (np.add.reduce(x, axis=1), A.sum(axis=1)), (np.maximum.reduce(x), A.max(axis=0)),
        (np.where(x > 0.5, x, y), np.where(A > 0.5, A, B)),
        (np.concatenate([x, y], axis=1), np.concatenate([A, B], axis=1)),
        (np.stack([x[0], y[0]]), np.stack([A[0], B[0]])), (np.transpose(x), A.T),
        (np.clip(x, 0.3, 0.6), np.clip(A, 0.3, 0.6)), (np.tril(x, 1), np.tril(A, 1)),
        (np.diagonal(x), np.diagonal(A)), (np.dot(x, B[0]), A @ B[0]),
        (np.outer(x[0], y[1]), np.outer(A[0], B[1])), (np.full_like(x, 2.0), np.full_like(A, 2)),
        (np.reshape(x, (4, 3)), A.reshape(4, 3)), (B + x, B + A), (x @ B.T, A @ B.T),
        (np.exp(x) * B, np.exp(A) * B),
    ]
    for got, expected in cases:
        np.testing.assert_allclose(_weft_on(device, got), expected, rtol=1e-12)
    assert np.shape(x) == (3, 4) and np.ndim(x) == 2 and np.size(x) == 12
    assert np.sum(x).shape == () and np.sum(x, dtype=np.float32).dtype == wf.float32


def test_out_takes_weft_arrays_and_nothing_else(device):
    x = wf.asarray(A)
    out = wf.zeros((3, 4))
    assert np.multiply(x, 2.0, out=out) is out
    np.testing.assert_allclose(out.to_numpy(), A * 2)
    total = wf.zeros(())
    assert np.sum(x, out=total) is total and float(total) == pytest.approx(A.sum())
    with pytest.raises(TypeError, match="out= must be a weft array"):
        np.exp(x, out=np.empty((3, 4)))


def test_what_weft_lacks_raises_naming_it(device):
    x = wf.asarray(A)
    for call, name in ((lambda: np.polyfit(x[0], x[1], 1), "numpy.polyfit"),
                       (lambda: np.subtract.accumulate(x), "numpy.subtract.accumulate"),
                       (lambda: np.extract(x > 0.5, x), "numpy.extract"),
                       (lambda: np.sum(x, initial=1.0), "initial"),
                       (lambda: np.exp(x, order="F"), "order")):
        with pytest.raises(TypeError, match=name):
            call()
    host = np.asarray(x)  # asked for: a host copy
    assert isinstance(host, np.ndarray) and np.array_equal(host, A)


def test_dask_reads_weft_arrays_through_numpy_dtypes_and_functions():
    da = pytest.importorskip("dask.array")
    x = wf.asarray(A)
    d = da.asarray(x)
    assert d.dtype == np.float64
    assert float(d.sum().compute()) == pytest.approx(A.sum())
    np.testing.assert_allclose(np.asarray(d.mean(axis=0).compute()), A.mean(axis=0))


def test_linspace_isclose_allclose_ravel_flatten_as_numpy(device):
    for args in ((0.0, 1.0, 5), (-2.0, 3.0, 7, False), (1.0, 1.0, 3), (2.0, 3.0, 1),
                 (0.0, 1.0, 0)):
        got = wf.linspace(*args, device=device)
        np.testing.assert_allclose(_weft_on(device, got), np.linspace(*args), rtol=1e-14,
                                   atol=1e-15)  # a GPU may fuse the multiply-add
    assert wf.linspace(0.0, 1.0, 3, dtype=wf.float32).dtype == wf.float32
    # Integer dtypes take the floor (NumPy 2), not C's truncation towards 0.
    for args in ((-30, 30, 1000), (-0.01, 0, 10), (2.5, -3.5, 7)):
        for dtype in (np.int32, np.int64, np.uint8):
            if dtype == np.uint8 and min(args[:2]) < 0:
                continue
            got = wf.linspace(*args, dtype=dtype, device=device)
            np.testing.assert_array_equal(_weft_on(device, got), np.linspace(*args, dtype=dtype))
    with pytest.raises(ValueError, match="num"):
        wf.linspace(0.0, 1.0, -1)
    a = np.array([1.0, np.inf, np.nan, -np.inf, 1e-9, 100.0])
    b = np.array([1.0 + 1e-9, np.inf, np.nan, np.inf, 0.0, 100.1])
    x, y = wf.asarray(a), wf.asarray(b)
    for kwargs in ({}, {"equal_nan": True}, {"rtol": 1e-2, "atol": 0.0}):
        np.testing.assert_array_equal(_weft_on(device, wf.isclose(x, y, **kwargs)),
                                      np.isclose(a, b, **kwargs))
        np.testing.assert_array_equal(_weft_on(device, np.isclose(x, y, **kwargs)),
                                      np.isclose(a, b, **kwargs))
        assert bool(wf.allclose(x, y, **kwargs)) == np.allclose(a, b, **kwargs)
    assert np.allclose(wf.asarray(A), A + 1e-12) is True
    m = wf.asarray(A)
    for got in (m.ravel(), wf.ravel(m), np.ravel(m)):
        np.testing.assert_array_equal(_weft_on(device, got), A.ravel())
    np.testing.assert_array_equal(_weft_on(device, m.T.flatten()), A.T.flatten())


def test_array_api_basics_mt_to_device_from_dlpack(device):
    m = wf.asarray(A, device=device)
    np.testing.assert_array_equal(m.mT.to_numpy(), A.T)
    with pytest.raises(ValueError, match="2 dimensions"):
        _ = m[0].mT
    assert m.to_device(device) is m
    elsewhere = m.to_device("reference" if device.kind != "reference" else wf.devices()[0])
    assert elsewhere.device is not device and np.array_equal(elsewhere.to_numpy(), A)
    with pytest.raises(TypeError, match="stream"):
        m.to_device(device, stream=1)
    got = wf.from_dlpack(np.arange(4.0), device=device)
    assert got.device is device and got.tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="DLPack"):
        wf.from_dlpack([1.0, 2.0])
