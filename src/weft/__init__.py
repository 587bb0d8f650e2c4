"""weft: NumPy-like array expressions fused into one generated GPU/CPU kernel.

>>> import weft as wf
>>> a = wf.asarray([1.0, 2.0]); b = wf.asarray([3.0, 4.0])
>>> (2.0 * (a + b)).tolist()
[8.0, 12.0]
"""

from numpy import finfo, iinfo  # (weft's dtypes are NumPy's dtypes)

from . import kernels, linalg, random, stats, tensoralg
from .api import eval, kernel_source, synchronize
from .arg_reductions import argmax, argmin
from .array import Array, apply_op, transpose
from .bessel_i01 import i0, i0e, i1, i1e
from .bitmask import BitMask, bitmask
from .building import fromfunction, vander
from .cache import cache_info, clear_cache
from .compaction import argwhere, flatnonzero, nonzero
from .composites import *  # noqa: F403 - NumPy's element-wise composites
from .composites import __all__ as _composite_names
from .config import config
from .convex_analysis import entr, huber, kl_div, pseudo_huber, rel_entr
from .counting import bincount, histogram, histogram2d
from .covariance import average, corrcoef, cov
from .creation import (
    arange,
    asarray,
    ascontiguousarray,
    broadcast_to,
    col_index,
    empty,
    empty_like,
    eye,
    from_dlpack,
    full,
    full_like,
    identity,
    isfortran,
    linspace,
    logspace,
    ones,
    ones_like,
    row_index,
    tri,
    zeros,
    zeros_like,
)
from .devices import Device, current_device, device, devices, get_device, set_device
from .differences import convolve, diff, ediff1d, gradient, interp, trapezoid, unwrap
from .distributions import *  # noqa: F403 - SciPy's distribution functions
from .distributions import __all__ as _distribution_names
from .dtypes import (
    DType,
    bool_,
    default_real,
    float32,
    float64,
    int32,
    int64,
    set_default_real,
    to_dtype,
    uint32,
)
from .editing import delete, insert
from .einsum import einsum
from .elliptic import ellipe, ellipk, ellipkm1
from .elliptic_jacobi import ellipj
from .float_parts import fix, frexp, modf
from .function import function
from .functions import *  # noqa: F403 - the element-wise namespace, generated from ops.py
from .functions import __all__ as _function_names
from .grad import grad, value_and_grad, vjp
from .ignoring_nan import *  # noqa: F403 - NumPy's reductions ignoring NaN
from .ignoring_nan import __all__ as _ignoring_nan_names
from .linalg import dot, inner, matmul, outer
from .matrix import (
    assign,
    check,
    concatenate,
    diag,
    diagonal,
    flatten,
    hstack,
    ravel,
    set_diagonal,
    stack,
    tril,
    triu,
    vstack,
)
from .padding import pad
from .products import cross, kron
from .rearrange import (
    broadcast_arrays,
    copy,
    expand_dims,
    flip,
    fliplr,
    flipud,
    meshgrid,
    moveaxis,
    repeat,
    reshape,
    roll,
    squeeze,
    swapaxes,
    take,
    take_along_axis,
    tensordot,
    tile,
    unstack,
)
from .reductions import FUNCTIONS as _REDUCTIONS
from .reductions import log_softmax, logsumexp, reduce, softmax
from .scans import (
    cummax,
    cummin,
    cumprod,
    cumsum,
    cumulative_prod,
    cumulative_sum,
    logcumsumexp,
    nancumprod,
    nancumsum,
)
from .searching import (
    digitize,
    searchsorted,
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)
from .selection import argpartition, lexsort, partition
from .sets import intersect1d, isin, setdiff1d, setxor1d, union1d
from .sorting import argsort, median, percentile, quantile, sort
from .spherical_bessel import spherical_in, spherical_jn, spherical_kn, spherical_yn
from .splitting import append, array_split, atleast_1d, atleast_2d, column_stack, split
from .windows import bartlett, blackman, hamming, hanning, kaiser

globals().update(_REDUCTIONS)

__version__ = "0.1.0"

__all__ = [
    "Array", "DType", "Device", "apply_op", "arange", "asarray", "bool_", "broadcast_to",
    "cache_info", "clear_cache", "col_index", "config", "current_device", "default_real",
    "device", "devices", "empty", "empty_like", "eval", "eye", "float32", "float64", "full",
    "full_like", "get_device", "int32", "int64", "kernel_source", "ones", "ones_like",
    "row_index", "set_default_real", "set_device", "synchronize", "to_dtype", "transpose",
    "uint32", "zeros", "zeros_like", "assign", "check", "concatenate", "diag", "diagonal",
    "hstack", "set_diagonal", "stack", "tril", "triu", "vstack", "logsumexp", "reduce", "random",
    "linalg", "kernels", "stats", "tensoralg", "BitMask", "bitmask", "function",
    "grad", "value_and_grad", "vjp", "einsum", "argmax", "argmin", "sort", "argsort",
    "median", "quantile", "percentile", "cumsum", "cumprod", "cummax", "cummin",
    "logcumsumexp", "nonzero", "flatnonzero", "argwhere", "linspace", "logspace", "ravel",
    "flatten", "from_dlpack", "broadcast_arrays", "meshgrid", "moveaxis", "repeat", "roll",
    "take", "take_along_axis", "tensordot", "tile", "unstack", "searchsorted", "digitize", "unique",
    "unique_values", "unique_counts", "unique_inverse", "unique_all",
    "convolve", "diff", "ediff1d", "gradient", "interp", "trapezoid", "unwrap", "matmul",
    "cumulative_prod", "cumulative_sum", "nancumprod", "nancumsum", "intersect1d", "isin",
    "setdiff1d", "setxor1d", "union1d", "softmax", "log_softmax", "ascontiguousarray",
    "isfortran", "bartlett", "blackman", "hamming", "hanning", "kaiser", "ellipk", "ellipkm1",
    "ellipe", "ellipj", "i0", "i0e", "i1", "i1e", "entr", "rel_entr", "kl_div", "huber",
    "pseudo_huber", "modf", "frexp", "fix",
    "spherical_jn", "spherical_yn", "spherical_in", "spherical_kn",
    *_REDUCTIONS, *_function_names, *_composite_names, *_distribution_names,
    *_ignoring_nan_names, "average", "cov", "corrcoef", "bincount", "histogram", "flip",
    "fliplr", "flipud", "squeeze", "expand_dims", "swapaxes", "split", "array_split",
    "append", "column_stack", "atleast_1d", "atleast_2d", "identity", "tri", "finfo",
    "iinfo", "dot", "inner", "outer", "copy", "reshape", "kron", "cross", "pad", "insert",
    "delete", "partition", "argpartition", "lexsort",
    "vander", "fromfunction", "histogram2d",
]
__all__ = list(dict.fromkeys(__all__))  # each name once (functions.py repeats some)

# Once all is defined: x.__array_namespace__(), and NumPy's ndarray methods on wf.Array.
from . import array_api, ndarray_methods  # noqa: E402, F401
