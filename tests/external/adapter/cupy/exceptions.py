"""CuPy's exception names: NumPy's (weft raises NumPy's classes)."""

from numpy.exceptions import AxisError, ComplexWarning  # noqa: F401
