"""How the benchmark runner times a call: batches between synchronizations, and rounds that
interleave implementations (../shared/PERFORMANCE.md).

>>> ms = median_ms(lambda: None, lambda: None, repeat=3, batch=2)
>>> ms >= 0
True
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

BATCH = 10  # calls per timed batch: a GPU's queue stays full between them


def batch_seconds(run: Callable[[], Any], sync: Callable[[], None], batch: int) -> float:
    """Seconds per call of one batch of ``batch`` calls, from a synchronized start to a
    synchronized end."""
    sync()
    t0 = time.perf_counter()
    for _ in range(batch):
        run()
    sync()
    return (time.perf_counter() - t0) / batch


def median_ms(run: Callable[[], Any], sync: Callable[[], None], repeat: int,
              batch: int = BATCH) -> float:
    """The median over ``repeat`` batches, ms per call, after one warm call."""
    run()
    sync()
    return 1e3 * statistics.median(batch_seconds(run, sync, batch) for _ in range(repeat))


class Runner:
    """One implementation of one case, ready to time: ``run()`` enqueues a call, ``sync()``
    waits for it, ``enter()``/``leave()`` bracket each batch."""

    def __init__(self, run: Callable[[], Any], sync: Callable[[], None],
                 enter: Callable[[], None] = lambda: None,
                 leave: Callable[[], None] = lambda: None) -> None:
        self.run, self.sync, self.enter, self.leave = run, sync, enter, leave


def rounds(runners: dict[str, Runner], repeat: int, batch: int) -> dict[str, list[float]]:
    """Each runner's seconds per call in each of ``repeat`` rounds. A round times one batch
    of every runner, starting with a different runner each round: a GPU's clocks and a
    host's speed drift over a run, and timed one after another the implementations would
    meet different conditions (docs/tuning-notes.md, 20 and 23)."""
    names = list(runners)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in runners.values():  # warm: nothing compiles or allocates inside a batch
        r.enter()
        r.run()
        r.sync()
        r.leave()
    for k in range(repeat):
        start = k % len(names)
        for name in names[start:] + names[:start]:
            r = runners[name]
            r.enter()
            times[name].append(batch_seconds(r.run, r.sync, batch))
            r.leave()
    return times


def spread(values: list[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile): the middle half shows how far apart two
    medians must be to differ."""
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, median, q3
