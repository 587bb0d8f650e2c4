"""Vectors whose elements are reductions of their own (slots.py): each reduction written
straight into its element of the result, by the kernel that computes it, with the values
NumPy gives, and left alone where that would be wrong."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf


def _launches(f):
    wf.synchronize()
    before = wf.cache_info()["launches"]
    out = f()
    wf.synchronize()
    return out, wf.cache_info()["launches"] - before


@pytest.mark.parametrize("k", [1, 3, 8])
def test_a_short_vectors_gradient_is_the_values_kernel(device, k):
    rng = np.random.default_rng(k)
    xs, bs = rng.standard_normal((200, k)), rng.standard_normal(k)
    x = wf.asarray(xs)

    def f(b):
        total = x[:, 0] * b[0]
        for j in range(1, k):
            total = total + x[:, j] * b[j]
        return (wf.sin(total)).sum()

    vg = wf.function(wf.value_and_grad(f))
    for _ in range(2):
        vg(wf.asarray(bs))
    (value, grad), launches = _launches(lambda: vg(wf.asarray(bs)))
    np.testing.assert_allclose(float(value), np.sin(xs @ bs).sum(), rtol=1e-12)
    np.testing.assert_allclose(grad.to_numpy(), xs.T @ np.cos(xs @ bs), rtol=1e-11)
    if device.kind != "reference":
        assert launches == 1


def test_a_vector_with_a_zero_element_keeps_its_zero(device):
    z = wf.asarray(np.arange(4.0))
    g = wf.grad(lambda b: z[:2].sum() * b[0] + z[2:].sum() * b[2])(wf.asarray([1.0, 2.0, 3.0]))
    assert g.tolist() == [1.0, 0.0, 5.0]


def test_reductions_of_the_destination_itself_read_it_first(device):
    bs = np.array([1.0, 2.0, 3.0])
    b = wf.asarray(bs)
    b[:] = wf.concatenate([(b * 2.0).sum().reshape(1), b.sum().reshape(1),
                           (b * b).sum().reshape(1)])
    assert b.tolist() == [12.0, 6.0, 14.0]


def test_one_reduction_in_two_elements(device):
    xs = np.arange(6.0)
    x = wf.asarray(xs)
    s = (x * x).sum()
    out = wf.concatenate([s.reshape(1), x.sum().reshape(1), s.reshape(1)])
    assert out.tolist() == [55.0, 15.0, 55.0]
