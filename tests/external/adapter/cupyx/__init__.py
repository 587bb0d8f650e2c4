"""``cupyx`` for CuPy's tests: its SciPy namespace made of weft."""

from . import scipy  # noqa: F401
