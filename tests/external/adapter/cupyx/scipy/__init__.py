"""``cupyx.scipy`` for CuPy's tests: only ``special``."""

from . import special  # noqa: F401
