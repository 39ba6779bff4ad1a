"""The garbage collector's settings for a server process.

A server holding a thousand sockets keeps a few million tracked objects alive, and with
CPython's defaults a full collection (every object traversed, the event loop stopped)
came every 20 s or so, set off by the states, views and frames that each action makes and
that live just long enough to be promoted before their reference counts free them. A
profile of a loaded process put a tenth of its CPU in the collector, and each full pass
stalled every socket of the process for a few hundred milliseconds.

Almost nothing a server makes is cyclic garbage: reference counting frees it. So the
young generation is collected after 50,000 net allocations instead of 700 (what it holds
then is freed within the same pass, and little is promoted), and whatever exists once the
application is loaded (modules, settings, URL patterns) is frozen out of every collection.
Cycles are still collected, just in larger batches.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 50_000
MIDDLE_THRESHOLD = 20
OLD_THRESHOLD = 10


def tune() -> None:
    """Freeze what the application loaded and collect the young generation less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLD_THRESHOLD)
