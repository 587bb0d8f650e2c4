"""Gathers replay from remembered plans (memo.py): take, fancy indexing and a histogram's
places keyed by their structure, with new data every time."""

from __future__ import annotations

import numpy as np
import pytest

import weft as wf
from weft.memo import MEMO


def test_remembered_gathers_take_new_tables_indexes_and_checks(device):
    """Gathers (take, fancy indexing, a histogram's places) replay from remembered plans:
    new tables, new index arrays, new scalars, tables aliasing their indexes' source; a
    checked gather still reports an index out of range, with its value, every time."""
    rng = np.random.default_rng(15)
    MEMO.clear()
    for k in range(3):
        table, values = rng.standard_normal(40), rng.standard_normal(300)
        places = rng.integers(-40, 40, 300)
        t, v, p = wf.asarray(table), wf.asarray(values), wf.asarray(places)
        gathered = wf.take(t, p) * (k + 0.5) + v
        assert gathered._node.number is not None
        hits = wf.cache_info()["hits"]
        np.testing.assert_allclose(gathered.to_numpy(), table[places] * (k + 0.5) + values)
        if k and device.kind != "reference":  # the second time on, a replay
            assert wf.cache_info()["hits"] > hits
        m = wf.asarray(rng.standard_normal((6, 5)))
        rows, cols = wf.asarray([k, 5, 0]), wf.asarray([4, k, 1])
        np.testing.assert_allclose(m[rows, cols].to_numpy(),
                                   m.to_numpy()[[k, 5, 0], [4, k, 1]])
        twice = wf.take(t, wf.asarray(np.arange(40) % (k + 2)))  # a table read twice
        np.testing.assert_allclose((twice + t).to_numpy(),
                                   table[np.arange(40) % (k + 2)] + table)
        counts, _ = wf.histogram(v, bins=7, range=(-1.0, 1.0))
        np.testing.assert_array_equal(counts.to_numpy(),
                                      np.histogram(values, bins=7, range=(-1, 1))[0])
        with pytest.raises(IndexError, match=str(45 + k)):
            wf.take(t, wf.asarray([1, 45 + k])).to_numpy()
