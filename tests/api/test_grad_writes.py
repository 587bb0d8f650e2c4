"""Gradients through writes inside the differentiated function: ``y[key] = v``, in-place
operators on slices and on arguments, ``wf.assign`` (masked too) and ``wf.set_diagonal``,
against central finite differences in float64 on every device. A write replaces elements:
the values written take the adjoint of the elements they land in, the array before the write
the rest. Before this, a gradient through a write lost what the write replaced (a gradient
of zero, silently)."""

from __future__ import annotations

import numpy as np
import pytest
from test_grad import _check

import weft as wf

RNG = np.random.default_rng(11)
X = RNG.uniform(0.5, 1.5, 5)
A = RNG.uniform(0.5, 1.5, (3, 4))


def _slice_scaled(x):
    x = x + 0
    x[1:] *= 3
    return (x ** 2).sum()


def _slice_squared(x):
    # The reverse pass reads the slice before the write (2 * old): the write must not
    # overwrite the buffer the old value lives in.
    x = x + 0
    x[1:4] **= 2
    return (x * x).sum()


def _element_from_another(x):
    y = x * 2
    y[0] = x[1] ** 2
    return (y * x).sum()


def _argument_in_place(x):
    x += 1
    x *= x
    return x.sum()


def _rows_and_columns(a):
    b = wf.zeros((3, 4))
    b[0] = wf.sin(a[1])
    b[:, 1] = a[:, 2] * 2  # overwrites b[0, 1] written above
    return (b * b * wf.asarray(np.arange(12.0).reshape(3, 4))).sum()


def _transposed_block(a):
    b = wf.ones((4, 3))
    b.T[1:3, 0:2] = wf.exp(a[:2, :2])
    return (b ** 3).sum()


def _strided(x):
    y = x + 0
    y[::2] = wf.sin(y[::2])
    return (y * wf.asarray(np.arange(5.0))).sum()


def _masked_assign(x):
    y = wf.exp(x)
    wf.assign(y, x * x, mask=x > 1.0)
    return y.sum()


def _diagonal(a):
    s = a[:, :3] + 0
    wf.set_diagonal(s, wf.log(a[0, :3]))
    return (s ** 2).sum()


def _old_values_around_an_index_write(x):
    y = x * x
    y[wf.asarray([0, 3])] = 5.0
    return (y ** 2).sum()


def _values_through_indexes(x):
    y = x * x
    y[wf.asarray([3, 0, 4])] = wf.sin(x[1:4]) * 2
    return (y ** 2 * wf.asarray(np.arange(1.0, 6.0))).sum()


def _values_through_row_and_column_indexes(a):
    b = a * 0.5
    b[wf.asarray([[0, 2], [1, 2]]), wf.asarray([[3, 0], [1, 1]])] = wf.exp(a[1:3, 2:4])
    return (b ** 3).sum()


def _rows_through_an_index(a):
    b = wf.ones((3, 4))
    b[wf.asarray([2, 0]), 1:3] = a[:2, ::2] ** 2  # one index array and a slice
    return (b * a).sum()


CASES = {
    "a slice scaled in place": (_slice_scaled, X),
    "a slice squared in place": (_slice_squared, X),
    "an element replaced by another's square": (_element_from_another, X),
    "an argument updated in place": (_argument_in_place, X),
    "rows and columns written over each other": (_rows_and_columns, A),
    "a transposed block": (_transposed_block, A),
    "a strided slice": (_strided, X),
    "a masked assign": (_masked_assign, X),
    "a diagonal": (_diagonal, A),
    "the rest of an array after an index write": (_old_values_around_an_index_write, X),
    "values written through an index array": (_values_through_indexes, X),
    "values written through row and column index arrays":
        (_values_through_row_and_column_indexes, A),
    "rows written through an index array and a slice": (_rows_through_an_index, A),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_through_writes_match_finite_differences(device, name):
    f, *args = CASES[name]
    _check(f, *args)


def test_arguments_written_in_place_are_left_alone_for_the_caller(device):
    x = wf.asarray(X)
    value, g = wf.value_and_grad(_argument_in_place)(x)
    np.testing.assert_array_equal(x.to_numpy(), X)
    np.testing.assert_allclose(float(value), ((X + 1) ** 2).sum(), rtol=1e-12)
    np.testing.assert_allclose(g.to_numpy(), 2 * (X + 1), rtol=1e-12)


def test_repeated_indexes_give_the_gradient_to_the_value_that_landed(device):
    """Where an index repeats, one of its values lands (which one, the kernel does not say);
    that value takes the element's adjoint and the others none, consistently with the
    value computed, traced too."""
    index = np.array([0, 2, 2, 4, 0, 2])
    weights = np.arange(1.0, 6.0)

    def written(v):
        y = wf.zeros(5)
        y[wf.asarray(index)] = v * v
        return y

    def value_and_pullback(v, w):
        y, pullback = wf.vjp(written, v)
        return y, pullback(w)[0]

    traced = wf.function(value_and_pullback)
    for scale in (1.0, 1.5):
        v = RNG.uniform(0.5, 1.5, index.size) * scale  # distinct values
        for run in (value_and_pullback, traced):
            y, g = run(wf.asarray(v), wf.asarray(weights))
            y, g = y.to_numpy(), g.to_numpy()
            landed = y[index] == v * v  # the value in y says which write landed
            assert [int(landed[index == i].sum()) for i in (0, 2, 4)] == [1, 1, 1]
            assert y[1] == y[3] == 0.0
            np.testing.assert_allclose(g, np.where(landed, 2 * v * weights[index], 0.0),
                                       rtol=1e-14)


def test_a_traced_gradient_through_a_write_replays_with_new_values(device):
    traced = wf.function(wf.value_and_grad(_slice_squared))
    for scale in (1.0, 1.5, 0.5):
        x = X * scale
        value, g = traced(wf.asarray(x))
        y = x.copy()
        y[1:4] **= 2
        expected = 2 * y
        expected[1:4] *= 2 * x[1:4]
        np.testing.assert_allclose(float(value), (y * y).sum(), rtol=1e-12)
        np.testing.assert_allclose(g.to_numpy(), expected, rtol=1e-12)
