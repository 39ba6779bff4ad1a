"""The threads that do the sockets' database work, one call per frame.

Channels' `database_sync_to_async` runs every call between two `close_old_connections()`,
and with health checks on, that makes the next query of every call a `SELECT 1` round trip
first; around it, asgiref copies and restores the caller's context. An action is one call,
so that was a round trip and a fifth of the call's overhead per action. Here a fixed pool of
long-lived threads keeps one connection each: a thread looks at its connection (closes it
when it is broken or older than `CONN_MAX_AGE`) at most every `CHECK_SECONDS`, and at once
after a call that failed with a database error, so the next call opens a fresh one. With
`CONN_MAX_AGE` 0 every call still ends by closing its connection, unless the connection
came from a pool: then the thread keeps it between calls and gives it back at that check.

The process's pool is made by its runtime (`lobby/runtime.py`) on the first socket's call.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from django.db import DatabaseError, close_old_connections, connection

T = TypeVar("T")

CHECK_SECONDS = 10.0


class DatabaseThreads:
    def __init__(self, workers: int) -> None:
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lobby-db")
        self._local = threading.local()
        #: Read once: through Django's connection proxy, after every call, it cost 0.6% of a
        #: loaded process's interpreter time.
        self._close_each_call = not connection.settings_dict.get("CONN_MAX_AGE") and not pooled()

    def _call(self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
        now = time.monotonic()
        if now - getattr(self._local, "checked", -CHECK_SECONDS) >= CHECK_SECONDS:
            close_old_connections()
            self._local.checked = now
        try:
            return fn(*args, **kwargs)
        except DatabaseError:
            close_old_connections()
            raise
        finally:
            if self._close_each_call:
                close_old_connections()

    def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> Awaitable[T]:
        """`fn(*args, **kwargs)` on a database thread, awaited from the event loop."""
        return asyncio.get_running_loop().run_in_executor(self.pool, self._call, fn, args, kwargs)

    def shutdown(self) -> None:
        """End the threads; their connections close as the threads' objects go."""
        self.pool.shutdown(wait=True)


def pooled() -> bool:
    """Connections come from a pool: a thread keeps the one it borrowed between calls."""
    return bool((connection.settings_dict.get("OPTIONS") or {}).get("pool"))
