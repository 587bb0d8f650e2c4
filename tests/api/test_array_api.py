"""The array API namespace (API.md 14): x.__array_namespace__() against NumPy 2's own
implementation of the 2023.12 standard, and one function written once for both."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

RNG = np.random.default_rng(31)
A = RNG.standard_normal((4, 5))
TIES = np.array([[2.0, 1.0, 2.0, 0.5], [1.0, 1.0, 3.0, 3.0]])


def _standardize(x):
    """Written against the standard only: runs on NumPy arrays and on weft arrays."""
    xp = x.__array_namespace__()
    centered = x - xp.mean(x, axis=0)
    return centered / xp.std(x, axis=0, correction=1)


def test_one_function_runs_on_numpy_and_weft_arrays(device):
    got = _standardize(wf.asarray(A))
    assert isinstance(got, wf.Array) and got.device is device
    np.testing.assert_allclose(got.to_numpy(), _standardize(A), rtol=1e-12)


def test_the_namespace_matches_numpys(device):
    x, ties = wf.asarray(A), wf.asarray(TIES)
    xp = x.__array_namespace__()
    assert xp.__array_api_version__ == "2023.12" and xp.float64 == np.float64
    pairs = [
        (xp.concat([x, x], axis=1), np.concat([A, A], axis=1)),
        (xp.concat([x, x], axis=None), np.concat([A, A], axis=None)),
        (xp.permute_dims(x, (1, 0)), np.permute_dims(A, (1, 0))),
        (xp.matrix_transpose(x), np.matrix_transpose(A)),
        (xp.cumulative_sum(x, axis=1, include_initial=True),
         np.cumulative_sum(A, axis=1, include_initial=True)),
        (xp.cumulative_sum(x[0]), np.cumulative_sum(A[0])),
        (np.cumulative_sum(x, axis=0, include_initial=True),
         np.cumulative_sum(A, axis=0, include_initial=True)),
        (xp.vecdot(x, x, axis=0), np.vecdot(A, A, axis=0)),
        (xp.var(x, axis=1, correction=1), np.var(A, axis=1, correction=1)),
        (xp.sort(ties, axis=1, descending=True), -np.sort(-TIES, axis=1, stable=True)),
        (xp.argsort(ties, axis=1, descending=True), np.argsort(-TIES, axis=1, stable=True)),
        (xp.argsort(ties, axis=0, descending=True), np.argsort(-TIES, axis=0, stable=True)),
        (xp.expand_dims(x[0], axis=0), np.expand_dims(A[0], axis=0)),
        (xp.expand_dims(x[0], axis=-1), np.expand_dims(A[0], axis=-1)),
        (xp.squeeze(x[0:1], axis=0), np.squeeze(A[0:1], axis=0)),
        (xp.flip(x, axis=1), np.flip(A, axis=1)), (xp.flip(x), np.flip(A)),
        (xp.astype(x, xp.float32), np.astype(A, np.float32)),
        (xp.reshape(x, (5, 4)), np.reshape(A, (5, 4))),
        (xp.acos(xp.clip(x, -1, 1)), np.acos(np.clip(A, -1, 1))),
        (xp.pow(x, 2), np.pow(A, 2)),
        (xp.nonzero(x > 0)[1], np.nonzero(A > 0)[1]),
    ]
    for k, (got, expected) in enumerate(pairs):
        assert isinstance(got, wf.Array), k
        assert got.shape == expected.shape and got.dtype == expected.dtype, k
        np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-12, err_msg=str(k))


def test_dtype_functions_match_numpys():
    xp = wf.asarray(A).__array_namespace__()
    for dtype in (xp.bool, xp.int32, xp.int64, xp.uint32, xp.float32, xp.float64):
        for kind in ("bool", "signed integer", "unsigned integer", "integral",
                     "real floating", "complex floating", "numeric", xp.float32):
            assert xp.isdtype(dtype, kind) == np.isdtype(dtype.numpy, getattr(
                kind, "numpy", kind)), (dtype, kind)
        for to in (xp.int64, xp.float32, xp.float64):
            assert xp.can_cast(dtype, to) == np.can_cast(dtype.numpy, to.numpy), (dtype, to)
    assert xp.finfo(xp.float32).eps == np.finfo(np.float32).eps
    assert xp.iinfo(xp.int64).max == np.iinfo(np.int64).max
    with pytest.raises(ValueError, match="2023.12"):
        wf.asarray(A).__array_namespace__(api_version="2021.12")
    with pytest.raises(ValueError, match="kind"):
        xp.isdtype(xp.float32, "floating")
    assert not hasattr(xp, "fft")  # what weft lacks is absent, not a stub


def test_inspection_and_copy_follow_the_standard(device):
    xp = wf.asarray(A).__array_namespace__()
    info = xp.__array_namespace_info__()
    assert info.default_device() is device and device in info.devices()
    assert info.capabilities()["boolean indexing"] and info.capabilities()["max dimensions"] == 2
    assert info.default_dtypes()["real floating"] == wf.float64
    assert info.default_dtypes()["integral"] == np.int64
    expected = {"float32", "float64"} if device.supports_fp64 else {"float32"}
    assert set(info.dtypes(kind="real floating")) == expected
    assert set(info.dtypes(kind="integral")) == {"int32", "int64", "uint32"}
    assert set(info.dtypes()) == expected | {"bool", "int32", "int64", "uint32"}
    # copy=: True copies (later writes to the source leave it), False never does.
    x = xp.asarray(A)
    assert xp.asarray(x, copy=False) is x and xp.asarray(x) is x
    copied = xp.asarray(x, copy=True)
    x += 1.0
    np.testing.assert_array_equal(copied.to_numpy(), A)
    np.testing.assert_array_equal(x.to_numpy(), A + 1.0)
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(A, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(x, dtype=xp.float32, copy=False)
    # A real correction, as the standard's var and std take it (NumPy's float ddof).
    np.testing.assert_allclose(xp.var(x, axis=0, correction=0.5).to_numpy(),
                               np.var(A + 1.0, axis=0, ddof=0.5), rtol=1e-12)
    with pytest.raises(TypeError, match="ddof"):
        wf.var(x, ddof=True)
    # Python's scalar conversions, complex() too (the standard's __complex__).
    assert complex(xp.asarray(2.5)) == 2.5 + 0j and float(xp.asarray([1.5])) == 1.5
    with pytest.raises(TypeError, match="size 1"):
        complex(xp.asarray([1.0, 2.0]))


def test_vecdot_keeps_the_promoted_type_and_checks_its_axis(device):
    xp = wf.asarray(A).__array_namespace__()
    u = np.array([[1, 2], [3, 4]], dtype=np.uint32)
    got = xp.vecdot(xp.asarray(u), xp.asarray(u))
    assert got.dtype == np.uint32 and got.tolist() == [5, 25]
    np.testing.assert_allclose(xp.vecdot(xp.asarray(A), xp.asarray(A[0]), axis=-1).to_numpy(),
                               np.linalg.vecdot(A, A[0]))
    with pytest.raises(ValueError, match="differ along axis"):
        xp.vecdot(xp.asarray(u), xp.asarray(np.ones(3, np.uint32)))


def test_the_linalg_extension(device):
    """xp.linalg: the standard's signatures over weft's linear algebra, against NumPy."""
    rng = np.random.default_rng(5)
    a = rng.standard_normal((5, 3))
    s = a.T @ a + np.eye(3)
    xp = wf.asarray(a).__array_namespace__()
    la = xp.linalg
    wa, ws = xp.asarray(a), xp.asarray(s)
    np.testing.assert_allclose(la.cholesky(ws, upper=True).to_numpy(),
                               np.linalg.cholesky(s).T, rtol=1e-10)
    for order in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        np.testing.assert_allclose(la.matrix_norm(wa, ord=order).item(),
                                   np.linalg.norm(a, ord=order), rtol=1e-10)
    assert la.matrix_norm(wa, keepdims=True).shape == (1, 1)
    np.testing.assert_allclose(la.vector_norm(wa).item(), np.linalg.norm(a.ravel()))
    np.testing.assert_allclose(la.vector_norm(wa, axis=0, ord=3).to_numpy(),
                               np.linalg.norm(a, ord=3, axis=0), rtol=1e-12)
    assert la.vector_norm(wa, keepdims=True).shape == (1, 1)
    np.testing.assert_allclose(la.cross(wa, xp.asarray(a[::-1])).to_numpy(),
                               np.cross(a, a[::-1]), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="not 3"):
        la.cross(xp.asarray(np.ones(2)), xp.asarray(np.ones(2)))
    assert la.trace(ws, offset=1).item() == pytest.approx(np.trace(s, offset=1))
    np.testing.assert_array_equal(la.diagonal(ws, offset=-1).to_numpy(), np.diagonal(s, -1))
    q, r = la.qr(wa)
    np.testing.assert_allclose(q.to_numpy() @ r.to_numpy(), a, atol=1e-12)
    assert la.svd(wa, full_matrices=False).U.shape == (5, 3)
    assert la.eigh(ws).eigenvalues.shape == (3,) and la.slogdet(ws).sign.item() == 1.0
    assert int(la.matrix_rank(wa)) == 3
    for name in ("inv", "solve", "matmul", "outer", "tensordot", "vecdot", "matrix_transpose",
                 "det", "pinv", "svdvals", "eigvalsh", "matrix_power"):
        assert callable(getattr(la, name)), name


def test_clip_diff_and_take_along_axis_take_the_standards_signatures(device):
    xp = wf.asarray([1.0]).__array_namespace__()
    x = xp.asarray([1.0, 5.0, -3.0, 2.5])
    assert xp.clip(x, min=0.0, max=2.0).tolist() == [1.0, 2.0, 0.0, 2.0]
    assert xp.clip(x, max=2.0).tolist() == [1.0, 2.0, -3.0, 2.0]
    assert xp.clip(x).tolist() == x.tolist()
    assert xp.diff(x).tolist() == [4.0, -8.0, 5.5]
    assert xp.diff(x, n=2, prepend=xp.asarray([0.0])).tolist() == [3.0, -12.0, 13.5]
    m = xp.asarray([[3, 1, 2], [0, 5, 4]])
    assert xp.take_along_axis(m, xp.argsort(m, axis=1), axis=1).tolist() == [[1, 2, 3],
                                                                             [0, 4, 5]]
