"""The sweep gives the memory that threads freed back to the system (lobby/memory_return.py)."""

from __future__ import annotations

import os
import threading

import pytest

from lobby.memory_return import memory_return
from lobby.runtime import Runtime

BLOCK = 4096
BLOCKS = 40_000  # 160 MiB of blocks from one thread, most of them then freed


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads the resident size from /proc")
def test_memory_freed_by_a_thread_goes_back_to_the_system() -> None:
    """A thread that allocates and frees most of what it allocated leaves its arena's pages
    resident (one live block in fifty pins the arena's top); the return hands them back."""
    kept: list[bytearray] = []

    def churn() -> None:
        blocks = [bytearray(BLOCK) for _ in range(BLOCKS)]
        kept.extend(blocks[::50])
        del blocks

    worker = threading.Thread(target=churn)
    worker.start()
    worker.join()
    before = resident_bytes()
    assert memory_return() is True  # glibc, as on every server this project deploys to
    after = resident_bytes()
    assert before - after > BLOCK * BLOCKS // 2, (before, after)
    assert len(kept) == BLOCKS // 50


def test_a_chore_is_due_once_per_period() -> None:
    process = Runtime()
    assert process.due("memory", 3600.0) is True
    assert process.due("memory", 3600.0) is False
    assert process.due("expire", 3600.0) is True, "each chore keeps its own clock"
    assert process.due("memory", 0.0) is True
