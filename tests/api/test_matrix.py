"""Views (blocks, transposes, diagonals), structure, gathers/scatters, joins, checks and
atomic assignment, against NumPy, on every device."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf
from conftest import launches


def _matrix(shape=(6, 7), seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


# Transposes and blocks -------------------------------------------------------------------

def test_transpose_of_expressions_is_one_kernel(device):
    a = _matrix((5, 5))
    x = wf.asarray(a)
    before = launches()
    np.testing.assert_allclose((wf.exp(x.T) + x).to_numpy(), np.exp(a.T) + a)
    assert launches() == before + 1
    np.testing.assert_allclose(wf.transpose(x * 2).to_numpy(), (a * 2).T)


def test_assigning_a_transpose_of_itself_stages_correctly(device):
    a = _matrix((4, 4))
    x = wf.asarray(a)
    x[...] = x.T
    np.testing.assert_array_equal(x.to_numpy(), a.T)
    y = wf.asarray(a)
    y[...] = y.T + y
    np.testing.assert_allclose(y.to_numpy(), a.T + a)


def test_writing_through_a_transpose_writes_the_source(device):
    a = _matrix((3, 4))
    x = wf.asarray(a)
    x.T[...] = np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(x.to_numpy(), np.arange(12.0).reshape(4, 3).T)


KEYS = [np.s_[1:4, 2:6], np.s_[::2, ::-1], np.s_[::-2, 1::3], np.s_[-3:, :2], np.s_[2],
        np.s_[:, 3], np.s_[-1, ::-2], np.s_[10:20, :], np.s_[..., 1:2], np.s_[4:1:-1, 6:0:-2]]


@pytest.mark.parametrize("key", KEYS, ids=str)
def test_blocks_read_like_numpy_of_arrays_and_expressions(device, key):
    a = _matrix()
    x = wf.asarray(a)
    np.testing.assert_array_equal(x[key].to_numpy(), a[key])
    np.testing.assert_allclose((wf.sin(x) * 3)[key].to_numpy(), (np.sin(a) * 3)[key])
    np.testing.assert_array_equal(x[1:5, ::2][::-1, 1:].to_numpy(), a[1:5, ::2][::-1, 1:])


@pytest.mark.parametrize("key", KEYS, ids=str)
def test_blocks_as_targets(device, key):
    a = _matrix()
    x = wf.asarray(a)
    want = a.copy()
    value = np.arange(want[key].size, dtype=float).reshape(want[key].shape)
    want[key] = value * 2 + 1
    x[key] = wf.asarray(value) * 2 + 1
    np.testing.assert_array_equal(x.to_numpy(), want)


def test_block_assignment_is_one_kernel_and_same_block_both_sides(device):
    t = wf.zeros((5, 6)).eval()
    src = wf.asarray(np.ones((2, 3)))
    before = launches()
    t[1:3, 1:4] = src * 2 + 1
    assert launches() == before + 1
    want = np.zeros((5, 6))
    want[1:3, 1:4] = 3
    np.testing.assert_array_equal(t.to_numpy(), want)
    t[1:3, 1:4] = t[1:3, 1:4] * 2
    want[1:3, 1:4] *= 2
    np.testing.assert_array_equal(t.to_numpy(), want)
    t[:4:2, :] = t[1::2, :] + 1  # overlapping storage, different elements: staged
    want[:4:2, :] = want[1::2, :] + 1
    np.testing.assert_array_equal(t.to_numpy(), want)


def test_block_errors(device):
    x = wf.zeros((3, 4))
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\)"):
        x[0:2, 0:2] = wf.zeros(3)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        x[3]
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1"):
        x[0, -5]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0]


# Diagonals and structure ------------------------------------------------------------------

def test_diagonals(device):
    a = _matrix((4, 5))
    x = wf.asarray(a)
    for k in (-2, 0, 1, 4):
        np.testing.assert_array_equal(wf.diagonal(x, k).to_numpy(), np.diagonal(a, k))
    np.testing.assert_allclose(wf.diagonal(x * 2 + 1).to_numpy(), np.diagonal(a * 2 + 1))
    wf.set_diagonal(x, 7.0)
    want = a.copy()
    np.fill_diagonal(want, 7.0)
    np.testing.assert_array_equal(x.to_numpy(), want)
    wf.diagonal(x)[...] = wf.arange(4) * 1.0
    np.fill_diagonal(want, np.arange(4))
    np.testing.assert_array_equal(x.to_numpy(), want)
    d = wf.diag(wf.asarray([1.0, 2.0, 3.0]))
    assert d.structure == "diagonal"
    np.testing.assert_array_equal(d.to_numpy(), np.diag([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(wf.diag(wf.asarray([1, 2]), 1).to_numpy(), np.diag([1, 2], 1))
    np.testing.assert_array_equal(wf.diag(x).to_numpy(), np.diag(want))


S = {"general": lambda a: a, "lower": np.tril, "upper": np.triu,
     "diagonal": lambda a: np.diag(np.diag(a))}
W = {"general": lambda x: x, "lower": wf.tril, "upper": wf.triu,
     "diagonal": lambda x: wf.diag(wf.diagonal(x))}

PROPAGATION = [
    # op, left, right, expected structure
    ("add", "lower", "lower", "lower"), ("add", "lower", "upper", "general"),
    ("add", "lower", "diagonal", "lower"), ("subtract", "upper", "diagonal", "upper"),
    ("multiply", "lower", "upper", "diagonal"), ("multiply", "lower", "general", "lower"),
    ("bitwise_or", "lower", "lower", "lower"), ("divide", "lower", "lower", "general"),
    ("less", "lower", "lower", "lower"), ("greater", "upper", "upper", "upper"),
    ("not_equal", "lower", "diagonal", "lower"), ("less_equal", "lower", "lower", "general"),
    ("equal", "lower", "lower", "general"), ("greater_equal", "upper", "upper", "general"),
    ("maximum", "lower", "lower", "lower"),
]


@pytest.mark.parametrize("op, left, right, expected", PROPAGATION)
def test_structure_propagation_table(device, op, left, right, expected):
    a, b = _matrix((5, 5), 1), _matrix((5, 5), 2)
    if op == "bitwise_or":
        a, b = (a > 0).astype(np.int32), (b > 0).astype(np.int32)
    x = W[left](wf.asarray(a))
    y = W[right](wf.asarray(b))
    out = wf.apply_op(op, x, y)
    assert out.structure == expected
    with np.errstate(all="ignore"):
        want = getattr(np, op)(S[left](a), S[right](b))
    np.testing.assert_allclose(out.to_numpy(), want)


@pytest.mark.parametrize("fn, expected", [
    (wf.sqrt, "lower"), (wf.sin, "lower"), (wf.tanh, "lower"), (wf.abs, "lower"),
    (wf.floor, "lower"), (wf.negative, "lower"), (wf.exp, "general"), (wf.cos, "general"),
])
def test_unary_structure(device, fn, expected):
    a = np.abs(_matrix((4, 4), 3))
    out = fn(wf.tril(wf.asarray(a)))
    assert out.structure == expected
    np.testing.assert_allclose(out.to_numpy(), getattr(np, fn.__name__)(np.tril(a)))


def test_structure_of_views_and_assignments(device):
    lower = wf.tril(wf.asarray(_matrix((6, 6))))
    assert lower.T.structure == "upper"
    assert lower[1:4, 1:4].structure == "lower"
    assert lower[::-1, ::-1].structure == "upper"
    assert lower[1:4, 0:3].structure == "general"
    np.testing.assert_array_equal(lower[1:4, 0:3].to_numpy(), np.tril(_matrix((6, 6)))[1:4, 0:3])
    m = lower.copy().eval()
    assert m.structure == "lower"
    wf.set_diagonal(m, 1.0)
    assert m.structure == "lower"
    m[0, 5] = 2.0
    assert m.structure == "general"
    assert m.to_numpy()[0, 5] == 2.0


def test_structure_defines_zeros_even_against_infinity(device):
    a = np.ones((3, 3))
    b = np.full((3, 3), np.inf)
    out = wf.tril(wf.asarray(a)) * wf.triu(wf.asarray(b))
    assert out.structure == "diagonal"
    np.testing.assert_array_equal(out.to_numpy(), np.diag([np.inf] * 3))


def test_structured_kernels_do_not_read_outside(real_device):
    x = wf.asarray(_matrix((8, 8)))
    source = wf.kernel_source(wf.tril(x) + 1)
    assert "? b0[" in source  # every read of x is guarded by the triangle


# Gathers and scatters --------------------------------------------------------------------

def test_gathers(device):
    a = _matrix((5, 6))
    x = wf.asarray(a)
    rows, cols = np.array([4, 0, -1]), np.array([1, 5, 0])
    np.testing.assert_array_equal(x[rows, cols].to_numpy(), a[rows, cols])
    np.testing.assert_array_equal(x[wf.asarray(rows)].to_numpy(), a[rows])
    np.testing.assert_array_equal(x[rows, 1:5:2].to_numpy(), a[rows, 1:5:2])
    np.testing.assert_array_equal(x[::-1, cols].to_numpy(), a[::-1, cols])
    np.testing.assert_array_equal(x[rows, 2].to_numpy(), a[rows, 2])
    v = np.arange(10.0)
    np.testing.assert_array_equal(wf.asarray(v)[[[1, 2], [3, 9]]].to_numpy(),
                                  v[np.array([[1, 2], [3, 9]])])
    np.testing.assert_allclose((x[rows, cols] * 2 + 1).to_numpy(), a[rows, cols] * 2 + 1)


def test_gather_bounds_are_checked_in_the_kernel(device):
    x = wf.asarray(np.arange(5.0))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        x[wf.asarray([0, 7])].to_numpy()
    m = wf.asarray(_matrix((3, 4)))
    with pytest.raises(IndexError, match="index -9 is out of bounds for axis 1 with size 4"):
        m[[0, 1], [2, -9]].to_numpy()
    with pytest.raises(TypeError, match="boolean mask indexes a whole array"):
        m[np.array([True, False, True]), 0]


def test_scatters(device):
    x = wf.zeros(6).eval()
    x[[1, 4]] = wf.asarray([5.0, 6.0])
    np.testing.assert_array_equal(x.to_numpy(), [0, 5, 0, 0, 6, 0])
    m = wf.zeros((3, 3)).eval()
    m[[0, 2], [2, 0]] = 1.0
    np.testing.assert_array_equal(m.to_numpy(), [[0, 0, 1], [0, 0, 0], [1, 0, 0]])
    before = x.to_numpy()
    with pytest.raises(IndexError, match="index 6 is out of bounds"):
        x[[0, 6]] = 9.0
    np.testing.assert_array_equal(x.to_numpy(), before)


def test_a_gather_assigned_through_a_scatter(device):
    x_np = np.array([1.0, 2.0, 3.0, 4.0])
    i, j = np.array([0, 1]), np.array([2, 3])
    y, x = wf.zeros(4).eval(), wf.asarray(x_np)
    y[wf.asarray(i)] = x[wf.asarray(j)]
    expected = np.zeros(4)
    expected[i] = x_np[j]
    np.testing.assert_array_equal(y.to_numpy(), expected)
    x[wf.asarray(i)] = x[wf.asarray(j)]  # reads and writes one buffer
    expected = x_np.copy()
    expected[i] = x_np[j]
    np.testing.assert_array_equal(x.to_numpy(), expected)
    y, x = wf.zeros(4).eval(), wf.asarray(x_np)
    y[wf.asarray(i)] = x[wf.asarray(i)]
    np.testing.assert_array_equal(y.to_numpy(), [1.0, 2.0, 0.0, 0.0])
    m = wf.zeros((2, 3)).eval()
    m[wf.asarray([1, 0]), wf.asarray([2, 2])] = x[wf.asarray([3, 0])]
    np.testing.assert_array_equal(m.to_numpy(), [[0, 0, 1], [0, 0, 4]])


# Joins --------------------------------------------------------------------------------------

def test_joins(device):
    a, b = _matrix((2, 3), 1), _matrix((4, 3), 2)
    x, y = wf.asarray(a), wf.asarray(b)
    np.testing.assert_array_equal(wf.concatenate([x, y]).to_numpy(), np.concatenate([a, b]))
    np.testing.assert_allclose(wf.concatenate([x * 2, y.T[:, :2].T, x], axis=0).to_numpy(),
                               np.concatenate([a * 2, b.T[:, :2].T, a]))
    np.testing.assert_array_equal(wf.concatenate([x.T, y.T], axis=1).to_numpy(),
                                  np.concatenate([a.T, b.T], axis=1))
    u, v = np.arange(3.0), np.arange(3.0, 6.0)
    for fn in ("stack", "vstack", "hstack"):
        np.testing.assert_array_equal(getattr(wf, fn)([wf.asarray(u), wf.asarray(v)]).to_numpy(),
                                      getattr(np, fn)([u, v]))
    np.testing.assert_array_equal(wf.stack([wf.asarray(u), wf.asarray(v)], axis=1).to_numpy(),
                                  np.stack([u, v], axis=1))
    np.testing.assert_array_equal(wf.hstack([x, x]).to_numpy(), np.hstack([a, a]))
    np.testing.assert_array_equal(wf.concatenate([wf.asarray([1, 2]), wf.asarray([0.5])])
                                  .to_numpy(), [1, 2, 0.5])
    assert wf.concatenate([x, y]).sum().item() == pytest.approx(a.sum() + b.sum())
    with pytest.raises(ValueError, match="differ in dimension 1"):
        wf.concatenate([x, wf.zeros((2, 2))])
    with pytest.raises(ValueError, match="same shape"):
        wf.stack([wf.zeros(2), wf.zeros(3)])


# Checks and assignment ----------------------------------------------------------------------

def test_checks_pass_values_and_report_failures(device):
    sigma = wf.asarray([1.0, 2.0, 0.5, -1.0])
    checked = wf.check(sigma, lambda s: s > 0,
                       "normal_lpdf: sigma{index} = {value}, but it must be positive")
    with pytest.raises(ValueError, match=r"normal_lpdf: sigma\[3\] = -1.0, but it must be "
                                         "positive"):
        (checked * 2).to_numpy()
    fine = wf.check(wf.asarray([[1.0, 2.0]]), lambda s: s > 0, "positive")
    np.testing.assert_array_equal((fine * 2).sum(axis=1).to_numpy(), [6.0])
    bad = wf.check(wf.asarray([[1.0, 2.0], [3.0, -4.0]]), lambda s: s > 0, "x must be > 0")
    with pytest.raises(ValueError, match=r"x must be > 0: element \[1, 1\] = -4.0"):
        bad.sum().item()


def test_assign_is_atomic(device):
    a = wf.asarray([1.0, 2.0, 3.0]).eval()
    b = wf.asarray([4.0, 5.0, 6.0]).eval()
    bad = wf.check(wf.asarray([1.0, -1.0, 1.0]), lambda s: s > 0, "must be positive")
    with pytest.raises(ValueError, match="must be positive"):
        wf.assign((a, b), (a + 1, b * bad))
    assert a.tolist() == [1.0, 2.0, 3.0] and b.tolist() == [4.0, 5.0, 6.0]
    with pytest.raises(ValueError):
        wf.assign((a, b), (a + 1, wf.zeros(2)))
    assert a.tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(ValueError):
        a[0:2] = bad[0:2] * 1
    assert a.tolist() == [1.0, 2.0, 3.0]


def test_assign_several_targets_in_one_kernel_and_masks(device):
    a = wf.asarray([1.0, 2.0, 3.0]).eval()
    b = wf.asarray([4.0, 5.0, 6.0]).eval()
    before = launches()
    wf.assign((a, b), (b, a))  # a swap: every output is read before any is written
    assert launches() == before + 1
    assert a.tolist() == [4.0, 5.0, 6.0] and b.tolist() == [1.0, 2.0, 3.0]
    wf.assign(a, a * 10, mask=wf.asarray([True, False, True]))
    assert a.tolist() == [40.0, 5.0, 60.0]
    m = wf.zeros((3, 3)).eval()
    wf.assign(m[1:, :2], wf.ones((2, 2)))
    wf.assign(wf.diagonal(m), 5.0)
    np.testing.assert_array_equal(m.to_numpy(), [[5, 0, 0], [1, 5, 0], [1, 1, 5]])
    with pytest.raises(TypeError, match="mask must be a bool array"):
        wf.assign(a, a, mask=wf.asarray([1, 0, 1]))


def test_triangles_of_bool_matrices_stay_bool(device):
    a = np.array([[True, False, True], [True, True, False], [False, True, True]])
    x = wf.asarray(a)
    for k in (-1, 0, 1, 5):
        for name in ("tril", "triu"):
            got = getattr(wf, name)(x, k=k)
            assert got.dtype is wf.bool_
            np.testing.assert_array_equal(got.to_numpy(), getattr(np, name)(a, k=k))


def test_check_messages_keep_their_own_braces(device):
    x = wf.asarray([1.0, -2.0])
    with pytest.raises(ValueError, match=r"^x\[1\] = -2\.0 breaks \{x > 0\} and \{\}$"):
        wf.check(x, x > 0, "x{index} = {value} breaks {x > 0} and {}").to_numpy()
    with pytest.raises(ValueError, match=r"^use \{k\}: element \[1\] = -2\.0$"):
        wf.check(x, x > 0, "use {k}").to_numpy()


def test_none_adds_an_axis_as_numpy(device):
    """np.newaxis in indexes: a vector as a row or a column, a 0-d value as (1,) or (1, 1),
    with slices, ints and ``...``; views that writes go through, as NumPy's."""
    a, m = np.arange(5.0), np.arange(6.0).reshape(2, 3)
    x, y = wf.asarray(a), wf.asarray(m)
    keys_1d = [(None,), (None, slice(None)), (slice(None), None), (slice(1, 4), None),
               (None, slice(None, None, -2)), (Ellipsis, None), (None, Ellipsis), (2, None)]
    for key in keys_1d:
        np.testing.assert_array_equal(x[key].to_numpy(), a[key], err_msg=str(key))
    for key in [(1, None), (None, 1), (0, None, 2), (slice(None), 1, None), (None, 1, 2)]:
        np.testing.assert_array_equal(y[key].to_numpy(), m[key], err_msg=str(key))
    assert wf.asarray(3.0)[None, None].shape == (1, 1)
    np.testing.assert_array_equal((x[:, None] * x[None, :]).to_numpy(), np.outer(a, a))
    z = wf.zeros(3)
    z[None, :] = wf.asarray([[1.0, 2.0, 3.0]])
    assert z.tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(IndexError, match="at most 2 dimensions"):
        y[None]
    with pytest.raises(IndexError, match="newaxis"):
        x[None, wf.asarray([0, 1])]
