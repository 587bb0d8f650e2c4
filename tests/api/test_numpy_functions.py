"""NumPy's further functions on weft arrays (API.md 14): einsum, linalg.norm and
random.default_rng, against NumPy's values, directly and through NumPy's own functions."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

RNG = np.random.default_rng(5)
A = RNG.standard_normal((4, 3))
C = RNG.standard_normal((4, 3))
B = RNG.standard_normal((3, 5))
S = RNG.standard_normal((3, 3))
V = RNG.standard_normal(3)
W = RNG.standard_normal(4)

EINSUMS = [
    ("ij,jk->ik", A, B), ("ij,jk", A, B), ("ij,jk->ki", A, B), ("ij,j->i", A, V),
    ("ij,i->j", A, W), ("i,i", V, V), ("i,i->", V, V), ("i,j->ij", V, W), ("ij,ij->i", A, C),
    ("ij,ij->", A, C), ("ij,ij->ij", A, C), ("ij,ik->jk", A, C), ("ij,kj->ik", A, C),
    ("ik,jk->ij", A, C), ("ij,ik->i", A, C), ("ii", S), ("ii->i", S), ("ij->ji", A),
    ("ji", A), ("ij->", A), ("ij->j", A), ("ij", A), ("ij,jk,kl->il", A, B, B.T),
    ("i,ij,j->", W, A, V), ("ij,i,j->", A, W, V), ("ij,kl->", A, B), ("ij,kl->ik", A, C),
    ("ij,jk,ki->", A, B, RNG.standard_normal((5, 4))), (",i->i", 2.5, V),
    (" ij , jk -> ik ", A, B),
]


@pytest.mark.parametrize("case", EINSUMS, ids=[c[0] for c in EINSUMS])
def test_einsum_matches_numpy(device, case):
    subscripts, *operands = case
    got = wf.einsum(subscripts, *[wf.asarray(x) for x in operands])
    expected = np.einsum(subscripts, *operands)
    assert isinstance(got, wf.Array) and got.device is device
    assert got.shape == np.shape(expected)
    np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-12, atol=1e-12)


def test_einsum_fuses_elementwise_terms_and_goes_through_numpy(device):
    x, y = wf.asarray(A), wf.asarray(C)
    rows = wf.einsum("ij,ij->i", x, y)
    if device.kind != "reference":
        assert wf.kernel_source(rows).count("void") >= 1
        assert "multiply" in wf.kernel_source(rows)
    through = np.einsum("ij,ij->i", x, y, optimize=True)
    assert isinstance(through, wf.Array)
    np.testing.assert_allclose(through.to_numpy(), (A * C).sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(np.einsum("ij,jk", x, wf.asarray(B)).to_numpy(), A @ B,
                               rtol=1e-12)


@pytest.mark.parametrize("subscripts, operands, message", [
    ("ij,jk->ijk", (A, B), "3 dimensions"), ("ij,jk->ik", (A, A), "'j' has size 3 and 4"),
    ("i...->i", (V,), r"'\.\.\.'"), ("ij->ii", (A,), "repeat"), ("ij->k", (A,), "'k'"),
    ("ij,jk", (A,), "2 operand"), ("ijk", (A,), "shape"), ("i1", (A,), "not a subscript"),
    ("ij,kl,ik,jl->", (S, S, S, S), "intermediate of 4"),
    ("ij,jk,ik,j->", (S, S, S, V), "intermediate of 3"),
])
def test_einsum_errors_name_what_is_wrong(subscripts, operands, message):
    arrays = [wf.asarray(x) for x in operands]
    with pytest.raises(ValueError, match=message):
        wf.einsum(subscripts, *arrays)


def test_einsum_refuses_the_sublist_form():
    with pytest.raises(TypeError, match="subscripts come first"):
        wf.einsum(wf.asarray(V), [0])
    with pytest.raises(TypeError, match="subscripts first"):
        np.einsum(wf.asarray(V), [0], [])


NORMS = [(V, {}), (V, {"ord": 1}), (V, {"ord": np.inf}), (V, {"ord": -np.inf}),
         (V, {"ord": 0}), (V, {"ord": 3}), (V, {"ord": 0.5}), (V, {"ord": -1}),
         (A, {}), (A, {"ord": "fro"}), (A, {"ord": 1}), (A, {"ord": -1}),
         (A, {"ord": np.inf}), (A, {"ord": -np.inf}), (A, {"axis": 1}), (A, {"axis": 0}),
         (A, {"axis": 0, "keepdims": True}), (A, {"keepdims": True}),
         (A, {"ord": 1, "axis": (1, 0)}), (A, {"ord": np.inf, "axis": (0, 1)}),
         (A, {"ord": 3, "axis": -1}), (np.array([3, 4]), {}), (np.array([[1, -2], [3, 4]]),
                                                              {"ord": np.inf}),
         (A, {"ord": 2}), (A, {"ord": -2}), (A, {"ord": "nuc"}),
         (A, {"ord": 2, "axis": (1, 0), "keepdims": True})]


@pytest.mark.parametrize("case", NORMS, ids=[f"{c[0].shape}-{c[1]}" for c in NORMS])
def test_norm_matches_numpy(device, case):
    x, kwargs = case
    expected = np.linalg.norm(x, **kwargs)
    for got in (wf.linalg.norm(wf.asarray(x), **kwargs),
                np.linalg.norm(wf.asarray(x), **kwargs)):
        assert isinstance(got, wf.Array) and got.shape == np.shape(expected)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-12)


def test_norm_errors():
    with pytest.raises(ValueError, match="not a vector norm"):
        wf.linalg.norm(wf.asarray(V), ord="fro")
    with pytest.raises(ValueError, match="not a matrix norm"):
        wf.linalg.norm(wf.asarray(A), ord=3)
    with pytest.raises(ValueError, match="axis"):
        wf.linalg.norm(wf.asarray(A), axis=(0, 0))


def test_norm_has_a_gradient(device):
    x = wf.asarray(V)
    g = wf.grad(lambda v: wf.linalg.norm(v))(x)
    np.testing.assert_allclose(g.to_numpy(), V / np.linalg.norm(V), rtol=1e-12)


def test_default_rng_repeats_a_seed_and_moves_on(device):
    first = wf.random.default_rng(11)
    a = first.normal(2.0, 3.0, size=(50, 4))
    b = first.normal(2.0, 3.0, size=(50, 4))
    again = wf.random.default_rng(11).normal(2.0, 3.0, size=(50, 4))
    assert a.device is device and a.shape == (50, 4)
    np.testing.assert_array_equal(a.to_numpy(), again.to_numpy())
    assert not np.array_equal(a.to_numpy(), b.to_numpy())
    keyed = wf.random.default_rng(wf.random.key(11)).normal(2.0, 3.0, size=(50, 4))
    np.testing.assert_array_equal(keyed.to_numpy(), a.to_numpy())
    one, two = first.spawn(2)
    assert not np.array_equal(one.random(8).to_numpy(), two.random(8).to_numpy())
    assert wf.random.default_rng(first) is first


def test_default_rng_follows_numpys_parameters(device):
    rng = wf.random.default_rng(3)
    n = 200_000
    moments = [  # (draws, NumPy's mean, NumPy's variance)
        (rng.random(n), 0.5, 1 / 12), (rng.uniform(-1.0, 3.0, n), 1.0, 16 / 12),
        (rng.standard_normal(n), 0.0, 1.0), (rng.exponential(2.0, n), 2.0, 4.0),
        (rng.standard_exponential(n), 1.0, 1.0), (rng.gamma(3.0, 2.0, n), 6.0, 12.0),
        (rng.standard_gamma(2.5, n), 2.5, 2.5), (rng.beta(2.0, 3.0, n), 0.4, 0.04),
        (rng.poisson(4.0, n), 4.0, 4.0), (rng.binomial(10, 0.3, n), 3.0, 2.1),
    ]
    for draws, mean, variance in moments:
        values = draws.to_numpy().astype(np.float64)
        assert values.shape == (n,)
        assert abs(values.mean() - mean) < 6 * np.sqrt(variance / n), (mean, values.mean())
    assert float(rng.exponential(0.0, 4).max()) == 0.0  # scale 0: zeros, as NumPy's
    assert rng.normal().shape == ()  # NumPy's scalar is a 0-d array here
    loc = wf.asarray([0.0, 100.0])
    z = rng.normal(loc, 1.0)
    assert z.shape == (2,) and abs(float(z[1]) - 100.0) < 10
    with pytest.raises(ValueError, match="scale = -1.0 is negative"):
        rng.exponential(-1.0)
    with pytest.raises(TypeError, match="seed must be an integer"):
        wf.random.default_rng(1.5)


def test_default_rng_permutes_shuffles_and_chooses_as_numpy(device):
    """``permutation``, ``shuffle`` and ``choice`` (with and without replacement, with and
    without ``p``) give NumPy's shapes and values from the population, in NumPy's
    proportions; bad arguments raise NumPy's errors."""
    from scipy import stats

    rng = wf.random.default_rng(5)
    assert sorted(rng.permutation(50).tolist()) == list(range(50))
    rows = np.arange(12.0).reshape(4, 3)
    permuted = rng.permutation(wf.asarray(rows)).to_numpy()
    assert sorted(permuted[:, 0].tolist()) == [0.0, 3.0, 6.0, 9.0]
    assert np.array_equal(permuted[:, 1] - permuted[:, 0], np.ones(4))  # whole rows move
    x = wf.asarray(np.arange(20.0))
    rng.shuffle(x)
    shuffled = x.to_numpy()
    assert sorted(shuffled.tolist()) == list(range(20)) and not np.array_equal(shuffled,
                                                                                np.arange(20))
    picks = rng.choice(np.array([10, 20, 30]), size=(300, 2)).to_numpy()
    assert picks.shape == (300, 2) and set(picks.ravel()) == {10, 20, 30}
    assert rng.choice(7).shape == () and 0 <= int(rng.choice(7)) < 7
    assert sorted(rng.choice(9, 9, replace=False).tolist()) == list(range(9))
    p = np.array([0.1, 0.2, 0.3, 0.4])
    counts = np.bincount(rng.choice(4, 100_000, p=p).to_numpy(), minlength=4)
    assert stats.chisquare(counts, p * 100_000).pvalue > 1e-4
    # Without replacement, the first draw goes in proportion to p, and p = 0 never.
    weighted = np.array([0.5, 0.3, 0.2, 0.0])
    firsts = [int(rng.choice(4, 3, replace=False, p=weighted)[0]) for _ in range(150)]
    assert 3 not in firsts
    assert stats.chisquare(np.bincount(firsts, minlength=3)[:3], weighted[:3] * 150).pvalue > 1e-4
    for call, match in [(lambda: rng.choice(3, 4, replace=False), "without replacement"),
                        (lambda: rng.choice(3, p=[0.5, 0.6, 0.1]), "sum to 1"),
                        (lambda: rng.choice(3, 3, replace=False, p=[0.5, 0.5, 0.0]),
                         "fewer non-zero"),
                        (lambda: rng.permutation(wf.asarray(3.0)), "at least one dimension")]:
        with pytest.raises(ValueError, match=match):
            call()
    with pytest.raises(ValueError, match=r"p\[1\] = -0.1"):
        rng.choice(3, 5, p=wf.asarray([0.2, -0.1, 0.9])).to_numpy()
    with pytest.raises(TypeError, match="weft array"):
        rng.shuffle(np.arange(3))


ARGS = [RNG.standard_normal((5, 7)), RNG.integers(0, 3, (6, 4)), RNG.standard_normal(9),
        np.array([[1.0, np.nan, 3.0, np.nan], [2.0, 2.0, 1.0, 0.0]]),
        RNG.integers(0, 2, (3, 3)).astype(bool), np.array([np.nan, 1.0]),
        np.array([[-np.inf, -np.inf], [np.inf, 5.0]]), RNG.standard_normal((1, 300)),
        RNG.standard_normal((300, 2)).astype(np.float32)]


@pytest.mark.parametrize("values", ARGS, ids=[f"{a.dtype}{a.shape}" for a in ARGS])
def test_argmax_argmin_match_numpy(device, values):
    x = wf.asarray(values)
    for name in ("argmax", "argmin"):
        for axis in (None, 0, -1) + ((1,) if values.ndim == 2 else ()):
            for keepdims in (False, True):
                expected = getattr(np, name)(values, axis=axis, keepdims=keepdims)
                for got in (getattr(wf, name)(x, axis=axis, keepdims=keepdims),
                            getattr(x, name)(axis=axis, keepdims=keepdims),
                            getattr(np, name)(x, axis=axis, keepdims=keepdims)):
                    assert isinstance(got, wf.Array) and got.dtype == np.int64
                    assert got.shape == expected.shape, (name, axis, keepdims)
                    np.testing.assert_array_equal(got.to_numpy(), expected,
                                                  err_msg=f"{name} axis={axis}")


def test_argmax_argmin_of_long_rows_split_across_the_device(device):
    # Rows long enough to be split across the device: each split's first extreme, then the
    # splits' pairs combined (ties and NaNs across the splits' borders).
    values = RNG.integers(0, 40, 100_003).astype(np.float64)
    matrix = RNG.integers(0, 40, (3, 70_001)).astype(np.float32)
    matrix[1, 50_000] = matrix[1, 60_000] = np.nan
    assert int(wf.argmax(wf.asarray(values))) == np.argmax(values)
    assert int(wf.argmin(wf.asarray(values.astype(np.int64)))) == np.argmin(values)
    got = wf.argmin(wf.asarray(matrix), axis=1, keepdims=True)
    np.testing.assert_array_equal(got.to_numpy(), np.argmin(matrix, axis=1, keepdims=True))
    # Elements equal to the walk's starting value (the op's identity) are still found, the
    # first of them; a NaN wins wherever it lies.
    edges = [np.full(40_001, -np.inf), np.full(40_001, np.iinfo(np.int64).min),
             np.where(np.arange(40_001) == 39_999, np.nan, -np.inf)]
    for extreme in edges:
        assert int(wf.argmax(wf.asarray(extreme))) == np.argmax(extreme)
        assert int(wf.argmin(wf.asarray(-extreme))) == np.argmin(-extreme)
    # A producer fuses into the pass; a consumer reads its result.
    got = wf.argmax(wf.exp(wf.asarray(values) * 0.1), axis=0) + 1
    assert int(got) == np.argmax(np.exp(values * 0.1)) + 1


def test_argmax_errors_and_zero_dimensions():
    assert int(wf.argmax(wf.asarray(3.0))) == 0
    with pytest.raises(ValueError, match="empty"):
        wf.argmax(wf.zeros((0,)))
    with pytest.raises(ValueError, match="out of bounds"):
        wf.argmin(wf.asarray(A), axis=2)
    with pytest.raises(TypeError, match="axis must be None or an integer"):
        wf.argmax(wf.asarray(A), axis=(0, 1))
