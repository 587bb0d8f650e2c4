"""NumPy's ndarray methods and attributes on wf.Array (API.md 14), against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf

A = np.random.default_rng(41).standard_normal((3, 4)) * 3


def test_methods_match_numpys(device):
    x = wf.asarray(A)
    pairs = [
        (x.clip(-1, 2), A.clip(-1, 2)), (x.clip(max=0.5), A.clip(max=0.5)),
        (x.round(1), A.round(1)), (x.dot(x.T), A.dot(A.T)),
        (x.trace(), A.trace()), (x.trace(1), A.trace(1)),
        (x.diagonal(-1), A.diagonal(-1)), (x[0:1].squeeze(), A[0:1].squeeze()),
        (x[:, 1:2].squeeze(axis=1), A[:, 1:2].squeeze(axis=1)),
        (x.swapaxes(0, 1), A.swapaxes(0, 1)), (x.take([0, 5, 11]), A.take([0, 5, 11])),
        (x.take([2, 0], axis=1), A.take([2, 0], axis=1)),
        (x.take([1], axis=0), A.take([1], axis=0)), (x.conj(), A.conj()),
        (divmod(x, 1.5)[0], divmod(A, 1.5)[0]), (divmod(x, 1.5)[1], divmod(A, 1.5)[1]),
        (divmod(2.0, x)[1], divmod(2.0, A)[1]),
    ]
    for k, (got, expected) in enumerate(pairs):
        assert isinstance(got, wf.Array) and got.shape == expected.shape, k
        np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-12, err_msg=str(k))
    assert x.item(5) == A.item(5) and x.item(2, 3) == A.item(2, 3)
    assert wf.asarray([4.5]).item() == 4.5
    assert (x.itemsize, x.nbytes) == (A.itemsize, A.nbytes)
    assert wf.asarray(A.astype(np.float32)).nbytes == A.astype(np.float32).nbytes
    assert x.tobytes() == A.tobytes()
    filled = x.copy()
    filled.fill(2.5)
    np.testing.assert_array_equal(filled.to_numpy(), np.full_like(A, 2.5))
    np.testing.assert_array_equal(x.to_numpy(), A)  # the copy was filled, not x
    with pytest.raises(ValueError, match="not of length one"):
        x.squeeze(axis=0)
