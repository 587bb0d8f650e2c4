"""CPU walks cut into spans where their affine predicates keep their value (render/spans.py):
concatenations, pads, triangles and views of them, stepping forwards, backwards and by
strides, over grids that several work-items share. Values against NumPy on every device;
the span loop's presence for a CPU target."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf
from weft.compiler import Target, compile, temporary_leaf
from weft.target import Traits

CPU_WALK = Traits(is_cpu=True, walks_elements=True, reciprocal_rows=True)


def _source(x: wf.Array) -> str:
    from weft.backends.opencl.dialect import OPENCL_CPU

    (kernel,) = compile([(x._node, temporary_leaf(x.shape, x.dtype))],
                        Target(OPENCL_CPU, CPU_WALK)).kernels
    return kernel.source(OPENCL_CPU)


def test_a_cpu_walk_tests_a_concatenation_once_per_span():
    x, y = wf.asarray(np.ones(50)), wf.asarray(np.ones(30))
    source = _source(wf.exp(wf.concatenate([x, y[::-1]])))
    assert "weft_span_end" in source
    loop = source[source.index("for (int gid = lo"):]
    assert ">= 0 &&" not in loop  # no predicate is computed per element


@pytest.mark.parametrize("lengths", [(1, 1), (3000, 4100), (1, 5000, 2), (700, 0, 1300, 9),
                                     (2500, 2500, 2500, 2500, 17)])
def test_one_dimensional_concatenations_forwards_backwards_and_strided(device, lengths):
    rng = np.random.default_rng(sum(lengths))
    hosts = [rng.standard_normal(2 * n) for n in lengths]
    arrays = [wf.asarray(h) for h in hosts]
    # each part read at a step of 2, forwards or backwards (a view's j-coefficient of +-2)
    parts = [a[::2] if k % 2 else a[::-2] for k, a in enumerate(arrays)]
    want_parts = [h[::2] if k % 2 else h[::-2] for k, h in enumerate(hosts)]
    joined = wf.concatenate(parts)
    want = np.concatenate(want_parts)
    np.testing.assert_array_equal((joined * 1.0).to_numpy(), want)
    np.testing.assert_array_equal(joined[::-1].to_numpy(), want[::-1])
    np.testing.assert_array_equal(joined[1::3].to_numpy(), want[1::3])
    np.testing.assert_allclose(wf.exp(joined[::-3] * 0.5).to_numpy(), np.exp(want[::-3] * 0.5),
                               rtol=1e-14)


@pytest.mark.parametrize("shape", [(40, 3), (2500, 5), (37, 64), (300, 41)])
def test_two_dimensional_concatenations_and_triangles(device, shape):
    rows, cols = shape
    rng = np.random.default_rng(rows * cols)
    ah, bh = rng.standard_normal((rows, cols)), rng.standard_normal((cols, cols))
    a, b = wf.asarray(ah), wf.asarray(bh)
    cases = [
        (wf.concatenate([a, b], axis=0), np.concatenate([ah, bh])),
        (wf.concatenate([a.T, b[:, ::-1]], axis=1), np.concatenate([ah.T, bh[:, ::-1]], axis=1)),
        (wf.concatenate([wf.tril(b, -2), wf.triu(b, 3)], axis=1) + 1,
         np.concatenate([np.tril(bh, -2), np.triu(bh, 3)], axis=1) + 1),
        (wf.concatenate([a, wf.tril(b)], axis=0)[::-1, ::-3],
         np.concatenate([ah, np.tril(bh)])[::-1, ::-3]),
        (wf.diag(wf.diag(b)) + wf.tril(b.T, 1), np.diag(np.diag(bh)) + np.tril(bh.T, 1)),
    ]
    for got, want in cases:
        np.testing.assert_array_equal(got.to_numpy(), want)


@pytest.mark.parametrize("widths", [(0, 3), (5, 0), (1024, 999), ((3, 1), (17, 2))])
def test_constant_pads(device, widths):
    rng = np.random.default_rng(7)
    two_d = isinstance(widths[0], tuple)
    host = rng.standard_normal((33, 20) if two_d else 4000).astype(np.float32)
    got = wf.pad(wf.asarray(host), widths, constant_values=-2.5)
    want = np.pad(host, widths, constant_values=-2.5)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.to_numpy(), want)


def test_a_pad_casts_its_constants_as_numpy_does(device):
    ints = np.arange(5, dtype=np.int64)
    np.testing.assert_array_equal(wf.pad(wf.asarray(ints), 2, constant_values=2.7).to_numpy(),
                                  np.pad(ints, 2, constant_values=2.7))
    unsigned = ints.astype(np.uint32)
    np.testing.assert_array_equal(
        wf.pad(wf.asarray(unsigned), (1, 2), constant_values=-1).to_numpy(),
        np.pad(unsigned, (1, 2), constant_values=-1))
    with pytest.raises(ValueError, match="NaN"):
        wf.pad(wf.asarray(ints), 1, constant_values=np.nan)


def test_narrow_rows_joined_along_rows_walk_spans_of_whole_rows(device):
    rng = np.random.default_rng(11)
    hosts = [rng.standard_normal((rows, 3)) for rows in (2100, 1, 0, 3333)]
    arrays = [wf.asarray(h) for h in hosts]
    joined = wf.concatenate(arrays, axis=0)
    want = np.concatenate(hosts, axis=0)
    np.testing.assert_array_equal((joined - 1.0).to_numpy(), want - 1.0)
    np.testing.assert_array_equal(joined[::-2].to_numpy(), want[::-2])
    # a column-dependent predicate beside them: each element tests it
    ones = wf.ones((want.shape[0], 1))
    np.testing.assert_array_equal(wf.concatenate([ones, joined], axis=1).to_numpy(),
                                  np.concatenate([np.ones((want.shape[0], 1)), want], axis=1))


@pytest.mark.parametrize("scale", [1.0, 1e6])  # 1e6: some arguments take the general path
def test_a_walk_twice_for_trigonometry_hoists_its_predicates_too(device, scale):
    rng = np.random.default_rng(13)
    xh, yh = rng.uniform(-4, 4, 3000) * scale, rng.uniform(-4, 4, 5001) * scale
    ah, bh = rng.uniform(-4, 4, (700, 9)), rng.uniform(-4, 4, (1300, 9)) * scale
    x, y, a, b = (wf.asarray(h) for h in (xh, yh, ah, bh))
    np.testing.assert_allclose(wf.sin(wf.concatenate([x, y[::-1]])).to_numpy(),
                               np.sin(np.concatenate([xh, yh[::-1]])), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(wf.cos(wf.concatenate([a, b], axis=0)).to_numpy(),
                               np.cos(np.concatenate([ah, bh])), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(wf.tan(wf.concatenate([a, b[:700]], axis=1)).to_numpy(),
                               np.tan(np.concatenate([ah, bh[:700]], axis=1)), rtol=1e-12)
