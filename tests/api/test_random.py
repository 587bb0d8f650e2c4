"""wf.random: Philox streams drawn inside kernels. The same key must give the same bits on
every device (compared with philox.py, the NumPy implementation), and the draws must follow
their distributions (Kolmogorov-Smirnov and moments on 10^6 draws)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import weft as wf
from weft import philox

# (name, parameters given to wf.random, the same as philox.py takes them, result dtype)
CASES = [
    ("uniform", {"low": -2.0, "high": 3.0}, (-2.0, 3.0)),
    ("normal", {"loc": 1.5, "scale": 2.0}, (1.5, 2.0)),
    ("exponential", {"rate": 0.5}, (0.5,)),
    ("gamma", {"alpha": 0.3, "scale": 2.0}, (0.3, 2.0)),
    ("gamma", {"alpha": 7.5}, (7.5, 1.0)),
    ("beta", {"a": 0.7, "b": 3.0}, (0.7, 3.0)),
    ("bernoulli", {"p": 0.3}, (0.3,)),
    ("poisson", {"lam": 3.5}, (3.5,)),
    ("poisson", {"lam": 250.0}, (250.0,)),
    ("binomial", {"n": 20, "p": 0.3}, (20.0, 0.3)),
    ("binomial", {"n": 1000, "p": 0.8}, (1000.0, 0.8)),
    ("integers", {"low": -7, "high": 12}, (-7.0, 12.0)),
    # A span of 1.5 * 2^53: about one block in 4000 is rejected and drawn again.
    ("integers", {"low": -2**53, "high": 2**52 + 1}, (-2.0**53, 2.0**52 + 1)),
]


def _host(name: str, key: wf.random.Key, shape: tuple[int, ...], params: tuple) -> np.ndarray:
    index = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    return np.asarray(getattr(philox, name)(key.k0, key.k1, index, *params))


def _same_bits(got: np.ndarray, expected: np.ndarray) -> bool:
    if got.dtype.kind == "f":
        expected = expected.astype(got.dtype)
        nan = np.isnan(got)  # NaN payloads may differ; every other value must match bit for bit
        return (np.array_equal(nan, np.isnan(expected))
                and np.array_equal(got[~nan].view(np.uint8), expected[~nan].view(np.uint8)))
    return np.array_equal(got, expected.astype(got.dtype))


def test_philox_known_answers():
    """Random123's known-answer vectors for Philox 4x32-10."""
    zero = np.zeros(1, np.uint64)
    ones = np.full(1, 0xFFFFFFFF, np.uint64)
    pi = [np.array([w], np.uint64) for w in (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344)]
    cases = [
        ([zero] * 4, (zero, zero), [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
        ([ones] * 4, (ones, ones), [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
        (pi, (np.array([0xA4093822], np.uint64), np.array([0x299F31D0], np.uint64)),
         [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
    ]
    for counter, key, expected in cases:
        assert [int(w[0]) for w in philox.philox(counter, key)] == expected


@pytest.mark.parametrize("name, kwargs, params", CASES, ids=[
    f"{c[0]}-{'-'.join(str(v) for v in c[2])}" for c in CASES])
def test_the_same_key_gives_the_same_bits_on_every_device(device, name, kwargs, params):
    key = wf.random.key(20261122)
    got = getattr(wf.random, name)(key, (37, 29), **kwargs).to_numpy()
    expected = _host(name, key, (37, 29), params)
    assert _same_bits(got, expected), f"{name} on {device}: streams differ"


def test_float32_draws_are_the_double_draws_rounded(device):
    key = wf.random.key(7)
    got = wf.random.normal(key, (1000,), dtype=wf.float32).to_numpy()
    assert got.dtype == np.float32
    assert _same_bits(got, _host("normal", key, (1000,), (0.0, 1.0)).astype(np.float32))
    half = wf.random.uniform(key, (10,), low=wf.asarray(np.zeros(10, np.float32)))
    assert half.dtype == wf.float32


def test_array_parameters_broadcast_and_bad_ones_give_nan_or_minus_one(device):
    key = wf.random.key(3)
    loc = np.array([[0.0], [10.0], [100.0]])
    scale = np.array([1.0, 2.0, -1.0, np.nan])
    got = wf.random.normal(key, (3, 4), loc=wf.asarray(loc), scale=wf.asarray(scale)).to_numpy()
    assert _same_bits(got, _host("normal", key, (3, 4), (loc, scale)))
    assert np.isnan(got[:, 2:]).all() and np.isfinite(got[:, :2]).all()
    lam = wf.asarray(np.array([1.0, -1.0, np.nan, 20.0]))
    counts = wf.random.poisson(key, (4,), lam).to_numpy()
    assert counts[1] == -1 and counts[2] == -1 and counts[0] >= 0 and counts[3] >= 0
    n = wf.asarray(np.array([10.0, 2.5, 10.0, -3.0]))
    p = wf.asarray(np.array([0.5, 0.5, 1.5, 0.5]))
    assert wf.random.binomial(key, (4,), n, p).to_numpy()[1:].tolist() == [-1, -1, -1]
    assert np.isnan(wf.random.gamma(key, (2,), wf.asarray([0.0, 1.0]), 1.0).to_numpy()[0])


def test_keys_split_and_streams_differ(device):
    key = wf.random.key(1)
    a, b = wf.random.split(key)
    assert (a, b) == wf.random.split(key) and a != b and a != key
    assert len(wf.random.split(key, 5)) == 5
    x = wf.random.uniform(a, (1000,)).to_numpy()
    y = wf.random.uniform(b, (1000,)).to_numpy()
    again = wf.random.uniform(a, (1000,)).to_numpy()
    assert np.array_equal(x, again) and not np.array_equal(x, y)
    # A 2-D draw holds the 1-D draw of its flat index.
    flat = wf.random.normal(a, (60,)).to_numpy()
    assert np.array_equal(wf.random.normal(a, (6, 10)).to_numpy().ravel(), flat)
    assert wf.random.normal(a, ()).shape == () and wf.random.normal(a, ()).item() == flat[0]


def test_bad_arguments_raise_clear_errors():
    key = wf.random.key(0)
    with pytest.raises(ValueError, match="outside"):
        wf.random.key(-1)
    with pytest.raises(TypeError, match="integer"):
        wf.random.key(1.5)
    with pytest.raises(TypeError, match="wf.random.Key"):
        wf.random.normal(3, (2,))
    with pytest.raises(ValueError, match="positive integer"):
        wf.random.split(key, 0)
    with pytest.raises(ValueError, match=r"shape \(3,\) does not broadcast.*\(2,\)"):
        wf.random.normal(key, (2,), loc=wf.asarray([1.0, 2.0, 3.0]))
    for call, match in [
        (lambda: wf.random.normal(key, (2,), scale=-1.0), "scale = -1.0"),
        (lambda: wf.random.exponential(key, (2,), rate=0.0), "rate = 0.0"),
        (lambda: wf.random.gamma(key, (2,), -2.0), "alpha = -2.0"),
        (lambda: wf.random.beta(key, (2,), 1.0, 0.0), "b = 0.0"),
        (lambda: wf.random.bernoulli(key, (2,), 1.5), "p = 1.5"),
        (lambda: wf.random.poisson(key, (2,), -1.0), "lam = -1.0"),
        (lambda: wf.random.binomial(key, (2,), 2.5, 0.5), "n = 2.5"),
        (lambda: wf.random.binomial(key, (2,), 10, 1.1), "p = 1.1"),
        (lambda: wf.random.integers(key, (2,), 5, 5), "low = 5 must be below high = 5"),
        (lambda: wf.random.integers(key, (2,), 0.5, 3), "low = 0.5 must be a whole"),
        (lambda: wf.random.integers(key, (2,), 0, 2**54), "high = 18014398509481984"),
        (lambda: wf.random.integers(key, (2,), 0, 2**32, dtype=wf.int32), "out of range"),
    ]:
        with pytest.raises(ValueError, match=match):
            call()


def test_a_draw_fuses_with_its_consumers_and_new_keys_reuse_the_kernel(real_device):
    from conftest import kernel_count

    z = wf.random.normal(wf.random.key(11), (1000,)) * 2 + 1
    assert kernel_count(wf.kernel_source(z)) == 1
    np.testing.assert_allclose(z.to_numpy(),
                               _host("normal", wf.random.key(11), (1000,), (0.0, 1.0)) * 2 + 1)
    (wf.random.uniform(wf.random.key(12), (1000,)) * 3).eval()
    compiles = wf.cache_info()["compiles"]
    for seed in range(13, 16):
        (wf.random.uniform(wf.random.key(seed), (1000,)) * 3).eval()
    assert wf.cache_info()["compiles"] == compiles


CONTINUOUS = [
    ("uniform", {}, stats.uniform()),
    ("normal", {"loc": -1.0, "scale": 3.0}, stats.norm(-1, 3)),
    ("exponential", {"rate": 2.0}, stats.expon(scale=0.5)),
    ("gamma", {"alpha": 0.4, "scale": 2.0}, stats.gamma(0.4, scale=2.0)),
    ("gamma", {"alpha": 5.0}, stats.gamma(5.0)),
    ("beta", {"a": 2.0, "b": 5.0}, stats.beta(2, 5)),
]


@pytest.mark.parametrize("name, kwargs, dist", CONTINUOUS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CONTINUOUS)])
def test_continuous_draws_follow_their_distribution(real_device, name, kwargs, dist):
    draws = getattr(wf.random, name)(wf.random.key(99), (10**6,), **kwargs).to_numpy()
    result = stats.kstest(draws, dist.cdf)
    assert result.pvalue > 1e-4, f"KS statistic {result.statistic:.2e}"
    mean, var = dist.stats()
    se = np.sqrt(var / draws.size)
    assert abs(draws.mean() - mean) < 5 * se
    assert abs(draws.var() / var - 1) < 0.02


DISCRETE = [
    ("bernoulli", {"p": 0.3}, stats.bernoulli(0.3)),
    ("poisson", {"lam": 0.7}, stats.poisson(0.7)),
    ("poisson", {"lam": 9.5}, stats.poisson(9.5)),
    ("poisson", {"lam": 1234.5}, stats.poisson(1234.5)),
    ("binomial", {"n": 7, "p": 0.2}, stats.binom(7, 0.2)),
    ("binomial", {"n": 500, "p": 0.6}, stats.binom(500, 0.6)),
    ("integers", {"low": -3, "high": 7}, stats.randint(-3, 7)),
]


@pytest.mark.parametrize("name, kwargs, dist", DISCRETE,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(DISCRETE)])
def test_discrete_draws_follow_their_distribution(real_device, name, kwargs, dist):
    draws = getattr(wf.random, name)(wf.random.key(5), (10**6,), **kwargs).to_numpy()
    draws = draws.astype(np.float64)
    mean, var = dist.stats()
    assert abs(draws.mean() - mean) < 5 * np.sqrt(var / draws.size)
    assert abs(draws.var() / var - 1) < 0.02
    # Chi-square over the values holding 99.99% of the mass.
    values, counts = np.unique(draws, return_counts=True)
    low, high = dist.ppf(1e-5), dist.ppf(1 - 1e-5)
    inside = (values >= low) & (values <= high)
    expected = dist.pmf(values[inside]) * draws.size
    keep = expected > 20
    observed = counts[inside][keep]
    expected = expected[keep] * observed.sum() / expected[keep].sum()
    assert stats.chisquare(observed, expected).pvalue > 1e-4


def test_integers_take_numpys_forms_and_check_array_bounds(device):
    """[0, low) without high, [low, high] with endpoint, int32 where asked, array bounds
    broadcast (and a bad one raises when the draw is computed, naming where), and a
    generator's ``integers`` as NumPy's."""
    key = wf.random.key(11)
    one_bound = wf.random.integers(key, (500,), 4).to_numpy()
    assert one_bound.dtype == np.int64 and set(one_bound) == {0, 1, 2, 3}
    closed = wf.random.integers(key, (500,), 1, 3, endpoint=True, dtype=wf.int32).to_numpy()
    assert closed.dtype == np.int32 and set(closed) == {1, 2, 3}
    low, high = np.array([0, 10, -100]), np.array([5, 20, 100])
    got = wf.random.integers(key, (400, 3), wf.asarray(low), wf.asarray(high)).to_numpy()
    assert ((got >= low) & (got < high)).all()
    assert np.array_equal(got, _host("integers", key, (400, 3), (low * 1.0, high * 1.0)))
    bad = wf.random.integers(key, (3,), wf.asarray(low), wf.asarray(np.array([5, 10, 7])))
    with pytest.raises(ValueError, match=r"wf.random.integers: the bounds .* at \[1\]"):
        bad.to_numpy()
    rng = wf.random.default_rng(3)
    draws = rng.integers(10, size=1000).to_numpy()
    assert draws.dtype == np.int64 and draws.min() >= 0 and draws.max() <= 9
    assert rng.integers(1, 7, size=(2, 3), endpoint=True).shape == (2, 3)

