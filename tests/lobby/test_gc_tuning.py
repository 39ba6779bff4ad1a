"""The server's collector settings: cyclic garbage does not wait for the young threshold, and
the clock's passes do not leave the older generations uncollected."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from config import gc_tuning
from tests.waiting import wait_until


class _Node:
    """An object in a reference cycle: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    try:
        yield
    finally:
        gc.set_threshold(*before)


def test_the_clock_collects_a_cycle_the_threshold_would_leave_for_minutes(thresholds: None) -> None:
    gc.set_threshold(10_000_000, 20, 10)  # the count alone would not collect for a long while
    node = _Node()
    gone = weakref.ref(node)
    del node
    assert gone() is not None  # a cycle: reference counting alone does not free it
    stop = gc_tuning.collect_on_clock(0.05)
    try:
        wait_until(lambda: gone() is None, timeout=5, what="the cycle collected by the clock")
    finally:
        stop.set()


def test_the_clock_collects_a_cycle_that_became_garbage_in_the_oldest_generation(thresholds: None) -> None:
    """A socket's objects outlive many young passes; when they become garbage, only a pass
    over the oldest generation frees them, and the clock's young passes alone never make one."""
    gc.set_threshold(10_000_000, 2, 2)
    node = _Node()
    gone = weakref.ref(node)
    gc.collect()  # the node survives into the oldest generation
    del node
    for _ in range(10):
        gc.collect(0)
    assert gone() is not None, "young passes alone do not reach the oldest generation"
    stop = gc_tuning.collect_on_clock(0.02)
    try:
        wait_until(lambda: gone() is None, timeout=5, what="the old cycle collected by the clock")
    finally:
        stop.set()


@pytest.mark.parametrize(("counts", "due"), [
    ((5, 0, 0), 0), ((5, 20, 0), 0), ((5, 21, 0), 1), ((5, 21, 11), 2), ((5, 0, 11), 2), ((5, 0, 10), 0),
])
def test_the_generation_due_is_the_oldest_past_its_threshold(counts: tuple[int, int, int], due: int) -> None:
    assert gc_tuning.due_from(counts, (50_000, 20, 10)) == due
