"""Waiting on a condition, never for a fixed time: poll until it holds, fail with what was
awaited when it has not held within the timeout."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds between two looks at the condition.
POLL = 0.05


def wait_until(condition: Callable[[], T], what: str, timeout: float = 10.0) -> T:
    """The condition's first true value; `AssertionError` naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, f"timed out after {timeout} s waiting for {what}"
        time.sleep(POLL)
    return found


async def until(condition: Callable[[], T], what: str, timeout: float = 10.0) -> T:
    """`wait_until` for a coroutine: the event loop runs on while the condition is false."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, f"timed out after {timeout} s waiting for {what}"
        await asyncio.sleep(POLL)
    return found
