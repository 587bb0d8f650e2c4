"""CuPy's cuTENSOR routines are not weft's: the tests that force them skip."""

available = False
