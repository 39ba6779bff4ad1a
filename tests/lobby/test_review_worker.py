"""The review worker process (`lobby/review_worker.py`): at the lowest priority, and gone
with the server process that started it, however that process ended."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]

#: A stand-in for a server process: the same pool as `Reviews.worker()`, one task run so the
#: worker exists; it prints the worker's pid and its scheduling policy, then waits.
PARENT = """
import concurrent.futures, multiprocessing, os, time
from lobby import review_worker

pool = concurrent.futures.ProcessPoolExecutor(
    max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=review_worker.setup)
print(pool.submit(os.getpid).result(), pool.submit(os.sched_getscheduler, 0).result(), flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers signal 0 until reaped; it is gone all the same.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_the_worker_runs_at_idle_priority_and_ends_when_its_server_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        worker, policy = (int(x) for x in parent.stdout.readline().split())
        assert policy == os.SCHED_IDLE
        assert alive(worker)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(10)
        wait_until(lambda: not alive(worker), timeout=10, what="the orphaned review worker to exit")
    finally:
        if parent.poll() is None:
            parent.kill()
