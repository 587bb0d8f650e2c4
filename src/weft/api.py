"""Top-level evaluation and introspection: ``wf.eval``, ``wf.synchronize``, ``kernel_source``."""

from __future__ import annotations

from typing import Any

from . import devices as dv
from . import pending, realize
from .array import Array, evaluate
from .compiler import temporary_leaf


def eval(*arrays: Array) -> tuple[Array, ...]:  # noqa: A001 - the API's name
    """Evaluate all arrays, in one kernel where their shapes agree; returns them.

    >>> import weft as wf
    >>> x = wf.asarray([1.0, 2.0])
    >>> a, b = wf.eval(x + 1, x * 2)
    >>> b.tolist()
    [2.0, 4.0]
    """
    evaluate(*arrays)
    return arrays


def synchronize() -> None:
    """Wait for all work the calling thread has queued, on every device, and raise the first
    failed fused check among it that no observation has raised yet.

    >>> import weft as wf
    >>> wf.synchronize()
    """
    # Reports read by a copy first: the copy waits for their checked kernels, so the waits
    # below are short (a blocked thread's first call after a long wait costs tens of
    # microseconds, and this way the thread wakes once). The others settle from their flags
    # once the queues have drained, with no copy unless a check failed.
    pending.read_copied()
    for kind in dv._found:
        for d in dv._found[kind]:
            d.backend.synchronize(d)
    pending.read_drained()
    pending.raise_unraised()


def kernel_source(*arrays: Array) -> str:
    """The generated source that evaluating ``arrays`` together would run.

    >>> import weft as wf
    >>> x = wf.asarray([1.0])
    >>> "__kernel" in wf.kernel_source(x * 2 + 1) or "__global__" in wf.kernel_source(x * 2)
    True
    """
    by_device: dict[Any, list] = {}
    for a in arrays:
        if not isinstance(a, Array):
            raise TypeError(f"kernel_source takes weft Arrays, not {type(a).__name__}")
        if a.is_lazy:
            dest = temporary_leaf(a.shape, a.dtype, a._node.structure)
            by_device.setdefault(a.device, []).append((a._node, dest))
    if not by_device:
        return ""
    return "\n".join(realize.sources(d, outs) for d, outs in by_device.items())
