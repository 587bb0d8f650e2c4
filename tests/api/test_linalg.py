"""wf.linalg and @ against NumPy/SciPy on every device: products in every shape combination,
the Cholesky family, triangular and general solves, determinants; structure in and out;
LinAlgError and shape errors; lazy operands evaluated once."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import linalg as sla

import weft as wf
from conftest import kernel_count, launches

RNG = np.random.default_rng(2026)


def _spd(n: int, dtype=np.float64) -> np.ndarray:
    a = RNG.standard_normal((n, n))
    return (a @ a.T + n * np.eye(n)).astype(dtype)


def _tol(dtype) -> dict:
    return {"rtol": 1e-10, "atol": 1e-12} if dtype == np.float64 else {"rtol": 2e-4,
                                                                        "atol": 2e-5}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("shapes", [((5, 7), (7, 3)), ((5, 7), (7,)), ((7,), (7, 3)),
                                    ((7,), (7,)), ((1, 1), (1, 4)), ((300, 200), (200, 100))])
def test_matmul_matches_numpy(device, shapes, dtype):
    if dtype == np.float64 and not device.supports_fp64:
        pytest.skip("no float64 on this device")
    a = RNG.standard_normal(shapes[0]).astype(dtype)
    b = RNG.standard_normal(shapes[1]).astype(dtype)
    got = wf.asarray(a) @ wf.asarray(b)
    assert got.shape == np.matmul(a, b).shape and got.dtype == wf.to_dtype(dtype)
    np.testing.assert_allclose(got.to_numpy(), a @ b, **_tol(dtype))
    np.testing.assert_allclose(wf.linalg.matmul(a, wf.asarray(b)).to_numpy(), a @ b,
                               **_tol(dtype))


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_products_with_a_transposed_matrix(device, dtype):
    """x.T @ y and z @ x.T as NumPy's, for transposed buffers, transposed expressions and
    views of transposes; on OpenCL devices each is the source's reduction along the other
    axis (a walk along its rows), the same kernel as the product written out."""
    if dtype == np.float64 and not device.supports_fp64:
        pytest.skip("no float64 on this device")
    x = RNG.standard_normal((37, 300)).astype(dtype)
    y, z = RNG.standard_normal(37).astype(dtype), RNG.standard_normal(300).astype(dtype)
    wx, wy, wz = wf.asarray(x), wf.asarray(y), wf.asarray(z)
    cases = [(wx.T @ wy, x.T @ y), ((2 * wx).T @ wy, (2 * x).T @ y),
             (wz @ wx.T, z @ x.T), (wx.T @ (wy + 1), x.T @ (y + 1)),
             (wx[3:, :40].T @ wy[3:], x[3:, :40].T @ y[3:]),
             (wx.T[:40] @ wy, x.T[:40] @ y)]
    for got, want in cases:
        assert got.shape == want.shape and got.dtype == wf.to_dtype(dtype)
        np.testing.assert_allclose(got.to_numpy(), want, **_tol(dtype))
    if device.kind == "opencl":
        written_out = (wx * wy.reshape(37, 1)).sum(axis=0)
        assert wf.kernel_source(wx.T @ wy) == wf.kernel_source(written_out)


def test_integer_and_mixed_products(device):
    a = RNG.integers(-5, 5, (4, 6)).astype(np.int32)
    b = RNG.integers(-5, 5, (6, 2)).astype(np.int32)
    got = (wf.asarray(a) @ wf.asarray(b)).to_numpy()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, a @ b)
    mixed = wf.asarray(a) @ wf.asarray(b.astype(np.float32))
    assert mixed.dtype == wf.float32  # weft's promotion: int with float32 gives float32
    # Matrix-vector products keep the operands' type, as NumPy's (not a sum's int64).
    v = RNG.integers(-5, 5, 6)
    for dtype in (np.int32, np.uint32, np.bool_):
        m, w = (a % 2).astype(dtype), (v % 2).astype(dtype)
        for got, want in ((wf.asarray(m) @ wf.asarray(w), m @ w),
                          (wf.asarray(w[:4]) @ wf.asarray(m), w[:4] @ m)):
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got.to_numpy(), want)


def test_shape_errors_name_both_shapes(device):
    a, b = wf.asarray(np.ones((3, 4))), wf.asarray(np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"\(3, 4\) and \(3, 4\)"):
        a @ b
    with pytest.raises(ValueError, match=r"0-d"):
        wf.linalg.matmul(wf.asarray(2.0), a)
    with pytest.raises(ValueError, match=r"\(3, 3\) and \(2,\)"):
        wf.linalg.solve(wf.asarray(np.eye(3)), np.ones(2))
    with pytest.raises(ValueError, match=r"square matrix, got shape \(3, 4\)"):
        wf.linalg.cholesky(a)
    with pytest.raises(ValueError, match=r"\(3, 4\) and \(4, 3\)"):
        wf.linalg.frobenius(a, wf.asarray(np.ones((4, 3))))


def test_lazy_operands_are_evaluated_once(real_device):
    x = wf.asarray(RNG.standard_normal((64, 64)))
    lazy = wf.exp(x * 0.01) + 1.0
    before = launches()
    product = lazy @ lazy
    assert launches() - before == 1  # one fused kernel for the operand, then cuBLAS/LAPACK
    expected = np.exp(x.to_numpy() * 0.01) + 1.0
    np.testing.assert_allclose(product.to_numpy(), expected @ expected, rtol=1e-10)


def test_dot_inner_outer_trace_frobenius(device):
    a, b = RNG.standard_normal((4, 3)), RNG.standard_normal((5, 3))
    v, w = RNG.standard_normal(3), RNG.standard_normal(6)
    np.testing.assert_allclose(wf.linalg.dot(wf.asarray(v), v).item(), np.dot(v, v))
    np.testing.assert_allclose(wf.linalg.dot(2.0, wf.asarray(a)).to_numpy(), 2.0 * a)
    np.testing.assert_allclose(wf.linalg.dot(wf.asarray(a), v).to_numpy(), a @ v)
    np.testing.assert_allclose(wf.linalg.inner(wf.asarray(a), b).to_numpy(), np.inner(a, b))
    np.testing.assert_allclose(wf.linalg.inner(wf.asarray(v), v).item(), np.inner(v, v))
    outer = wf.linalg.outer(wf.asarray(v), wf.asarray(w))
    np.testing.assert_allclose(outer.to_numpy(), np.outer(v, w))
    m = RNG.standard_normal((6, 6))
    np.testing.assert_allclose(wf.linalg.trace(wf.asarray(m)).item(), np.trace(m))
    np.testing.assert_allclose(wf.linalg.frobenius(wf.asarray(m)).item(), np.sum(m * m))
    np.testing.assert_allclose(wf.linalg.frobenius(wf.asarray(a), a).item(), np.sum(a * a))


def test_outer_trace_and_frobenius_fuse(real_device):
    v = wf.asarray(RNG.standard_normal(50))
    expr = wf.exp(wf.linalg.outer(v, v)) * 2
    assert kernel_count(wf.kernel_source(expr)) == 1
    m = wf.asarray(RNG.standard_normal((40, 40)))
    assert kernel_count(wf.kernel_source(wf.linalg.frobenius(m * 2))) <= 2  # one reduction


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
def test_cholesky_family(device, dtype):
    if dtype == np.float64 and not device.supports_fp64:
        pytest.skip("no float64 on this device")
    s = _spd(30, dtype)
    b = RNG.standard_normal((30, 4)).astype(dtype)
    factor = wf.linalg.cholesky(wf.asarray(s))
    assert factor.structure == "lower" and factor.dtype == wf.to_dtype(dtype)
    expected = np.linalg.cholesky(s.astype(np.float64))
    np.testing.assert_allclose(factor.to_numpy(), expected, **_tol(dtype))
    np.testing.assert_allclose(wf.linalg.cho_solve(factor, wf.asarray(b)).to_numpy(),
                               np.linalg.solve(s.astype(np.float64), b), **_tol(dtype))
    np.testing.assert_allclose(wf.linalg.cholinv(factor).to_numpy(),
                               np.linalg.inv(s.astype(np.float64)), **_tol(dtype))
    np.testing.assert_allclose(wf.linalg.lcholdet(factor).item(),
                               np.linalg.slogdet(s.astype(np.float64))[1], **_tol(dtype))
    # The structure is read: no lower= needed.
    np.testing.assert_allclose(wf.linalg.solve_triangular(factor, wf.asarray(b)).to_numpy(),
                               sla.solve_triangular(expected, b, lower=True), **_tol(dtype))


def test_not_positive_definite_raises_and_loses_nothing(device):
    s = np.array([[1.0, 2.0], [2.0, 1.0]])
    x = wf.asarray(s)
    with pytest.raises(wf.linalg.LinAlgError, match="not positive definite"):
        wf.linalg.cholesky(x)
    np.testing.assert_array_equal(x.to_numpy(), s)
    with pytest.raises(wf.linalg.LinAlgError):
        wf.linalg.cholesky(wf.asarray([[1.0, np.nan], [np.nan, 1.0]]))
    assert issubclass(wf.linalg.LinAlgError, ValueError)


def test_triangular_solves_and_inverses(device):
    m = RNG.standard_normal((8, 8)) + 8 * np.eye(8)
    b = RNG.standard_normal(8)
    lower, upper = wf.tril(wf.asarray(m)), wf.triu(wf.asarray(m))
    np.testing.assert_allclose(wf.linalg.solve_triangular(lower, b).to_numpy(),
                               sla.solve_triangular(np.tril(m), b, lower=True), rtol=1e-10)
    np.testing.assert_allclose(wf.linalg.solve_triangular(upper, b).to_numpy(),
                               sla.solve_triangular(np.triu(m), b, lower=False), rtol=1e-10)
    np.testing.assert_allclose(
        wf.linalg.solve_triangular(wf.asarray(np.tril(m)), b, lower=True).to_numpy(),
        sla.solve_triangular(np.tril(m), b, lower=True), rtol=1e-10)
    with pytest.raises(ValueError, match="no triangular structure"):
        wf.linalg.solve_triangular(wf.asarray(m), b)
    inverse = wf.linalg.triinv(upper)
    assert inverse.structure == "upper"
    np.testing.assert_allclose(inverse.to_numpy(), np.linalg.inv(np.triu(m)), rtol=1e-10,
                               atol=1e-14)
    singular = np.tril(m)
    singular[3, 3] = 0
    with pytest.raises(wf.linalg.LinAlgError, match="singular"):
        wf.linalg.triinv(wf.tril(wf.asarray(singular)))


def test_general_solve_inverse_and_logdet(device):
    a = RNG.standard_normal((12, 12))
    b = RNG.standard_normal((12, 3))
    np.testing.assert_allclose(wf.linalg.solve(wf.asarray(a), b).to_numpy(),
                               np.linalg.solve(a, b), rtol=1e-9)
    np.testing.assert_allclose(wf.linalg.inv(wf.asarray(a)).to_numpy(), np.linalg.inv(a),
                               rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(wf.linalg.logdet(wf.asarray(a)).item(),
                               np.linalg.slogdet(a)[1], rtol=1e-12)
    singular = np.ones((3, 3))
    with pytest.raises(wf.linalg.LinAlgError, match="singular"):
        wf.linalg.solve(wf.asarray(singular), np.ones(3))
    with pytest.raises(wf.linalg.LinAlgError, match="singular"):
        wf.linalg.inv(wf.asarray(singular))
    assert wf.linalg.logdet(wf.asarray(np.zeros((2, 2)))).item() == -np.inf
    ints = wf.linalg.inv(wf.asarray(np.array([[2, 0], [0, 4]], dtype=np.int32)))
    assert ints.dtype == wf.default_real()


def test_logdet_is_a_0d_array_feeding_later_kernels(device):
    s = _spd(6)
    x = wf.asarray(RNG.standard_normal(5))
    value = wf.linalg.logdet(wf.asarray(s))
    assert value.shape == () and value.ndim == 0
    np.testing.assert_allclose((x * 0 + value).to_numpy(),
                               np.full(5, np.linalg.slogdet(s)[1]), rtol=1e-12)


def test_host_library_operands_are_read_where_they_lie(device):
    """On a CPU device the host's LAPACK reads an operand's buffer mapped, not copied: its
    checks still raise first, the mapping is given back (later writes land), and the same
    buffer read twice (z.T @ z) is mapped once."""
    rng = np.random.default_rng(8)
    a_np = rng.standard_normal((50, 6))
    a = wf.asarray(a_np)
    np.testing.assert_allclose((a.T @ a).to_numpy(), a_np.T @ a_np, rtol=1e-12)
    a += 1.0  # a kernel writes the buffer the product read
    np.testing.assert_allclose((a.T @ a).to_numpy(), (a_np + 1).T @ (a_np + 1), rtol=1e-12)
    bad = wf.check(a, a < 0, "a must be negative; a{index} = {value}")
    with pytest.raises(ValueError, match="a must be negative"):
        wf.linalg.matmul(bad.T, bad).eval()
    a[0, 0] = 5.0  # still writable after the failed call
    assert a[0, 0].item() == 5.0
    if device.kind == "opencl" and device.handle.is_cpu:
        s = wf.asarray(a_np.T @ a_np)
        mapped = []
        real = device.backend.map_for_reading

        def counting(storage):
            mapped.append(storage)
            return real(storage)

        device.backend.map_for_reading = counting
        try:
            np.testing.assert_allclose(wf.linalg.cholesky(s).to_numpy(),
                                       np.linalg.cholesky(a_np.T @ a_np), rtol=1e-10)
        finally:
            del device.backend.map_for_reading
        assert mapped == [s._node.attrs.storage]


def test_library_decompositions_match_numpy(device):
    """eigh, eigvalsh, svd, svdvals, qr, pinv and matrix_rank from the device's library, and
    det, slogdet and matrix_power from weft's pieces, against NumPy; results on the device,
    in the operand's type (integers in the default real)."""
    for dtype in ([np.float64, np.float32] if device.supports_fp64 else [np.float32]):
        tol = _tol(dtype) if dtype == np.float64 else {"rtol": 1e-4, "atol": 1e-4}
        a = RNG.standard_normal((6, 4)).astype(dtype)
        s = _spd(4, dtype)
        wa, ws = wf.asarray(a), wf.asarray(s)
        w, v = wf.linalg.eigh(ws)
        assert w.device is device and w.dtype == wf.to_dtype(dtype)
        np.testing.assert_allclose(w.to_numpy(), np.linalg.eigvalsh(s), **tol)
        np.testing.assert_allclose((v.to_numpy() * w.to_numpy()) @ v.to_numpy().T, s,
                                   rtol=1e-4 if dtype == np.float32 else 1e-10, atol=1e-3)
        np.testing.assert_allclose(wf.linalg.eigvalsh(ws).to_numpy(), np.linalg.eigvalsh(s),
                                   **tol)
        for full in (True, False):
            u, sv, vh = wf.linalg.svd(wa, full_matrices=full)
            want = np.linalg.svd(a, full_matrices=full)
            assert (u.shape, sv.shape, vh.shape) == tuple(x.shape for x in want)
            k = sv.shape[0]
            np.testing.assert_allclose((u.to_numpy()[:, :k] * sv.to_numpy()) @ vh.to_numpy()[:k],
                                       a, **tol)
        np.testing.assert_allclose(wf.linalg.svdvals(wa).to_numpy(),
                                   np.linalg.svd(a, compute_uv=False), **tol)
        for mode in ("reduced", "complete"):
            q, r = wf.linalg.qr(wa, mode=mode)
            assert q.shape == np.linalg.qr(a, mode=mode)[0].shape
            np.testing.assert_allclose(q.to_numpy() @ r.to_numpy(), a, **tol)
            assert np.allclose(np.tril(r.to_numpy(), -1), 0)
        np.testing.assert_allclose(wf.linalg.pinv(wa).to_numpy(), np.linalg.pinv(a),
                                   rtol=1e-3 if dtype == np.float32 else 1e-10, atol=1e-5)
        rank_two = a[:, :2] @ a[:2, :]
        assert int(wf.linalg.matrix_rank(wf.asarray(rank_two))) == 2
        np.testing.assert_allclose(float(wf.linalg.det(ws)), np.linalg.det(s), rtol=1e-5)
        sign, logabs = wf.linalg.slogdet(wf.asarray(-s))
        assert float(sign) == np.linalg.slogdet(-s)[0]
        np.testing.assert_allclose(float(logabs), np.linalg.slogdet(s)[1], rtol=1e-6)
        for n in (-2, 0, 1, 3):
            np.testing.assert_allclose(wf.linalg.matrix_power(ws, n).to_numpy(),
                                       np.linalg.matrix_power(s.astype(np.float64), n),
                                       rtol=1e-4 if dtype == np.float32 else 1e-10)
    assert wf.linalg.eigvalsh(wf.asarray(np.eye(2, dtype=np.int32))).dtype == wf.default_real()


def test_decomposition_errors_and_gradients(device):
    """Shapes and arguments are checked by name; det and slogdet are differentiable, the
    library decompositions say that they are not."""
    with pytest.raises(ValueError, match=r"eigh: expected a square matrix, got shape \(2, 3\)"):
        wf.linalg.eigh(wf.asarray(np.ones((2, 3))))
    with pytest.raises(ValueError, match="expected a matrix"):
        wf.linalg.svd(wf.asarray(np.ones(3)))
    with pytest.raises(ValueError, match="mode"):
        wf.linalg.qr(wf.asarray(np.eye(2)), mode="raw")
    with pytest.raises(TypeError, match="integer"):
        wf.linalg.matrix_power(wf.asarray(np.eye(2)), 1.5)
    s = _spd(3)
    got = wf.grad(lambda x: wf.linalg.det(x))(wf.asarray(s)).to_numpy()
    np.testing.assert_allclose(got, np.linalg.det(s) * np.linalg.inv(s).T, rtol=1e-10)
    for name in ("svdvals", "eigvalsh", "pinv"):
        fn = getattr(wf.linalg, name)
        with pytest.raises(NotImplementedError, match=f"gradient of wf.linalg.{name}"):
            wf.grad(lambda x, fn=fn: fn(x).sum())(wf.asarray(s))
