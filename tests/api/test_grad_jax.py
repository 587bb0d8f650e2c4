"""Gradients against JAX's (``jax.grad``) where JAX is installed: every op-table op with a
real result and a JAX counterpart, in float64 (float32 too under WEFT_TEST_PROFILE=large),
at the points the finite difference test uses (test_grad.py), on the devices that compile
(the reference device applies the same rules, and test_grad checks it against finite
differences), and the densities against the same formulas in JAX. Skipped without JAX."""

from __future__ import annotations

import os

import numpy as np
import pytest

import weft as wf

# JAX on the host: on a GPU it would take most of the GPU's memory in every test worker.
os.environ.setdefault("JAX_PLATFORMS", "cpu")
jax = pytest.importorskip("jax")

from test_grad import _real_ops, op_sweep  # noqa: E402

jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy
special = jax.scipy.special

# weft names whose JAX function has another name or is a formula of JAX functions.
COUNTERPARTS = {
    "nextafter": None,  # JAX defines no derivative for it (weft's: 1 for x1, by test_grad)
    "spacing": None,  # nor for spacing, which is nextafter's (weft's: 0, by test_grad)
    "Phi": jax.scipy.stats.norm.cdf, "inv_Phi": special.ndtri, "inv_logit": special.expit,
    "logit": special.logit, "lgamma": special.gammaln, "tgamma": special.gamma,
    "digamma": special.digamma, "erf": special.erf, "erfc": special.erfc,
    "erfinv": special.erfinv, "lbeta": special.betaln, "xlogy": special.xlogy,
    "zeta": special.zeta, "polygamma": lambda n, x: special.polygamma(n.astype(jnp.int32), x),
    "exp1": special.exp1, "expi": special.expi,
    "expn": None,  # JAX's gradient of expn is NaN at n = 0 (test_grad checks weft's)
    "gamma_p": special.gammainc, "gamma_q": special.gammaincc, "ibeta": special.betainc,
    "log1p_exp": jax.nn.softplus, "log_inv_logit": jax.nn.log_sigmoid,
    "log1m_inv_logit": lambda x: jax.nn.log_sigmoid(-x),
    "log1m": lambda x: jnp.log1p(-x), "log1m_exp": lambda x: jnp.log(-jnp.expm1(x)),
    "log_diff_exp": lambda x, y: x + jnp.log(-jnp.expm1(y - x)),
    "lfact": lambda x: special.gammaln(x + 1),
    "lchoose": lambda n, k: (special.gammaln(n + 1) - special.gammaln(k + 1)
                             - special.gammaln(n - k + 1)),
    "fdim": lambda x, y: jnp.maximum(x - y, 0), "rsqrt": jax.lax.rsqrt,
    "atan": jnp.arctan, "atan2": jnp.arctan2, "asin": jnp.arcsin, "acos": jnp.arccos,
    "asinh": jnp.arcsinh, "acosh": jnp.arccosh, "atanh": jnp.arctanh, "power": jnp.power,
}


# Arguments JAX has no gradient for (weft's: test_grad_incomplete.py, against mpmath).
JAX_LACKS = {"ibeta": (0, 1)}


def _jax_function(name: str):
    if name in COUNTERPARTS:
        return COUNTERPARTS[name]
    return getattr(jnp, name, None)


OPS_WITH_JAX = [name for name in _real_ops() if _jax_function(name) is not None]


# float32 against JAX under WEFT_TEST_PROFILE=large (test_grad.py checks float32 gradients
# against finite differences in every run; JAX's tracing is most of this test's time).
LARGE = os.environ.get("WEFT_TEST_PROFILE") == "large"


@pytest.mark.xdist_group("every-op-gradient-sweep")
@pytest.mark.parametrize("dtype", ["float64", "float32"] if LARGE else ["float64"])
def test_every_op_matches_jax(real_device, dtype):
    # The very sweep test_grad evaluates, computed once in a process (one xdist group).
    weights, cases = op_sweep(str(real_device), dtype)
    tolerance = {"float64": (1e-9, 1e-12), "float32": (2e-5, 1e-6)}[dtype]
    compared = [(name, args, tuple((k, g) for k, g in zip(argnums, got)
                                   if k not in JAX_LACKS.get(name, ())))
                for name, args, argnums, got in cases if name in OPS_WITH_JAX]
    assert len(compared) == len(OPS_WITH_JAX)
    weights_j = jnp.asarray(weights.astype(dtype))

    def loss(name):
        fn = _jax_function(name)
        return lambda *xs: jnp.sum(fn(*xs) * weights_j)

    def every_gradient(arguments):
        # One program for every op: JAX's op-by-op dispatch took 23 s of 2 cores, this 8.
        return [jax.grad(loss(name), argnums=tuple(k for k, _ in pairs))(*xs)
                for (name, _, pairs), xs in zip(compared, arguments)]

    expected = jax.jit(every_gradient)([[jnp.asarray(a) for a in args]
                                        for _, args, _ in compared])
    for (name, _, pairs), wanted in zip(compared, expected):
        for (k, g), e in zip(pairs, wanted):
            np.testing.assert_allclose(g.to_numpy(), np.asarray(e), rtol=tolerance[0],
                                       atol=tolerance[1], err_msg=f"{name}, argument {k}")


def test_densities_match_jax(device):
    """A few densities written in JAX by their formulas, differentiated by JAX."""
    rng = np.random.default_rng(8)
    y, x = rng.standard_normal(40), rng.standard_normal((40, 3))
    counts = (rng.random(40) < 0.4).astype(np.int32)
    yw, xw, cw = wf.asarray(y), wf.asarray(x), wf.asarray(counts)
    beta, alpha, sigma = rng.standard_normal(3) * 0.3, 0.2, 1.3

    def normal_glm(b, a, s):
        mu = a + jnp.asarray(x) @ b
        return jnp.sum(-0.5 * ((jnp.asarray(y) - mu) / s) ** 2 - jnp.log(s)
                       - 0.5 * jnp.log(2 * jnp.pi))

    def logistic_glm(b, a):
        eta = a + jnp.asarray(x) @ b
        return jnp.sum(jnp.asarray(counts) * eta - jax.nn.softplus(eta))

    cases = [
        (lambda b, a, s: wf.stats.normal_id_glm_lpdf(yw, xw, a, b, s), normal_glm,
         (beta, alpha, sigma)),
        (lambda b, a: wf.stats.bernoulli_logit_glm_lpmf(cw, xw, a, b), logistic_glm,
         (beta, alpha)),
    ]
    for weft_f, jax_f, args in cases:
        argnums = tuple(range(len(args)))
        value, got = wf.value_and_grad(weft_f, argnums=argnums)(
            wf.asarray(args[0]), *args[1:])
        jvalue, expected = jax.value_and_grad(jax_f, argnums=argnums)(
            jnp.asarray(args[0]), *args[1:])
        np.testing.assert_allclose(float(value), float(jvalue), rtol=1e-12)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(np.asarray(g.to_numpy()), np.asarray(e), rtol=1e-10)
