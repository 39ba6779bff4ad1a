"""The priority of the review worker process (`lobby/reviews.py`).

Kept apart from the reviews module so that the worker, a spawned interpreter, imports this
and nothing of Django to set itself up.
"""

from __future__ import annotations

import os

#: The niceness where the idle policy is missing (not Linux).
NICE = 19


def lowest() -> None:
    """Run only on processor time nothing else wants: Linux's idle policy, else niceness 19.

    At niceness 10 the worker still took about a tenth of a busy core from the server's own
    processes (the scheduler weighs niceness, it does not rank by it); under the idle policy
    a review waits while the server has work, and uses the processor once it has none.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(NICE)
