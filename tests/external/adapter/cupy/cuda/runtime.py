"""The runtime facts CuPy's tests branch on: weft is not HIP."""

is_hip = False


def runtimeGetVersion() -> int:  # noqa: N802 (CuPy's name)
    return 12000
