"""Scale-out through Dask: weft Arrays backed by Dask arrays, evaluated block by block with
weft's fused kernels on the workers' devices.

``from_dask(darr)`` gives an Array on the ``dask`` device. Every lazy operation works on it and
builds weft's usual expression. Evaluating it (``eval``, ``to_dask``, observation) lowers the
expression to a Dask graph:

- each maximal element-wise sub-expression (ops, casts, broadcasts, checks) becomes one
  ``blockwise`` layer whose per-block function rebuilds that sub-expression
  over the blocks, on the worker's default weft device, and runs it as one kernel (compiled
  once per worker process, or loaded from weft's disk cache);
- a reduction becomes a ``blockwise`` layer of fused per-block partial reductions (producer
  and reduction in one kernel) and a ``dask.array.reduction`` tree combine of the partials;
- transposes, slices and diagonals are Dask's own indexing, ``tril``/``triu`` Dask's own
  functions, joins ``dask.array.concatenate``, and row/column indexes ``dask.array.arange``.

Tokens are deterministic (a sub-expression's recipe and its inputs), ``meta`` is always
given, and ``blockwise`` unifies the chunks of its inputs. Observation computes through the
active Dask client if there is one, else Dask's default scheduler. Integer-array indexing
(gathers and scatters) and writes into views of a Dask-backed array raise
``NotImplementedError``.

>>> import dask.array as da, numpy as np
>>> import weft as wf, weft.dask
>>> x = weft.dask.from_dask(da.arange(12.0, chunks=5).reshape(3, 4))
>>> y = (wf.exp(x) * 2).sum(axis=0)
>>> np.allclose(y.to_numpy(), (np.exp(np.arange(12.0).reshape(3, 4)) * 2).sum(axis=0))
True
"""

from __future__ import annotations

from typing import Any

import dask
import dask.array as da
import numpy as np

from . import dtypes as dt
from . import expr as ex
from .array import Array
from .creation import asarray
from .devices import Device, current_device
from .indexing import AffineMap, as_2d
from .ops import OPS
from .storage import Storage

__all__ = ["from_dask", "to_dask", "gpu_cluster", "DEVICE"]

# Node kinds computed inside a per-block kernel; everything else is a Dask operation.
_FUSED = (ex.MAP, ex.CAST, ex.BROADCAST, ex.CHECK, ex.SCALAR)


class _Handle:
    name = "Dask"
    supports_fp64 = True  # the workers' devices decide; they raise if they cannot


class DaskBackend:
    """The ``dask`` device's backend: a storage holds a Dask array of its leaf's shape (its
    evaluator, ``_evaluate``, builds Dask graphs instead of launching kernels)."""

    kind = "dask"
    dialect = None

    def allocate(self, device: Any, dtype: Any, size: int) -> Storage:
        return Storage(device, None, dtype, size)

    def upload(self, device: Any, data: np.ndarray) -> Storage:
        return Storage(device, da.from_array(data, chunks="auto"),
                       dt.from_numpy_dtype(data.dtype), data.size)

    def download(self, *storages: Storage) -> list[np.ndarray]:
        return [np.ascontiguousarray(_compute(s.buffer)).reshape(-1) for s in storages]

    def map_for_reading(self, storage: Storage) -> None:
        return None

    def read_element(self, storage: Storage, offset: int) -> Any:
        return self.download(storage)[0][offset]

    def synchronize(self, device: Any) -> None:
        pass

    def is_ready(self, storage: Storage) -> bool:
        return False

    def release(self, device: Any, storage: Storage) -> None:
        pass


def _evaluate(device: Any, outputs: list[tuple[ex.Node, ex.Node]]) -> None:
    """The ``dask`` device's evaluator: each destination's storage takes the Dask array that
    computes its expression (nothing is computed until Dask computes it)."""
    lowered: dict[int, Any] = {}
    for root, dest in outputs:
        if dest.kind != ex.BUFFER or dest.attrs.offset or dest.attrs.strides != \
                ex.contiguous_strides(dest.shape):
            raise NotImplementedError("weft.dask: writes into a view of a Dask-backed "
                                      "array (x[1:3] = ...) are not supported")
        value = _lower(root, lowered).astype(root.dtype.numpy)
        dest.attrs.storage.buffer = value.reshape(dest.shape) if value.shape != \
            dest.shape else value


DEVICE = Device("dask", 0, DaskBackend(), _Handle(), evaluator=_evaluate)


def _compute(value: Any) -> np.ndarray:
    """``value`` computed through the active Dask client, else the default scheduler."""
    try:
        from distributed import default_client

        client = default_client()
    except (ImportError, ValueError):
        return np.asarray(dask.compute(value)[0])
    return np.asarray(client.compute(value).result())


# -- public -----------------------------------------------------------------------------


def from_dask(darr: Any) -> Array:
    """A weft Array backed by the Dask array ``darr`` (at most 2 dimensions, a weft dtype).

    >>> import dask.array as da
    >>> import weft.dask
    >>> x = weft.dask.from_dask(da.ones((4, 3), chunks=2))
    >>> float((x * 2).sum())
    24.0
    """
    if not isinstance(darr, da.Array):
        raise TypeError(f"from_dask takes a dask.array.Array, not {type(darr).__name__}")
    if darr.ndim > 2:
        raise ValueError(f"weft arrays have at most 2 dimensions, not shape {darr.shape}")
    if any(np.isnan(s) for s in darr.shape):
        raise ValueError("from_dask: the array's shape is not known (compute its chunk sizes "
                         "first, e.g. darr.compute_chunk_sizes())")
    dtype = dt.from_numpy_dtype(darr.dtype)
    size = int(np.prod(darr.shape, dtype=np.int64))
    storage = Storage(DEVICE, darr, dtype, size)
    return Array(ex.buffer(storage, tuple(int(s) for s in darr.shape)), DEVICE)


def to_dask(x: Array) -> Any:
    """The Dask array computing ``x`` (lazy: nothing runs until Dask computes it).

    >>> import dask.array as da
    >>> import weft as wf, weft.dask
    >>> x = weft.dask.from_dask(da.ones(6, chunks=3))
    >>> weft.dask.to_dask(wf.sqrt(x * 4)).compute().tolist()
    [2.0, 2.0, 2.0, 2.0, 2.0, 2.0]
    """
    if not isinstance(x, Array):
        raise TypeError(f"to_dask takes a weft Array, not {type(x).__name__}")
    if x.device is not DEVICE:
        return da.from_array(x.to_numpy(), chunks="auto")
    x.eval()
    return _leaf(x._node)


def gpu_cluster(n_gpus: int | None = None, **options: Any) -> Any:
    """A local Dask cluster with one worker process per GPU, each seeing only its own GPU
    (``CUDA_VISIBLE_DEVICES``), so that weft's default device on each worker is its GPU.
    ``dask_cuda.LocalCUDACluster`` is used where it is installed.

    >>> import weft.dask
    >>> with weft.dask.gpu_cluster(0) as cluster:  # doctest: +SKIP
    ...     pass
    """
    if n_gpus is None:
        import cupy

        n_gpus = cupy.cuda.runtime.getDeviceCount()
    try:
        from dask_cuda import LocalCUDACluster

        return LocalCUDACluster(CUDA_VISIBLE_DEVICES=list(range(n_gpus)), **options)
    except ImportError:
        pass
    from distributed import Nanny, Scheduler, SpecCluster

    workers = {f"gpu-{i}": {"cls": Nanny, "options": {
        "nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": str(i)}}} for i in range(n_gpus)}
    return SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": {
        "dashboard_address": None}}, **options)


# -- lowering ---------------------------------------------------------------------------


def _lower(node: ex.Node, lowered: dict[int, Any]) -> Any:
    """The Dask array of ``node`` (memoized per evaluation: a shared operand is one layer)."""
    found = lowered.get(id(node))
    if found is not None:
        return found
    kind = node.kind
    if kind == ex.BUFFER:
        out = _leaf(node)
    elif kind == ex.INDEX:
        rows, cols = as_2d(node.shape)
        grid = da.arange(rows)[:, None] if node.attrs == "row" else da.arange(cols)[None, :]
        out = da.broadcast_to(grid, (rows, cols)).astype(node.dtype.numpy).reshape(node.shape)
    elif kind == ex.VIEW:
        out = _affine(_as_2d(_lower(node.args[0], lowered)), node.attrs, node.shape)
    elif kind == ex.RESTRICT:
        out = _restrict(_lower(node.args[0], lowered), node.attrs)
    elif kind == ex.CONCAT:
        parts = [_as_2d(_lower(p, lowered)) for p in node.args]
        out = da.concatenate(parts, axis=node.attrs).reshape(node.shape)
    elif kind == ex.REDUCE:
        out = _reduction(node, lowered)
    elif kind == ex.SCAN:
        out = _scan(node, lowered)
    elif kind == ex.ARG:
        op, axis = node.attrs
        operand = _as_2d(_lower(node.args[0], lowered))
        out = (da.argmax if op == "maximum" else da.argmin)(operand, axis=axis)
        out = out.astype(np.int64).reshape(node.shape)
    elif kind in (ex.GATHER, ex.SCATTER_ADD):
        raise NotImplementedError("weft.dask: integer-array indexing (and its gradient) is "
                                  "not supported on Dask-backed arrays")
    else:
        out = _blockwise(node, lowered)
    lowered[id(node)] = out
    return out


def _leaf(node: ex.Node) -> Any:
    storage = node.attrs.storage
    if storage.buffer is None:
        raise RuntimeError("weft.dask: a buffer with no value (an empty() never written)")
    base = storage.buffer
    v = node.attrs
    if node.shape == base.shape and v.offset == 0 and v.strides == \
            ex.contiguous_strides(node.shape):
        return base
    # A view folded into the leaf (transpose, slice, diagonal): read its strides as steps
    # over the base array's rows and columns.
    _, cols = as_2d(base.shape)
    s0, s1 = (0, 0, *v.strides)[-2:]

    def split(stride: int) -> tuple[int, int]:
        if base.ndim < 2:
            return 0, stride
        rows_step = round(stride / cols)
        return rows_step, stride - rows_step * cols
    a0, b0 = split(s0)
    a1, b1 = split(s1)
    r0, c0 = (divmod(v.offset, cols) if base.ndim == 2 else (0, v.offset))
    return _affine(_as_2d(base), AffineMap(r0, a0, a1, c0, b0, b1), node.shape)


def _as_2d(a: Any) -> Any:
    return a.reshape(as_2d(a.shape))


def _steps(start: int, step: int, count: int) -> slice:
    if step == 0:
        return slice(start, start + 1)
    stop = start + step * (count - 1) + (1 if step > 0 else -1)
    return slice(start, stop if stop >= 0 else None, step)


def _affine(a: Any, m: AffineMap, shape: tuple[int, ...]) -> Any:
    """Element (i, j) of the result is a[m.r0 + m.ri i + m.rj j, m.c0 + m.ci i + m.cj j]."""
    rows, cols = as_2d(shape)
    if rows == 1 and m.rj and m.cj:  # a diagonal, as a row
        part = da.diagonal(a[_steps(m.r0, m.rj, cols), _steps(m.c0, m.cj, cols)])[None, :]
    elif m.rj == 0 and m.ci == 0:
        part = a[_steps(m.r0, m.ri, rows), _steps(m.c0, m.cj, cols)]
    elif m.ri == 0 and m.cj == 0:
        part = a.T[_steps(m.c0, m.ci, rows), _steps(m.r0, m.rj, cols)]
    else:
        raise NotImplementedError(f"weft.dask: the view {m} has no Dask equivalent")
    if part.shape != (rows, cols):
        part = da.broadcast_to(part, (rows, cols))
    return part.reshape(shape)


def _restrict(a: Any, structure: str) -> Any:
    if structure == "lower":
        return da.tril(a)
    if structure == "upper":
        return da.triu(a)
    if structure == "diagonal":
        return da.tril(da.triu(a))
    return a


# -- per-block kernels ------------------------------------------------------------------


class _Recipe:
    """A fused sub-expression as data (op names, dtype names, argument positions), so that
    it pickles to the workers and tokenizes deterministically; ``inputs`` are the Dask
    arrays it reads, in order."""

    def __init__(self, root: ex.Node, lowered: dict[int, Any]) -> None:
        self.steps: list[tuple] = []
        self.shapes: list[tuple[int, ...]] = []
        self.inputs: list[Any] = []
        self._index: dict[int, int] = {}
        self._lowered = lowered
        self.root = self._add(root)
        del self._lowered

    def _add(self, node: ex.Node) -> int:
        if id(node) in self._index:
            return self._index[id(node)]
        kind = node.kind
        if kind not in _FUSED:
            self.inputs.append(_lower(node, self._lowered))
            step: tuple = ("input", len(self.inputs) - 1, node.dtype.name)
        elif kind == ex.SCALAR:
            step = ("scalar", node.attrs.item() if hasattr(node.attrs, "item") else node.attrs,
                    node.dtype.name)
        else:
            args = tuple(self._add(a) for a in node.args)
            if kind == ex.MAP:
                step = ("map", node.op.name, node.dtype.name, node.attrs.name, args)
            elif kind == ex.CAST:
                step = ("cast", node.dtype.name, args)
            elif kind == ex.BROADCAST:
                step = ("broadcast", args)
            else:
                step = ("check", node.attrs, args)
        self.steps.append(step)
        self.shapes.append(node.shape)
        self._index[id(node)] = len(self.steps) - 1
        return len(self.steps) - 1


class _BlockKernel:
    """Rebuilds a recipe over one set of blocks on the worker's default weft device and
    evaluates it as one kernel (with ``reduce``: a fused partial reduction, dims kept)."""

    def __init__(self, recipe: _Recipe, out_shape: tuple[int, ...],
                 reduce: tuple[str, int | None] | None = None) -> None:
        self.steps = recipe.steps
        self.shapes = recipe.shapes
        self.root = recipe.root
        self.out_shape = out_shape
        self.reduce = reduce

    def __dask_tokenize__(self) -> tuple:
        return ("weft-block", self.steps, self.shapes, self.root, self.out_shape, self.reduce)

    def __call__(self, *blocks: np.ndarray) -> np.ndarray:
        if any(step[0] == "input" for step in self.steps):
            block_shape = _block_of_inputs(blocks, self.shapes, self.steps, self.out_shape)
        else:  # scalars only: the block is the (dummy) input's
            block_shape = np.shape(blocks[0]) if blocks else self.out_shape
        built: list[ex.Node] = []
        device = None
        for step, shape in zip(self.steps, self.shapes):
            local = _block_shape(shape, self.out_shape, block_shape)
            tag = step[0]
            if tag == "input":
                arr = asarray(np.asarray(blocks[step[1]]).reshape(local),
                              dtype=dt.to_dtype(step[2]))
                device = arr.device
                node = arr._node
            elif tag == "scalar":
                node = ex.scalar(step[1], dt.to_dtype(step[2]))
            elif tag == "map":
                args = tuple(built[k] for k in step[4])
                node = ex.apply(OPS[step[1]], args, dt.to_dtype(step[2]),
                                dt.to_dtype(step[3]), local)
            elif tag == "cast":
                node = ex.cast(built[step[2][0]], dt.to_dtype(step[1]))
            elif tag == "broadcast":
                node = ex.broadcast(built[step[1][0]], local)
            else:
                value, ok = (built[k] for k in step[2])
                node = ex.check(value, ok, step[1])
            built.append(node)
        root = built[self.root]
        if self.reduce is not None:
            op, axis = self.reduce
            keep = (1,) * len(root.shape) if axis is None else \
                ((1, root.shape[1]) if axis == 0 else (root.shape[0], 1))
            root = ex.reduce(root, ex.Reduction(op, axis), keep, root.dtype)
        out = Array(root, device or current_device())
        return out.to_numpy()


def _block_shape(shape: tuple[int, ...], out_shape: tuple[int, ...],
                 block: tuple[int, ...]) -> tuple[int, ...]:
    """A node's shape within one block: its broadcast (size-1) dimensions stay 1."""
    offset = len(out_shape) - len(shape)
    return tuple(1 if s == 1 and out_shape[k + offset] != 1 else block[k + offset]
                 for k, s in enumerate(shape))


def _block_of_inputs(blocks: tuple, shapes: list, steps: list, out_shape: tuple) -> tuple:
    """The block's shape in the sub-expression's (unreduced) output: the broadcast of the
    input blocks' shapes, each placed by its input's global shape."""
    block = [1] * len(out_shape)
    for step, shape in zip(steps, shapes):
        if step[0] != "input":
            continue
        b = np.shape(blocks[step[1]])[len(out_shape) - len(shape):]  # aligned: extra dims
        offset = len(out_shape) - len(shape)
        for k, s in enumerate(b):
            if shape[k] != 1 or out_shape[k + offset] == 1:
                block[k + offset] = max(block[k + offset], s)
    return tuple(block)


def _meta(dtype: dt.DType, ndim: int) -> np.ndarray:
    return np.empty((0,) * ndim, dtype=dtype.numpy)


def _blockwise(node: ex.Node, lowered: dict[int, Any]) -> Any:
    """One ``blockwise`` layer: the maximal fused sub-expression rooted at ``node``."""
    recipe = _Recipe(node, lowered)
    kernel = _BlockKernel(recipe, node.shape)
    inputs = [_aligned(a, node.shape) for a in recipe.inputs]
    if not inputs:  # scalars only: a single-block array of the node's shape
        inputs = [da.zeros(node.shape or (), dtype=np.int8)]
    index = "ij"[:len(node.shape)]
    return da.blockwise(kernel, index, *(x for a in inputs for x in (a, index)),
                        dtype=node.dtype.numpy, meta=_meta(node.dtype, len(node.shape)),
                        name=f"weft-{dask.base.tokenize(kernel, *inputs)}")


def _aligned(a: Any, shape: tuple[int, ...]) -> Any:
    """``a`` with as many dimensions as ``shape`` (leading size-1 ones), so that
    ``blockwise`` lines its blocks up with the output's by position."""
    while a.ndim < len(shape):
        a = a[None]
    return a


def _scan(node: ex.Node, lowered: dict[int, Any]) -> Any:
    """A scan along an axis: each block's running values, then Dask's carries across the
    blocks (its own cumulative reduction)."""
    from dask.array.reductions import cumreduction

    from .ops import identity

    op, axis = node.attrs
    ufunc = getattr(np, op)
    operand = _as_2d(_lower(node.args[0], lowered)).astype(node.dtype.numpy)
    out = cumreduction(ufunc.accumulate, ufunc, identity(op, node.dtype), operand,
                       axis=axis, dtype=node.dtype.numpy)
    return out.reshape(node.shape)


def _reduction(node: ex.Node, lowered: dict[int, Any]) -> Any:
    """Fused per-block partial reductions, then Dask's tree combine of the partials."""
    reduction: ex.Reduction = node.attrs
    producer = node.args[0]
    recipe = _Recipe(producer, lowered)
    kernel = _BlockKernel(recipe, producer.shape, (reduction.op, reduction.axis))
    inputs = [_aligned(a, producer.shape) for a in recipe.inputs]
    if not inputs:
        inputs = [da.zeros(producer.shape or (), dtype=np.int8)]
    ndim = len(producer.shape)
    rows_axis, cols_axis = (0, 1) if ndim == 2 else (None, 0)
    reduced_axes = tuple(range(ndim)) if reduction.axis is None else \
        ((rows_axis,) if reduction.axis == 0 else (cols_axis,))
    index = "ij"[:ndim] if ndim else ""
    partials = da.blockwise(
        kernel, index, *(x for a in inputs for x in (a, index)),
        adjust_chunks={index[k]: 1 for k in reduced_axes},
        dtype=node.dtype.numpy, meta=_meta(node.dtype, ndim),
        name=f"weft-partial-{dask.base.tokenize(kernel, *inputs)}")
    ufunc = OPS[reduction.op].numpy  # the op table's NumPy ufunc combines the partials
    scale = reduction.scale
    out_dtype = node.dtype.numpy

    def combine(x, axis, keepdims):
        return ufunc.reduce(x, axis=axis, keepdims=keepdims)

    def aggregate(x, axis, keepdims):
        total = ufunc.reduce(x, axis=axis, keepdims=keepdims)
        return (total * scale if scale is not None else total).astype(out_dtype)
    combined = da.reduction(partials, chunk=combine, aggregate=aggregate, combine=combine,
                            axis=reduced_axes, keepdims=True, dtype=out_dtype,
                            meta=_meta(node.dtype, ndim), concatenate=True,
                            name="weft-combine")
    return combined.reshape(node.shape)

