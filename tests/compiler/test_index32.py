"""Index width: element-wise kernels and rows reductions walking element by element compute
their indexes in 32 bits where every one fits (``KernelIR.index32``), in the device's 64-bit
type otherwise. Both widths must give NumPy's values; error records and gathered indexes stay
64-bit in both."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pytest

import weft as wf
from weft import memo, tuning
from weft.ir import BufferParam, IndexParam
from weft.lower import lower
from weft.realize import new_leaf
from weft.tuning import INDEX32_LIMIT
from weft.variants import fits_32_bits

NARROWED = "const int cols = "  # the grid's row length, narrowed in the kernel's locals


@pytest.fixture(params=["32-bit", "64-bit"])
def width(request, real_device, monkeypatch):
    """``real_device`` with the launches' natural index width, or with 64 bits forced. The
    remembered plans are cleared around it: they keep the width they were recorded with."""
    if request.param == "64-bit":
        monkeypatch.setattr(tuning, "INDEX32_LIMIT", 0)
    memo.MEMO.clear()
    with wf.device(real_device):
        yield request.param
    memo.MEMO.clear()


def _source_width(*arrays: wf.Array) -> str:
    return "32-bit" if NARROWED in wf.kernel_source(*arrays) else "64-bit"


def _expected_width(width: str, *arrays: wf.Array) -> str:
    """The width a reduction's kernel should have: the vector walk (a GPU's choice for
    aligned float64 rows) keeps 64-bit indexes."""
    return "64-bit" if "vector_end" in wf.kernel_source(*arrays) else width


def test_element_wise_views_match_numpy(width):
    rng = np.random.default_rng(1)
    a, c = rng.standard_normal((37, 53)), rng.standard_normal((53, 1))
    x, col = wf.asarray(a), wf.asarray(c)
    expression = x.T[::-1, 2:40:3] * 2.0 + col[::-1][:, :1]
    assert _source_width(expression) == width
    np.testing.assert_allclose(expression.to_numpy(), a.T[::-1, 2:40:3] * 2.0 + c[::-1][:, :1])
    big = rng.standard_normal((700, 900)).astype(np.float32)  # transposed: tiled reads
    y = wf.asarray(big)
    np.testing.assert_allclose((wf.exp(y.T) + y.T * 3).to_numpy(),
                               np.exp(big.T) + big.T * 3, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(1, 300007), (300, 1001), (4001, 3)])
def test_reductions_match_numpy(width, shape):
    rng = np.random.default_rng(shape[1])
    a = rng.standard_normal(shape)
    x = wf.asarray(a)
    rows = (x * x).sum(axis=1)
    assert _source_width(rows) == _expected_width(width, rows)
    np.testing.assert_allclose(rows.to_numpy(), (a * a).sum(axis=1), rtol=1e-11)
    columns = wf.exp(x).sum(axis=0)
    assert _source_width(columns) == "64-bit"  # column reductions keep 64-bit indexes
    np.testing.assert_allclose(columns.to_numpy(), np.exp(a).sum(axis=0), rtol=1e-11)
    np.testing.assert_allclose(float((x.T[::-1] * 2).sum()), (a.T[::-1] * 2).sum(), rtol=1e-11)
    np.testing.assert_array_equal(x[:, ::-1].max(axis=1).to_numpy(), a[:, ::-1].max(axis=1))


def test_triangles_and_glm_match_numpy(width):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((120, 120))
    x = wf.asarray(a)
    np.testing.assert_allclose(wf.tril(x, k=-2).sum(axis=1).to_numpy(),
                               np.tril(a, k=-2).sum(axis=1), rtol=1e-12)
    n, k = 50001, 2
    xs, ys, beta = rng.standard_normal((n, k)), rng.standard_normal(n), rng.standard_normal(k)
    density = wf.stats.normal_id_glm_lpdf(wf.asarray(ys), wf.asarray(xs), 0.3,
                                          wf.asarray(beta), 1.7)
    z = (ys - 0.3 - xs @ beta) / 1.7
    expected = -0.5 * z @ z - n * np.log(1.7) - n * 0.5 * np.log(2 * np.pi)
    np.testing.assert_allclose(float(density), expected, rtol=1e-11)


def test_failed_checks_report_the_index_and_the_whole_value(width):
    """The value's 64-bit pattern and the element's index survive a 32-bit kernel."""
    bad = -1.2345678901234568e-300
    every_other = np.ones(2 * 100003)  # a strided view: walked element by element everywhere
    every_other[2 * 77777] = bad
    sigma = wf.asarray(every_other)[::2]
    density = wf.stats.normal_lpdf(wf.asarray(np.zeros(100003)), 0.0, sigma)
    assert _source_width(density) == width
    with pytest.raises(ValueError, match=rf"sigma\[77777\] = {re.escape(repr(bad))}"):
        float(density)


def test_gathered_indexes_past_32_bits_are_out_of_bounds(width):
    """An index that 32 bits would wrap into range (2^32 + 1 -> 1) still fails."""
    x = wf.asarray(np.arange(5.0))
    with pytest.raises(IndexError, match="index 4294967297 is out of bounds"):
        x[wf.asarray(np.array([0, 2**32 + 1]))].to_numpy()
    np.testing.assert_array_equal(x[wf.asarray(np.array([4, -5]))].to_numpy(), [4.0, 0.0])


@pytest.mark.parametrize("k", [-(2**40), -4, -3, 3, 4, 2**40])
def test_triangles_past_the_matrix_keep_all_or_nothing(device, k):
    a = np.arange(12.0).reshape(3, 4)
    x = wf.asarray(a)
    np.testing.assert_array_equal(wf.triu(x, k=k).to_numpy(), np.triu(a, k=k))
    np.testing.assert_array_equal(wf.tril(x, k=k).to_numpy(), np.tril(a, k=k))


@dataclass
class _Storage:
    size: int


def _lowered():
    with wf.device("reference"):
        x = wf.asarray(np.ones((3, 4)))
        expression = x * 2.0
        return lower([(expression._node, new_leaf(x.device, expression._node))])


def test_the_width_rule_bounds_the_grid_the_buffers_and_the_index_arguments():
    ir, args, _ = _lowered()
    assert fits_32_bits(ir, args, 12)
    assert not fits_32_bits(ir, args, INDEX32_LIMIT + 1)
    assert fits_32_bits(ir, args, INDEX32_LIMIT)
    buffers = [k for k, p in enumerate(ir.params) if isinstance(p, BufferParam)]
    indexes = [k for k, p in enumerate(ir.params) if isinstance(p, IndexParam)]
    for k, too_big in [(buffers[0], _Storage(INDEX32_LIMIT + 1)),
                       (indexes[0], INDEX32_LIMIT + 1), (indexes[0], -INDEX32_LIMIT - 1)]:
        changed = list(args)
        changed[k] = too_big
        assert not fits_32_bits(ir, changed, 12), (k, too_big)
    changed = list(args)
    changed[buffers[0]] = _Storage(INDEX32_LIMIT)
    assert fits_32_bits(ir, changed, 12)
    # Every intermediate index stays below 2^31: twice the limit plus a lane's unrolled steps.
    assert 2 * INDEX32_LIMIT + 2**16 < 2**31
