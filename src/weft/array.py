"""``wf.Array``: a lazy or materialized array of 0, 1 or 2 dimensions.

A materialized array's node is a buffer leaf; a lazy array's node is an expression. Every
operation builds a new node; evaluation (``eval``, ``wf.eval``, or any observation) runs the
generated kernel and turns the array's node into a leaf over the result.

Copy-on-write: ``copy()`` shares the buffer; a write into an array's buffer happens in place
only when no other array and no live lazy expression can still read it, else the writer gets a
new buffer and everyone else keeps the old contents.

Views (``x[1:3, ::2]``, ``x.T``, ``wf.diagonal(x)``) are lazy index maps (indexing.py): reading
one reads its source's value when the view was made; writing into one (``v[...] = e``,
``wf.assign(v, e)``, ``v += 1``) writes the source's elements, in the same kernel as ``e``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from . import pending, realize
from .carrying import CARRY_DEPTH, carried_by, own
from .devices import Device
from .dtypes import DType
from .indexing import IDENTITY, AffineMap, as_2d, basic_map, reshaped_shape, transpose_map
from .tape import RECORDING, keep_alias, keep_reshape, keep_value
from .together import with_groups


def _is_mask(key: Any) -> bool:
    """Whether ``key`` is one boolean array (``x[mask]``, a read of data-dependent size)."""
    if isinstance(key, Array):
        return key.dtype.kind == "b"
    if isinstance(key, list):  # NumPy reads a list of bools as a mask too
        return bool(key) and all(isinstance(k, (bool, np.bool_)) for k in key)
    return isinstance(key, np.ndarray) and key.dtype == np.bool_


class Array:
    """A weft array. Build with ``wf.asarray`` or a factory; combine like NumPy arrays.

    >>> import weft as wf
    >>> x = wf.asarray([1.0, 2.0, 3.0])
    >>> (x * 2 + 1).tolist()
    [3.0, 5.0, 7.0]
    """

    __slots__ = ("_node", "_device", "_base", "_deferred", "_together", "__weakref__")
    __hash__ = None  # type: ignore[assignment]  # == is element-wise

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """NumPy's ufuncs as weft's lazy ops (numpy_protocols.py)."""
        from .numpy_protocols import array_ufunc

        return array_ufunc(ufunc, method, *inputs, **kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        """NumPy's functions as weft's, lazy, where weft has them (numpy_protocols.py)."""
        from .numpy_protocols import array_function

        return array_function(func, args, kwargs)

    def __init__(self, node: ex.Node, device: Device) -> None:
        if len(node.shape) > 2:
            raise ValueError(f"weft arrays have at most 2 dimensions, not shape {node.shape}")
        self._node = node
        self._device = device
        self._base: tuple[Array, AffineMap] | None = None  # writes go to base's elements
        self._deferred: Any = None
        self._together: tuple[Any, ...] | None = None  # weak references: together.py
        if node.depth >= CARRY_DEPTH:
            own(self)

    @classmethod
    def _from_template(cls, deferred: Any, device: Device) -> Array:
        """A lazy array whose expression a template builds when first needed
        (``templates.Deferred``): evaluating it straight away skips building it."""
        out = cls.__new__(cls)
        out._device = device
        out._base = None
        out._deferred = deferred
        out._together = None
        return out

    def __getattr__(self, name: str) -> Any:
        # Reached only for attributes not set: ``_node`` of an array made by a template.
        if name == "_node":
            deferred = self._deferred
            if deferred is not None:
                node = self._node = deferred.expression()
                self._deferred = None
                return node
        # Anything else: the lookup's own error (a property's message, or no such name).
        return object.__getattribute__(self, name)

    # Attributes -----------------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        deferred = self._deferred
        return self._node.shape if deferred is None else deferred.template.result[1]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        shape = self.shape
        return math.prod(shape)

    @property
    def dtype(self) -> DType:
        deferred = self._deferred
        return self._node.dtype if deferred is None else deferred.template.result[0]

    @property
    def device(self) -> Device:
        return self._device

    @property
    def structure(self) -> str:
        """``"general"``, ``"lower"``, ``"upper"`` or ``"diagonal"``: where it may be nonzero.

        >>> import weft as wf
        >>> wf.tril(wf.ones((3, 3))).structure
        'lower'
        """
        deferred = self._deferred
        return self._node.structure if deferred is None else deferred.template.result[2]

    @property
    def is_lazy(self) -> bool:
        return self._deferred is not None or self._node.kind != ex.BUFFER

    @property
    def ready(self) -> bool:
        """Whether the value is computed: False while lazy or while its kernel still runs."""
        if self.is_lazy:
            return False
        return self._device.backend.is_ready(self._node.attrs.storage)

    @property
    def T(self) -> Array:  # noqa: N802 - NumPy's name
        return transpose(self)

    @property
    def mT(self) -> Array:  # noqa: N802 - the array API's name
        """The matrix transpose (the array API's ``mT``): ``T`` of a 2-d array.

        >>> import weft as wf
        >>> wf.asarray([[1, 2]]).mT.shape
        (2, 1)
        """
        if self.ndim < 2:
            raise ValueError(f"mT needs an array of at least 2 dimensions, not shape "
                             f"{self.shape}")
        return transpose(self)

    def to_device(self, device: Any, /, *, stream: Any = None) -> Array:
        """The value on ``device`` (the array API's ``to_device``): this array where it
        lives there already, else a copy.

        >>> import weft as wf
        >>> x = wf.asarray([1.0])
        >>> x.to_device(x.device) is x
        True
        """
        if stream is not None:
            raise TypeError("to_device: weft orders its own streams; stream= is not taken")
        from .creation import asarray

        return asarray(self, device=device)

    def __copy__(self) -> Array:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Array:
        return self.copy()  # a value copy already: copy-on-write keeps the two apart

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its values (a NumPy array) and structure, device-independent: it
        unpickles onto the current device of the process that loads it."""
        from .creation import unpickled

        return unpickled, (self.to_numpy(), self.structure)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    # Evaluation and observation --------------------------------------------------------

    def eval(self) -> Array:
        """Compute this array now (asynchronously), keep the result, and return ``self``.

        >>> import weft as wf
        >>> y = (wf.asarray([1.0, 2.0]) + 1).eval()
        >>> y.is_lazy
        False
        """
        evaluate(self)
        return self

    def copy(self) -> Array:
        """An O(1) copy: buffers are shared until one side writes.

        >>> import weft as wf
        >>> x = wf.asarray([1, 2]); y = x.copy(); x += 1
        >>> y.tolist()
        [1, 2]
        """
        node = self._node
        if node.kind == ex.BUFFER:
            v = node.attrs
            source, node = node, ex.buffer(v.storage, node.shape, v.offset, v.strides)
            keep_alias(source, node)
        return Array(node, self._device)

    def astype(self, dtype: Any) -> Array:
        """A lazy conversion to ``dtype``.

        >>> import weft as wf
        >>> wf.asarray([1.7, -1.7]).astype(wf.int32).tolist()
        [1, -1]
        """
        return Array(ex.cast(self._node, dt.to_dtype(dtype)), self._device)

    def to_numpy(self) -> np.ndarray:
        """The value as a new NumPy array (waits for the computation).

        >>> import weft as wf
        >>> wf.asarray([[1, 2], [3, 4]]).to_numpy().shape
        (2, 2)
        """
        self.eval()
        node = self._node
        view = node.attrs
        flat = pending.observe(view.storage)
        if not node.shape:
            # A 0-d ndarray, as NumPy's own conversions give (not a NumPy scalar).
            return flat[view.offset:view.offset + 1].reshape(()).copy()
        if self.size == 0:
            return np.empty(node.shape, dtype=self.dtype.numpy)
        if view.offset == 0 and flat.size == self.size and view.is_contiguous(node.shape):
            return flat.reshape(node.shape)  # the whole buffer in order: the copy is it
        item = flat.itemsize
        out = np.lib.stride_tricks.as_strided(
            flat[view.offset:], shape=node.shape, strides=tuple(s * item for s in view.strides)
        )
        return np.array(out)

    def to_dask(self) -> Any:
        """The value as a Dask array: lazy for an Array from ``weft.dask.from_dask``, a
        one-block Dask array of the computed value otherwise (needs the ``dask`` extra).

        >>> import weft as wf
        >>> wf.asarray([1.0, 2.0]).to_dask().sum().compute()
        np.float64(3.0)
        """
        from .dask import to_dask

        return to_dask(self)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = self.to_numpy()
        return out if dtype is None else out.astype(dtype)

    def item(self) -> Any:
        """The single element as a Python scalar.

        >>> import weft as wf
        >>> wf.asarray([2.5]).item()
        2.5
        """
        if self._deferred is not None or self._node.kind is not ex.BUFFER:
            self.eval()
        node = self._node
        if math.prod(node.shape) != 1:
            raise ValueError(f"item() needs an array of size 1, not shape {node.shape}")
        view = node.attrs
        return pending.observe_element(view.storage, view.offset).item()

    def tolist(self) -> Any:
        """The value as nested Python lists.

        >>> import weft as wf
        >>> wf.asarray([[1, 2]]).tolist()
        [[1, 2]]
        """
        return self.to_numpy().tolist()

    def _scalar(self, kind: type) -> Any:
        if math.prod(self.shape) != 1:
            raise TypeError(f"only arrays of size 1 convert to Python scalars, not {self.shape}")
        return kind(self.item())

    def __float__(self) -> float:
        if self._deferred is None:  # (a template's array is evaluated by its plan, below)
            node = self._node
            if node.kind is ex.BUFFER and node.shape == ():
                # A 0-d result straight to its element: an MCMC loop's float(lp(theta)).
                view = node.attrs
                return float(pending.observe_element(view.storage, view.offset))
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __complex__(self) -> complex:
        return self._scalar(complex)

    def __index__(self) -> int:
        if self.dtype.kind not in "ui":
            raise TypeError(f"only integer arrays can be used as an index, not {self.dtype}")
        return self._scalar(int)

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError(
                f"the truth value of an array of shape {self.shape} is ambiguous: "
                "use .any() or .all()"
            )
        return bool(self.item())

    def __repr__(self) -> str:
        body = np.array2string(self.to_numpy(), separator=", ", prefix="wf.Array(")
        return f"wf.Array({body}, dtype={self.dtype}, device={self._device})"

    def __str__(self) -> str:
        return str(self.to_numpy())

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        for k in range(self.shape[0]):
            yield self[k]

    def _foreign(self) -> Any:
        """A CuPy array over this array's device memory (CUDA devices only)."""
        self.eval()
        view = self._node.attrs
        pending.settle([view.storage])
        return self._device.backend.foreign_view(view.storage, self.shape, view.offset,
                                                 view.strides)

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: Any = None) -> Any:
        host = dl_device is not None and dl_device[0] == 1  # the consumer asks for kDLCPU
        if self._device.kind == "cuda" and not host:
            # Zero-copy: the consumer sees this memory once pending writes have finished.
            return self._foreign().__dlpack__(stream=stream, max_version=max_version)
        # OpenCL memory has no DLPack consumers: export a host copy.
        return self.to_numpy().__dlpack__(max_version=max_version)

    def __dlpack_device__(self) -> tuple[int, int]:
        if self._device.kind == "cuda":
            return (2, self._device.handle.index)  # kDLCUDA
        return (1, 0)  # kDLCPU: the host copy above

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """The CUDA array interface (version 3) of a CUDA array, without copying.

        ``stream`` names the stream whose pending write a consumer must wait for.
        """
        if self._device.kind != "cuda":
            raise AttributeError(
                f"__cuda_array_interface__: this array lives on {self._device}, not a CUDA device"
            )
        self.eval()
        view = self._node.attrs
        storage = view.storage
        pending.settle([storage])
        item = self.dtype.itemsize
        return {
            "shape": self.shape,
            "typestr": self.dtype.numpy.str,
            "data": (int(storage.buffer.mem.ptr) + view.offset * item, False),
            "strides": tuple(s * item for s in view.strides),
            "version": 3,
            "stream": self._device.backend.pending_stream(storage),
        }

    # Views ----------------------------------------------------------------------------

    def reshape(self, *shape: Any) -> Array:
        """Same elements, new shape (at most 2-D; ``-1`` infers one size).

        >>> import weft as wf
        >>> wf.arange(6).reshape(2, 3).shape
        (2, 3)
        """
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        sizes = tuple(dt.as_int(s, "reshape: a size in the shape") for s in shape)
        new = reshaped_shape(sizes, self.size)
        if self.is_lazy and as_2d(new) == as_2d(self.shape):
            # (n,) and (1, n) are one padded 2-D shape: the same elements, lazily.
            return Array(ex.view(self._node, new, IDENTITY), self._device)
        self.eval()
        leaf = source = self._node
        if not leaf.attrs.is_contiguous(self.shape):
            compact = realize.new_leaf(self._device, leaf)  # reshape needs row-major order
            compute(self._device, [(leaf, compact)])
            leaf = compact
        view = leaf.attrs
        out = ex.buffer(view.storage, new, view.offset)
        keep_reshape(source, out)
        return Array(out, self._device)

    def __matmul__(self, other: Any) -> Array:
        from .linalg import matmul

        return matmul(self, other)

    def __rmatmul__(self, other: Any) -> Array:
        from .linalg import matmul

        return matmul(other, self)

    def __getitem__(self, key: Any) -> Array:
        from .compaction import masked_read
        from .gather import gather_1d, gather_key, split_key

        if _is_mask(key):
            return masked_read(self, key)
        if type(key) is Array and key.ndim == 1 and self.ndim == 1:
            return gather_1d(self, key)  # (a loop body's take: no key to parse)
        if split_key(key, self.ndim) is not None:
            return gather_key(self, key)
        shape, m = basic_map(self.shape, key)
        return view_of(self, shape, m)

    def __setitem__(self, key: Any, value: Any) -> None:
        if _is_mask(key):
            from .compaction import masked_write

            masked_write(self, key, value)
            return
        from .writes import write

        write(self, value, key)

    # Arithmetic -----------------------------------------------------------------------

    def _inplace(self, name: str, other: Any) -> Array:
        from .writes import owns_buffer, write

        exclusive = owns_buffer(self)
        result = apply_op(name, self, other)
        if dt.KIND_ORDER[result.dtype.kind] > dt.KIND_ORDER[self.dtype.kind]:
            raise TypeError(
                f"cannot write the {name} result of dtype {result.dtype} into an array of "
                f"dtype {self.dtype} in place (NumPy's same-kind rule)"
            )
        if result.shape != self.shape:
            raise ValueError(
                f"{name}: the result of shape {result.shape} does not fit in place into "
                f"shape {self.shape}"
            )
        write(self, result, exclusive=exclusive if self._base is None else None)
        return self

    def __neg__(self) -> Array:
        return apply_op("negative", self)

    def __pos__(self) -> Array:
        return self.copy()

    def __abs__(self) -> Array:
        return apply_op("abs", self)

    def __invert__(self) -> Array:
        return apply_op("invert", self)


_BINARY_DUNDERS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift",
}
_COMPARISONS = {
    "eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
    "ge": "greater_equal",
}


def _install_dunders() -> None:
    from .operate import binary, long_path

    def install(dunder: str, name: str, swapped: bool = False) -> None:
        method = binary(name, swapped, on_miss=long_path)
        method.__name__ = method.__qualname__ = dunder
        setattr(Array, dunder, method)

    for dunder, name in _BINARY_DUNDERS.items():
        install(f"__{dunder}__", name)
        install(f"__r{dunder}__", name, swapped=True)
        setattr(Array, f"__i{dunder}__", lambda self, o, n=name: self._inplace(n, o))
    for dunder, name in _COMPARISONS.items():
        install(f"__{dunder}__", name)


_install_dunders()


# Building expressions ------------------------------------------------------------------


def transpose(x: Any) -> Array:
    """The transpose: a lazy view, readable and assignable (0-d and 1-d arrays unchanged).

    >>> import weft as wf
    >>> wf.transpose(wf.asarray([[1, 2]])).shape
    (2, 1)
    """
    if not isinstance(x, Array):
        from .creation import asarray

        x = asarray(x)
    if x.ndim < 2:
        return x
    return view_of(x, (x.shape[1], x.shape[0]), transpose_map())


def view_of(x: Array, shape: tuple[int, ...], m: AffineMap) -> Array:
    """``x``'s elements picked by ``m`` as a lazy view whose writes go to ``x``."""
    base, to_base = (x, m) if x._base is None else (x._base[0], m.then(x._base[1]))
    out = Array(ex.view(x._node, shape, m), x._device)
    out._base = (base, to_base)
    return out


# Evaluation and writes -----------------------------------------------------------------


def evaluate(*arrays: Array) -> None:
    """Materialize every lazy array given (and those computed ``together`` with them), one
    kernel per device and shape."""
    if len(arrays) == 1:
        a = arrays[0]
        if type(a) is Array and a._together is None and a._device.evaluator is None:
            if a._deferred is None and a._node.depth >= CARRY_DEPTH:
                evaluate(*carried_by(arrays))  # (none found: an empty evaluation)
            if a._deferred is not None:
                dest = realize.execute_deferred(a._device, a._deferred)
                if dest is not None:
                    a._node = dest  # (a template's arguments are never differentiated)
                    a._deferred = None
                    return
            elif a._node.kind is not ex.BUFFER:
                dest = realize.replayed(a._device, a._node)
                if dest is not None:
                    if RECORDING[0]:
                        keep_value(a._node, dest)
                    a._node = dest
                    return
    arrays = with_groups(arrays)
    carried = carried_by(arrays)
    if carried:
        evaluate(*carried)
    by_device: dict[Device, list[tuple[ex.Node, ex.Node]]] = {}
    targets: list[tuple[Array, ex.Node]] = []
    seen: set[int] = set()
    for a in arrays:
        if not isinstance(a, Array):
            raise TypeError(f"wf.eval takes weft Arrays, not {type(a).__name__}")
        if not a.is_lazy or id(a) in seen:
            continue
        seen.add(id(a))
        dest = realize.new_leaf(a._device, a._node)
        by_device.setdefault(a._device, []).append((a._node, dest))
        targets.append((a, dest))
    for device, outputs in by_device.items():
        compute(device, outputs)
    for a, dest in targets:
        if RECORDING[0]:
            keep_value(a._node, dest)
        a._node = dest


def compute(device: Device, outputs: list[tuple[ex.Node, ex.Node]]) -> None:
    """Compute every ``(expression, destination)`` pair on ``device``: by the device's own
    evaluator where it has one (``weft.dask``), else by weft's kernels (``realize``)."""
    if device.evaluator is None:
        realize.execute(device, outputs)
    else:
        device.evaluator(device, outputs)


# Operations on arrays build their nodes in operate.py, which needs Array defined first.
from .operate import apply_op, as_operand  # noqa: E402

__all__ = ["Array", "apply_op", "as_operand", "compute", "evaluate", "transpose", "view_of"]
