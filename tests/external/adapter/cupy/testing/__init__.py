"""``cupy.testing`` for running CuPy's tests against weft: weft's own implementation of the
decorators and helpers CuPy's tests use (the same names and meanings), restricted to weft's
scope.

Scope: a test runs over weft's dtypes (bool, int32, int64, uint32, float32, float64) only; a
case that needs another dtype or more than 2 dimensions is skipped with the reason (weft says
so in its error, or NumPy's reference result has a dtype weft does not hold). Everything
else counts: a missing function, a different dtype, a wrong value or a different error fails.
"""

from __future__ import annotations

from ._arrays import (  # noqa: F401
    assert_allclose,
    assert_array_almost_equal,
    assert_array_equal,
    assert_array_less,
    assert_array_list_equal,
    assert_warns,
    shaped_arange,
    shaped_linspace,
    shaped_random,
    shaped_reverse_arange,
)
from ._compare import (  # noqa: F401
    numpy_cupy_allclose,
    numpy_cupy_array_almost_equal,
    numpy_cupy_array_almost_equal_nulp,
    numpy_cupy_array_equal,
    numpy_cupy_array_less,
    numpy_cupy_array_list_equal,
    numpy_cupy_array_max_ulp,
    numpy_cupy_equal,
)
from ._dtypes import (  # noqa: F401
    for_all_dtypes,
    for_all_dtypes_combination,
    for_CF_orders,
    for_complex_dtypes,
    for_contiguous_axes,
    for_dtypes,
    for_dtypes_combination,
    for_float_dtypes,
    for_int_dtypes,
    for_int_dtypes_combination,
    for_orders,
    for_signed_dtypes,
    for_signed_dtypes_combination,
    for_unsigned_dtypes,
    for_unsigned_dtypes_combination,
)
from ._params import (  # noqa: F401
    AssertFunctionIsCalled,
    NumpyAliasBasicTestBase,
    NumpyAliasValuesTestBase,
    assert_function_is_called,
    installed,
    multi_gpu,
    numpy_satisfies,
    parameterize,
    product,
    product_dict,
    repeat,
    slow,
    with_requires,
)
