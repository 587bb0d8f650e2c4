"""Gradients (``wf.grad``, ``wf.value_and_grad``, ``wf.vjp``) against central finite
differences in float64, on every device: every op-table op with a real result (against its
NumPy/SciPy reference), broadcasting, reductions, views, ``where``, concatenation, structure,
checks, the linear algebra and the densities; traced, across threads, with failing checks.

The op sweep evaluates the ops' gradients thirty at a time, one ``wf.eval`` each (PoCL's
code generation took 22 s for one kernel of every op, 16 for three). In float32 it leaves out
the ops whose float32 forms round their float64 ones (THROUGH_DOUBLE: the float64 sweep checks
those rules) unless WEFT_TEST_PROFILE=large. test_grad_jax compares the same sweep with JAX in
one process (an xdist group), which computes it once."""

from __future__ import annotations

import functools
import os
import zlib

import numpy as np
import pytest

import weft as wf
from conftest import run_in_threads
from weft.ops import OPS
from weft.skeletons.special import THROUGH_DOUBLE

# Arguments that take integer values only: their gradient is zero (test_integer_orders...).
DISCRETE = {"polygamma": (0,), "expn": (0,), "lpmv": (0, 1), "yn": (0,)}
SKIP = {"where", "ldexp"}  # bool and int arguments: tested on their own below
SIZE = 7
SWEEP_CHUNK = 30
LARGE = os.environ.get("WEFT_TEST_PROFILE") == "large"


def _real_ops() -> list[str]:
    return sorted(name for name, op in OPS.items()
                  if not op.internal and not name.startswith("random_") and name not in SKIP
                  and "f" in op.accepts and op.rule not in ("predicate", "logical"))


def _domain(name: str, arity: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Arguments where ``name`` is smooth (away from poles, branch cuts and jumps)."""
    u = lambda lo, hi: rng.uniform(lo, hi, SIZE)  # noqa: E731
    signed = lambda: rng.choice([-1.0, 1.0], SIZE) * u(0.2, 0.9)  # noqa: E731
    special = {
        "acosh": [u(1.5, 3)], "log1m_exp": [u(-2, -0.2)], "log_diff_exp": [u(1, 2), u(-1, 0.5)],
        "lchoose": [u(5, 10), u(1, 4)], "gamma_p": [u(1, 3), u(0.5, 3)],
        "gamma_q": [u(1, 3), u(0.5, 3)], "ibeta": [u(1, 3), u(1, 3), u(0.2, 0.8)],
        "ibeta_inv": [u(1, 3), u(1, 3), u(0.2, 0.8)], "ibetac_inv": [u(1, 3), u(1, 3), u(0.2, 0.8)],
        "power": [u(0.5, 2), u(0.5, 2)], "fmod": [u(2.1, 2.9), u(0.9, 1.1)],
        "remainder": [u(2.1, 2.9), u(0.9, 1.1)], "floor_divide": [u(2.1, 2.9), u(0.9, 1.1)],
        "abs": [signed()], "sign": [signed()], "copysign": [u(0.2, 0.9), signed()],
        "maximum": [u(0, 1), u(0, 1)], "minimum": [u(0, 1), u(0, 1)],
        "fmax": [u(0, 1), u(0, 1)], "fmin": [u(0, 1), u(0, 1)], "fdim": [u(0, 1), u(0, 1)],
        "trigamma": [u(0.5, 3)], "polygamma": [rng.integers(0, 4, SIZE) * 1.0, u(0.5, 3)],
        "zeta": [u(2, 4), u(0.5, 3)], "riemann_zeta": [u(2, 4)], "zetac": [u(2, 4)],
        "expn": [rng.integers(0, 4, SIZE) * 1.0, u(0.5, 3)],
        "k0": [u(0.5, 3)], "k1": [u(0.5, 3)], "k0e": [u(0.5, 3)], "k1e": [u(0.5, 3)],
        "kv": [u(0.2, 3), u(0.5, 3)], "kve": [u(0.2, 3), u(0.5, 3)],
        "lpmv": [rng.integers(-3, 4, SIZE) * 1.0, rng.integers(3, 9, SIZE) * 1.0, u(-0.9, 0.9)],
    }
    if name in special:
        return special[name]
    if name in ("floor", "ceil", "trunc", "round", "rint"):
        return [rng.integers(-3, 3, SIZE) + u(0.1, 0.4)]
    return [u(0.2, 0.9) for _ in range(arity)]


def _finite_difference(fn, args: list[np.ndarray], k: int) -> np.ndarray:
    """d/d args[k] of sum(fn(*args)) element by element, central, in float64."""
    out = np.zeros_like(args[k])
    for i in range(args[k].size):
        h = 1e-6 * max(1.0, abs(args[k][i]))
        up, down = [a.copy() for a in args], [a.copy() for a in args]
        up[k][i] += h
        down[k][i] -= h
        out[i] = (np.sum(fn(*up)) - np.sum(fn(*down))) / (2 * h)
    return out


def op_gradients(names: list[str], dtype: str) -> tuple[np.ndarray, list[tuple]]:
    """The weights and, per op, ``(name, args in dtype, argnums, gradients)`` of
    ``sum(op(*args) * weights)`` at points of each op's domain, evaluated ``SWEEP_CHUNK``
    ops at a time."""
    rng = np.random.default_rng(3)
    weights = rng.uniform(0.5, 1.5, SIZE)
    w = wf.asarray(weights.astype(dtype))
    cases = []
    for name in names:
        op = OPS[name]
        args = [a.astype(dtype) for a in _domain(name, op.arity, rng)]
        argnums = tuple(k for k in range(op.arity) if k not in DISCRETE.get(name, ()))
        if not argnums:
            continue
        f = (lambda op_name: lambda *xs: (wf.apply_op(op_name, *xs) * w).sum())(name)
        cases.append((name, args, argnums,
                      wf.grad(f, argnums=argnums)(*[wf.asarray(a) for a in args])))
    for start in range(0, len(cases), SWEEP_CHUNK):
        wf.eval(*[g for *_, got in cases[start:start + SWEEP_CHUNK] for g in got])
    return weights, cases


@functools.cache
def op_sweep(device_name: str, dtype: str) -> tuple[np.ndarray, list[tuple]]:
    """``op_gradients`` of the real ops on the device named, once per process."""
    wide = dtype == "float64" or LARGE
    return op_gradients([n for n in _real_ops() if wide or n not in THROUGH_DOUBLE], dtype)


@pytest.mark.xdist_group("every-op-gradient-sweep")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_every_op_matches_finite_differences(device, dtype):
    weights, cases = op_sweep(str(device), dtype)
    tolerance = {"float64": (2e-6, 1e-7), "float32": (2e-3, 2e-4)}[dtype]
    for name, args, argnums, got in cases:
        op = OPS[name]
        exact = [a.astype(np.float64) for a in args]
        reference = lambda *xs, op=op: np.asarray(op.numpy(*xs), dtype=np.float64) * weights  # noqa: E731
        for k, g in zip(argnums, got):
            assert g.dtype == wf.to_dtype(dtype) and g.shape == (SIZE,)
            expected = _finite_difference(reference, exact, k)
            np.testing.assert_allclose(g.to_numpy(), expected, rtol=tolerance[0],
                                       atol=tolerance[1], err_msg=f"{name}, argument {k}")


def test_zeta_gradients_against_mpmath(device):
    """zeta's gradient in s (Hurwitz's, SciPy's domain s > 1, q > 0) and Riemann's and
    zetac's in x, through the series from -1/2 up and the reflection below it, the trivial
    zeros included, against mpmath (at 800 bits: at 120, its derivative for s = 47, q = 541
    is off by 2e-9). mpmath at that precision is most of the test's time: 60 random points
    under WEFT_TEST_PROFILE=large, 16 otherwise."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(21)
    count = 60 if LARGE else 16
    s = np.concatenate([rng.uniform(1.05, 60, count), [1.5, 2.0, 3.0, 30.0]])
    q = np.concatenate([np.exp(rng.uniform(np.log(0.05), np.log(2000), count)),
                        [1, 0.5, 7, 3]])
    x = np.concatenate([rng.uniform(-40, 40, count), [-0.6, -0.5, -0.4, 0.0, 0.5, 0.99, 1.01,
                                                     2.0, -2.0, -4.0, -1.0, -100.5]])
    ds, dq = wf.grad(lambda s, q: wf.zeta(s, q).sum(), argnums=(0, 1))(wf.asarray(s),
                                                                        wf.asarray(q))
    dx = wf.grad(lambda x: wf.zeta(x).sum())(wf.asarray(x))
    dxc = wf.grad(lambda x: wf.zetac(x).sum())(wf.asarray(x))
    with mpmath.workprec(800):
        want_s = [float(mpmath.zeta(a, b, 1)) for a, b in zip(s, q)]
        want_q = [float(-a * mpmath.zeta(a + 1, b)) for a, b in zip(s, q)]
        want_x = [float(mpmath.zeta(a, 1, 1)) for a in x]
    np.testing.assert_allclose(ds.to_numpy(), want_s, rtol=1e-13)
    np.testing.assert_allclose(dq.to_numpy(), want_q, rtol=1e-13)
    np.testing.assert_allclose(dx.to_numpy(), want_x, rtol=5e-12, atol=1e-300)
    np.testing.assert_array_equal(dxc.to_numpy(), dx.to_numpy())
    # float32: within float32's range, rounded once from double.
    s32, q32 = s.astype(np.float32), q.astype(np.float32)
    got32 = wf.grad(lambda s: wf.zeta(s, wf.asarray(q32)).sum())(wf.asarray(s32)).to_numpy()
    with mpmath.workprec(800):
        want32 = np.array([float(mpmath.zeta(float(a), float(b), 1)) for a, b in zip(s32, q32)])
    inside = np.abs(want32) < np.finfo(np.float32).max
    assert got32.dtype == np.float32 and np.all(np.isinf(got32[~inside]))
    np.testing.assert_allclose(got32[inside], want32[inside], rtol=2e-6, atol=1e-44)
    # Outside Hurwitz's domain (s < 1) the value is NaN, and so is its gradient; s = 1: a pole.
    edge = wf.grad(lambda s: wf.zeta(s, 2.0).sum())(wf.asarray([0.5, 1.0])).to_numpy()
    assert np.isnan(edge[0]) and edge[1] == -np.inf


def test_integer_orders_have_zero_gradient(device):
    from scipy import special

    n, x = np.array([1.0, 2.0]), np.array([0.7, 1.3])
    dn, dx = wf.grad(lambda n, x: wf.polygamma(n, x).sum(), argnums=(0, 1))(n, x)
    assert dn.tolist() == [0.0, 0.0]
    np.testing.assert_allclose(dx.to_numpy(), special.polygamma(n + 1, x), rtol=1e-12)


def _check(f, *args: np.ndarray, rtol: float = 1e-5, atol: float = 1e-7,
           symmetric: tuple[int, ...] = ()) -> None:
    """``wf.grad(f)`` with respect to every argument against central differences of ``f``
    itself in float64. A ``symmetric`` argument is read as symmetric (a Cholesky factor's
    input): its gradient is compared along symmetric perturbations."""
    args = [np.asarray(a, dtype=np.float64) for a in args]
    grads = wf.grad(f, argnums=tuple(range(len(args))))(*[wf.asarray(a) for a in args])
    value = lambda xs: float(f(*[wf.asarray(x) for x in xs]))  # noqa: E731
    for k, g in enumerate(grads):
        g = g.to_numpy()
        assert g.shape == args[k].shape
        expected = np.zeros_like(args[k])
        for index in np.ndindex(args[k].shape):
            step = np.zeros_like(args[k])
            step[index] = 1e-6
            if k in symmetric:
                step[index[::-1]] = 1e-6
            up, down = list(args), list(args)
            up[k], down[k] = args[k] + step, args[k] - step
            expected[index] = (value(up) - value(down)) / 2e-6
        if k in symmetric:
            g = g + g.T - np.diag(np.diag(g))
        np.testing.assert_allclose(g, expected, rtol=rtol, atol=atol, err_msg=f"argument {k}")


RNG = np.random.default_rng(11)
A = RNG.standard_normal((3, 4))
V4, B3 = RNG.standard_normal(4), RNG.standard_normal(3)
W34 = np.arange(12.0).reshape(3, 4) / 7
S = A @ A.T + 3 * np.eye(3)
W33 = np.arange(9.0).reshape(3, 3) / 5


STRUCTURAL = {
    "broadcast row": (lambda a, b: (wf.sin(a) * b).sum(), A, V4),
    "broadcast column": (lambda a, b: (wf.sin(a) * b).sum(), A, RNG.standard_normal((3, 1))),
    "broadcast 0-d": (lambda a, b: (wf.sin(a) * b).sum(), A, np.float64(0.7)),
    "sum rows": (lambda a: (wf.sum(a * a, axis=1) * wf.asarray([1.0, 2, 3])).sum(), A),
    "sum columns": (lambda a: (wf.sum(a * a, axis=0) * wf.asarray(V4)).sum(), A),
    "mean keepdims": (lambda a: wf.exp(a - a.mean(axis=1, keepdims=True)).sum(), A),
    "max columns": (lambda a: (a.max(axis=0) ** 2).sum(), A),
    "min all": (lambda a: a.min() * 3, A),
    "prod rows": (lambda a: a.prod(axis=1).sum(), A),
    "logsumexp": (lambda a: wf.logsumexp(a, axis=1).sum() + wf.logsumexp(a), A),
    "slice with steps": (lambda a: (a[1:, ::2] ** 2).sum(), A),
    "transpose": (lambda a: (a.T * wf.asarray(W34.T)).sum(), A),
    "block": (lambda a: (wf.sin(a[1:3, 1:]) * a[:2, :3]).sum(), A),
    "elements": (lambda v: wf.exp(v[0]) * v[3] + v[1] * v[1], V4),
    "row and column": (lambda a: (a[2] * a[:, 1].sum()).sum() + (a.T[1] ** 2).sum(), A),
    "transposed block": (lambda a: (a.T[1:, :2] * wf.asarray(W34.T[1:, :2])).sum(), A),
    "vector reshaped": (lambda v: (wf.sin(v.reshape(4, 1)) * v.reshape(1, 4)).sum(), V4),
    "reversed": (lambda v: (v[::-1] * wf.asarray(np.arange(4.0))).sum(), V4),
    "diagonal": (lambda a: (wf.diagonal(a) ** 3).sum(), A),
    "where": (lambda a: wf.where(a > 0, a * a, wf.sin(a)).sum(), A),
    "concatenate": (lambda a, b: (wf.concatenate([a, wf.stack([b])]) ** 2).sum(), A, V4),
    "tril": (lambda a: (wf.tril(a) * a).sum(), A),
    "evaluated midway": (lambda a: (wf.exp(a).eval() * a).sum(), A),
    "matrix @ vector": (lambda a, b: wf.sin(a @ b).sum(), A, V4),
    "matrix @ matrix": (lambda a, b: wf.sin(a @ b).sum(), A, A.T.copy()),
    "vector @ matrix": (lambda a, b: wf.sin(b @ a).sum(), A, B3),
    "dot": (lambda a, b: wf.sin(wf.linalg.dot(a, b)), V4, V4 + 1),
    "outer and trace": (lambda a, b: wf.linalg.trace(wf.linalg.outer(a, b) ** 2), B3, B3 - 1),
    "logdet": (lambda s: wf.linalg.logdet(s), S),
    "inv": (lambda s: (wf.linalg.inv(s) * wf.asarray(W33)).sum(), S),
    "solve": (lambda s, b: (wf.linalg.solve(s, b) ** 2).sum(), S, B3),
    "solve_triangular": (lambda s, b: (wf.linalg.solve_triangular(wf.tril(s), b) ** 2).sum(),
                         S, B3),
    "triinv": (lambda s: (wf.linalg.triinv(wf.tril(s)) * wf.asarray(W33)).sum(), S),
    # A view that reads each element along a whole row: the row's adjoints add up.
    "diag of a vector": (lambda v: (wf.diag(v) ** 2 * wf.asarray(W33)).sum(), B3),
}


@pytest.mark.parametrize("name", sorted(STRUCTURAL))
def test_structure_and_linear_algebra(device, name):
    f, *args = STRUCTURAL[name]
    _check(f, *args)


FACTORED = {
    "cholesky": lambda s: (wf.linalg.cholesky(s) * wf.asarray(np.tril(W33 + 1))).sum(),
    "lcholdet": lambda s: wf.linalg.lcholdet(wf.linalg.cholesky(s)),
    "cholinv": lambda s: (wf.linalg.cholinv(wf.linalg.cholesky(s)) * wf.asarray(W33)).sum(),
    "cho_solve": lambda s: (wf.linalg.cho_solve(wf.linalg.cholesky(s), wf.asarray(B3)) ** 2
                            ).sum(),
}


@pytest.mark.parametrize("name", sorted(FACTORED))
def test_cholesky_gradients_are_symmetric(device, name):
    _check(FACTORED[name], S, symmetric=(0,))


Y = RNG.uniform(0.2, 0.8, 5)
COUNTS = np.array([0, 1, 1, 0, 1])
X = RNG.standard_normal((5, 2))
DENSITIES = {
    "normal": (lambda y, mu, s: wf.stats.normal_lpdf(y, mu, s), Y, Y[::-1].copy(), Y + 1),
    "normal_id_glm": (lambda x, a, b, s: wf.stats.normal_id_glm_lpdf(wf.asarray(Y), x, a, b, s),
                      X, np.float64(0.3), np.array([0.5, -0.2]), np.float64(1.3)),
    "bernoulli_logit": (lambda t: wf.stats.bernoulli_logit_lpmf(wf.asarray(COUNTS), t), Y - 0.5),
    "bernoulli_logit_glm": (lambda x, a, b: wf.stats.bernoulli_logit_glm_lpmf(
        wf.asarray(COUNTS), x, a, b), X, np.float64(0.3), np.array([0.5, -0.2])),
    "poisson_log": (lambda a: wf.stats.poisson_log_lpmf(wf.asarray(COUNTS * 3), a), Y),
    "poisson_log_glm": (lambda x, a, b: wf.stats.poisson_log_glm_lpmf(
        wf.asarray(COUNTS * 3), x, a, b), X, np.float64(0.3), np.array([0.5, -0.2])),
    "gamma": (lambda y, a, b: wf.stats.gamma_lpdf(y, a, b), Y, Y + 1, Y + 0.5),
    "exponential": (lambda y, b: wf.stats.exponential_lpdf(y, b), Y, Y + 1),
    "student_t": (lambda y, nu, mu, s: wf.stats.student_t_lpdf(y, nu, mu, s),
                  Y, Y + 3, Y - 0.1, Y + 1),
    "beta": (lambda t, a, b: wf.stats.beta_lpdf(t, a, b), Y, Y + 1, Y + 2),
}


@pytest.mark.parametrize("name", sorted(DENSITIES))
def test_every_density_against_finite_differences(device, name):
    f, *args = DENSITIES[name]
    _check(f, *args, rtol=2e-5, atol=1e-6)


def test_repeated_calls_keep_their_gradients(device):
    # A density called again with arguments of the same structure is rebuilt from a
    # template: never for a differentiated argument, whose gradient would be lost.
    y = np.array([0.5, -1.0, 2.0])
    for mu in (0.1, 0.2, 0.3):
        g = wf.grad(lambda m: wf.stats.normal_lpdf(wf.asarray(y), m, 1.0))(wf.asarray([mu] * 3))
        np.testing.assert_allclose(g.to_numpy(), y - mu)


def test_value_and_grad_gives_both_and_argnums_shapes(device):
    y = wf.asarray([0.5, -1.0])
    value, grads = wf.value_and_grad(lambda mu, s: wf.stats.normal_lpdf(y, mu, s),
                                     argnums=(0, 1))(0.3, 1.5)
    assert isinstance(grads, tuple) and len(grads) == 2
    assert float(value) == pytest.approx(-2 * np.log(1.5) - np.log(2 * np.pi)
                                         - ((0.2 ** 2 + 1.3 ** 2) / 2 / 2.25))
    assert float(grads[0]) == pytest.approx((0.2 - 1.3) / 2.25)
    assert float(grads[1]) == pytest.approx(-2 / 1.5 + (0.04 + 1.69) / 1.5 ** 3)
    assert wf.grad(lambda mu: wf.stats.normal_lpdf(y, mu, 1.0))(0.0).shape == ()


def test_vjp_trees_and_cotangents(device):
    a, b = np.array([1.0, 2.0]), np.array([[3.0, 4.0], [5.0, 6.0]])
    value, pullback = wf.vjp(lambda p: {"s": p["a"] * p["b"], "t": p["a"].sum()},
                             {"a": wf.asarray(a), "b": wf.asarray(b)})
    (g,) = pullback({"s": wf.ones((2, 2)), "t": 2.0})
    np.testing.assert_allclose(value["s"].to_numpy(), a * b)
    np.testing.assert_allclose(g["a"].to_numpy(), b.sum(axis=0) + 2)  # a broadcast over rows
    np.testing.assert_allclose(g["b"].to_numpy(), np.broadcast_to(a, (2, 2)))
    with pytest.raises(ValueError, match="structure"):
        pullback(wf.ones((2, 2)))
    value["s"].eval()  # evaluating the value first changes nothing
    (again,) = pullback({"s": wf.ones((2, 2)), "t": 2.0})
    np.testing.assert_allclose(again["b"].to_numpy(), np.broadcast_to(a, (2, 2)))


def test_integer_arguments_and_unused_ones_get_zeros(device):
    g_int, g_unused = wf.grad(lambda n, x: (n * 2.0).sum(), argnums=(0, 1))(
        wf.asarray([1, 2], dtype=wf.int32), wf.asarray([1.0, 2.0], dtype=wf.float32))
    assert g_int.dtype == wf.int32 and g_int.tolist() == [0, 0]
    assert g_unused.dtype == wf.float32 and g_unused.tolist() == [0.0, 0.0]


def test_float32_gradients_stay_float32(device):
    x = wf.asarray(np.array([0.5, 1.5], dtype=np.float32))
    g = wf.grad(lambda x: (wf.exp(x) * 2.0).sum())(x)
    assert g.dtype == wf.float32
    np.testing.assert_allclose(g.to_numpy(), 2 * np.exp([0.5, 1.5]), rtol=1e-6)


def test_grad_needs_a_real_scalar(device):
    with pytest.raises(TypeError, match="0-d real array"):
        wf.grad(lambda x: x * 2)(wf.asarray([1.0, 2.0]))
    with pytest.raises(TypeError, match="0-d real array"):
        wf.grad(lambda x: (x > 0).all())(wf.asarray([1.0, 2.0]))
    with pytest.raises(ValueError, match="^grad: argnums 2 but f got 1"):
        wf.grad(lambda x: x.sum(), argnums=2)(wf.asarray([1.0]))
    with pytest.raises(TypeError, match=r"^value_and_grad: .*dtype int64 \(integer arguments"):
        wf.value_and_grad(lambda t: t * t)(2)


IDX = np.array([0, 2, 2, 3, 0, 0])
ROWS, COLS = np.array([2, 0, 2, 1]), np.array([3, 3, 0, 3])
GATHERS = {
    "vector, repeated indexes": (lambda v: (wf.sin(v[wf.asarray(IDX)]) *
                                            wf.asarray(np.arange(6.0))).sum(), V4),
    "rows and columns": (lambda a: (a[wf.asarray(ROWS), wf.asarray(COLS)] ** 2).sum(), A),
    "rows by index, a column slice": (lambda a: wf.exp(a[wf.asarray(IDX[:4] % 3), 1:3]).sum(),
                                      A),
    "columns by index, a row slice": (lambda a: (a[::2, wf.asarray(IDX)] ** 3).sum(), A),
    "a negative index": (lambda v: (v[wf.asarray([-1, 1, -1])] ** 2).sum(), V4),
}


@pytest.mark.parametrize("name", sorted(GATHERS))
def test_gathers_add_their_adjoints_back(device, name):
    f, *args = GATHERS[name]
    _check(f, *args)


def test_a_hierarchical_model_with_group_effects(device):
    """The common use of a gather: each observation reads its group's effect; the effects'
    gradient sums over their members, traced and untraced alike, in float32 too."""
    rng = np.random.default_rng(3)
    groups, n = 7, 500
    group = rng.integers(0, groups, n)
    y = rng.standard_normal(n) + group * 0.3
    effects0 = rng.standard_normal(groups) * 0.5
    def model(yw, gw):
        def log_density(effects, tau):
            return (wf.stats.normal_lpdf(yw, effects[gw], 1.0)
                    + wf.stats.normal_lpdf(effects, 0.0, tau))
        return log_density

    for dtype in (np.float64, np.float32):
        log_density = model(wf.asarray(y.astype(dtype)), wf.asarray(group))

        expected_effects = np.zeros(groups)
        np.add.at(expected_effects, group, y - effects0[group])
        expected_effects -= effects0 / 1.5**2
        expected_tau = -groups / 1.5 + (effects0**2).sum() / 1.5**3
        traced = wf.function(wf.value_and_grad(log_density, argnums=(0, 1)))
        for run in (wf.value_and_grad(log_density, argnums=(0, 1)), traced, traced):
            _, (g_effects, g_tau) = run(wf.asarray(effects0.astype(dtype)), 1.5)
            assert g_effects.dtype == wf.result_type(dtype)
            rtol = 1e-10 if dtype == np.float64 else 2e-4
            np.testing.assert_allclose(g_effects.to_numpy(), expected_effects, rtol=rtol,
                                       atol=rtol)
            np.testing.assert_allclose(float(g_tau), expected_tau, rtol=rtol)


def test_failed_checks_raise_from_the_gradient_too(device):
    y = wf.asarray([0.5, float("nan")])
    value, g = wf.value_and_grad(lambda mu: wf.stats.normal_lpdf(y, mu, 1.0))(0.0)
    with pytest.raises(ValueError, match="normal_lpdf"):
        float(value)
    with pytest.raises(ValueError, match="normal_lpdf"):
        float(g)
    # A differentiated float is a 0-d array: its check runs in the kernel, as for arrays.
    with pytest.raises(ValueError, match="sigma"):
        float(wf.grad(lambda s: wf.stats.normal_lpdf(wf.asarray([1.0]), 0.0, s))(-1.0))


def test_reparameterized_draws(device):
    key = wf.random.key(5)
    z = wf.random.normal(key, (64,)).to_numpy()
    g_loc, g_scale = wf.grad(lambda loc, scale: wf.random.normal(key, (64,), loc, scale).sum(),
                             argnums=(0, 1))(0.3, 2.0)
    assert float(g_loc) == pytest.approx(64)
    assert float(g_scale) == pytest.approx(z.sum(), rel=1e-10)
    with pytest.raises(NotImplementedError, match="random_gamma"):
        wf.grad(lambda a: wf.random.gamma(key, (4,), a).sum())(2.0)


def test_where_and_ldexp_arguments(device):
    x = np.array([0.5, -1.5, 2.0])
    g = wf.grad(lambda x: wf.where(x > 0, wf.ldexp(x, wf.asarray([1, 2, 3])), x * x).sum())(
        wf.asarray(x))
    np.testing.assert_allclose(g.to_numpy(), [2.0, -3.0, 8.0])


def test_traced_value_and_grad_replays_with_new_values(device):
    y = wf.asarray(np.array([0.5, -1.0, 2.0]))
    step = wf.function(wf.value_and_grad(lambda mu, s: wf.stats.normal_lpdf(y, mu, s),
                                         argnums=(0, 1)))
    for mu, s in [(0.1, 1.0), (0.7, 2.5), (-0.3, 0.5)]:
        value, (g_mu, g_s) = step(mu, s)
        r = y.to_numpy() - mu
        assert float(value) == pytest.approx(np.sum(-0.5 * (r / s) ** 2 - np.log(s)
                                                    - 0.5 * np.log(2 * np.pi)))
        assert float(g_mu) == pytest.approx(np.sum(r) / s ** 2)
        assert float(g_s) == pytest.approx(np.sum(-1 / s + r ** 2 / s ** 3))


def test_traced_gradient_of_array_arguments(device):
    f = wf.function(wf.grad(lambda x, w: (wf.sin(x) * w).sum()))
    rng = np.random.default_rng(zlib.crc32(b"traced"))
    w = wf.asarray(rng.standard_normal(50))
    for _ in range(3):
        x = rng.standard_normal(50)
        np.testing.assert_allclose(f(wf.asarray(x), w).to_numpy(),
                                   np.cos(x) * w.to_numpy(), rtol=1e-12)


def test_gradients_from_eight_threads(device):
    y = wf.asarray(np.linspace(-1, 1, 101))
    step = wf.function(wf.grad(lambda mu: wf.stats.normal_lpdf(y, mu, 1.0)))

    def work(k: int) -> None:
        with wf.device(device):  # a thread starts on the default device
            for j in range(5):
                mu = 0.1 * k + 0.01 * j
                assert float(step(mu)) == pytest.approx(np.sum(y.to_numpy() - mu))

    run_in_threads(work, 8)


def test_arguments_and_outside_arrays_are_left_alone(device):
    x = wf.asarray([1.0, 2.0])
    lazy = x * 3
    g = wf.grad(lambda v: (v * v).sum())(lazy)
    assert not lazy.is_lazy and lazy.tolist() == [3.0, 6.0]  # computed in place, same value
    assert g.tolist() == [6.0, 12.0]
    assert x.tolist() == [1.0, 2.0]


def test_a_traced_function_inside_a_gradient(device):
    inner = wf.function(lambda x: wf.sin(x) * 2.0)
    x = np.array([0.1, 0.7])
    inner(wf.asarray(x))  # traced before, outside any gradient
    g = wf.grad(lambda v: inner(v).sum())(wf.asarray(x))
    np.testing.assert_allclose(g.to_numpy(), 2 * np.cos(x))


def test_gradients_of_gradients(device):
    """Hessian-vector products as the gradient of a gradient's inner product, and second
    derivatives, against their closed forms; traced too."""
    xs, vs = np.array([0.3, -1.2, 2.0]), np.array([1.0, 0.5, -2.0])
    x, v = wf.asarray(xs), wf.asarray(vs)

    def f(x):
        return (wf.sin(x) * x * x).sum() + x.sum() ** 2

    def hvp(x, v):
        return wf.grad(lambda x: (wf.grad(f)(x) * v).sum())(x)

    hessian = np.diag(2 * np.sin(xs) + 4 * xs * np.cos(xs) - xs**2 * np.sin(xs)) + 2
    traced = wf.function(hvp)
    for run in (hvp, traced, traced):
        np.testing.assert_allclose(run(x, v).to_numpy(), hessian @ vs, rtol=1e-12)
    second = wf.grad(wf.grad(lambda t: wf.exp(t * 2.0) + t**3))(0.5)
    np.testing.assert_allclose(float(second), 4 * np.exp(1.0) + 3.0, rtol=1e-12)
    rng = np.random.default_rng(4)
    xm, ym = rng.standard_normal((30, 4)), rng.standard_normal(30)
    xw, yw = wf.asarray(xm), wf.asarray(ym)
    beta = wf.asarray(rng.standard_normal(4))

    def glm(b):
        return wf.stats.normal_id_glm_lpdf(yw, xw, 0.2, b, 1.3)

    _, pullback = wf.vjp(wf.grad(glm), beta)
    (got,) = pullback(wf.asarray(np.ones(4)))
    np.testing.assert_allclose(got.to_numpy(), -(xm.T @ xm) @ np.ones(4) / 1.3**2,
                               rtol=1e-10)
