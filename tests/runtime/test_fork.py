"""A process forked after weft used a device: a clear error in the child, never a hang."""

from __future__ import annotations

import multiprocessing
import os

import numpy as np
import pytest

import weft as wf


def _use_weft_in_child(queue) -> None:  # runs in the child
    try:
        with wf.device("reference"):
            reference = (wf.asarray(np.arange(3.0)) * 3).to_numpy().tolist()
        queue.put(("reference", reference))
        queue.put(("device", (wf.asarray(np.arange(3.0)) * 3).to_numpy().tolist()))
    except RuntimeError as error:
        queue.put(("error", str(error)))


def _run_child(method: str) -> list[tuple[str, object]]:
    context = multiprocessing.get_context(method)
    queue = context.Queue()
    child = context.Process(target=_use_weft_in_child, args=(queue,))
    child.start()
    child.join(120)
    if child.is_alive():
        child.kill()
        pytest.fail(f"a {method}ed child using weft did not finish")
    return [queue.get(timeout=10) for _ in range(2)]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_gets_a_clear_error_not_a_hang():
    x = wf.asarray(np.arange(4.0))
    np.testing.assert_array_equal((x * 2).to_numpy(), [0, 2, 4, 6])  # the parent used it
    got = _run_child("fork")
    assert got[0] == ("reference", [0.0, 3.0, 6.0])
    kind, message = got[1]
    assert kind == "error"
    assert "before it forked" in message and "spawn" in message
    np.testing.assert_array_equal((x * 3).to_numpy(), [0, 3, 6, 9])  # the parent is unharmed


def test_a_spawned_child_uses_the_device():
    wf.asarray(np.arange(4.0)).to_numpy()
    assert _run_child("spawn") == [("reference", [0.0, 3.0, 6.0]),
                                   ("device", [0.0, 3.0, 6.0])]
