"""One timer loop thread, one worker pool and one writer thread per process, for work no
request waits on.

AI moves, stand-ins and turn timers are timers on the loop that fire into the pool, so AI
search never runs on the loop that serves the sockets; state cache dumps go to the writer,
in order. (Publishing after a commit happens in the committing thread: `realtime.py`.)
The process's runtime (`lobby/runtime.py`) makes it on first use.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import close_old_connections

logger = logging.getLogger(__name__)


class Background:
    def __init__(self, workers: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lobby-bot")
        self.writer = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="lobby-write")
        self._busy = 0
        self._timers: set[asyncio.TimerHandle] = set()
        self._idle = threading.Condition()
        self._thread = threading.Thread(target=self.loop.run_forever, name="lobby-loop", daemon=True)
        self._thread.start()

    def _enter(self) -> None:
        with self._idle:
            self._busy += 1

    def _leave(self) -> None:
        with self._idle:
            self._busy -= 1
            self._idle.notify_all()

    def write(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run `fn(*args)` on the one writer thread, in the order given: cache writes no
        request needs to wait for. Failures are logged."""
        self._enter()
        self.writer.submit(self._written, fn, args)

    def _written(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            fn(*args)
        except Exception:
            logger.exception("background write %s failed", getattr(fn, "__name__", fn))
        finally:
            self._leave()

    def call_later(self, delay: float, fn: Callable[..., Any], *args: Any) -> None:
        """Run `fn(*args)` in the worker pool after `delay` seconds."""
        self._enter()
        self.loop.call_soon_threadsafe(self._arm, max(0.0, delay), fn, args)

    def _arm(self, delay: float, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        handle: asyncio.TimerHandle | None = None

        def fire() -> None:
            assert handle is not None
            self._timers.discard(handle)
            self.pool.submit(self._work, fn, args)

        handle = self.loop.call_later(delay, fire)
        self._timers.add(handle)

    def _work(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        close_old_connections()
        try:
            fn(*args)
        except Exception:
            logger.exception("background job %s failed", getattr(fn, "__name__", fn))
        finally:
            close_old_connections()
            self._leave()

    def cancel_timers(self) -> None:
        """Drop every timer not yet fired (tests, between cases)."""

        def cancel() -> None:
            for handle in list(self._timers):
                handle.cancel()
                self._timers.discard(handle)
                self._leave()

        done = threading.Event()

        def cancel_and_signal() -> None:
            cancel()
            done.set()

        self.loop.call_soon_threadsafe(cancel_and_signal)
        done.wait(5)

    def wait_idle(self, timeout: float) -> bool:
        """Block until no task or timer is pending; False if `timeout` passed first."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def shutdown(self) -> None:
        """Stop the pool and the loop; their threads end (tests, at the very end)."""
        self.cancel_timers()
        self.pool.shutdown(wait=True)
        self.writer.shutdown(wait=True)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
