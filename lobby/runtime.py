"""The runtime: everything one server process holds, in one object.

A process holds more than its sockets: the database threads, the background loop and
workers, the Redis client, the channel layer, the room hub of its event loop, the
publisher, the throttle counters' cache, the state memo, the sockets it vouches for, the
claims under the caps, the flood penalties, the AI moves it has scheduled, the sweep
thread, the hint thread and the review queue. Each was a module-level singleton with a
lock of its own; here they are the attributes (or the `part`s) of one `Runtime`, made when
the app is ready (`LobbyConfig.ready`) and reached one way, `runtime()`. So one page says
what a process holds, one call (`forget`) empties its caches and one (`shutdown`) ends its
threads; a test can put a fresh one in place (`runtime_replace`).

What costs a thread, a connection or a Redis round trip is made on first use, under the
runtime's one lock: a `migrate` or a `collectstatic` makes the runtime and starts nothing.
What lives in memory only is made with it.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar, cast

import redis
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import BaseCache, caches

from lobby.background import Background
from lobby.db_threads import DatabaseThreads
from lobby.embedded_redis import ensure_running
from lobby.hub import RoomHub
from lobby.presence import Presence
from lobby.publisher import Publisher
from lobby.socket_caps import FloodPenalties, SocketCaps
from lobby.state_cache import StateCache

Loop = asyncio.AbstractEventLoop


class Part(Protocol):
    """Process state that a module above the runtime in the import graph defines (the hint
    thread, the review queue): made by its class with no argument, ended by `shutdown()`."""

    def shutdown(self) -> None: ...


P = TypeVar("P", bound=Part)


class Once:
    """Keys of work already scheduled in this process (an AI move per room, match, version
    and actor), so a second trigger for the same one does nothing."""

    def __init__(self) -> None:
        self._keys: set[Hashable] = set()
        self._lock = threading.Lock()

    def take(self, key: Hashable) -> bool:
        """True the first time `key` is taken (until it is released)."""
        with self._lock:
            if key in self._keys:
                return False
            self._keys.add(key)
            return True

    def release(self, key: Hashable) -> None:
        with self._lock:
            self._keys.discard(key)

    def clear(self) -> None:
        with self._lock:
            self._keys.clear()


class Runtime:
    """The state one server process holds; one per process (`runtime()`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        #: The seat sockets this process holds, and its name (`lobby/presence.py`).
        self.presence = Presence()
        #: The state memo and held rows, and the Redis entries (`lobby/state_cache.py`).
        self.states = StateCache(self.redis)
        #: The places its sockets hold under the caps (`lobby/socket_caps.py`).
        self.caps = SocketCaps(self.redis)
        #: The addresses refused after a flood (`lobby/socket_caps.py`).
        self.penalties = FloodPenalties()
        #: The AI moves and timers scheduled (`lobby/bots.py`).
        self.scheduled = Once()
        self._db_threads: DatabaseThreads | None = None
        self._background: Background | None = None
        self._redis: redis.Redis | None = None
        self._layer: Any = None
        self._publisher: Publisher | None = None
        self._counters: BaseCache | None = None
        self._sweeper: threading.Thread | None = None
        self._expired_at: float | None = None
        self._hubs: weakref.WeakKeyDictionary[Loop, RoomHub] = weakref.WeakKeyDictionary()
        self._gates: weakref.WeakKeyDictionary[Loop, asyncio.Semaphore] = weakref.WeakKeyDictionary()
        self._parts: dict[type[Any], Part] = {}
        self._redis_ready = False

    def ensure_redis(self) -> None:
        """Start the embedded Redis server if the settings use it (`lobby/embedded_redis.py`);
        once per process, so the first user of Redis (a socket, the state cache, a throttle,
        the background loop) pays a ping and every later one nothing. Commands that need no
        Redis (migrate, collectstatic) never start it."""
        if self._redis_ready:
            return
        if settings.EMBEDDED_REDIS:
            ensure_running(settings.VAR_DIR)
        self._redis_ready = True

    def db_threads(self) -> DatabaseThreads:
        """The threads that run the sockets' database calls (`lobby/db_threads.py`)."""
        if self._db_threads is None:
            with self._lock:
                if self._db_threads is None:
                    self._db_threads = DatabaseThreads(settings.LOBBY_DB_THREADS)
        return self._db_threads

    def background(self) -> Background:
        """The timer loop, AI workers and cache writer (`lobby/background.py`)."""
        if self._background is None:
            self.ensure_redis()
            with self._lock:
                if self._background is None:
                    self._background = Background(settings.LOBBY_BOT_WORKERS)
        return self._background

    def redis(self) -> redis.Redis:
        """The blocking Redis client of the state cache and the socket caps."""
        if self._redis is None:
            self.ensure_redis()
            with self._lock:
                if self._redis is None:
                    self._redis = redis.Redis.from_url(
                        settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=5
                    )
        return self._redis

    def channel_layer(self) -> Any:
        """The process's one channel layer object. Channels' manager builds it on first use
        without a lock, so a socket's first join racing the background thread's first
        publish could each get their own object, and the pub/sub layer keeps its per-loop
        channels on that object: a channel made on one is unknown to the other."""
        if self._layer is None:
            self.ensure_redis()
            with self._lock:
                if self._layer is None:
                    layer = get_channel_layer()
                    assert layer is not None
                    self._layer = layer
        return self._layer

    def publisher(self) -> Publisher:
        """Publishes the rooms' events from any thread (`lobby/publisher.py`)."""
        if self._publisher is None:
            layer = self.channel_layer()
            with self._lock:
                if self._publisher is None:
                    self._publisher = Publisher(layer)
        return self._publisher

    def throttle_counters(self) -> BaseCache:
        """The cache object of the throttle counters, with its own connection pool: under
        ASGI Django's cache handler gives every request a cache object of its own, which
        opened a new Redis connection per request (about 7% of a REST call's server time)."""
        if self._counters is None:
            self.ensure_redis()
            with self._lock:
                if self._counters is None:
                    self._counters = caches.create_connection("default")
        return self._counters

    def part(self, kind: type[P]) -> P:
        """The process's one `kind` (`lobby/hints.py`'s `Hints`, `lobby/reviews.py`'s
        `Reviews`), made on first use: those modules import the services and selectors,
        which import the runtime, so the runtime holds them by their class instead of
        importing them."""
        found = self._parts.get(kind)
        if found is None:
            with self._lock:
                found = self._parts.get(kind)
                if found is None:
                    found = self._parts[kind] = kind()
        return cast(P, found)

    def hub(self) -> RoomHub:
        """The room hub of the running event loop (`lobby/hub.py`); only that loop uses it."""
        loop = asyncio.get_running_loop()
        found = self._hubs.get(loop)
        if found is None:
            found = self._hubs[loop] = RoomHub(self.channel_layer())
        return found

    def read_gate(self, size: int) -> asyncio.Semaphore:
        """The running loop's limit of `size` database calls at once for reads that must not
        hold up an action (`lobby/consumers.py`)."""
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = asyncio.Semaphore(size)
        return gate

    def sweeper_ensure(self, sweep_round: Callable[[], object]) -> None:
        """Run `sweep_round` every `LOBBY_SWEEP_SECONDS` on a thread of its own, started
        once (a period of 0 starts nothing), until the runtime shuts down."""
        if settings.LOBBY_SWEEP_SECONDS <= 0 or self._sweeper is not None:
            return
        with self._lock:
            if self._sweeper is None and not self._stopped.is_set():
                self._sweeper = threading.Thread(
                    target=self._sweep_forever, args=(sweep_round,), name="lobby-sweep", daemon=True
                )
                self._sweeper.start()

    def _sweep_forever(self, sweep_round: Callable[[], object]) -> None:
        while not self._stopped.wait(settings.LOBBY_SWEEP_SECONDS):
            sweep_round()

    def expiry_due(self, every: float) -> bool:
        """True on the first call and then once `every` seconds have passed since the last
        true one: the sweep's hourly expiry of idle rooms. Only the sweep thread asks."""
        now = time.monotonic()
        if self._expired_at is not None and now - self._expired_at < every:
            return False
        self._expired_at = now
        return True

    def forget(self) -> None:
        """Empty what the process keeps in memory only: the state memo and held rows, the
        scheduled moves and the flood penalties (tests, between cases). Threads, connections
        and the sockets it holds stay."""
        self.states.forget_local()
        self.scheduled.clear()
        self.penalties.forget()

    def shutdown(self) -> None:
        """End every thread and close every connection this runtime started (a test, before
        its database goes; a runtime replaced). Sockets still open keep what they hold."""
        self._stopped.set()
        self.caps.stop()
        with self._lock:
            background, self._background = self._background, None
            db_threads, self._db_threads = self._db_threads, None
            publisher, self._publisher = self._publisher, None
            client, self._redis = self._redis, None
            parts, self._parts = list(self._parts.values()), {}
        for part in parts:
            part.shutdown()
        if background is not None:
            background.shutdown()
        if db_threads is not None:
            db_threads.shutdown()
        if publisher is not None:
            publisher.close()
        if client is not None:
            client.close()


_current: Runtime | None = None


def runtime() -> Runtime:
    """The process's runtime, made when the app became ready."""
    if _current is None:
        raise RuntimeError("the lobby app is not ready: its runtime is made in LobbyConfig.ready()")
    return _current


def runtime_replace(fresh: Runtime | None = None) -> Runtime:
    """Shut the current runtime down and put `fresh` (a new one by default) in its place:
    at start-up, and in tests that want a process's state from nothing."""
    global _current
    old, _current = _current, fresh or Runtime()
    if old is not None:
        old.shutdown()
    return _current
