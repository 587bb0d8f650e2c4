"""NumPy's protocols on weft arrays (API.md 14): a NumPy function that weft implements
(``np.exp(x)``, ``np.sum(x, axis=0)``, ``np.where(c, x, y)``, ``np.concatenate([x, y])``)
returns a lazy weft array on the same device; any other raises ``TypeError`` naming it, never
copying to the host behind the user's back (``np.asarray(x)`` copies, on purpose).

Ufuncs map to the op table's ops whose reference is that ufunc (``__array_ufunc__``: a call,
or a ``reduce`` of add, multiply, maximum, minimum, logical_and, logical_or); other functions
map through ``_build``'s table, each reading NumPy's own parameter names (bound against NumPy's
signature) and refusing, by name, a parameter weft does not take. ``out=`` takes weft arrays:
the result is assigned into them.

>>> import numpy as np, weft as wf
>>> x = wf.asarray([1.0, 2.0])
>>> type(np.exp(x)).__name__, np.sum(x * x).item()
('Array', 5.0)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .ops import OPS

# Ufuncs whose op-table op has them as its NumPy reference (np.absolute -> "abs"), or has
# their name where its reference is a wrapper of them (np.power -> "power").
_UFUNC_OPS = {ufunc: name for name, op in OPS.items() if not op.internal
              for ufunc in (op.numpy, getattr(np, name, None)) if isinstance(ufunc, np.ufunc)}
_UFUNC_REDUCTIONS = {np.add: "sum", np.multiply: "prod", np.maximum: "max",
                     np.minimum: "min", np.logical_and: "all", np.logical_or: "any"}


_UFUNC_SCANS = {np.add: "cumsum", np.multiply: "cumprod", np.maximum: "cummax",
                np.minimum: "cummin", np.logaddexp: "logcumsumexp"}


def _refuse(name: str, given: dict[str, Any], allowed: dict[str, Any]) -> None:
    """``TypeError`` naming the parameters of ``given`` weft does not take: those outside
    ``allowed`` (the names weft reads), unless they hold the value that means NumPy's
    default there (``allowed`` maps a tolerated name to that value)."""
    extra = [k for k, v in given.items()
             if k not in allowed or (allowed[k] is not _READ and not _same(v, allowed[k]))]
    if extra:
        raise TypeError(f"numpy.{name} on weft arrays: weft does not take "
                        f"{', '.join(extra)} (np.asarray(x) gives a NumPy array)")


_READ = object()  # in ``allowed``: a parameter weft reads, whatever its value


def _same(value: Any, default: Any) -> bool:
    """Whether ``value`` is NumPy's ``default`` (plain values only: never an array's ==)."""
    plain = (bool, int, float, str, tuple, dict, type(None))
    return value is default or (type(value) in plain and type(default) in plain
                                and value == default)


def _into(out: Any, result: Any, name: str, casting: str = "unsafe") -> Any:
    """``result``, or assigned into ``out`` (a weft array, or a 1-tuple of one) and that;
    ``casting``: NumPy's rule for the result's dtype becoming ``out``'s."""
    if out is None:
        return result
    from .array import Array
    from .functions import _check_cast
    from .matrix import assign

    target = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    if not isinstance(target, Array):
        raise TypeError(f"numpy.{name}: out= must be a weft array for weft operands, not "
                        f"{type(target).__name__}")
    if isinstance(result, Array):
        _check_cast(f"numpy.{name}", result.dtype, target, casting, "the result")
    assign(target, result)
    return target


def array_ufunc(ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
    """``Array.__array_ufunc__``: the ufunc as weft's op (lazy), or ``TypeError``."""
    import weft

    name = ufunc.__name__
    out = kwargs.pop("out", None)
    if method == "__call__":
        if ufunc is np.matmul:
            _refuse(name, kwargs, {})
            return _into(out, weft.linalg.matmul(*inputs), name)
        op = _UFUNC_OPS.get(ufunc)
        if op is None:
            module, special = "numpy", _same_named_ufuncs().get(ufunc)
            if special is None:
                module, special = "scipy.special", _scipy_special_ufuncs().get(ufunc)
            if special is None:
                raise TypeError(f"weft does not implement numpy.{name} (np.asarray(x) gives "
                                "a NumPy array)")
            _refuse(f"{module}.{name}", kwargs, {"where": True, "casting": "same_kind"})
            return _into(out, getattr(weft, special)(*inputs), f"{module}.{name}")
        _refuse(name, kwargs, {"dtype": _READ, "casting": _READ, "where": True})
        # NumPy's own rule (same_kind) for dtype= and out=, as np.add would apply it.
        casting = kwargs.get("casting", "same_kind")
        result = getattr(weft, op)(*inputs, dtype=kwargs.get("dtype"), casting=casting)
        return _into(out, result, name, casting)
    if method == "reduce" and ufunc in _UFUNC_REDUCTIONS:
        _refuse(f"{name}.reduce", kwargs, {"axis": _READ, "dtype": _READ, "keepdims": _READ,
                                           "where": True})
        (a,) = inputs
        reduce = getattr(weft, _UFUNC_REDUCTIONS[ufunc])
        result = reduce(a, axis=kwargs.get("axis", 0), keepdims=bool(kwargs.get("keepdims")),
                        dtype=kwargs.get("dtype"))
        return _into(out, result, f"{name}.reduce")
    if method == "accumulate" and ufunc in _UFUNC_SCANS:
        _refuse(f"{name}.accumulate", kwargs, {"axis": _READ, "dtype": _READ})
        (a,) = inputs
        scan, dtype = getattr(weft, _UFUNC_SCANS[ufunc]), kwargs.get("dtype")
        keywords = {}
        if dtype is not None and ufunc in (np.add, np.multiply):
            keywords["dtype"] = dtype
        elif dtype is not None:  # the other scans keep their operand's type: cast it first
            a = weft.asarray(a).astype(dtype)
        return _into(out, scan(a, axis=kwargs.get("axis", 0), **keywords), f"{name}.accumulate")
    raise TypeError(f"weft does not implement numpy.{name}.{method} (np.asarray(x) gives a "
                    "NumPy array)")


@functools.cache
def _same_named_ufuncs() -> dict[np.ufunc, str]:
    """NumPy's ufuncs outside the op table that weft defines under the same name and meaning
    (``np.reciprocal``, ``np.deg2rad``, ``np.float_power``, ``np.heaviside``...)."""
    import weft

    found = {}
    for name in dir(np):
        ufunc = getattr(np, name)
        if isinstance(ufunc, np.ufunc) and ufunc not in _UFUNC_OPS:
            if callable(getattr(weft, ufunc.__name__, None)):
                found[ufunc] = ufunc.__name__
    return found


@functools.cache
def _scipy_special_ufuncs() -> dict[np.ufunc, str]:
    """SciPy's special-function ufuncs that weft defines under the same name and meaning
    (``scipy.special.expit(x)`` stays lazy on x's device; weft's aliases take SciPy's names
    and argument orders)."""
    import scipy.special

    import weft

    return {getattr(scipy.special, name): name for name in dir(scipy.special)
            if isinstance(getattr(scipy.special, name), np.ufunc)
            and callable(getattr(weft, name, None))}


def array_function(func: Callable, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``Array.__array_function__``: ``func`` as weft's (lazy), or ``TypeError``."""
    found = _functions().get(func)
    name = getattr(func, "__name__", repr(func))
    if found is None:
        module = getattr(func, "__module__", None) or "numpy"
        raise TypeError(f"weft does not implement {module}.{name} (np.asarray(x) gives a "
                        "NumPy array)")
    translate, signature = found
    return translate(name, dict(signature.bind(*args, **kwargs).arguments))


# Translations: (NumPy's name, its bound arguments) -> the result ---------------------------


def _reduction(weft_name: str, takes_dtype: bool) -> Callable[[str, dict], Any]:
    def translate(name: str, given: dict[str, Any]) -> Any:
        import weft

        out = given.pop("out", None)
        allowed = {"a": _READ, "axis": _READ, "keepdims": _READ, "where": True}
        if takes_dtype:
            allowed["dtype"] = _READ
        _refuse(name, given, allowed)
        result = getattr(weft, weft_name)(given["a"], axis=given.get("axis"),
                                          keepdims=bool(given.get("keepdims", False)),
                                          dtype=given.get("dtype"))
        return _into(out, result, name)
    return translate


def _spread(weft_name: str) -> Callable[[str, dict], Any]:
    def translate(name: str, given: dict[str, Any]) -> Any:
        import weft

        out = given.pop("out", None)
        _refuse(name, given, {"a": _READ, "axis": _READ, "dtype": _READ, "ddof": _READ,
                              "keepdims": _READ, "where": True})
        result = getattr(weft, weft_name)(given["a"], axis=given.get("axis"),
                                          ddof=given.get("ddof", 0),
                                          keepdims=bool(given.get("keepdims", False)),
                                          dtype=given.get("dtype"))
        return _into(out, result, name)
    return translate


def _where(name: str, given: dict[str, Any]) -> Any:
    import weft

    if "x" not in given and "y" not in given:
        return weft.nonzero(given["condition"])
    if "x" not in given or "y" not in given:
        raise ValueError("numpy.where: give both x and y, or neither")
    return weft.where(given["condition"], given["x"], given["y"])


def _joined(weft_name: str) -> Callable[[str, dict], Any]:
    def translate(name: str, given: dict[str, Any]) -> Any:
        import weft

        out = given.pop("out", None)
        _refuse(name, given, {"arrays": _READ, "axis": _READ, "dtype": None,
                              "casting": "same_kind"})
        return _into(out, getattr(weft, weft_name)(list(given["arrays"]),
                                                   axis=given.get("axis", 0)), name)
    return translate


def _like(weft_name: str) -> Callable[[str, dict], Any]:
    def translate(name: str, given: dict[str, Any]) -> Any:
        import weft

        if "prototype" in given:  # empty_like's name for it
            given["a"] = given.pop("prototype")
        _refuse(name, given, {"a": _READ, "fill_value": _READ, "dtype": _READ, "order": "K",
                              "subok": True, "shape": None, "device": None})
        fill = (given["fill_value"],) if "fill_value" in given else ()
        return getattr(weft, weft_name)(given["a"], *fill, dtype=given.get("dtype"))
    return translate


def _simple(call: Callable[..., Any], names: tuple[str, ...],
            tolerated: dict[str, Any] | None = None) -> Callable[[str, dict], Any]:
    """A function of NumPy's parameters ``names``: those given up to the first one not given
    go by position, the rest by NumPy's name (``call`` takes them by it); the others are
    left to ``call``'s defaults."""
    def translate(name: str, given: dict[str, Any]) -> Any:
        out = given.pop("out", None)
        _refuse(name, given, {**{n: _READ for n in names}, **(tolerated or {})})
        positional: list[Any] = []
        keywords: dict[str, Any] = {}
        for n in names:
            if n not in given:
                continue
            if keywords or len(positional) < names.index(n):
                keywords[n] = given[n]
            else:
                positional.append(given[n])
        return _into(out, call(*positional, **keywords), name)
    return translate


def _transpose(name: str, given: dict[str, Any]) -> Any:
    import weft

    axes = given.pop("axes", None)
    _refuse(name, given, {"a": _READ})
    if axes is not None and tuple(axes) not in ((1, 0), (0,), ()):
        raise TypeError(f"numpy.transpose: axes {axes} for a weft array of at most 2 "
                        "dimensions")
    return weft.transpose(given["a"])


def _clip(name: str, given: dict[str, Any]) -> Any:
    import weft

    out = given.pop("out", None)
    low = given.pop("a_min", given.pop("min", None))
    high = given.pop("a_max", given.pop("max", None))
    _refuse(name, given, {"a": _READ, "kwargs": {}})
    return _into(out, weft.clip(given["a"], low, high), name)


def _einsum(name: str, given: dict[str, Any]) -> Any:
    import weft

    out = given.pop("out", None)
    operands = given.pop("operands", ())
    options = given.pop("kwargs", {})
    given.pop("optimize", None)  # a contraction order: weft's pairs go left to right
    _refuse(name, {**given, **options}, {"dtype": None, "order": "K", "casting": "safe"})
    if not operands or not isinstance(operands[0], str):
        raise TypeError("numpy.einsum on weft arrays takes its subscripts first, as a string "
                        "(the interleaved operand, sublist form is not supported)")
    return _into(out, weft.einsum(*operands), name)


def _gradient(name: str, given: dict[str, Any]) -> Any:
    import weft

    spacing = given.pop("varargs", ())
    _refuse(name, given, {"f": _READ, "axis": _READ, "edge_order": _READ})
    return weft.gradient(given["f"], *spacing, axis=given.get("axis"),
                         edge_order=given.get("edge_order", 1))


def _attribute(read: Callable[[Any], Any]) -> Callable[[str, dict], Any]:
    def translate(name: str, given: dict[str, Any]) -> Any:
        _refuse(name, given, {"a": _READ})
        return read(given["a"])
    return translate


@functools.cache
def _functions() -> dict[Callable, tuple[Callable[[str, dict], Any], inspect.Signature]]:
    """Per NumPy function weft implements: its translation and NumPy's signature (bound on
    each call). Built on first use: it names weft's functions, which import this module."""
    return {func: (translate, inspect.signature(func)) for func, translate in _build().items()}


def _build() -> dict[Callable, Callable[[str, dict], Any]]:
    import weft

    table: dict[Callable, Callable[[str, dict], Any]] = {
        np.sum: _reduction("sum", True), np.prod: _reduction("prod", True),
        np.mean: _reduction("mean", True), np.max: _reduction("max", False),
        np.min: _reduction("min", False), np.all: _reduction("all", False),
        np.any: _reduction("any", False), np.var: _spread("var"), np.std: _spread("std"),
        np.where: _where, np.concatenate: _joined("concatenate"), np.stack: _joined("stack"),
        np.transpose: _transpose, np.clip: _clip,
        np.zeros_like: _like("zeros_like"), np.ones_like: _like("ones_like"),
        np.empty_like: _like("empty_like"), np.full_like: _like("full_like"),
        np.tril: _simple(weft.tril, ("m", "k")), np.triu: _simple(weft.triu, ("m", "k")),
        np.diag: _simple(weft.diag, ("v", "k")),
        np.diagonal: _simple(weft.diagonal, ("a", "offset"), {"axis1": 0, "axis2": 1}),
        np.dot: _simple(weft.linalg.dot, ("a", "b")),
        np.outer: _simple(weft.linalg.outer, ("a", "b")),
        np.trace: _simple(weft.linalg.trace, ("a",),
                          {"offset": 0, "axis1": 0, "axis2": 1, "dtype": None}),
        np.reshape: _simple(lambda a, shape: a.reshape(shape), ("a", "shape"),
                            {"order": "C", "copy": None}),
        np.copy: _simple(lambda a: a.copy(), ("a",), {"order": "K", "subok": False}),
        np.ravel: _simple(weft.ravel, ("a",), {"order": "C"}),
        np.isclose: _simple(weft.isclose, ("a", "b", "rtol", "atol", "equal_nan")),
        np.allclose: _simple(lambda *xs, **kw: bool(weft.allclose(*xs, **kw)),
                             ("a", "b", "rtol", "atol", "equal_nan")),
        np.shape: _attribute(lambda a: a.shape), np.ndim: _attribute(lambda a: a.ndim),
        np.size: _simple(lambda a, axis=None: a.size if axis is None else a.shape[axis],
                         ("a", "axis")),
        np.linalg.cholesky: _simple(weft.linalg.cholesky, ("a",), {"upper": False}),
        np.linalg.inv: _simple(weft.linalg.inv, ("a",)),
        np.linalg.solve: _simple(weft.linalg.solve, ("a", "b")),
        np.linalg.norm: _simple(weft.linalg.norm, ("x", "ord", "axis", "keepdims")),
        np.linalg.eigh: _simple(weft.linalg.eigh, ("a",), {"UPLO": "L"}),
        np.linalg.eigvalsh: _simple(weft.linalg.eigvalsh, ("a",), {"UPLO": "L"}),
        np.linalg.svd: _simple(weft.linalg.svd, ("a", "full_matrices"),
                               {"compute_uv": True, "hermitian": False}),
        np.linalg.qr: _simple(weft.linalg.qr, ("a", "mode")),
        np.linalg.det: _simple(weft.linalg.det, ("a",)),
        np.linalg.slogdet: _simple(weft.linalg.slogdet, ("a",)),
        np.linalg.matrix_power: _simple(weft.linalg.matrix_power, ("a", "n")),
        np.einsum: _einsum,
        np.roll: _simple(weft.roll, ("a", "shift", "axis")),
        np.tile: _simple(weft.tile, ("A", "reps")),
        np.repeat: _simple(weft.repeat, ("a", "repeats", "axis")),
        np.take: _simple(weft.take, ("a", "indices", "axis"), {"out": None, "mode": "raise"}),
        np.take_along_axis: _simple(weft.take_along_axis, ("arr", "indices", "axis")),
        np.moveaxis: _simple(weft.moveaxis, ("a", "source", "destination")),
        np.tensordot: _simple(weft.tensordot, ("a", "b", "axes")),
        np.broadcast_arrays: _simple(lambda args: tuple(weft.broadcast_arrays(*args)),
                                     ("args",), {"subok": False}),
        np.argmax: _simple(weft.argmax, ("a", "axis", "keepdims")),
        np.argmin: _simple(weft.argmin, ("a", "axis", "keepdims")),
        np.nonzero: _simple(weft.nonzero, ("a",)),
        np.flatnonzero: _simple(weft.flatnonzero, ("a",)),
        np.argwhere: _simple(weft.argwhere, ("a",)),
        np.cumsum: _simple(weft.cumsum, ("a", "axis", "dtype")),
        np.cumprod: _simple(weft.cumprod, ("a", "axis", "dtype")),
        np.diff: _simple(weft.diff, ("a", "n", "axis", "prepend", "append")),
        np.ediff1d: _simple(weft.ediff1d, ("ary", "to_end", "to_begin")),
        np.gradient: _gradient,
        np.convolve: _simple(weft.convolve, ("a", "v", "mode")),
        np.interp: _simple(weft.interp, ("x", "xp", "fp", "left", "right", "period")),
        np.unwrap: _simple(weft.unwrap, ("p", "discont", "axis", "period")),
        np.isin: _simple(weft.isin, ("element", "test_elements", "assume_unique", "invert"),
                         {"kind": None}),
        np.intersect1d: _simple(weft.intersect1d, ("ar1", "ar2", "assume_unique",
                                                   "return_indices")),
        np.union1d: _simple(weft.union1d, ("ar1", "ar2")),
        np.setdiff1d: _simple(weft.setdiff1d, ("ar1", "ar2", "assume_unique")),
        np.setxor1d: _simple(weft.setxor1d, ("ar1", "ar2", "assume_unique")),
        np.nan_to_num: _simple(weft.nan_to_num, ("x", "copy", "nan", "posinf", "neginf")),
        np.sinc: _simple(weft.sinc, ("x",)),
        np.real: _simple(weft.real, ("val",)), np.imag: _simple(weft.imag, ("val",)),
        np.angle: _simple(weft.angle, ("z", "deg")),
        np.isreal: _simple(weft.isreal, ("x",)), np.iscomplex: _simple(weft.iscomplex, ("x",)),
        np.real_if_close: _simple(weft.real_if_close, ("a", "tol")),
        np.array_equal: _simple(weft.array_equal, ("a1", "a2", "equal_nan")),
        np.array_equiv: _simple(weft.array_equiv, ("a1", "a2")),
        np.nancumsum: _simple(weft.nancumsum, ("a", "axis", "dtype")),
        np.nancumprod: _simple(weft.nancumprod, ("a", "axis", "dtype")),
        np.cumulative_sum: _simple(
            lambda x, axis=None, dtype=None, include_initial=False: weft.cumulative_sum(
                x, axis=axis, dtype=dtype, include_initial=include_initial),
            ("x", "axis", "dtype", "include_initial")),
        np.searchsorted: _simple(weft.searchsorted, ("a", "v", "side", "sorter")),
        np.digitize: _simple(weft.digitize, ("x", "bins", "right")),
        np.unique: _simple(weft.unique, ("ar", "return_index", "return_inverse",
                                         "return_counts", "axis", "equal_nan")),
        np.sort: _simple(weft.sort, ("a", "axis", "kind"), {"order": None, "stable": None}),
        np.argsort: _simple(weft.argsort, ("a", "axis", "kind"),
                            {"order": None, "stable": None}),
        np.median: _simple(weft.median, ("a", "axis", "keepdims"),
                           {"overwrite_input": _READ}),
        np.quantile: _simple(weft.quantile, ("a", "q", "axis", "method", "keepdims"),
                             {"overwrite_input": _READ, "weights": None}),
        np.percentile: _simple(weft.percentile, ("a", "q", "axis", "method", "keepdims"),
                               {"overwrite_input": _READ, "weights": None}),
    }
    for name in ("nansum", "nanprod", "nanmean"):
        table[getattr(np, name)] = _simple(getattr(weft, name), ("a", "axis", "dtype",
                                                                 "keepdims"))
    for name in ("nanvar", "nanstd"):
        table[getattr(np, name)] = _simple(getattr(weft, name), ("a", "axis", "dtype", "ddof",
                                                                 "keepdims"))
    for name in ("nanmax", "nanmin", "nanargmax", "nanargmin"):
        table[getattr(np, name)] = _simple(getattr(weft, name), ("a", "axis", "keepdims"))
    table[np.nanmedian] = _simple(weft.nanmedian, ("a", "axis", "keepdims"),
                                  {"overwrite_input": _READ})
    for name in ("nanquantile", "nanpercentile"):
        table[getattr(np, name)] = _simple(getattr(weft, name), (
            "a", "q", "axis", "method", "keepdims"), {"overwrite_input": _READ,
                                                     "weights": None})
    table[np.average] = _simple(weft.average, ("a", "axis", "weights", "returned",
                                               "keepdims"))
    table[np.cov] = _simple(weft.cov, ("m", "y", "rowvar", "bias", "ddof", "fweights",
                                       "aweights", "dtype"))
    table[np.corrcoef] = _simple(weft.corrcoef, ("x", "y", "rowvar", "dtype"))
    table[np.ptp] = _simple(weft.ptp, ("a", "axis", "keepdims"))
    table[np.split] = _simple(weft.split, ("ary", "indices_or_sections", "axis"))
    table[np.array_split] = _simple(weft.array_split, ("ary", "indices_or_sections", "axis"))
    table[np.append] = _simple(weft.append, ("arr", "values", "axis"))
    table[np.column_stack] = _simple(weft.column_stack, ("tup",))
    table[np.atleast_1d] = _simple(lambda arys: weft.atleast_1d(*arys), ("arys",))
    table[np.atleast_2d] = _simple(lambda arys: weft.atleast_2d(*arys), ("arys",))
    table[np.select] = _simple(weft.select, ("condlist", "choicelist", "default"))
    table[np.inner] = _simple(weft.inner, ("a", "b"))
    table[np.kron] = _simple(weft.kron, ("a", "b"))
    table[np.pad] = lambda name, given: weft.pad(  # (NumPy's **kwargs bind as "kwargs")
        given["array"], given["pad_width"], given.get("mode", "constant"),
        **given.get("kwargs", {}))
    table[np.cross] = _simple(weft.cross, ("a", "b"), {"axisa": -1, "axisb": -1, "axisc": -1,
                                                       "axis": None})
    table[np.bincount] = _simple(weft.bincount, ("x", "weights", "minlength"))
    table[np.histogram] = _simple(weft.histogram, ("a", "bins", "range", "density",
                                                   "weights"))
    table[np.histogram2d] = _simple(weft.histogram2d, ("x", "y", "bins", "range", "density",
                                                       "weights"))
    table[np.insert] = _simple(weft.insert, ("arr", "obj", "values", "axis"))
    table[np.delete] = _simple(weft.delete, ("arr", "obj", "axis"))
    for name in ("partition", "argpartition"):
        table[getattr(np, name)] = _simple(getattr(weft, name), ("a", "kth", "axis"),
                                           {"kind": "introselect", "order": None})
    table[np.lexsort] = _simple(weft.lexsort, ("keys", "axis"))
    table[np.vander] = _simple(weft.vander, ("x", "N", "increasing"))
    table[np.piecewise] = lambda name, given: weft.piecewise(  # (*args, **kw bind by name)
        given["x"], given["condlist"], given["funclist"], *given.get("args", ()),
        **given.get("kw", {}))
    table[np.flip] = _simple(weft.flip, ("m", "axis"))
    table[np.fliplr] = _simple(weft.fliplr, ("m",))
    table[np.flipud] = _simple(weft.flipud, ("m",))
    table[np.squeeze] = _simple(weft.squeeze, ("a", "axis"))
    table[np.expand_dims] = _simple(weft.expand_dims, ("a", "axis"))
    table[np.swapaxes] = _simple(weft.swapaxes, ("a", "axis1", "axis2"))
    for name in ("trapezoid", "cumulative_prod"):
        if hasattr(np, name):  # NumPy 2 / 2.1
            table[getattr(np, name)] = _simple(getattr(weft, name), (
                ("y", "x", "dx", "axis") if name == "trapezoid"
                else ("x", "axis", "dtype", "include_initial")))
    for name in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
        if hasattr(np, name):  # NumPy 2
            table[getattr(np, name)] = _simple(getattr(weft, name), ("x",))
    for alias, original in ((getattr(np, "amax", None), np.max),
                            (getattr(np, "amin", None), np.min)):
        if alias is not None and alias not in table:
            table[alias] = table[original]
    return table
