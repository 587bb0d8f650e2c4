"""Laziness, value semantics, copy-on-write, evaluation triggers, in-place writes, errors."""

from __future__ import annotations

import re

import numpy as np
import pytest

import weft as wf
from conftest import launches


def test_operations_are_lazy_until_observed(device):
    x = wf.asarray([1.0, 2.0, 3.0])
    before = launches()
    y = wf.exp(x) * 2 + x
    assert y.is_lazy and not y.ready
    assert launches() == before
    np.testing.assert_allclose(y.to_numpy(), np.exp([1.0, 2, 3]) * 2 + [1, 2, 3])
    assert launches() == before + 1
    assert not y.is_lazy


@pytest.mark.parametrize("observe", [
    lambda y: y.to_numpy(), lambda y: np.asarray(y), lambda y: y.tolist(), repr, str,
])
def test_every_observation_evaluates(device, observe):
    y = wf.asarray([2.0, 3.0]) * 2
    observe(y)
    assert not y.is_lazy


def test_a_zero_dimensional_array_converts_to_a_zero_dimensional_ndarray(device):
    total = wf.sum(wf.asarray([1.5, 2.0, 3.0]))
    for got in (np.asarray(total), total.to_numpy(), np.asarray(wf.asarray(2.5) * 2)):
        assert isinstance(got, np.ndarray) and got.shape == ()
    assert np.asarray(total) == 6.5 and np.asarray(total, dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("observe, expected", [
    (lambda e: e.item(), 4.0), (float, 4.0), (int, 4), (bool, True),
])
def test_observing_an_element_computes_only_that_view(device, observe, expected):
    y = wf.asarray([2.0, 3.0]) * 2
    assert observe(y[0]) == expected
    assert y.is_lazy  # a block of an expression is read in its own fused kernel


def test_value_semantics_lazy_array_keeps_inputs_at_build_time(device):
    x = wf.asarray([1.0, 2.0])
    y = x + 1
    x += 10  # writes x after y was built
    x[...] = 5.0
    assert y.tolist() == [2.0, 3.0]
    assert x.tolist() == [5.0, 5.0]


def test_copy_is_shared_until_written(device):
    x = wf.asarray([1, 2, 3])
    y = x.copy()
    assert y._node.attrs.storage is x._node.attrs.storage
    y += 1
    assert x.tolist() == [1, 2, 3] and y.tolist() == [2, 3, 4]
    assert y._node.attrs.storage is not x._node.attrs.storage


def test_inplace_writes_existing_buffer_when_not_shared(device):
    x = wf.asarray([1.0, 2.0])
    storage = x._node.attrs.storage
    x += 1
    x *= 3
    assert x._node.attrs.storage is storage
    assert x.tolist() == [6.0, 9.0]


def test_inplace_same_kind_rule(device):
    x = wf.asarray([1, 2], dtype=wf.int32)
    with pytest.raises(TypeError, match="same-kind"):
        x += 1.5
    assert x.tolist() == [1, 2]
    x += 1
    assert x.dtype == wf.int32 and x.tolist() == [2, 3]


def test_setitem_whole_and_regions(device):
    x = wf.zeros((3, 4), dtype=wf.int32).eval()
    x[...] = 7
    x[1] = wf.asarray([1, 2, 3, 4], dtype=wf.int32)
    x[:, ::3] = -1
    x[2, 1:3] = x[1, 1:3] * 10
    ref = np.full((3, 4), 7, dtype=np.int32)
    ref[1] = [1, 2, 3, 4]
    ref[:, ::3] = -1
    ref[2, 1:3] = ref[1, 1:3] * 10
    np.testing.assert_array_equal(x.to_numpy(), ref)


def test_region_write_keeps_other_holders_value(device):
    x = wf.asarray(np.arange(6.0))
    y = x.copy()
    view = x[::2]
    x[1:3] = -1.0
    assert y.tolist() == [0, 1, 2, 3, 4, 5]
    assert view.tolist() == [0, 2, 4]
    assert x.tolist() == [0, -1, -1, 3, 4, 5]


def test_write_errors_leave_destination_unchanged(device):
    x = wf.asarray([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match=r"\(3,\).*\(2, 2\)"):
        x[...] = wf.asarray([1.0, 2.0, 3.0])
    with pytest.raises(TypeError):
        x[...] = "text"
    assert x.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_eval_several_outputs_in_one_kernel(device):
    x = wf.asarray(np.linspace(0, 1, 100))
    before = launches()
    a, b, c = wf.eval(x + 1, x * 2, wf.sin(x))
    assert launches() == before + 1
    np.testing.assert_allclose(c.to_numpy(), np.sin(np.linspace(0, 1, 100)))
    np.testing.assert_allclose(b.to_numpy(), np.linspace(0, 2, 100))


def test_eval_different_shapes_one_kernel_each(device):
    x = wf.asarray(np.ones((3, 2)))
    before = launches()
    wf.eval(x + 1, x[0] * 2)
    assert launches() == before + 2


def test_fused_is_one_kernel_unfused_is_one_per_op(device):
    a, b = wf.asarray([1.0, 2.0]), wf.asarray([3.0, 4.0])
    before = launches()
    (2.0 * (a + b)).eval()
    assert launches() == before + 1
    with wf.config(fuse=False):
        before = launches()
        y = (2.0 * (a + b)).eval()
        assert launches() == before + 2
        z = (wf.exp(a) * 2 - a / b).eval()
        np.testing.assert_allclose(z.to_numpy(), np.exp([1, 2.0]) * 2 - [1 / 3, 0.5])
    assert y.tolist() == [8.0, 12.0]


def test_cache_hit_on_new_sizes_and_scalars(real_device):
    x = wf.asarray(np.arange(10.0))
    (x * 3.0 + 1.0).eval()
    info = wf.cache_info()
    y = wf.asarray(np.arange(1000.0).reshape(10, 100))[0]
    (y * 5.0 + 2.0).eval()
    after = wf.cache_info()
    assert after["compiles"] == info["compiles"]
    assert after["hits"] == info["hits"] + 1


def test_aliasing_changes_the_key_and_loads_once(real_device):
    x = wf.asarray([1.0, 2.0])
    y = wf.asarray([3.0, 4.0])
    source = wf.kernel_source(x + x)
    assert source.count("b0[") == 1 and "b1" in source  # one input, one output buffer
    assert "b2" in wf.kernel_source(x + y)
    assert (x + x).tolist() == [2.0, 4.0]


def test_common_subexpression_computed_once(real_device):
    a, b = wf.asarray([1.0, 2.0]), wf.asarray([4.0, 8.0])
    t = a / b
    src = wf.kernel_source(t * t)
    assert src.count("// divide") == 1
    # Structurally equal subtrees built separately are one computation too.
    src = wf.kernel_source(wf.exp(a) + wf.exp(a))
    assert src.count("// exp") == 1 and "(v1 + v1)" in src


def test_broadcasting_rows_columns_scalars(device):
    m = np.arange(12.0).reshape(3, 4)
    row, col = np.arange(4.0), np.arange(3.0).reshape(3, 1)
    got = (wf.asarray(m) * wf.asarray(row) + wf.asarray(col) - wf.asarray(np.float64(2)))
    np.testing.assert_allclose(got.to_numpy(), m * row + col - 2)
    with pytest.raises(ValueError, match=r"add.*\(3, 4\).*\(3,\)"):
        wf.asarray(m) + wf.asarray([1.0, 2, 3])


def test_factories_are_lazy_generators(device):
    assert wf.zeros((2, 3)).is_lazy
    np.testing.assert_array_equal(wf.ones((2, 3), dtype=wf.int32).to_numpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(wf.full((2,), 2.5).to_numpy(), [2.5, 2.5])
    np.testing.assert_array_equal(wf.arange(5).to_numpy(), np.arange(5))
    np.testing.assert_allclose(wf.arange(0.5, 3.0, 0.5).to_numpy(), np.arange(0.5, 3.0, 0.5))
    np.testing.assert_array_equal(wf.arange(10, 0, -3).to_numpy(), np.arange(10, 0, -3))
    np.testing.assert_array_equal(wf.eye(3, 4, k=1).to_numpy(), np.eye(3, 4, k=1))
    np.testing.assert_array_equal(wf.row_index((2, 3)).to_numpy(),
                                  np.repeat(np.arange(2), 3).reshape(2, 3))
    np.testing.assert_array_equal(wf.col_index((2, 3)).to_numpy(), np.tile(np.arange(3), (2, 1)))
    assert wf.row_index((2, 3)).dtype == wf.int32
    assert wf.zeros_like(wf.asarray([1, 2])).dtype == wf.int64
    assert wf.arange(0).shape == (0,) and wf.arange(0).tolist() == []


def test_empty_and_zero_sized(device):
    x = wf.asarray(np.zeros((0, 3)))
    assert (x + 1).to_numpy().shape == (0, 3)
    assert wf.zeros((4, 0)).to_numpy().shape == (4, 0)


def test_zero_d_arrays_and_items(device):
    x = wf.asarray(3.5)
    assert x.shape == () and x.ndim == 0 and x.size == 1
    assert float(x * 2) == 7.0 and (x * 2).item() == 7.0
    with pytest.raises(TypeError):
        len(x)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(wf.asarray([1, 2]) > 0)


def test_basic_indexing_views(device):
    m = np.arange(20).reshape(4, 5)
    x = wf.asarray(m)
    for key in [1, -1, (2, 3), (slice(None, None, -1),), (slice(1, 3), slice(None, None, 2)),
                (slice(None), 4), (Ellipsis, 1), (slice(10, 20),)]:
        np.testing.assert_array_equal(x[key].to_numpy(), m[key])
    np.testing.assert_array_equal(x.T.to_numpy(), m.T)
    np.testing.assert_array_equal((x.T * 2 + x.T).to_numpy(), m.T * 3)
    with pytest.raises(IndexError, match="out of bounds"):
        x[4]
    with pytest.raises(IndexError, match="too many"):
        x[1, 2, 3]


def test_reshape(device):
    x = wf.arange(6)
    np.testing.assert_array_equal(x.reshape(2, 3).to_numpy(), np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(x.reshape(2, 3).T.reshape(-1).to_numpy(),
                                  np.arange(6).reshape(2, 3).T.reshape(-1))
    with pytest.raises(ValueError, match="reshape"):
        x.reshape(4, 2)


def test_asarray_sources(device):
    assert wf.asarray([1, 2]).dtype == wf.int64
    assert wf.asarray([1.0]).dtype == wf.default_real()
    assert wf.asarray(np.ones(2, np.float32)).dtype == wf.float32
    with pytest.raises(TypeError, match="weft has no int16 arrays"):
        wf.asarray(np.ones(2, np.int16))  # never widened behind the user's back
    assert wf.asarray(np.ones(2, np.int16), dtype=wf.int32).dtype == wf.int32
    big_endian = np.arange(3.0, dtype=">f8")
    assert wf.asarray(big_endian).dtype == wf.float64
    np.testing.assert_array_equal(wf.asarray(big_endian).to_numpy(), [0.0, 1.0, 2.0])
    assert wf.asarray([True]).dtype == wf.bool_
    assert wf.asarray([1, 2], dtype=wf.float32).dtype == wf.float32
    np.testing.assert_array_equal(wf.asarray(np.from_dlpack(np.arange(3.0))).to_numpy(),
                                  [0, 1, 2])
    x = wf.asarray([1.0])
    assert wf.asarray(x) is x
    exported = wf.asarray([1.0, 2.0])
    if device.kind == "cuda":  # device memory: NumPy asks for a host copy explicitly
        assert exported.__dlpack_device__()[0] == 2
        with pytest.raises(BufferError):
            np.from_dlpack(exported)
        try:  # NumPy >= 2.1 asks the producer for a host copy with dl_device
            host = np.from_dlpack(exported, device="cpu")
        except TypeError:
            pytest.skip("this NumPy cannot ask DLPack producers for a host copy")
        np.testing.assert_array_equal(host, [1.0, 2.0])
    else:
        np.testing.assert_array_equal(np.from_dlpack(exported), [1.0, 2.0])
    with pytest.raises(ValueError, match="at most 2"):
        wf.asarray(np.zeros((2, 2, 2)))
    with pytest.raises(TypeError):
        wf.asarray(np.zeros(2, np.complex128))
    with pytest.raises(TypeError):
        wf.asarray(np.zeros(2, np.uint64))


def test_unsupported_operands_raise_type_error(device):
    x = wf.asarray([1.0])
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x + 1j
    with pytest.raises(TypeError, match="subtract"):
        wf.asarray([True]) - wf.asarray([False])
    with pytest.raises(OverflowError):
        wf.asarray([1], dtype=wf.int32) + 2**40


def test_numpy_operands_defer_to_weft(device):
    x = wf.asarray([1.0, 2.0])
    y = np.array([10.0, 20.0]) + x
    assert isinstance(y, wf.Array) and y.tolist() == [11.0, 22.0]


def test_ready_and_synchronize(device):
    y = (wf.asarray(np.ones(1000)) * 2).eval()
    wf.synchronize()
    assert y.ready


def test_repr_shows_values_dtype_device(device):
    text = repr(wf.asarray([1.5, 2.0]))
    assert "1.5" in text and "float64" in text and str(device) in text


def test_synchronize_waits_only_where_the_thread_queued_work(real_device):
    """A thread that never used a device makes no queue or stream there to wait on (waiting on
    an idle NVIDIA OpenCL queue cost 25-50 us per synchronize)."""
    import threading

    handle = real_device.handle
    existing = getattr(handle, "existing_queue", None) or handle.existing_stream
    seen = []

    def idle_thread():
        wf.synchronize()
        seen.append(existing())

    t = threading.Thread(target=idle_thread)
    t.start()
    t.join()
    assert seen == [None]
    y = (wf.asarray(np.ones(1000)) * 2).eval()
    wf.synchronize()
    assert existing() is not None and y.ready


def test_long_chains_of_operations_evaluate_without_deep_recursion(device):
    """A loop that builds ``e = e + 1`` more times than Python's recursion limit: hashing,
    lowering and scheduling walk the expression without recursing per level."""
    import sys

    depth = sys.getrecursionlimit() + 200
    x_np = np.arange(6.0).reshape(2, 3)
    e = wf.asarray(x_np)
    for _ in range(depth):
        e = e + 1
    np.testing.assert_array_equal(e.to_numpy(), x_np + depth)
    c = e - e.mean(axis=0)
    np.testing.assert_allclose(c.to_numpy(), x_np - x_np.mean(axis=0))
    assert float(e.sum()) == (x_np + depth).sum()


def test_arrays_pickle_and_copy_by_value(device):
    import copy
    import pickle

    x_np = np.arange(6.0).reshape(2, 3)
    x = wf.asarray(x_np)
    lazy = x * 2 + 1
    for dtype in (np.float32, np.int32, np.bool_, np.int64):
        small = wf.asarray(np.array([1, 0, 3]).astype(dtype))
        back = pickle.loads(pickle.dumps(small))
        assert back.dtype == small.dtype and back.tolist() == small.tolist()
    back = pickle.loads(pickle.dumps(lazy))
    np.testing.assert_array_equal(back.to_numpy(), x_np * 2 + 1)
    lower = wf.tril(wf.asarray(np.arange(9.0).reshape(3, 3)))
    assert pickle.loads(pickle.dumps(lower)).structure == "lower"
    assert float(pickle.loads(pickle.dumps(wf.sum(x)))) == 15.0
    deep, shallow = copy.deepcopy(lazy), copy.copy(x)
    shared = copy.deepcopy({"a": x, "b": [x]})
    x[0, 0] = 100.0  # the copies keep the values they had
    np.testing.assert_array_equal(deep.to_numpy(), x_np * 2 + 1)
    np.testing.assert_array_equal(shallow.to_numpy(), x_np)
    assert shared["a"] is shared["b"][0]
    np.testing.assert_array_equal(shared["a"].to_numpy(), x_np)


def test_a_node_that_was_never_made_is_deleted_quietly(capfd):
    import gc

    from weft import expr

    expr.Node.__new__(expr.Node)  # as copy and pickle make objects, without __init__
    gc.collect()
    assert "Exception ignored" not in capfd.readouterr().err


@pytest.mark.parametrize("call, words", [
    (lambda: wf.zeros((2.5, 3)), "a size in shape must be an integer, not float 2.5"),
    (lambda: wf.zeros("ab"), "a size in shape must be an integer, not str"),
    (lambda: wf.ones(np.float64(3)), "not float64"),
    (lambda: wf.eye("3"), "eye: n or m must be an integer, not str '3'"),
    (lambda: wf.eye(3, k=1.0), "eye: k must be an integer"),
    (lambda: wf.tril(wf.ones((3, 3)), k="1"), "tril: k must be an integer"),
    (lambda: wf.triu(wf.ones((3, 3)), k=0.5), "triu: k must be an integer"),
    (lambda: wf.diagonal(wf.ones((3, 3)), 1.0), "diagonal: k must be an integer"),
    (lambda: wf.arange(6.0).reshape("a"), "reshape: a size in the shape must be an integer"),
    (lambda: wf.arange(6.0).reshape(2.0, 3), "reshape: a size in the shape"),
    (lambda: wf.broadcast_to(wf.asarray([1.0]), "ab"), "broadcast_to: a size in shape"),
])
def test_wrong_typed_arguments_raise_type_error(device, call, words):
    with pytest.raises(TypeError, match=re.escape(words)):
        call()


def test_integer_arguments_may_be_numpy_integers(device):
    assert wf.zeros(np.int64(3)).shape == (3,)
    assert wf.zeros([np.int32(2), 3]).shape == (2, 3)
    assert wf.eye(np.int64(2), k=np.int32(1)).tolist() == [[0.0, 1.0], [0.0, 0.0]]
    assert wf.arange(6).reshape(np.int64(3), -1).shape == (3, 2)


def test_a_written_value_drops_extra_leading_ones_as_numpy(device):
    x = wf.zeros(3).eval()
    x[...] = wf.asarray([[5.0]])
    assert x.tolist() == [5.0, 5.0, 5.0]
    m = wf.zeros((2, 3)).eval()
    wf.diagonal(m)[...] = wf.asarray([[1.0, 2.0]]) * 2
    assert m.tolist() == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0]]
    with pytest.raises(ValueError, match="could not broadcast"):
        x[...] = wf.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.tolist() == [5.0, 5.0, 5.0]


def test_public_namespaces_list_each_name_once_and_no_modules():
    import types

    assert len(wf.__all__) == len(set(wf.__all__))
    for namespace in (wf.linalg, wf.stats, wf.random):
        names = dir(namespace)
        assert names == sorted(namespace.__all__)
        assert not [n for n in names if isinstance(getattr(namespace, n), types.ModuleType)]


def test_op_functions_show_numpy_parameter_names():
    import inspect

    assert list(inspect.signature(wf.exp).parameters) == ["x", "dtype", "out", "casting"]
    assert list(inspect.signature(wf.add).parameters) == ["x1", "x2", "dtype", "out", "casting"]
    assert float(wf.exp(wf.asarray(0.0), dtype=wf.float32)) == 1.0


def test_to_numpy_gives_a_new_array_the_caller_owns(device):
    """A whole buffer comes back as the download itself (one copy, not two), a view through
    its strides; either way writing the NumPy array changes nothing in weft."""
    a = np.arange(12.0).reshape(3, 4)
    x = wf.asarray(a)
    for made, expected in ((x * 1.0, a), (x, a), (x.T, a.T), (x[1:, ::2], a[1:, ::2])):
        first = made.to_numpy()
        np.testing.assert_array_equal(first, expected)
        first[...] = -1.0
        np.testing.assert_array_equal(made.to_numpy(), expected)
    np.testing.assert_array_equal(x.to_numpy(), a)
