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

What is cyclic garbage is each HTTP request's: Django's and DRF's request, resolver and
parser objects, the request thread's database wrapper, asgiref's contexts, about 160
objects and tens of KiB a request. A socket's action leaves almost none, so on a server
whose traffic is its sockets the threshold was reached only every eight minutes or so, and
each request's garbage waited that long: a saw of about 3 MiB a process, whose peaks the
process's RSS followed up and never down. So the young generation is also collected on a
clock, every `CLOCK_EVERY` seconds (a pass over only the objects made since the last one),
and a request's garbage lives seconds, not minutes.

A pass the program asks for collects the generation it names and no older one, and it
resets the young count, so with the clock the count never reached the threshold again and
the older generations were never collected: what survived a young pass (a socket's objects,
a request still running at the tick) and became cyclic garbage later stayed for the
process's life. So each tick collects the oldest generation the collector's own counts make
due, as a pass set off by the threshold would: the middle one after `MIDDLE_THRESHOLD` young
passes (three and a half minutes), everything after `OLD_THRESHOLD` middle ones (about forty
minutes; the frozen objects are still left out).
"""

from __future__ import annotations

import gc
import threading

YOUNG_THRESHOLD = 50_000
MIDDLE_THRESHOLD = 20
OLD_THRESHOLD = 10
#: Seconds between two collections made by the clock (the young generation, and an older
#: one when it is due).
CLOCK_EVERY = 10.0

_sweeping: threading.Event | None = None


def tune() -> None:
    """Freeze what the application loaded, collect the young generation less often by count,
    and every `CLOCK_EVERY` seconds by the clock with any older one that is due. A second call
    only freezes and sets again."""
    global _sweeping
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLD_THRESHOLD)
    if _sweeping is None:
        _sweeping = collect_on_clock(CLOCK_EVERY)


def collect_on_clock(every: float) -> threading.Event:
    """Every `every` seconds, collect the generations that are due (`due_generation`), on a
    daemon thread of its own, until the returned event is set."""
    stop = threading.Event()

    def sweep() -> None:
        while not stop.wait(every):
            gc.collect(due_generation())

    threading.Thread(target=sweep, name="gc-clock", daemon=True).start()
    return stop


def due_generation() -> int:
    """The generation a clock's pass collects now: `due_from` the collector's own counts."""
    return due_from(gc.get_count(), gc.get_threshold())


def due_from(counts: tuple[int, int, int], thresholds: tuple[int, int, int]) -> int:
    """The oldest generation whose count is past its threshold, the young one if none: what a
    collection set off by the young threshold would collect. The counts of the middle and old
    generations are the passes of the next younger one since they were last collected."""
    _young, young_passes, middle_passes = counts
    _first, middle, old = thresholds
    if middle_passes > old:
        return 2
    if young_passes > middle:
        return 1
    return 0
