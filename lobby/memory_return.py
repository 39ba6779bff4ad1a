"""Handing the memory that threads have freed back to the system, for servers that run for weeks.

A server process allocates on several threads: the database threads that write actions and
read snapshots, the review thread, the hint thread. glibc gives each such thread an arena of
its own and keeps the blocks those threads free mapped inside it, for reuse. Python's own
object arenas stay flat over hours of play, but the thread arenas' resident size creeps up
as freed blocks are scattered between live ones (docs/benchmarks.md, the soak, measured with
`bench/memory_map.py`): the process looks as if it leaked when it holds nothing more.

`malloc_trim(0)` is glibc's public call for exactly this: it walks every arena and returns
the whole free pages inside them to the system. It takes a few microseconds on a warm
process, so the sweep calls it once a minute. Where the C library has no such function
(musl, macOS), nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
from collections.abc import Callable

logger = logging.getLogger(__name__)

#: Seconds between two returns of freed memory in one process (the sweep's cadence).
RETURN_EVERY = 60.0


@functools.cache
def _trimmer() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None where the C library lacks it."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


def memory_return() -> bool:
    """Give the free pages of every malloc arena back to the system.

    Returns whether the C library could do it (False where it has no `malloc_trim`).
    """
    trim = _trimmer()
    if trim is None:
        return False
    trim(0)
    return True
