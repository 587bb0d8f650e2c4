"""``wf.function``: traced functions replay their first call's kernels with new buffers and
float values. Each semantic test runs its body twice, through ``wf.function`` and as plain
Python (``run``), and compares with NumPy/SciPy, calling several times so that the replayed
plans, not only the traces, are checked."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.stats

import weft as wf
from conftest import run_in_threads
from weft.trace import Trace


def _replays(f) -> bool:
    """Whether ``f`` (traced) has a plan it replays (not only signatures run as Python)."""
    return any(isinstance(p, Trace) for p in f.plans.values())


@pytest.fixture(params=["traced", "plain"])
def run(request):
    """Makes a function traced (``wf.function``) or leaves it as written."""
    if request.param == "traced":
        return wf.function
    return lambda f=None, **_: f if f is not None else (lambda g: g)


def test_values_follow_new_floats_and_buffers(device, run):
    rng = np.random.default_rng(0)
    f = run(lambda a, b, c: c * (a + b))
    for c in (2.0, 3.0, -0.5, 1e300, float("inf")):
        a, b = rng.standard_normal(100), rng.standard_normal(100)
        with np.errstate(over="ignore", invalid="ignore"):
            np.testing.assert_array_equal(f(wf.asarray(a), wf.asarray(b), c).to_numpy(),
                                          c * (a + b))
    assert not hasattr(f, "plans") or _replays(f)


def test_a_float_argument_is_a_kernel_argument_not_a_retrace(device):
    f = wf.function(lambda a, c: wf.exp(c * a))
    a = wf.asarray(np.linspace(0, 1, 10))
    for c in np.linspace(0.1, 2.0, 8):
        np.testing.assert_allclose(f(a, float(c)).to_numpy(), np.exp(c * np.linspace(0, 1, 10)),
                                   rtol=1e-14)
    (plan,) = f.plans.values()  # one trace (and one check of it at the second call)
    assert plan.verified and plan.float_leaves == [1]


def test_normal_lpdf_and_its_checks(device, run):
    lp = run(lambda y, mu, sigma: wf.stats.normal_lpdf(y, mu, sigma))
    y = np.random.default_rng(1).standard_normal(1000)
    for mu, sigma in [(0.1, 1.2), (0.3, 0.7), (-2.0, 3.5), (0.0, 1e-150)]:
        np.testing.assert_allclose(float(lp(wf.asarray(y), mu, sigma)),
                                   scipy.stats.norm.logpdf(y, mu, sigma).sum(), rtol=1e-11)
    assert not hasattr(lp, "plans") or _replays(lp)
    with pytest.raises(ValueError, match="sigma must be positive and finite, got -1.0"):
        lp(wf.asarray(y), 0.1, -1.0)
    bad = y.copy()
    bad[7] = np.nan
    with pytest.raises(ValueError, match=r"y must be not NaN; y\[7\] = nan"):
        float(lp(wf.asarray(bad), 0.1, 1.0))
    np.testing.assert_allclose(float(lp(wf.asarray(y), 0.5, 2.0)),
                               scipy.stats.norm.logpdf(y, 0.5, 2.0).sum(), rtol=1e-11)


def test_trees_of_arguments_and_results(device, run):
    @run
    def f(params, data):
        mu, sigma = params["mu"], params["sigma"]
        z = (data[0] - mu) / sigma
        return {"z": z, "sums": (z.sum(), (data[1] * sigma).sum())}

    x0, x1 = np.arange(6.0), np.ones(6)
    for mu, sigma in [(1.0, 2.0), (0.5, 4.0), (-1.0, 0.25)]:
        out = f({"mu": mu, "sigma": sigma}, [wf.asarray(x0), wf.asarray(x1)])
        np.testing.assert_allclose(out["z"].to_numpy(), (x0 - mu) / sigma)
        np.testing.assert_allclose(float(out["sums"][0]), ((x0 - mu) / sigma).sum())
        np.testing.assert_allclose(float(out["sums"][1]), 6 * sigma)
    assert not hasattr(f, "plans") or _replays(f)


def test_results_are_new_values(device, run):
    """Value semantics and copy-on-write: writing into an argument after the call, or
    into the result, changes nothing else."""
    f = run(lambda x, c: x * c)
    x = wf.asarray(np.arange(4.0))
    for c in (2.0, 3.0):
        y = f(x, c)
        x += 1.0
        assert y.tolist() == [c * k for k in range(4)]
        y[0] = -1.0
        z = f(x, 1.0)
        assert z.tolist() == [1.0, 2.0, 3.0, 4.0]
        x -= 1.0


def test_aliased_arguments(device, run):
    f = run(lambda a, b: a * 2.0 + b)
    x = wf.asarray(np.arange(5.0))
    for _ in range(3):
        assert f(x, x).tolist() == [3.0 * k for k in range(5)]
        assert f(x, wf.asarray(np.ones(5))).tolist() == [2.0 * k + 1 for k in range(5)]
        assert f(x[1:], x[:-1]).tolist() == [2.0 * (k + 1) + k for k in range(4)]
    assert not hasattr(f, "plans") or (_replays(f) and len(f.plans) == 3)


def test_in_place_writes_into_arguments(device, run):
    @run
    def f(x, c):
        x[1:] = x[1:] * c
        return x.sum()

    for c in (2.0, 3.0, 4.0):
        x = wf.asarray(np.ones(4))
        total = f(x, c)
        assert x.tolist() == [1.0, c, c, c] and float(total) == 1.0 + 3 * c


def test_errors_leave_destinations_unchanged(device, run):
    @run
    def f(x, y):
        x[...] = y
        return x * 2.0

    x = wf.asarray(np.ones((2, 2)))
    for _ in range(2):
        with pytest.raises(ValueError, match=r"\(3,\).*\(2, 2\)"):
            f(x, wf.asarray([1.0, 2.0, 3.0]))
        assert x.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_closed_over_arrays_are_read_at_each_call(device, run):
    data = wf.asarray(np.arange(3.0))

    @run
    def f(c):
        return data * c

    assert f(2.0).tolist() == [0.0, 2.0, 4.0]
    data[0] = 10.0
    assert f(2.0).tolist() == [20.0, 2.0, 4.0]
    assert f(3.0).tolist() == [30.0, 3.0, 6.0]
    assert not hasattr(f, "plans") or _replays(f)


def test_data_bound_as_default_arguments(device, run):
    y = np.random.default_rng(4).standard_normal(200)
    data = wf.asarray(y)

    @run
    def lp(mu, sigma=1.5, y=data):
        return wf.stats.normal_lpdf(y, mu, sigma)

    for mu in (0.1, -0.4, 2.0):  # the defaults left out: replayed with them appended
        np.testing.assert_allclose(float(lp(mu)), scipy.stats.norm.logpdf(y, mu, 1.5).sum(),
                                   rtol=1e-12)
    np.testing.assert_allclose(float(lp(0.3, 0.5)), scipy.stats.norm.logpdf(y, 0.3, 0.5).sum(),
                               rtol=1e-12)
    other = y[::-1].copy()
    np.testing.assert_allclose(float(lp(0.3, y=wf.asarray(other), sigma=2.0)),
                               scipy.stats.norm.logpdf(other, 0.3, 2.0).sum(), rtol=1e-12)
    data[0] = 7.0  # the default array written in place: read at the next call
    y[0] = 7.0
    np.testing.assert_allclose(float(lp(0.1)), scipy.stats.norm.logpdf(y, 0.1, 1.5).sum(),
                               rtol=1e-12)
    with pytest.raises(TypeError, match="mu"):
        lp()
    assert not hasattr(lp, "plans") or _replays(lp)


def test_closed_over_global_rebound(device):
    global _DATA
    _DATA = wf.asarray(np.ones(3))
    f = wf.function(lambda c: _DATA * c)
    assert f(2.0).tolist() == [2.0] * 3
    _DATA = wf.asarray(np.full(3, 5.0))
    assert f(2.0).tolist() == [10.0] * 3
    _DATA = wf.asarray(np.full(4, 5.0))  # another shape: traced again
    assert f(2.0).tolist() == [10.0] * 4


def test_host_arithmetic_on_a_float_makes_it_static(device):
    f = wf.function(lambda x, c: x * (c * c) if c > 0 else x * 0.0)
    x = wf.asarray(np.ones(2))
    with pytest.warns(RuntimeWarning, match="float argument c .* Python arithmetic"):
        assert f(x, 2.0).tolist() == [4.0, 4.0]
    assert f(x, -1.0).tolist() == [0.0, 0.0]
    assert f(x, 3.0).tolist() == [9.0, 9.0]


def test_host_math_on_a_float_is_found_by_the_second_call(device):
    f = wf.function(lambda x, s: x * math.log(s))
    x = wf.asarray(np.ones(2))
    assert f(x, 2.0).tolist() == [math.log(2.0)] * 2
    with pytest.warns(RuntimeWarning, match="float argument s .* host Python"):
        assert f(x, 3.0).tolist() == [math.log(3.0)] * 2
    assert f(x, 4.0).tolist() == [math.log(4.0)] * 2
    assert f(x, 2.0).tolist() == [math.log(2.0)] * 2


def test_a_sign_read_by_host_math_is_found(device):
    f = wf.function(lambda x, s: x * math.copysign(2.0, s))
    x = wf.asarray([1.0])
    assert f(x, 0.0).tolist() == [2.0]
    with pytest.warns(RuntimeWarning, match="float argument s"):
        assert f(x, -0.0).tolist() == [-2.0]
    assert f(x, 0.0).tolist() == [2.0] and f(x, -0.0).tolist() == [-2.0]


def test_static_argnames_and_ints_key_by_value(device):
    @wf.function(static_argnames="power")
    def f(x, power, scale):
        return x ** power * scale

    x = wf.asarray(np.arange(4.0))
    assert f(x, 2, 1.0).tolist() == [0.0, 1.0, 4.0, 9.0]
    assert f(x, 3, 2.0).tolist() == [0.0, 2.0, 16.0, 54.0]
    assert f(x, power=2, scale=0.5).tolist() == [0.0, 0.5, 2.0, 4.5]
    assert len(f.plans) == 2
    with pytest.raises(ValueError, match="static_argnames .*'nope'"):
        wf.function(lambda x: x, static_argnames=("nope",))


def test_static_floats_keep_their_sign(device):
    f = wf.function(lambda x, s: x * s, static_argnames="s")
    x = wf.asarray([1.0, 2.0])
    assert not np.signbit(f(x, 0.0).to_numpy()).any()
    assert np.signbit(f(x, -0.0).to_numpy()).all()
    assert np.signbit(f(x, np.float64(-0.0)).to_numpy()).all()
    assert not np.signbit(f(x, np.float64(0.0)).to_numpy()).any()


def test_a_value_read_inside_runs_as_plain_python(device, run):
    @run
    def f(x):
        return x * 2.0 if float(x.sum()) > 0 else x * -1.0

    assert f(wf.asarray([1.0, 2.0])).tolist() == [2.0, 4.0]
    assert f(wf.asarray([-1.0, -2.0])).tolist() == [1.0, 2.0]
    assert f(wf.asarray([3.0, 1.0])).tolist() == [6.0, 2.0]


def test_nested_traced_functions_fuse(device):
    inner = wf.function(lambda x, c: wf.exp(x * c))
    outer = wf.function(lambda x, c: inner(x, c).sum() + c)
    x = np.linspace(0, 1, 50)
    for c in (0.5, 1.5, 2.5):
        np.testing.assert_allclose(float(outer(wf.asarray(x), c)), np.exp(x * c).sum() + c,
                                   rtol=1e-13)
    assert not inner.plans  # it ran inside outer's trace, as part of its expression
    assert len(outer.plans) == 1


def test_threads_share_a_traced_function(device):
    f = wf.function(lambda y, mu, sigma: wf.stats.normal_lpdf(y, mu, sigma))
    y = np.random.default_rng(3).standard_normal(500)

    def work(k: int) -> None:
        with wf.device(device):
            local = wf.asarray(y)
            for i in range(20):
                mu, sigma = 0.01 * (k + i), 1.0 + 0.1 * k
                want = scipy.stats.norm.logpdf(y, mu, sigma).sum()
                np.testing.assert_allclose(float(f(local, mu, sigma)), want, rtol=1e-11)

    run_in_threads(work, 8)


def test_clear_cache_and_default_real_retrace(device):
    if not device.supports_fp64:
        pytest.skip("needs float64")
    f = wf.function(lambda x, c: x + c)
    x = wf.asarray(np.ones(3, np.float32))
    f(x, 1.0)
    assert len(f.plans) == 1
    wf.clear_cache()
    assert not f.plans
    assert f(x, 0.5).dtype == wf.float32
    ints = wf.asarray([1, 2])
    g = wf.function(lambda c: ints * c)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert g(1.5).dtype == wf.float64
        wf.set_default_real(wf.float32)
        try:
            assert g(1.5).dtype == wf.float32
        finally:
            wf.set_default_real(wf.float64)
    assert g(2.5).tolist() == [2.5, 5.0]


def test_lazy_and_numpy_arguments(device, run):
    f = run(lambda x, c: x * c)
    a = np.arange(3.0)
    assert f(a, 2.0).tolist() == [0.0, 2.0, 4.0]
    assert f(wf.asarray(a) + 1, 2.0).tolist() == [2.0, 4.0, 6.0]
    assert f(a, 3.0).tolist() == [0.0, 3.0, 6.0]


def test_results_returned_unchanged_run_as_plain_python(device, run):
    f = run(lambda x, y: (x, y * 2.0))
    x = wf.asarray([1.0])
    for _ in range(2):
        same, doubled = f(x, x)
        assert same is x and doubled.tolist() == [2.0]


def test_unhashable_arguments_are_refused_by_name(device):
    f = wf.function(lambda x, opts: x)
    with pytest.raises(TypeError, match="of type set is neither"):
        f(wf.asarray([1.0]), {1, 2})


def test_the_fast_entry_steps_aside_for_every_other_signature(device):
    """After a replayed call, ``wf.function`` tries that plan's generated entry first: its
    guards must let every call of another signature through to the general path."""
    f = wf.function(lambda a, b, c: c * (a + b))
    x, y = wf.asarray(np.arange(4.0)), wf.asarray(np.ones(4))

    def want(a, b, c):
        return (c * (np.asarray(a) + np.asarray(b))).tolist()

    for c in (2.0, 2.0, 3.0, 4.0):  # replayed before and after its floats are verified
        assert f(x, y, c).tolist() == want(x, y, c)
    assert f.last is not None
    others = [
        (x, x, 2.0),  # the arrays share a buffer
        (x, y, 2),  # an int, keyed by value
        (x, np.ones(4), 2.0),  # a NumPy array
        (x[1:], y[1:], 2.0),  # other views
        (x, y.astype(wf.float32), 2.0),  # another dtype
        (x, y + 1.0, 2.0),  # a lazy argument
    ]
    for args in others:
        assert f(*args).tolist() == want(*args)
        assert f(x, y, 5.0).tolist() == want(x, y, 5.0)  # and the plan's own still replays
    with wf.config(fuse=False):
        assert f(x, y, 1.5).tolist() == want(x, y, 1.5)
    if device.supports_fp64:
        wf.set_default_real(wf.float32)
        try:
            assert f(x, y, 1.5).tolist() == want(x, y, 1.5)
        finally:
            wf.set_default_real(wf.float64)

    def other_thread(k: int) -> None:
        with wf.device(device):
            for c in (0.5, 0.25):
                assert f(x, y, c).tolist() == want(x, y, c)

    run_in_threads(other_thread, 2)
    assert f(x, y, 7.0).tolist() == want(x, y, 7.0)


def test_numpy_floats_are_run_time_values_with_numpy_types(device, run):
    """A sampler's parameters often come out of a NumPy vector (``theta[0]``, a float64
    scalar): each new value is a kernel argument, not a new trace, and keeps the strong type
    NumPy 2 gives it (float32 data times a float64 scalar is float64)."""
    if not device.supports_fp64:
        pytest.skip("needs float64")
    lp = run(lambda y, mu, sigma: wf.stats.normal_lpdf(y, mu, sigma))
    scale = run(lambda x, c: x * c)
    y = np.random.default_rng(2).standard_normal(300)
    x32 = np.linspace(-1, 1, 5, dtype=np.float32)
    thetas = np.array([[0.1, 1.2], [0.3, 0.7], [-2.0, 3.5], [0.5, 2.0]])
    for theta in thetas:
        got = float(lp(wf.asarray(y), theta[0], theta[1]))
        assert got == pytest.approx(scipy.stats.norm.logpdf(y, *theta).sum(), rel=1e-12)
        for c in (np.float64(theta[1]), np.float32(theta[1])):
            out = scale(wf.asarray(x32), c)
            assert out.dtype == (x32 * c).dtype  # float64, then float32
            np.testing.assert_array_equal(out.to_numpy(), x32 * c)
    with pytest.raises(ValueError, match=r"sigma must be positive and finite, got -1\.0$"):
        lp(wf.asarray(y), np.float64(0.0), np.float64(-1.0))
    if hasattr(lp, "plans"):  # one trace per signature, whatever the values
        assert len(lp.plans) == 1 and len(scale.plans) == 2
        assert _replays(lp) and _replays(scale)


def test_host_arithmetic_on_a_numpy_float_makes_it_static(device):
    f = wf.function(lambda x, c: x * float(c * c) if c > 0 else x * 0.0)
    x = wf.asarray(np.ones(2))
    with pytest.warns(RuntimeWarning, match="float argument c .* Python arithmetic"):
        assert f(x, np.float64(2.0)).tolist() == [4.0, 4.0]
    assert f(x, np.float64(-1.0)).tolist() == [0.0, 0.0]
    assert f(x, np.float64(3.0)).tolist() == [9.0, 9.0]


def test_lazy_arguments_are_computed_first_and_the_plan_replays(device):
    """A sampler's loop that carries its position as an expression (``theta + step * p``,
    never read itself): each call computes it in place, so the expression ends there."""
    y = wf.asarray(np.linspace(-1.0, 1.0, 50))
    value_and_grad = wf.function(wf.value_and_grad(
        lambda theta: wf.stats.normal_lpdf(y, theta[0], wf.exp(theta[1]))))
    theta, p = wf.asarray([0.1, 0.2]), wf.asarray([0.3, -0.1])
    theta_np, p_np = np.array([0.1, 0.2]), np.array([0.3, -0.1])
    for _ in range(40):
        theta = theta + p * 0.01
        theta_np = theta_np + p_np * 0.01
        lp, g = value_and_grad(theta)
        assert not theta.is_lazy  # computed in place by the call
        p = p + g * 0.001  # carried lazily from step to step
        z = (np.linspace(-1.0, 1.0, 50) - theta_np[0]) / np.exp(theta_np[1])
        g_np = np.array([z.sum() / np.exp(theta_np[1]), (z * z).sum() - 50])
        p_np = p_np + g_np * 0.001
    np.testing.assert_allclose(p.to_numpy(), p_np, rtol=1e-12)
    assert float(lp) == pytest.approx(scipy.stats.norm.logpdf(
        np.linspace(-1.0, 1.0, 50), theta_np[0], np.exp(theta_np[1])).sum(), rel=1e-12)
    assert [type(plan) for plan in value_and_grad.plans.values()] == [Trace]
