"""Randomized differential tests: random expression trees and in-place writes, evaluated by
weft on every device (and the reference interpreter) and by NumPy.

A tree mixes op-table operations, dtypes, Python and NumPy scalars (bools included),
broadcasting, views with steps and transposes (of leaves and of expressions), structure,
reductions, scans and arg-reductions over each axis, ``where`` and concatenation. Each tree
is evaluated twice, with fresh array and scalar values the second time, so the remembered
plan of the first call binds the second call's values. NumPy computes each operation in the
types weft's promotion gives (``weft.operate._typing``, the rule API.md fixes), so the
comparison is of values.

``WEFT_TEST_PROFILE=large`` runs many more examples.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import weft as wf
from weft.operate import _typing
from weft.ops import OPS

LARGE = os.environ.get("WEFT_TEST_PROFILE") == "large"
PROFILE = settings(max_examples=400 if LARGE else 12, deadline=None, derandomize=not LARGE,
                   suppress_health_check=[HealthCheck.function_scoped_fixture,
                                          HealthCheck.too_slow])

DTYPES = ["bool", "int32", "int64", "float32", "float64"]
UNARY = ["negative", "abs", "square", "sin", "tanh", "exp", "floor", "sign", "logical_not",
         "isnan"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "fmax", "less", "greater_equal",
          "equal", "logical_and", "logical_or"]
ROWS, COLS = 3, 4  # every tree's full shape; leaves broadcast into it


@dataclass(frozen=True)
class Leaf:
    """An array leaf: its dtype, shape, and how it is viewed from a host array."""

    dtype: str
    shape: tuple[int, ...]
    view: str  # plain, T (transposed from its transpose), step (every other row), reverse
    structure: str  # general, lower, upper


@dataclass(frozen=True)
class Scalar:
    kind: str  # python or numpy
    dtype: str


def _leaves() -> st.SearchStrategy[Leaf]:
    shapes = st.sampled_from([(ROWS, COLS), (1, COLS), (ROWS, 1), (COLS,), ()])
    return st.builds(Leaf, st.sampled_from(DTYPES), shapes,
                     st.sampled_from(["plain", "T", "step", "reverse"]),
                     st.sampled_from(["general", "general", "lower", "upper"]))


def _scalars() -> st.SearchStrategy[Scalar]:
    return st.builds(Scalar, st.sampled_from(["python", "numpy"]),
                     st.sampled_from(["bool", "int64", "float64", "float32", "int32"]))


def _trees(depth: int) -> st.SearchStrategy[tuple]:
    base = st.one_of(_leaves().map(lambda leaf: ("leaf", leaf)),
                     _scalars().map(lambda s: ("scalar", s)))
    if depth == 0:
        return base
    child = _trees(depth - 1)
    return st.one_of(
        base,
        st.tuples(st.just("unary"), st.sampled_from(UNARY), child),
        st.tuples(st.just("binary"), st.sampled_from(BINARY), child, child),
        st.tuples(st.just("where"), child, child, child),
        st.tuples(st.just("view"), st.sampled_from(["T", "block", "step"]), child),
        st.tuples(st.just("concat"), st.sampled_from([0, 1]), child),
        st.tuples(st.just("reduce"), st.sampled_from(["sum", "max", "min", "mean"]),
                  st.sampled_from([None, 0, 1]), st.booleans(), child),
        st.tuples(st.just("scan"), st.sampled_from(["cumsum", "cummax", "cummin"]),
                  st.sampled_from([None, 0, 1]), child),
        st.tuples(st.just("arg"), st.sampled_from(["argmax", "argmin"]),
                  st.sampled_from([None, 0, 1]), st.booleans(), child),
    )


class Evaluator:
    """Builds a tree in weft and in NumPy side by side, drawing leaf values from ``rng``."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        # The roundest real type any value of the tree went through: a float32 step (say,
        # tanh of a float32 scalar, whose OpenCL form may differ from NumPy's by an ulp)
        # bounds the accuracy of a float64 result too.
        self.eps = np.finfo(np.float64).eps

    def values(self, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
        if dtype == "bool":
            return self.rng.integers(0, 2, shape).astype(bool)
        if dtype.startswith("int"):
            return self.rng.integers(-5, 6, shape).astype(dtype)
        data = self.rng.uniform(-2.0, 2.0, shape).round(3)
        return data.astype(dtype)

    def leaf(self, leaf: Leaf) -> tuple[wf.Array, np.ndarray]:
        shape = leaf.shape
        if leaf.view == "T" and len(shape) == 2:
            host = self.values(leaf.dtype, shape[::-1])
            x, a = wf.asarray(host).T, host.T
        elif leaf.view == "step" and len(shape) >= 1:
            host = self.values(leaf.dtype, (2 * shape[0] + 1, *shape[1:]))
            x, a = wf.asarray(host)[::2], host[::2]
        elif leaf.view == "reverse" and len(shape) >= 1:
            host = self.values(leaf.dtype, shape)
            x, a = wf.asarray(host)[::-1], host[::-1]
        else:
            host = self.values(leaf.dtype, shape)
            x, a = wf.asarray(host), host
        if leaf.structure != "general" and len(shape) == 2:
            x = getattr(wf, "tril" if leaf.structure == "lower" else "triu")(x)
            a = (np.tril if leaf.structure == "lower" else np.triu)(a)
        return x, np.asarray(a)

    def scalar(self, s: Scalar) -> tuple[Any, Any]:
        value = self.values(s.dtype, ())[()]
        if s.kind == "python":
            value = value.item()
            return value, value
        return value, value

    def op(self, name: str, args: list[tuple[Any, Any]]) -> tuple[wf.Array, np.ndarray]:
        op = OPS[name]
        weft_args = [w for w, _ in args]
        try:
            got = wf.apply_op(name, *weft_args)
        except TypeError:
            reject()  # an op refusing a dtype (negative of bool, as NumPy): not a value test
        except ValueError as error:  # shapes that do not broadcast: NumPy agrees
            with pytest.raises(ValueError):
                np.broadcast_shapes(*(np.shape(a) for _, a in args))
            assert "broadcast" in str(error)
            reject()
        operands = [wf.array.as_operand(w, got.device) for w in weft_args]
        arg_types, result, _ = _typing(op, operands, None)
        converted = [np.asarray(a, dtype=t.numpy) for (_, a), t in zip(args, arg_types)]
        with np.errstate(all="ignore"):
            expected = np.asarray(op.numpy(*converted)).astype(result.numpy)
        for dtype in (*arg_types, result):
            if dtype.is_float:
                self.eps = max(self.eps, float(np.finfo(dtype.numpy).eps))
        return got, expected

    def build(self, tree: tuple) -> tuple[Any, Any]:
        kind = tree[0]
        if kind == "leaf":
            return self.leaf(tree[1])
        if kind == "scalar":
            return self.scalar(tree[1])
        if kind == "unary":
            return self.op(tree[1], [self.build(tree[2])])
        if kind == "binary":
            return self.op(tree[1], [self.build(tree[2]), self.build(tree[3])])
        if kind == "where":
            condition = self.op("greater", [self.build(tree[1]), (0, 0)])
            return self.op("where", [condition, self.build(tree[2]), self.build(tree[3])])
        x, a = self.array(self.build(tree[-1]))
        if kind == "view":
            if x.ndim < 2:
                return (x[::-1], a[::-1]) if x.ndim == 1 else (x, a)
            picks = {"T": (lambda v: v.T), "block": (lambda v: v[1:, ::2]),
                     "step": (lambda v: v[::-1, ::-2])}
            return picks[tree[1]](x), picks[tree[1]](a)
        if kind == "concat":
            if x.ndim == 0:
                x, a = wf.broadcast_to(x, (1,)), a.reshape(1)
            axis = min(tree[1], x.ndim - 1)
            return wf.concatenate([x, x], axis=axis), np.concatenate([a, a], axis=axis)
        if kind == "scan":
            return self.scan(tree[1], tree[2], x, a)
        name, axis, keepdims = tree[1], tree[2], tree[3]
        if axis is not None and axis >= x.ndim:
            axis = None
        if kind == "arg":
            if a.size == 0 or (axis is not None and a.shape[axis] == 0):
                return self.scan("cumsum", axis, x, a)  # NumPy raises too: not a value test
            expected = getattr(np, name)(a, axis=axis, keepdims=keepdims)
            return getattr(wf, name)(x, axis=axis, keepdims=keepdims), np.asarray(expected)
        if name in ("max", "min") and a.size == 0:
            name = "sum"
        got = getattr(wf, name)(x, axis=axis, keepdims=keepdims)
        with np.errstate(all="ignore"):
            wide = a.astype(np.float64 if got.dtype.is_float else got.dtype.numpy)
            expected = getattr(np, name)(wide, axis=axis, keepdims=keepdims)
        return got, np.asarray(expected).astype(got.dtype.numpy)

    def scan(self, name: str, axis: int | None, x: wf.Array, a: np.ndarray
             ) -> tuple[wf.Array, np.ndarray]:
        if axis is not None and axis >= x.ndim:
            axis = None
        got = getattr(wf, name)(x, axis=axis)
        flat, along = (a.ravel(), 0) if axis is None or a.ndim == 0 else (a, axis)
        if name == "cumsum":
            expected = np.cumsum(flat.astype(got.dtype.numpy), axis=along)
        else:
            ufunc = np.maximum if name == "cummax" else np.minimum
            expected = ufunc.accumulate(flat, axis=along)
        return got, np.asarray(expected).astype(got.dtype.numpy)

    def array(self, pair: tuple[Any, Any]) -> tuple[wf.Array, np.ndarray]:
        x, a = pair
        if isinstance(x, wf.Array):
            return x, np.asarray(a)
        # a scalar becomes a 0-d array of the type weft gives it alone
        arr = wf.asarray(x)
        return arr, np.asarray(a, dtype=arr.dtype.numpy)


def _compare(got: np.ndarray, expected: np.ndarray, what: str, eps: float = 0.0) -> None:
    assert got.shape == expected.shape, (what, got.shape, expected.shape)
    assert got.dtype == expected.dtype, (what, got.dtype, expected.dtype)
    if got.dtype.kind != "f":
        np.testing.assert_array_equal(got, expected, err_msg=what)
        return
    assert np.array_equal(np.isnan(got), np.isnan(expected)), what
    finite = np.isfinite(expected)
    np.testing.assert_array_equal(got[~finite & ~np.isnan(expected)],
                                  expected[~finite & ~np.isnan(expected)], err_msg=what)
    scale = np.max(np.abs(expected[finite]), initial=1.0)
    eps = max(eps, float(np.finfo(got.dtype).eps))
    np.testing.assert_allclose(got[finite], expected[finite], rtol=64 * eps,
                               atol=256 * eps * scale, err_msg=what)


@PROFILE
@given(tree=_trees(3), seed=st.integers(0, 2**32 - 1))
def test_random_expressions_match_numpy(device, tree, seed):
    if not device.supports_fp64:
        pytest.skip("the trees use float64")
    for call in range(2):  # the second call replays the first's plan with new values
        evaluator = Evaluator(np.random.default_rng([seed, call]))
        got, expected = evaluator.array(evaluator.build(tree))
        _compare(got.to_numpy(), expected, f"call {call}: {tree}", evaluator.eps)


@PROFILE
@given(target=st.sampled_from(["all", "block", "T", "step", "diagonal", "mask", "scatter"]),
       value=_trees(2), dtype=st.sampled_from(["int32", "float32", "float64"]),
       seed=st.integers(0, 2**32 - 1))
def test_random_writes_match_numpy(device, target, value, dtype, seed):
    """``x[view] = expression`` (and masked and scattered writes) into an array that the
    expression may read itself; every write twice, with new values the second time."""
    for call in range(2):
        _write_and_compare(Evaluator(np.random.default_rng([seed, call])), target, value,
                           dtype, f"call {call}: {target} <- {value}")


_VIEWS = {"all": (slice(None), slice(None)), "block": (slice(1, 3), slice(0, 4, 2)),
          "step": (slice(None, None, -2), slice(1, None))}


def _write_and_compare(evaluator: Evaluator, target: str, value: tuple, dtype: str,
                       what: str) -> None:
    host = evaluator.values(dtype, (ROWS, COLS))
    x = wf.asarray(host)
    keep = x.copy()  # an earlier value that must not change
    source, source_np = evaluator.array(evaluator.build(value))
    if evaluator.rng.integers(0, 2):  # the value reads the destination too
        source, source_np = source + x[0, 0], source_np + host[0, 0]
    expected = host.copy()
    mask = evaluator.values("bool", (ROWS, COLS))
    rows, cols = np.array([2, 0]), np.array([1, 3])
    diagonal = np.arange(min(ROWS, COLS))

    def write_numpy() -> None:
        with np.errstate(all="ignore"):
            if target in _VIEWS:
                expected[_VIEWS[target]] = source_np
            elif target == "T":
                expected.T[...] = source_np
            elif target == "diagonal":
                expected[diagonal, diagonal] = source_np
            elif target == "mask":
                full = np.broadcast_to(source_np, expected.shape)
                expected[mask] = full.astype(dtype)[mask]
            else:
                expected[rows, cols] = source_np

    def write_weft() -> None:
        if target in _VIEWS:
            x[_VIEWS[target]] = source
        elif target == "T":
            x.T[...] = source
        elif target == "diagonal":
            wf.diagonal(x)[...] = source
        elif target == "mask":
            wf.assign(x, source, mask=wf.asarray(mask))
        else:
            x[wf.asarray(rows), wf.asarray(cols)] = source

    refused = []
    for write in (write_numpy, write_weft):
        try:
            write()
            refused.append(None)
        except (ValueError, TypeError) as error:
            refused.append(error)
    if refused[1] is not None:
        np.testing.assert_array_equal(x.to_numpy(), host)  # a failed write changes nothing
        if isinstance(refused[1], TypeError):  # weft's same-kind rule: no float into int
            assert dtype.startswith("int") and source.dtype.is_float, (refused[1], what)
        else:
            assert isinstance(refused[0], ValueError), (refused[1], what)
        return
    assert refused[0] is None, (refused[0], what)
    _compare(x.to_numpy(), expected.astype(dtype), what, evaluator.eps)
    np.testing.assert_array_equal(keep.to_numpy(), host)
