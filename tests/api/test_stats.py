"""wf.stats against scipy.stats on every device: each density with arrays and scalars in every
position, broadcasting, float32, the GLMs on both product paths, edge values, every bad
argument (on the host for scalars, in the kernel for arrays, naming argument, index and value),
and fusion (kernel counts)."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
from scipy import stats as st
from scipy.special import expit

import weft as wf
from conftest import kernel_count

RNG = np.random.default_rng(7)
N = 257  # not a multiple of any work-group size


def _draw(kind: str, shape: tuple[int, ...]) -> np.ndarray:
    """Values valid for an argument of ``kind``."""
    draws = {
        "real": lambda: RNG.normal(0.0, 2.0, shape),
        "positive": lambda: RNG.uniform(0.3, 3.0, shape),
        "unit": lambda: RNG.uniform(0.02, 0.98, shape),
        "binary": lambda: RNG.integers(0, 2, shape),
        "count": lambda: RNG.integers(0, 12, shape),
        "logit": lambda: RNG.normal(0.0, 3.0, shape),
        "lograte": lambda: RNG.normal(0.5, 1.0, shape),
        "trials": lambda: RNG.integers(12, 30, shape),  # at least every "count"
        "low": lambda: RNG.uniform(-3.0, -1.0, shape),
        "high": lambda: RNG.uniform(1.0, 3.0, shape),
    }
    return draws[kind]()


# name: (argument kinds, scipy reference over NumPy arrays)
DENSITIES = {
    "normal_lpdf": (("real", "real", "positive"), lambda y, m, s: st.norm.logpdf(y, m, s)),
    "bernoulli_logit_lpmf": (("binary", "logit"),
                             lambda n, t: st.bernoulli.logpmf(n, expit(t))),
    "poisson_log_lpmf": (("count", "lograte"), lambda n, a: st.poisson.logpmf(n, np.exp(a))),
    "gamma_lpdf": (("positive", "positive", "positive"),
                   lambda y, a, b: st.gamma.logpdf(y, a, scale=1 / b)),
    "exponential_lpdf": (("positive", "positive"),
                         lambda y, b: st.expon.logpdf(y, scale=1 / b)),
    "student_t_lpdf": (("real", "positive", "real", "positive"),
                       lambda y, nu, m, s: st.t.logpdf(y, nu, m, s)),
    "beta_lpdf": (("unit", "positive", "positive"), lambda t, a, b: st.beta.logpdf(t, a, b)),
}
# which arguments are arrays (1) or Python scalars (0), per pattern
PATTERNS = ["all arrays", "first array", "all scalars", "last array", "0-d arrays"]


def _tol(dtype) -> dict:
    return {"rtol": 1e-11, "atol": 1e-9} if dtype == np.float64 else {"rtol": 2e-5,
                                                                       "atol": 2e-3}


def _arguments(kinds: tuple[str, ...], pattern: str, dtype) -> tuple[list, list]:
    """(weft arguments, NumPy float64 arguments) for one call."""
    weft_args, ref_args = [], []
    for i, kind in enumerate(kinds):
        is_array = {"all arrays": True, "first array": i == 0, "all scalars": False,
                    "last array": i == len(kinds) - 1, "0-d arrays": True}[pattern]
        shape = () if pattern == "0-d arrays" else (N,)
        value = _draw(kind, shape)
        integral = kind in ("binary", "count", "trials")
        if is_array:
            host = value if integral else value.astype(dtype)
            weft_args.append(wf.asarray(host))
            ref_args.append(np.asarray(host, dtype=np.float64))
        else:
            scalar = value.flat[0] if value.ndim else value
            scalar = int(scalar) if integral else float(np.asarray(scalar, dtype=dtype))
            weft_args.append(scalar)
            ref_args.append(np.float64(scalar))
    return weft_args, ref_args


LARGE = os.environ.get("WEFT_TEST_PROFILE") == "large"
# float64 in every pattern of arguments; float32 with every argument an array (each case
# builds its own density kernel), and in every pattern under WEFT_TEST_PROFILE=large.
CASES = [(name, pattern, dtype) for name in DENSITIES for pattern in PATTERNS
         for dtype in (np.float64, np.float32)
         if dtype == np.float64 or pattern == "all arrays" or LARGE]


@pytest.mark.parametrize(
    "name, pattern, dtype", CASES,
    ids=[f"{n}-{p}-{'f64' if d == np.float64 else 'f32'}" for n, p, d in CASES])
def test_density_matches_scipy(device, name, pattern, dtype):
    check_density(device, DENSITIES[name], name, pattern, dtype)


def check_density(device, case, name: str, pattern: str, dtype) -> None:
    """One density's value against SciPy's: ``case`` is (argument kinds, reference)."""
    if dtype == np.float64 and not device.supports_fp64:
        pytest.skip("no float64 on this device")
    kinds, reference = case
    weft_args, ref_args = _arguments(kinds, pattern, dtype)
    got = getattr(wf.stats, name)(*weft_args, dtype=None if pattern != "all scalars" else dtype)
    assert got.shape == () and got.is_lazy
    want = np.broadcast_to(reference(*ref_args), np.broadcast(*ref_args).shape).sum()
    if dtype == np.float32 and pattern != "all scalars" and any(
            isinstance(a, wf.Array) and a.dtype.is_float for a in weft_args):
        assert got.dtype == wf.float32
    np.testing.assert_allclose(got.to_numpy(), want, **_tol(dtype))


def test_broadcasting_in_two_dimensions(device):
    y = RNG.normal(size=(40, 30))
    mu = RNG.normal(size=(1, 30))
    sigma = RNG.uniform(0.5, 2.0, size=(40, 1))
    got = wf.stats.normal_lpdf(wf.asarray(y), wf.asarray(mu), wf.asarray(sigma))
    np.testing.assert_allclose(float(got), st.norm.logpdf(y, mu, sigma).sum(), rtol=1e-12)
    # a scalar-only term still counts once per element of the broadcast shape
    got = wf.stats.student_t_lpdf(wf.asarray(y), 4.0, 0.5, wf.asarray(sigma))
    np.testing.assert_allclose(float(got), st.t.logpdf(y, 4.0, 0.5, sigma).sum(), rtol=1e-12)


def test_integer_arguments_give_the_default_real(device):
    got = wf.stats.poisson_log_lpmf(wf.asarray(np.array([0, 1, 5], dtype=np.int32)), 1)
    assert got.dtype == wf.default_real()
    np.testing.assert_allclose(float(got), st.poisson.logpmf([0, 1, 5], np.e).sum(),
                               rtol=1e-12)
    got = wf.stats.normal_lpdf(wf.asarray([1, 2, 3]), 2, 1)
    assert got.dtype == wf.default_real()
    np.testing.assert_allclose(float(got), st.norm.logpdf([1, 2, 3], 2, 1).sum(), rtol=1e-12)


def test_explicit_dtype_is_the_computation_type(device):
    y = RNG.normal(size=N)
    got = wf.stats.normal_lpdf(wf.asarray(y), 0.0, 1.0, dtype=wf.float32)
    assert got.dtype == wf.float32
    np.testing.assert_allclose(float(got), st.norm.logpdf(y.astype(np.float32)).sum(),
                               rtol=2e-5)
    with pytest.raises(TypeError, match="dtype must be a floating type"):
        wf.stats.normal_lpdf(wf.asarray(y), 0.0, 1.0, dtype=wf.int32)


def test_edge_values_match_scipy(device):
    cases = [
        (wf.stats.poisson_log_lpmf, ([0, 0, 3], [-np.inf, 1.0, 1.0]),
         lambda n, a: st.poisson.logpmf(n, np.exp(a))),
        (wf.stats.poisson_log_lpmf, ([2], [-np.inf]), lambda n, a: st.poisson.logpmf(n, 0.0)),
        (wf.stats.gamma_lpdf, ([0.0, 0.0, -1.0], [1.0, 2.0, 2.0], [2.0, 2.0, 2.0]),
         lambda y, a, b: st.gamma.logpdf(y, a, scale=1 / b)),
        (wf.stats.gamma_lpdf, ([0.0, 1.0], [0.5, 0.5], [2.0, 2.0]),
         lambda y, a, b: st.gamma.logpdf(y, a, scale=1 / b)),
        (wf.stats.exponential_lpdf, ([0.0, -0.5, 3.0], [2.0, 2.0, 2.0]),
         lambda y, b: st.expon.logpdf(y, scale=1 / b)),
        (wf.stats.beta_lpdf, ([0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 2.0, 0.5], [1.0, 1.0, 0.5, 2.0]),
         lambda t, a, b: st.beta.logpdf(t, a, b)),
        (wf.stats.bernoulli_logit_lpmf, ([1, 0, 1], [40.0, -40.0, 0.0]),
         lambda n, t: np.where(n == 1, -np.log1p(np.exp(-t)), -np.log1p(np.exp(t)))),
        (wf.stats.normal_lpdf, ([np.inf, 0.0], [0.0, 0.0], [1.0, 1.0]),
         lambda y, m, s: st.norm.logpdf(y, m, s)),
    ]
    check_edges(cases)
    # a logit far out: no overflow where expit would round to 1
    got = float(wf.stats.bernoulli_logit_lpmf(wf.asarray([0]), wf.asarray([800.0])))
    assert got == -800.0


def check_edges(cases: list) -> None:
    """Each (density, argument lists, reference): the density's sum as SciPy's, exactly
    where that is infinite (all evaluated together: their sums share kernels)."""
    values = wf.eval(*[density(*(wf.asarray(a) for a in args)) for density, args, _ in cases])
    for (density, args, reference), value in zip(cases, values):
        want = reference(*(np.asarray(a, dtype=float) for a in args)).sum()
        if np.isinf(want):
            assert float(value) == want, (density.__name__, args)
        else:
            np.testing.assert_allclose(float(value), want, rtol=1e-12, err_msg=density.__name__)


def test_a_subnormal_scalar_sigma_matches_an_array_sigma_and_scipy(device):
    for dtype, sigmas in ((np.float64, [5e-324, 1e-310, 2.5e-308]), (np.float32, [1e-44])):
        if dtype == np.float64 and not device.supports_fp64:
            continue
        y = np.array([0.0, 0.0], dtype=dtype)
        for sigma in sigmas:
            want = st.norm.logpdf(y.astype(np.float64), 0.0, float(dtype(sigma))).sum()
            got = float(wf.stats.normal_lpdf(wf.asarray(y), 0.0, sigma, dtype=dtype))
            rtol = 1e-12 if dtype == np.float64 else 1e-6
            np.testing.assert_allclose(got, want, rtol=rtol, err_msg=str(sigma))
            # a non-zero residual: the density is -inf once z^2 / 2 passes the largest real
            far = float(wf.stats.normal_lpdf(wf.asarray(y + 1), 0.0, sigma, dtype=dtype))
            assert far == -np.inf


# -- argument checks --------------------------------------------------------------------

# (density, valid arguments, argument index, bad value, words)
BAD = [
    ("normal_lpdf", ([0.1, 0.2, 0.3], 0.0, 1.0), 0, np.nan, "not NaN"),
    ("normal_lpdf", ([0.1, 0.2, 0.3], 0.0, 1.0), 1, np.inf, "finite"),
    ("normal_lpdf", ([0.1, 0.2, 0.3], 0.0, 1.0), 2, -1.0, "positive and finite"),
    ("normal_lpdf", ([0.1, 0.2, 0.3], 0.0, 1.0), 2, 0.0, "positive and finite"),
    ("normal_lpdf", ([0.1, 0.2, 0.3], 0.0, 1.0), 2, np.inf, "positive and finite"),
    ("bernoulli_logit_lpmf", ([0, 1, 1], 0.5), 0, 2, "0 or 1"),
    ("bernoulli_logit_lpmf", ([0, 1, 1], 0.5), 1, np.nan, "not NaN"),
    ("poisson_log_lpmf", ([0, 1, 4], 0.5), 0, -1, "a non-negative integer"),
    ("poisson_log_lpmf", ([0.0, 1.0, 4.0], 0.5), 0, 1.5, "a non-negative integer"),
    ("poisson_log_lpmf", ([0, 1, 4], 0.5), 1, np.nan, "not NaN"),
    ("gamma_lpdf", ([0.5, 1.0, 2.0], 2.0, 1.0), 0, np.nan, "not NaN"),
    ("gamma_lpdf", ([0.5, 1.0, 2.0], 2.0, 1.0), 1, -2.0, "positive and finite"),
    ("gamma_lpdf", ([0.5, 1.0, 2.0], 2.0, 1.0), 2, np.inf, "positive and finite"),
    ("exponential_lpdf", ([0.5, 1.0, 2.0], 2.0), 0, np.nan, "not NaN"),
    ("exponential_lpdf", ([0.5, 1.0, 2.0], 2.0), 1, 0.0, "positive and finite"),
    ("student_t_lpdf", ([0.5, 1.0, 2.0], 3.0, 0.0, 1.0), 0, np.nan, "not NaN"),
    ("student_t_lpdf", ([0.5, 1.0, 2.0], 3.0, 0.0, 1.0), 1, -3.0, "positive"),  # inf: normal
    ("student_t_lpdf", ([0.5, 1.0, 2.0], 3.0, 0.0, 1.0), 1, np.nan, "positive"),
    ("student_t_lpdf", ([0.5, 1.0, 2.0], 3.0, 0.0, 1.0), 2, -np.inf, "finite"),
    ("student_t_lpdf", ([0.5, 1.0, 2.0], 3.0, 0.0, 1.0), 3, np.nan, "positive and finite"),
    ("beta_lpdf", ([0.1, 0.5, 0.9], 2.0, 3.0), 0, 1.5, r"in \[0, 1\]"),
    ("beta_lpdf", ([0.1, 0.5, 0.9], 2.0, 3.0), 0, -0.1, r"in \[0, 1\]"),
    ("beta_lpdf", ([0.1, 0.5, 0.9], 2.0, 3.0), 1, 0.0, "positive and finite"),
    ("beta_lpdf", ([0.1, 0.5, 0.9], 2.0, 3.0), 2, np.nan, "positive and finite"),
]
ARG_NAMES = {"normal_lpdf": ("y", "mu", "sigma"), "bernoulli_logit_lpmf": ("n", "theta"),
             "poisson_log_lpmf": ("n", "alpha"), "gamma_lpdf": ("y", "alpha", "beta"),
             "exponential_lpdf": ("y", "beta"), "student_t_lpdf": ("y", "nu", "mu", "sigma"),
             "beta_lpdf": ("theta", "alpha", "beta")}


@pytest.mark.parametrize("case", BAD, ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in BAD])
def test_bad_arguments_raise_naming_argument_index_and_value(device, case):
    check_bad_argument(case, ARG_NAMES)


def check_bad_argument(case, arg_names: dict) -> None:
    """A bad scalar raises at the call; a bad element of an array when the density (alone,
    or inside a larger sum) is evaluated, naming the argument, index and value."""
    name, valid, position, bad, words = case
    density = getattr(wf.stats, name)
    arg = arg_names[name][position]
    # as a Python scalar: raised at the call, before any kernel
    scalar_args = [v[0] if isinstance(v, list) else v for v in valid]
    scalar_args[position] = bad
    with pytest.raises(ValueError, match=rf"{name}: {arg} must be {words}, got"):
        density(*scalar_args)
    # inside an array: raised by the kernel, with the element's index and value
    array_args = [wf.asarray(v) if isinstance(v, list) else wf.asarray([v] * 3) for v in valid]
    host = np.array(valid[position] if isinstance(valid[position], list)
                    else [valid[position]] * 3)
    host = host.astype(np.result_type(host, np.asarray(bad)))
    host[1] = bad
    array_args[position] = wf.asarray(host)
    result = density(*array_args)
    pattern = rf"{name}: {arg} must be {words}; {arg}\[1\] = {re.escape(str(host[1].item()))}"
    with pytest.raises(ValueError, match=pattern):
        float(result)
    # the same check inside a larger lazy sum still reports
    with pytest.raises(ValueError, match=pattern):
        float(result + wf.stats.normal_lpdf(wf.asarray([0.0, 1.0]), 0.0, 1.0))


def test_shapes_that_do_not_broadcast_raise(device):
    with pytest.raises(ValueError, match="normal_lpdf"):
        wf.stats.normal_lpdf(wf.asarray(np.ones(3)), wf.asarray(np.ones(4)), 1.0)
    with pytest.raises(ValueError, match="beta_lpdf"):
        wf.stats.beta_lpdf(wf.asarray(np.full(3, 0.5)), wf.asarray(np.ones(2)), 1.0)


def test_arguments_on_different_devices_raise(device):
    others = [d for d in [*wf.devices(), wf.get_device("reference")] if d is not device]
    if not others:
        pytest.skip("one device only")
    with pytest.raises(ValueError, match="arguments live on"):
        wf.stats.normal_lpdf(wf.asarray([1.0]), wf.asarray([0.0], device=others[0]), 1.0)


# -- fusion -----------------------------------------------------------------------------


def test_density_is_one_kernel_with_its_checks(real_device):
    y = wf.asarray(RNG.normal(size=N))
    sigma = wf.asarray(RNG.uniform(1.0, 2.0, N))
    source = wf.kernel_source(wf.stats.normal_lpdf(y, 0.5, sigma))
    assert kernel_count(source) == 1
    x = wf.asarray(RNG.normal(size=(N, 3)))
    glm = wf.stats.normal_id_glm_lpdf(y, x, 0.1, wf.asarray(np.ones(3)), sigma)
    assert kernel_count(wf.kernel_source(glm)) == 1  # k <= SMALL_K: x @ beta written out


def test_sum_of_densities_shares_its_reduction(real_device):
    y = RNG.normal(size=N)
    s = RNG.uniform(1.0, 2.0, N)
    wy, ws = wf.asarray(y), wf.asarray(s)
    total = (wf.stats.normal_lpdf(wy, 0.0, ws) + wf.stats.student_t_lpdf(wy, 3.0, 0.0, ws)
             + wf.stats.gamma_lpdf(ws, 2.0, 1.5))
    assert total.is_lazy
    # one kernel reduces all three (same shape), one adds the three 0-d results: on CPUs
    # the work-item that reduced them adds them after (an epilogue, test_epilogue.py)
    cpu = real_device.target.traits.is_cpu
    assert kernel_count(wf.kernel_source(total)) == (1 if cpu else 2)
    want = (st.norm.logpdf(y, 0.0, s).sum() + st.t.logpdf(y, 3.0, 0.0, s).sum()
            + st.gamma.logpdf(s, 2.0, scale=1 / 1.5).sum())
    np.testing.assert_allclose(float(total), want, rtol=1e-12)


def test_a_lazy_operand_used_twice_is_computed_in_the_same_kernel(real_device):
    x = RNG.normal(size=N)
    wx = wf.asarray(x)
    mu = wf.exp(wx) * 0.5  # appears in the check and in the density
    lp = wf.stats.normal_lpdf(wx, mu, 1.0)
    source = wf.kernel_source(lp)
    assert kernel_count(source) == 1
    np.testing.assert_allclose(float(lp), st.norm.logpdf(x, np.exp(x) * 0.5).sum(),
                               rtol=1e-12)


def test_repeated_density_reuses_its_plan_and_still_reports(real_device):
    """A checked density evaluated again takes the remembered plan (no lowering) and its
    checks still run: a bad array raises, and the next good one evaluates cleanly."""
    y = wf.asarray(RNG.normal(size=N))
    good = RNG.uniform(1.0, 2.0, N)
    want = st.norm.logpdf(y.to_numpy(), 0.0, good).sum()
    float(wf.stats.normal_lpdf(y, 0.0, wf.asarray(good)))
    before = wf.cache_info()["hits"]
    np.testing.assert_allclose(float(wf.stats.normal_lpdf(y, 0.0, wf.asarray(good))), want,
                               rtol=1e-12)
    assert wf.cache_info()["hits"] > before
    bad = good.copy()
    bad[100] = -3.0
    for _ in range(2):
        with pytest.raises(ValueError, match=r"sigma\[100\] = -3.0"):
            float(wf.stats.normal_lpdf(y, 0.0, wf.asarray(bad)))
    np.testing.assert_allclose(float(wf.stats.normal_lpdf(y, 0.0, wf.asarray(good))), want,
                               rtol=1e-12)


def test_a_sum_with_several_failing_elements_reports_one_that_fails(device):
    """Checks fused into a reduction remember one failure per lane and report one of them:
    whichever it is, it names a failing element, its index and its value. Where one element
    fails two checks, the first argument's is reported."""
    n = 20_000  # long enough for the vector walk and many lanes
    y, mu, sigma = RNG.normal(size=n), RNG.normal(size=n), RNG.uniform(0.5, 2.0, n)
    y[7], mu[7] = np.nan, np.inf
    with pytest.raises(ValueError, match=r"normal_lpdf: y must be not NaN; y\[7\] = nan"):
        float(wf.stats.normal_lpdf(wf.asarray(y), wf.asarray(mu), wf.asarray(sigma)))
    y[7] = 0.0
    sigma[8], mu[9], sigma[5001], y[n - 1] = -1.0, -np.inf, 0.0, np.nan
    failing = [r"mu must be finite; mu\[7\] = inf", r"mu must be finite; mu\[9\] = -inf",
               r"sigma must be positive and finite; sigma\[8\] = -1\.0",
               r"sigma must be positive and finite; sigma\[5001\] = 0\.0",
               rf"y must be not NaN; y\[{n - 1}\] = nan"]
    with pytest.raises(ValueError) as raised:
        float(wf.stats.normal_lpdf(wf.asarray(y), wf.asarray(mu), wf.asarray(sigma)))
    assert any(re.search(p, str(raised.value)) for p in failing), str(raised.value)


def _count_builds(monkeypatch) -> list:
    """Calls of ``apply_op`` (the general way of building an expression) from now on."""
    import weft.array
    import weft.stats

    calls = []
    real = weft.array.apply_op

    def counting(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(weft.array, "apply_op", counting)
    monkeypatch.setattr(weft.stats, "apply_op", counting)
    return calls


@pytest.mark.parametrize("pattern", ["all arrays", "first array", "last array"])
@pytest.mark.parametrize("name", list(DENSITIES))
def test_a_repeated_call_is_rebuilt_from_its_template_with_new_values(device, name, pattern,
                                                                       monkeypatch):
    """The second call with the same argument structure builds nothing the general way and
    takes the new arrays and the new scalar values."""
    kinds, reference = DENSITIES[name]
    density = getattr(wf.stats, name)
    dtype = np.float64 if device.supports_fp64 else np.float32
    for round_ in range(3):
        weft_args, ref_args = _arguments(kinds, pattern, dtype)
        builds = _count_builds(monkeypatch) if round_ else []
        got = density(*weft_args)
        if round_:
            assert builds == [], f"call {round_ + 1} rebuilt {builds}"
            monkeypatch.undo()
        want = np.broadcast_to(reference(*ref_args), np.broadcast(*ref_args).shape).sum()
        np.testing.assert_allclose(got.to_numpy(), want, **_tol(dtype))


def test_a_template_result_evaluates_without_its_expression_and_keeps_its_inputs(
        device, monkeypatch):
    """A repeated call's result is evaluated from its leaves alone (its plan is remembered),
    reads its arguments as they were at the call even when they are written afterwards, and
    builds its expression when something composes with it."""
    from weft import templates

    y_host = RNG.normal(size=N)
    sigma_host = RNG.uniform(0.5, 2.0, N)
    y, sigma = wf.asarray(y_host), wf.asarray(sigma_host)
    for _ in range(2):  # captures the template, then remembers its plan
        float(wf.stats.normal_lpdf(y, 0.2, sigma))
    built = []
    real = templates.Deferred.expression
    monkeypatch.setattr(templates.Deferred, "expression",
                        lambda self: built.append(1) or real(self))
    before = wf.stats.normal_lpdf(y, 0.2, sigma)
    y += 1.0
    sigma[0] = 5.0
    np.testing.assert_allclose(float(before), st.norm.logpdf(y_host, 0.2, sigma_host).sum(),
                               rtol=1e-10)
    if device.kind != "dask":
        assert built == []
    y_host, sigma_host = y_host + 1.0, sigma_host.copy()
    sigma_host[0] = 5.0
    want = st.norm.logpdf(y_host, 0.2, sigma_host).sum()
    a, b = wf.stats.normal_lpdf(y, 0.2, sigma), wf.stats.normal_lpdf(y, 0.2, sigma)
    wf.eval(a, b)
    np.testing.assert_allclose([float(a), float(b)], [want, want], rtol=1e-10)
    total = wf.stats.normal_lpdf(y, 0.2, sigma) * 2 - wf.stats.normal_lpdf(y, 0.2, sigma)
    np.testing.assert_allclose(float(total), want, rtol=1e-10)
    assert len(built) >= 2


def test_a_differentiated_call_is_rebuilt_from_its_template_too(device, monkeypatch):
    """Inside a gradient, a repeated density call with differentiated array arguments is
    rebuilt from its template, their own nodes in it, so the gradient reaches them; an
    argument that is a view of a differentiated array carries its adjoint back the same
    way (its own node is the view)."""
    from weft import templates

    y_host = RNG.normal(size=N)
    y = wf.asarray(y_host)
    both = wf.value_and_grad(lambda m, s: wf.stats.normal_lpdf(y, m, s), argnums=(0, 1))
    both(wf.asarray(0.0), wf.asarray(1.0))  # captures the template
    built = []
    real = templates.Deferred.expression
    monkeypatch.setattr(templates.Deferred, "expression",
                        lambda self: built.append(1) or real(self))
    for mu, sigma in ((0.3, 1.5), (-0.2, 0.7)):
        value, (d_mu, d_sigma) = both(wf.asarray(mu), wf.asarray(sigma))
        z = (y_host - mu) / sigma
        np.testing.assert_allclose(float(value), st.norm.logpdf(y_host, mu, sigma).sum(),
                                   rtol=1e-12)
        np.testing.assert_allclose(float(d_mu), (z / sigma).sum(), rtol=1e-12)
        np.testing.assert_allclose(float(d_sigma), ((z * z - 1) / sigma).sum(), rtol=1e-12)
    assert len(built) == 2
    x_host = RNG.normal(size=N)
    tail = wf.grad(lambda x: wf.stats.normal_lpdf(x[3:], 0.5, 2.0))
    for _ in range(2):
        want = np.r_[np.zeros(3), -(x_host[3:] - 0.5) / 4.0]
        np.testing.assert_allclose(tail(wf.asarray(x_host)).to_numpy(), want, rtol=1e-12)


def test_a_template_call_counts_as_a_reader_of_its_arguments_until_it_is_gone(device):
    """An unevaluated repeated call holds its arguments' buffers like any lazy expression
    (writing into an argument copies first), and lets go of them when it is evaluated or
    dropped (writing in place again needs no copy)."""
    y = wf.asarray(RNG.normal(size=N))
    storage = y._node.attrs.storage
    for _ in range(2):  # captures the template, then remembers its plan
        float(wf.stats.normal_lpdf(y, 0.2, 1.5))
    baseline = storage.leaves
    pending = wf.stats.normal_lpdf(y, 0.2, 1.5)
    assert storage.leaves > baseline
    del pending
    assert storage.leaves == baseline
    evaluated = wf.stats.normal_lpdf(y, 0.2, 1.5).eval()
    assert storage.leaves == baseline
    composed = wf.stats.normal_lpdf(y, 0.2, 1.5) + evaluated  # builds the expression
    assert storage.leaves > baseline
    want = 2 * st.norm.logpdf(y.to_numpy(), 0.2, 1.5).sum()
    np.testing.assert_allclose(float(composed), want, rtol=1e-10)
    del composed
    assert storage.leaves == baseline
    y[0] = 1.0  # owned again: written in place
    assert y._node.attrs.storage is storage


def test_a_template_checks_new_scalar_arguments_on_the_host(device):
    y = wf.asarray(RNG.normal(size=N))
    float(wf.stats.normal_lpdf(y, 0.0, 1.5))
    by_name = wf.stats.normal_lpdf(y=y, mu=0.25, sigma=1.5)  # arguments by name still work
    np.testing.assert_allclose(float(by_name), st.norm.logpdf(y.to_numpy(), 0.25, 1.5).sum(),
                               rtol=1e-10)
    with pytest.raises(ValueError, match=r"normal_lpdf: sigma must be positive and finite, "
                                         r"got -1\.5"):
        wf.stats.normal_lpdf(y, 0.0, -1.5)
    with pytest.raises(ValueError, match=r"mu must be finite, got inf"):
        wf.stats.normal_lpdf(y, float("inf"), 1.5)
    x = wf.asarray(RNG.normal(size=(N, 2)))
    beta = wf.asarray(RNG.normal(size=2))
    float(wf.stats.normal_id_glm_lpdf(y, x, 0.1, beta, 1.0))
    with pytest.raises(ValueError, match=r"sigma must be positive and finite, got 0\.0"):
        wf.stats.normal_id_glm_lpdf(y, x, 0.1, beta, 0.0)


def test_templates_follow_aliasing_views_and_types(device):
    """Argument structures that look alike but differ (one buffer twice, a strided view,
    another offset, an integer scalar, an explicit dtype) each get their own value."""
    host = RNG.normal(size=2 * N)
    big = wf.asarray(host)
    mu = RNG.normal(size=N)
    cases = [
        ((big[:N], wf.asarray(mu), 1.5), (host[:N], mu, 1.5)),
        ((big[:N], big[:N], 1.5), (host[:N], host[:N], 1.5)),
        ((big[N:], wf.asarray(mu), 1.5), (host[N:], mu, 1.5)),
        ((big[::2], wf.asarray(mu), 1.5), (host[::2], mu, 1.5)),
        ((big[1::2], wf.asarray(mu), 2), (host[1::2], mu, 2.0)),
        ((big[1::2], wf.asarray(mu), True), (host[1::2], mu, 1.0)),
    ]
    for _ in range(2):
        for args, ref in cases:
            got = wf.stats.normal_lpdf(*(a.eval() if isinstance(a, wf.Array) else a
                                         for a in args))
            np.testing.assert_allclose(float(got), st.norm.logpdf(*ref).sum(), rtol=1e-10)
    if device.supports_fp64:
        y32 = wf.asarray(host[:N].astype(np.float32))
        for dtype in (None, wf.float64, None):
            got = wf.stats.normal_lpdf(y32, 0.25, 1.5, dtype=dtype)
            assert got.dtype == (wf.float64 if dtype else wf.float32)
            np.testing.assert_allclose(
                float(got), st.norm.logpdf(host[:N].astype(np.float32), 0.25, 1.5).sum(),
                rtol=1e-5)


def test_a_scalar_argument_equal_to_a_constant_still_takes_new_values(device):
    """mu = 0.5 equals the constant 0.5 inside student_t: the template tells the argument
    from the constant by where the leaf came from, not by its value."""
    y = RNG.normal(size=N)
    wy = wf.asarray(y)
    for mu in (0.5, 0.5, 0.7, -1.25, 0.5):
        got = wf.stats.student_t_lpdf(wy, 3.0, mu, 1.2)
        np.testing.assert_allclose(float(got), st.t.logpdf(y, 3.0, mu, 1.2).sum(), rtol=1e-10)


def test_lazy_arguments_still_fuse_and_templates_compose(real_device):
    y = RNG.normal(size=N)
    wy = wf.asarray(y)
    for shift in (0.0, 1.0):
        lazy = wf.stats.normal_lpdf(wy + shift, 0.0, 1.5)  # a lazy argument: the general way
        total = lazy + wf.stats.normal_lpdf(wy, 0.3, 2.0) + wf.stats.normal_lpdf(wy, 0.3, 2.0)
        want = (st.norm.logpdf(y + shift, 0.0, 1.5).sum()
                + 2 * st.norm.logpdf(y, 0.3, 2.0).sum())
        np.testing.assert_allclose(float(total), want, rtol=1e-10)
        assert kernel_count(wf.kernel_source(total)) <= 2


def test_a_template_replays_the_conversions_of_a_scalar_argument(device):
    """A scalar argument cast to another type inside the expression takes the same
    conversions when a template rebuilds it (float64 0.1 through float32)."""
    from weft import expr as ex
    from weft import templates
    from weft.traced import TracedFloat

    x = wf.asarray(np.array([1.0, 2.0], dtype=np.float32))
    traced = TracedFloat(0.1, 1)  # the call's argument 1
    root = wf.Array(ex.cast(ex.scalar(traced, wf.float64), wf.float32), device) * x
    template = templates.capture(root._node, {id(x._node.attrs.storage): 0}, {id(traced): 1})
    assert template is not None
    y = wf.asarray(np.array([3.0, 5.0], dtype=np.float32))
    rebuilt = wf.Array(template.build([y._node, 1e-8 + 1 / 3]), device)
    want = np.float32(np.float64(1e-8 + 1 / 3)) * np.array([3.0, 5.0], dtype=np.float32)
    np.testing.assert_array_equal(rebuilt.to_numpy(), want)
