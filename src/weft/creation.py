"""Making arrays: ``asarray`` from data, and lazy factories that allocate nothing until used."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import dtypes as dt
from . import expr as ex
from .array import Array, apply_op
from .devices import Device, current_device, get_device


def _device(device: Any) -> Device:
    return current_device() if device is None else get_device(device)


_KDL_CPU, _KDL_CUDA = 1, 2


def _on_gpu(obj: Any) -> bool:
    """Whether ``obj`` is an array in CUDA device memory (CuPy, torch, JAX, Numba, ...)."""
    if isinstance(obj, (np.ndarray, Array)):
        return False
    if hasattr(obj, "__cuda_array_interface__"):
        return True
    if hasattr(obj, "__dlpack_device__"):
        return obj.__dlpack_device__()[0] != _KDL_CPU
    return False


def _from_host(obj: Any, dev: Device) -> np.ndarray:
    if _on_gpu(obj):
        raise TypeError(
            f"{type(obj).__name__} lives in GPU memory and {dev} ({dev.name}) cannot read it: "
            "use a cuda device (wf.asarray(x, device='cuda')) or copy it to the host first"
        )
    if hasattr(obj, "__dlpack__") and not isinstance(obj, np.ndarray):
        return np.from_dlpack(obj)
    if isinstance(obj, (str, bytes)) or (isinstance(obj, complex)):
        raise TypeError(f"cannot make a weft array from {type(obj).__name__} {obj!r}")
    data = np.asarray(obj)
    if data.dtype.kind == "f" and not isinstance(obj, (np.ndarray, np.generic)):
        data = data.astype(dt.default_real().numpy)  # Python floats take the default real
    return data


def asarray(obj: Any, dtype: Any = None, device: Any = None, *, copy: bool | None = None
            ) -> Array:
    """An Array from a NumPy array, nested lists, a scalar, an Array or a DLPack producer.
    ``copy`` as NumPy's and the array API's: True always copies (an Array's copy is O(1),
    copy-on-write), False never does (ValueError where the result needs one: host data
    always does; a CUDA array on its GPU is adopted without one), None copies only where
    needed.

    >>> import weft as wf
    >>> wf.asarray([[1, 2], [3, 4]], dtype=wf.float32).dtype
    wf.float32
    >>> x = wf.asarray([1.0]); wf.asarray(x, copy=False) is x
    True
    """
    target = dt.to_dtype(dtype) if dtype is not None else None
    if isinstance(obj, Array):
        dev = obj.device if device is None else get_device(device)
        needs_copy = dev is not obj.device or (target is not None and target is not obj.dtype)
        if copy is False and needs_copy:
            raise ValueError("asarray(copy=False): a change of device or dtype needs a copy")
        out = obj
        if dev is not obj.device:
            out = asarray(obj.to_numpy(), device=dev)
        out = out if target is None or target is out.dtype else out.astype(target)
        return out.copy() if copy and out is obj else out
    dev = _device(device)
    if dev.kind == "cuda" and _on_gpu(obj):
        if copy:  # the producer's own copy, then adopted: no later write of its reaches ours
            duplicate = getattr(obj, "copy", None) or getattr(obj, "clone", None)
            if duplicate is None:
                raise TypeError(f"asarray(copy=True): {type(obj).__name__} has no copy()")
            obj = duplicate()
        elif copy is False and target is not None:
            raise ValueError("asarray(copy=False): a change of dtype needs a copy")
        return adopt(obj, dev, target)
    if copy is False:
        raise ValueError(f"asarray(copy=False): a {type(obj).__name__} becomes a weft array "
                         "only by a copy onto the device")
    data = _from_host(obj, dev)
    if data.ndim > 2:
        raise ValueError(f"weft arrays have at most 2 dimensions, not shape {data.shape}")
    if data.dtype.kind in "OUSVc":
        raise TypeError(f"unsupported dtype {data.dtype}: weft holds bool, integers and reals")
    if target is None:
        target = dt.from_numpy_dtype(data.dtype)
    if target.is_float and not dev.supports_fp64 and target.name == "float64":
        raise TypeError(f"{dev} ({dev.name}) has no float64 support: use float32")
    data = np.require(np.asarray(data, dtype=target.numpy), requirements='C')  # keeps 0-d
    storage = dev.backend.upload(dev, data)
    return Array(ex.buffer(storage, data.shape), dev)


def unpickled(values: np.ndarray, structure: str) -> Array:
    """An Array that was pickled (``Array.__reduce__``), on the current device.

    >>> import pickle, weft as wf
    >>> pickle.loads(pickle.dumps(wf.asarray([1.0, 2.0]))).tolist()
    [1.0, 2.0]
    """
    out = asarray(values)
    if structure != "general":
        view = out._node.attrs
        out._node = ex.buffer(view.storage, out.shape, view.offset, view.strides, structure)
    return out


def adopt(obj: Any, dev: Device, target: dt.DType | None = None, ordered: bool = False
          ) -> Array:
    """An Array over a CUDA array's memory: zero-copy on the same GPU, a peer copy otherwise.
    ``ordered``: ``obj`` is CuPy memory allocated on the calling thread's weft stream (see
    the CUDA backend's ``adopt``)."""
    storage, shape, offset, strides = dev.backend.adopt(dev, obj, ordered=ordered,
                                                        dtype=target)
    if len(shape) > 2:
        raise ValueError(f"weft arrays have at most 2 dimensions, not shape {shape}")
    out = Array(ex.buffer(storage, shape, offset, strides), dev)
    return out if target is None or target is out.dtype else out.astype(target)


def _shape(shape: Any, what: str = "a size in shape") -> tuple[int, ...]:
    if isinstance(shape, str) or not hasattr(shape, "__iter__"):
        shape = (shape,)
    shape = tuple(dt.as_int(s, what) for s in shape)
    if len(shape) > 2:
        raise ValueError(f"weft arrays have at most 2 dimensions, not shape {shape}")
    if any(s < 0 for s in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


def full(shape: Any, fill_value: Any, dtype: Any = None, device: Any = None) -> Array:
    """A lazy array of ``shape`` filled with ``fill_value``.

    >>> import weft as wf
    >>> wf.full((2,), 7).tolist()
    [7, 7]
    """
    shape = _shape(shape)
    dev = _device(device)
    if isinstance(fill_value, Array):
        value = fill_value.astype(dtype) if dtype is not None else fill_value
        return Array(ex.broadcast(value._node, ex.broadcast_shapes("full", value.shape, shape)),
                     value.device)
    kind = dt.scalar_kind(fill_value if not isinstance(fill_value, np.generic)
                          else fill_value.item())
    d = dt.to_dtype(dtype) if dtype is not None else (
        dt.of_numpy_scalar(fill_value) if isinstance(fill_value, np.generic)
        else dt.resolve([], [kind]))
    value = fill_value.item() if isinstance(fill_value, np.generic) else fill_value
    if d.kind in "ui" and kind == "i":
        dt.check_int_fits(value, d)
    return Array(ex.broadcast(ex.scalar(value, d), shape), dev)


def zeros(shape: Any, dtype: Any = None, device: Any = None) -> Array:
    """A lazy array of zeros (the default real unless ``dtype`` is given).

    >>> import weft as wf
    >>> wf.zeros((2, 2)).tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """
    return full(shape, 0, dt.to_dtype(dtype) if dtype is not None else dt.default_real(), device)


def ones(shape: Any, dtype: Any = None, device: Any = None) -> Array:
    """A lazy array of ones (the default real unless ``dtype`` is given).

    >>> import weft as wf
    >>> wf.ones(3, dtype=wf.int32).tolist()
    [1, 1, 1]
    """
    return full(shape, 1, dt.to_dtype(dtype) if dtype is not None else dt.default_real(), device)


def empty(shape: Any, dtype: Any = None, device: Any = None) -> Array:
    """An array whose contents are unspecified (weft fills zeros, so reads are repeatable).

    >>> import weft as wf
    >>> wf.empty((2, 3)).shape
    (2, 3)
    """
    return zeros(shape, dtype, device)


def _like(a: Any, dtype: Any) -> tuple[tuple[int, ...], Any, Any]:
    a = a if isinstance(a, Array) else asarray(a)
    return a.shape, dtype if dtype is not None else a.dtype, a.device


def zeros_like(a: Any, dtype: Any = None) -> Array:
    """Zeros with ``a``'s shape, dtype and device.

    >>> import weft as wf
    >>> wf.zeros_like(wf.asarray([1, 2])).tolist()
    [0, 0]
    """
    shape, d, dev = _like(a, dtype)
    return full(shape, 0, d, dev)


def ones_like(a: Any, dtype: Any = None) -> Array:
    """Ones with ``a``'s shape, dtype and device.

    >>> import weft as wf
    >>> wf.ones_like(wf.asarray([1.5])).tolist()
    [1.0]
    """
    shape, d, dev = _like(a, dtype)
    return full(shape, 1, d, dev)


def empty_like(a: Any, dtype: Any = None) -> Array:
    """An unspecified array with ``a``'s shape, dtype and device.

    >>> import weft as wf
    >>> wf.empty_like(wf.asarray([1, 2])).shape
    (2,)
    """
    return zeros_like(a, dtype)


def full_like(a: Any, fill_value: Any, dtype: Any = None) -> Array:
    """``fill_value`` with ``a``'s shape, dtype and device.

    >>> import weft as wf
    >>> wf.full_like(wf.asarray([1, 2]), 5).tolist()
    [5, 5]
    """
    shape, d, dev = _like(a, dtype)
    return full(shape, fill_value, d, dev)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None,
           device: Any = None) -> Array:
    """Evenly spaced values in ``[start, stop)``, generated inside the kernel.

    >>> import weft as wf
    >>> wf.arange(1, 7, 2).tolist()
    [1, 3, 5]
    """
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be zero")
    n = max(0, math.ceil((stop - start) / step))
    kinds = [dt.scalar_kind(v) for v in (start, stop, step)]
    d = dt.to_dtype(dtype) if dtype is not None else dt.resolve([], kinds)
    dev = _device(device)
    idx = Array(ex.cast(ex.index("col", (n,), dt.int64), d), dev)
    return apply_op("add", apply_op("multiply", idx, step), start, dtype=d)


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Array:
    """An Array from a DLPack producer (the array API's ``from_dlpack``): zero-copy where
    it already lives on the device (a CUDA producer on a CUDA device, a host producer read
    by the host), else a copy.

    >>> import numpy as np, weft as wf
    >>> wf.from_dlpack(np.arange(3.0)).tolist()
    [0.0, 1.0, 2.0]
    """
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: {type(x).__name__} is not a DLPack producer (it has "
                        "no __dlpack__)")
    if copy is False:
        raise ValueError("from_dlpack: copy=False cannot be promised (weft copies host "
                         "data into its own buffers)")
    return asarray(x, device=device)


def linspace(start: float, stop: float, num: int = 50, endpoint: bool = True,
             dtype: Any = None, device: Any = None) -> Array:
    """``num`` evenly spaced values from ``start`` to ``stop`` (included unless
    ``endpoint`` is false), as NumPy's ``linspace``, generated inside the kernel; an
    integer ``dtype`` takes each value's floor, as NumPy 2 does.

    >>> import weft as wf
    >>> wf.linspace(0.0, 1.0, 5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    if isinstance(num, bool) or not isinstance(num, (int, np.integer)) or num < 0:
        raise ValueError(f"linspace: num must be a non-negative integer, not {num!r}")
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_real()
    dev = _device(device)
    divisions = num - 1 if endpoint else num
    step = (stop - start) / divisions if divisions > 0 else 0.0
    index = Array(ex.cast(ex.index("col", (int(num),), dt.int64), dt.default_real()), dev)
    values = apply_op("add", apply_op("multiply", index, step), start)
    if endpoint and num > 1:  # the last value is stop itself, as NumPy's
        values = apply_op("where", apply_op("equal", index, num - 1), stop, values)
    if d.kind in "iu":  # NumPy 2 rounds towards -inf for integer dtypes, not towards 0
        values = apply_op("floor", values)
    return values.astype(d)


def logspace(start: float, stop: float, num: int = 50, endpoint: bool = True,
             base: float = 10.0, dtype: Any = None, device: Any = None) -> Array:
    """``base ** linspace(start, stop, num, endpoint)``, as NumPy's ``logspace``: ``num``
    values spaced evenly on a log scale from ``base ** start`` to ``base ** stop``, generated
    inside the kernel. ``base`` is a number; an integer ``dtype`` truncates each value, as
    NumPy's cast does.

    >>> import weft as wf
    >>> wf.logspace(0.0, 3.0, 4).tolist()
    [1.0, 10.0, 100.0, 1000.0]
    """
    if isinstance(base, bool) or not isinstance(base, (int, float, np.integer, np.floating)):
        raise TypeError(f"logspace: base must be a real number, not {type(base).__name__} "
                        "(weft takes one base for every value)")
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_real()
    exponents = linspace(start, stop, num, endpoint, device=device)
    return apply_op("power", float(base), exponents).astype(d)


def row_index(shape: Any, device: Any = None) -> Array:
    """The int32 row index of each element of ``shape`` (lazy).

    >>> import weft as wf
    >>> wf.row_index((2, 2)).tolist()
    [[0, 0], [1, 1]]
    """
    return Array(ex.index("row", _shape(shape), dt.int32), _device(device))


def col_index(shape: Any, device: Any = None) -> Array:
    """The int32 column index of each element of ``shape`` (lazy).

    >>> import weft as wf
    >>> wf.col_index((2, 2)).tolist()
    [[0, 1], [0, 1]]
    """
    return Array(ex.index("col", _shape(shape), dt.int32), _device(device))


def flat_position(shape: tuple[int, ...], device: Device) -> Array:
    """The int64 row-major position of each element of a 1-d or 2-d ``shape`` (lazy): the
    counter of random draws and the bit of a mask."""
    cols = Array(ex.index("col", shape, dt.int64), device)
    if len(shape) == 1:
        return cols
    rows = Array(ex.index("row", shape, dt.int64), device)
    return apply_op("add", apply_op("multiply", rows, shape[1]), cols)


def _by_diagonal(name: str, sizes: str, relation: str, n: int, m: int | None, k: int,
                 dtype: Any, device: Any) -> Array:
    """Ones where ``relation`` holds between an element's diagonal (column less row) and
    ``k``, zeros elsewhere, of shape (n, m or n): lazy, from the element's indices."""
    shape = _shape((n, n if m is None else m), f"{name}: {sizes}")
    k = dt.as_int(k, f"{name}: k")
    d = dt.to_dtype(dtype) if dtype is not None else dt.default_real()
    rows = Array(ex.index("row", shape, dt.int64), _device(device))
    cols = Array(ex.index("col", shape, dt.int64), rows.device)
    holds = apply_op(relation, apply_op("subtract", cols, rows), k)
    return Array(ex.cast(holds._node, d), rows.device)


def eye(n: int, m: int | None = None, k: int = 0, dtype: Any = None, device: Any = None
        ) -> Array:
    """Ones on the ``k``-th diagonal, zeros elsewhere (lazy).

    >>> import weft as wf
    >>> wf.eye(2).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    return _by_diagonal("eye", "n or m", "equal", n, m, k, dtype, device)


def identity(n: int, dtype: Any = None, *, device: Any = None) -> Array:
    """The ``n`` by ``n`` identity matrix (lazy), as NumPy's ``identity``.

    >>> import weft as wf
    >>> wf.identity(2, dtype=wf.int32).tolist()
    [[1, 0], [0, 1]]
    """
    return eye(n, dtype=dtype, device=device)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None, *,  # noqa: N803
        device: Any = None) -> Array:
    """Ones at and below the ``k``-th diagonal, zeros above (lazy), as NumPy's ``tri``.

    >>> import weft as wf
    >>> wf.tri(2, 3).tolist()
    [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]
    """
    return _by_diagonal("tri", "N or M", "less_equal", N, M, k, dtype, device)


def broadcast_to(x: Any, shape: Any) -> Array:
    """``x`` broadcast to ``shape`` (lazy; no copy).

    >>> import weft as wf
    >>> wf.broadcast_to(wf.asarray([1, 2]), (2, 2)).tolist()
    [[1, 2], [1, 2]]
    """
    x = x if isinstance(x, Array) else asarray(x)
    shape = _shape(shape, "broadcast_to: a size in shape")
    got = ex.broadcast_shapes("broadcast_to", x.shape, shape)
    if got != shape:
        raise ValueError(f"broadcast_to: cannot broadcast shape {x.shape} to {shape}")
    return Array(ex.broadcast(x._node, shape), x.device)



def ascontiguousarray(a: Any, dtype: Any = None) -> Array:
    """``a`` as a weft array of at least one dimension, as NumPy's ``ascontiguousarray``
    (weft's arrays are row-major; a 0-d one gets the shape (1,)).

    >>> import weft as wf
    >>> wf.ascontiguousarray(3.0).tolist()
    [3.0]
    """
    out = asarray(a, dtype=dtype)
    return out.reshape((1,)) if out.ndim == 0 else out


def isfortran(a: Any) -> bool:
    """NumPy's ``isfortran``: whether ``a`` is column-major and not row-major; weft's
    arrays are row-major (a view's elements are read through its strides), so False.

    >>> import weft as wf
    >>> wf.isfortran(wf.asarray([[1, 2], [3, 4]]).T)
    False
    """
    if not isinstance(a, Array):
        raise TypeError(f"isfortran: takes a weft array, not {type(a).__name__}")
    return False
