"""Golden sources: the generated kernel of canonical expressions, per dialect, compiled with
no device (``compiler.compile`` with a ``Target`` made here).

A refactor that changes generated code shows up here as a diff. To accept intended changes:
``WEFT_UPDATE_GOLDEN=1 make test``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import weft as wf
from weft.backends.cuda.dialect import CUDA
from weft.backends.opencl.dialect import OPENCL
from weft.compiler import Target, compile, temporary_leaf
from weft.ir import Variant
from weft.target import Traits

GOLDEN = Path(__file__).parent / "golden"


def _cases():
    with wf.device("reference"):
        a32, b32 = wf.asarray(np.ones(4, np.float32)), wf.asarray(np.ones(4, np.float32))
        y, mu, sigma = (wf.asarray(np.ones(4)) for _ in range(3))
        m = wf.asarray(np.ones((3, 4)))
        col = wf.asarray(np.ones((3, 1)))
        i = wf.asarray(np.ones(4, np.int32))
        sq = wf.asarray(np.ones((3, 3)))
        sq32 = wf.asarray(np.ones((3, 3), np.float32))
        idx = wf.asarray(np.array([3, 0, 1, 2], np.int32))
        z = (y - mu) / sigma
        bits = wf.bitmask(np.array([True, False, True, True]))
        c32 = wf.asarray(np.ones(4, np.float32))
        return {
            "scaled_sum_f32": [2.0 * (a32 + b32)],
            "normal_pdf_f64": [wf.exp(-0.5 * z * z) / (sigma * np.sqrt(2 * np.pi))],
            "broadcast_row_col": [m * y + col],
            "int_floordiv_mod": [i // 3, i % 3],
            "where_compare": [wf.where(y > mu, y, wf.maximum(mu, sigma))],
            "index_eye": [wf.eye(3, 4, k=1)],
            "colwise_sum_of_exp": [(wf.exp(m) * 2 - m).sum(axis=0)],
            "tril_rowwise_sum_f32": [wf.tril(sq32).sum(axis=1)],
            "transposed_block_lower": [wf.exp(sq.T)[1:3, ::-1] + wf.tril(sq)[1:3, :]],
            "gather_checked": [y[idx] * wf.check(mu, lambda s: s > 0, "mu must be positive")],
            "concatenate_scaled": [wf.concatenate([wf.tril(sq), sq.T]) * 2],
            "rowwise_max": [m.max(axis=1)],
            "four_per_thread_transposed": [wf.exp(sq.T) + sq],
            "tiled_transpose": [wf.exp(sq.T) + sq, sq.T * 2],
            "cpu_tile_walk": [wf.exp(sq.T) + sq, sq.T * 2],
            "vector_f32": [2.0 * (a32 + b32), a32 * b32],
            "bitmask_where": [wf.where(bits, a32 + b32, a32)],
            "masked_add_in_place": [wf.where(bits, a32 + b32, c32)],
            "cpu_walk_broadcast": [wf.log(m) * y + col],
            "cpu_walk_spans": [wf.concatenate([y, 2 * mu]),
                               wf.concatenate([wf.tril(m[:, :3]), sq.T], axis=0),
                               wf.sin(wf.concatenate([y, mu])),
                               wf.cos(wf.concatenate([m, sq.T[:, :1] + m[:1]], axis=0))],
        }, {"masked_add_in_place": [c32]}  # written in place: a conditional store


CASES, IN_PLACE = _cases()  # expressions; the destinations of those written in place
VECTORS = Traits(vector_width=4, vector_from=0)  # as GPUs launch large float32 grids
TRAITS = {
    "four_per_thread_transposed": Traits(per_thread=4, per_thread_from=0),  # large grids
    "tiled_transpose": Traits(tiles_transposes=True),  # as OpenCL and CUDA devices
    "vector_f32": VECTORS,
    "masked_add_in_place": VECTORS,
    "cpu_walk_broadcast": Traits(walks_elements=True, reciprocal_rows=True),  # as PoCL
    "cpu_tile_walk": Traits(tiles_transposes=True, walks_elements=True),  # as PoCL
    "cpu_walk_spans": Traits(walks_elements=True, reciprocal_rows=True),  # as PoCL
}  # the others: a device that prefers nothing (one element per thread, no split)


def _dest(x: wf.Array) -> object:
    return temporary_leaf(x.shape, x.dtype, x._node.structure)


@pytest.mark.parametrize("dialect", [OPENCL, CUDA], ids=["opencl", "cuda"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_generated_source_matches_golden(name, dialect):
    dests = IN_PLACE.get(name) or [None] * len(CASES[name])
    outputs = [(x._node, _dest(x) if d is None else d._node)
               for x, d in zip(CASES[name], dests)]
    kernels = compile(outputs, Target(dialect, TRAITS.get(name, Traits()))).kernels
    source = "\n".join(k.source(dialect) for k in kernels)
    path = GOLDEN / f"{name}.{'cl' if dialect is OPENCL else 'cu'}"
    if os.environ.get("WEFT_UPDATE_GOLDEN") or not path.exists():
        path.write_text(source)
    assert source == path.read_text(), f"generated source changed: diff against {path}"


@pytest.mark.parametrize(("dialect", "suffix"), [(OPENCL, "cl"), (CUDA, "cu")],
                         ids=["opencl", "cuda"])
def test_last_group_reduction_matches_golden(dialect, suffix):
    """A full reduction split over work-groups, finished by its last group: one kernel whose
    splits walk the row together (woven: the device walks element by element), that writes
    partial results, counts finished groups (CUDA: a fence, then a relaxed add; OpenCL C 3.0:
    a device-scope acquire-release add) and, in the last one, combines them, scales (the
    mean) and resets the counter."""
    with wf.device("reference"):
        y, mu = wf.asarray(np.ones(20000)), wf.asarray(np.ones(20000))
        expression = wf.mean(wf.check(y, lambda s: s > 0, "y must be positive") - mu)
    target = Target(dialect, Traits(last_group=True, reduction_groups=64))
    (kernel,) = compile([(expression._node, _dest(expression))], target).kernels
    assert kernel.groups > 1  # split, and no combining pass
    source = kernel.source(dialect)
    path = GOLDEN / f"last_group_mean_checked.{suffix}"
    if os.environ.get("WEFT_UPDATE_GOLDEN") or not path.exists():
        path.write_text(source)
    assert source == path.read_text(), f"generated source changed: diff against {path}"


@pytest.mark.parametrize("dialect", [OPENCL, CUDA], ids=["opencl", "cuda"])
def test_rows_vector_walk_matches_golden(dialect):
    """A rows reduction walking its operands two float64 at a time, with a fused check: the
    vector loads, the body once per element, the scalar tail; with 64-bit indexes but 32-bit
    columns, as for more than 2^30 elements in rows under 2^31."""
    with wf.device("reference"):
        x, beta = wf.asarray(np.ones((3, 1024))), wf.asarray(np.ones(1024))
        expression = (wf.check(x, lambda v: v > 0, "x must be positive")
                      * beta.reshape(1, 1024)).sum(axis=1)
    (kernel,) = compile([(expression._node, _dest(expression))], Target(dialect, Traits())
                        ).kernels
    assert kernel.variant.vector == 1 and len(kernel.ir.walked_loads) == 2  # element-wise
    kernel.variant = Variant(vector=2, unroll=4, int_columns=True, guarded_tail=True,
                             index32=False, fixed=kernel.variant.fixed)
    source = kernel.source(dialect)
    path = GOLDEN / f"rows_vector_walk.{'cl' if dialect is OPENCL else 'cu'}"
    if os.environ.get("WEFT_UPDATE_GOLDEN") or not path.exists():
        path.write_text(source)
    assert source == path.read_text(), f"generated source changed: diff against {path}"
