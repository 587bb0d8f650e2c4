"""Scalar arguments of remembered plans: each call binds its own values.

A repeated expression reuses the plan of its first evaluation with the new call's scalar
values. Every kind of scalar is bound by the leaf it came from, never by its value: bools
(NumPy's are singletons), one NumPy scalar used twice, ints equal to floats, signed zeros
and NaN.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import weft as wf


def _same(got: np.ndarray, expected: np.ndarray) -> None:
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_array_equal(got, expected)
    # signed zeros and NaN's place are part of the value
    assert np.array_equal(np.signbit(got), np.signbit(expected))


BOOL_PAIRS = [(True, True), (True, False), (False, True), (False, False), (True, True)]


def test_python_bools_bound_call_by_call(device):
    for a, b in BOOL_PAIRS:
        _same(wf.add(a, b).to_numpy(), np.add(a, b))
        _same(wf.logical_xor(a, b).to_numpy(), np.logical_xor(a, b))
        _same(wf.subtract(wf.asarray([3, 4]), a).to_numpy(), np.array([3, 4]) - a)


def test_where_with_bool_scalars_bound_call_by_call(device):
    m_np = np.array([True, False, True])
    m = wf.asarray(m_np)
    for a, b in BOOL_PAIRS:
        _same(wf.where(m, a, b).to_numpy(), np.where(m_np, a, b))
        _same(wf.where(m, np.bool_(a), np.bool_(b)).to_numpy(), np.where(m_np, a, b))


def test_one_numpy_scalar_feeding_two_leaves_then_two(device):
    x_np = np.array([1.0, 2.0, -3.0])
    x = wf.asarray(x_np)
    shared = np.float64(3.0)
    _same((x * shared + shared).to_numpy(), x_np * shared + shared)
    for a, b in [(np.float64(2.0), np.float64(10.0)), (np.float64(-1.0), np.float64(0.5))]:
        _same((x * a + b).to_numpy(), x_np * a + b)


@pytest.mark.parametrize("values", [
    [(1, 1.0), (1.0, 1), (2, 2.5)],  # ints that equal floats
    [(0.0, -0.0), (-0.0, 0.0), (-0.0, -0.0)],  # signed zeros
    [(math.nan, 1.0), (1.0, math.nan), (math.inf, -math.inf)],
    [(np.float64(0.5), 0.5), (0.5, np.float64(0.25))],  # NumPy and Python scalars
])
def test_scalar_kinds_bound_call_by_call(device, values):
    x_np = np.array([1.0, -2.0, 0.0])
    x = wf.asarray(x_np)
    for a, b in values:
        with np.errstate(all="ignore"):
            _same((x * a - b).to_numpy(), x_np * a - b)
            _same(wf.where(x > 0, a, b).to_numpy(), np.where(x_np > 0, float(a), float(b)))
            _same(wf.maximum(x, a).to_numpy(), np.maximum(x_np, a))


def test_stats_density_scalars_bound_call_by_call(device):
    from scipy import stats

    y_np = np.array([0.5, 1.5, -0.25])
    y = wf.asarray(y_np)
    for mu, sigma in [(0.0, 1.0), (1, 2), (True, 1), (np.float64(0.5), np.float64(0.5)),
                      (-0.0, 3.0)]:
        got = float(wf.stats.normal_lpdf(y, mu, sigma))
        assert got == pytest.approx(stats.norm.logpdf(y_np, float(mu), float(sigma)).sum(),
                                    rel=1e-12)
