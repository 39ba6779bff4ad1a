"""The set-up of the review worker process (`lobby/reviews.py`): its priority, and its end
when the server process that started it is gone.

Kept apart from the reviews module so that the worker, a spawned interpreter, imports this
and nothing of Django to set itself up.
"""

from __future__ import annotations

import os
import signal
import threading
import time

#: The niceness where the idle policy is missing (not Linux).
NICE = 19
#: How often the worker looks for its parent, in seconds.
PARENT_CHECK_SECONDS = 1.0


def setup() -> None:
    """Lowest priority, and an end with the parent (the pool's initializer)."""
    lowest()
    threading.Thread(target=_follow_parent, args=(os.getppid(),), name="parent-watch", daemon=True).start()


def lowest() -> None:
    """Run only on processor time nothing else wants: Linux's idle policy, else niceness 19.

    At niceness 10 the worker still took a share of a saturated machine's cores from the
    server's own processes (the scheduler weighs niceness, it does not rank by it); under the
    idle policy a review waits while the server has work, and uses the processor once it has
    none.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(NICE)


def _follow_parent(parent: int) -> None:
    """Exit once the parent is gone. A pool's worker holds both ends of its own task queue,
    so a server process killed outright (SIGKILL, the out-of-memory killer) never closes it:
    without this the worker, and the resource tracker it keeps open, would outlive it."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL)  # mid-search, with nobody left to answer
