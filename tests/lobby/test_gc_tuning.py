"""The server's collector settings: cyclic garbage does not wait for the young threshold."""

from __future__ import annotations

import gc
import weakref

from config import gc_tuning
from tests.waiting import wait_until


class _Node:
    """An object in a reference cycle: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_the_clock_collects_a_cycle_the_threshold_would_leave_for_minutes() -> None:
    before = gc.get_threshold()
    gc.set_threshold(10_000_000, 20, 10)  # the count alone would not collect for a long while
    node = _Node()
    gone = weakref.ref(node)
    del node
    assert gone() is not None  # a cycle: reference counting alone does not free it
    stop = gc_tuning.sweep_young(0.05)
    try:
        wait_until(lambda: gone() is None, timeout=5, what="the cycle collected by the clock")
    finally:
        stop.set()
        gc.set_threshold(*before)
