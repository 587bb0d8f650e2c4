"""Free tensor algebra against a direct NumPy implementation of the definitions, widths 2-5
and depths up to 6, on every device."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

import weft as wf
from conftest import kernel_count

# Every shape under WEFT_TEST_PROFILE=large; by default one of each kind (each compiles its
# own kernels): a depth of 1, a deep narrow tensor, a wide one.
SHAPES = ([(2, 1), (2, 4), (2, 6), (3, 3), (3, 5), (4, 4), (5, 2), (5, 4)]
          if os.environ.get("WEFT_TEST_PROFILE") == "large" else [(2, 1), (2, 6), (4, 4)])


def _words(width: int, depth: int) -> list[tuple[int, ...]]:
    """Every word in the flat order: by level, then first letter most significant."""
    return [w for k in range(depth + 1) for w in itertools.product(range(width), repeat=k)]


def _multiply(a: np.ndarray, b: np.ndarray, width: int, depth: int) -> np.ndarray:
    words = _words(width, depth)
    where = {w: i for i, w in enumerate(words)}
    out = np.zeros_like(a)
    for i, w in enumerate(words):
        out[i] = sum(a[where[w[:s]]] * b[where[w[s:]]] for s in range(len(w) + 1))
    return out


def _antipode(a: np.ndarray, width: int, depth: int) -> np.ndarray:
    words = _words(width, depth)
    where = {w: i for i, w in enumerate(words)}
    return np.array([(-1) ** len(w) * a[where[w[::-1]]] for w in words])


@pytest.mark.parametrize("width, depth", SHAPES)
def test_free_tensor_multiply_and_antipode_match_the_definitions(device, width, depth):
    size = wf.tensoralg.tensor_size(width, depth)
    rng = np.random.default_rng(width * 10 + depth)
    a, b = rng.standard_normal(size), rng.standard_normal(size)
    got = wf.tensoralg.free_tensor_multiply(wf.asarray(a), wf.asarray(b), width, depth)
    np.testing.assert_allclose(got.to_numpy(), _multiply(a, b, width, depth), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_array_equal(
        wf.tensoralg.antipode(wf.asarray(a), width, depth).to_numpy(),
        _antipode(a, width, depth))
    inplace = wf.asarray(a)
    wf.tensoralg.free_tensor_multiply_inplace(inplace, wf.asarray(b), width, depth)
    np.testing.assert_allclose(inplace.to_numpy(), _multiply(a, b, width, depth), rtol=1e-12,
                               atol=1e-12)


def test_each_call_is_one_kernel(real_device):
    a = wf.asarray(np.ones(wf.tensoralg.tensor_size(3, 4)))
    assert kernel_count(wf.kernel_source(wf.tensoralg.free_tensor_multiply(a, a, 3, 4))) == 1
    assert kernel_count(wf.kernel_source(wf.tensoralg.antipode(a, 3, 4) * 2)) == 1


def test_exp_and_log_invert_each_other_and_antipode_is_an_involution(device):
    width, depth = 3, 4
    size = wf.tensoralg.tensor_size(width, depth)
    x = np.random.default_rng(1).standard_normal(size) * 0.3
    x[0] = 0.0
    e = wf.tensoralg.tensor_exp(wf.asarray(x), width, depth)
    np.testing.assert_allclose(wf.tensoralg.tensor_log(e, width, depth).to_numpy(), x,
                               atol=1e-12)
    # exp(x) ⊗ exp(-x) = 1, and S(S(x)) = x.
    inverse = wf.tensoralg.tensor_exp(wf.asarray(-x), width, depth)
    product = wf.tensoralg.free_tensor_multiply(e, inverse, width, depth).to_numpy()
    np.testing.assert_allclose(product, wf.tensoralg.unit(width, depth).to_numpy(), atol=1e-12)
    twice = wf.tensoralg.antipode(wf.tensoralg.antipode(wf.asarray(x), width, depth), width,
                                  depth)
    np.testing.assert_array_equal(twice.to_numpy(), x)


def test_bad_shapes_raise():
    with pytest.raises(ValueError, match=r"shape \(15,\) for this width and depth, not \(14,\)"):
        wf.tensoralg.free_tensor_multiply(np.ones(14), np.ones(15), 2, 3)
    with pytest.raises(ValueError, match="width must be >= 1"):
        wf.tensoralg.antipode(np.ones(3), 0, 1)
    with pytest.raises(ValueError, match="scalar term must be 0"):
        wf.tensoralg.tensor_exp(np.ones(3), 2, 1)
