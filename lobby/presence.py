"""Which seat sockets are alive, across processes: each process refreshes a short-lived Redis
key for every socket it holds, so the sockets of a process that died stop counting.

A seat records the channel of its newest socket in the database; when that channel's key
has expired, its process is gone without closing it, and the sweep closes it as if it
had disconnected, which starts the grace period (and then the stand-in AI).
"""

from __future__ import annotations

import threading

from django.conf import settings

from lobby import state_cache

_live: set[str] = set()
_live_lock = threading.Lock()


def _key(channel: str) -> str:
    return f"{settings.LOBBY_REDIS_PREFIX}presence:{channel}"


def presence_add(channel: str) -> None:
    with _live_lock:
        _live.add(channel)
    state_cache.client().set(_key(channel), 1, ex=settings.LOBBY_PRESENCE_TTL)


def presence_remove(channel: str) -> None:
    with _live_lock:
        _live.discard(channel)
    state_cache.client().delete(_key(channel))


def presence_refresh() -> int:
    """Renew the keys of this process's sockets; returns how many."""
    with _live_lock:
        channels = list(_live)
    if channels:
        pipe = state_cache.client().pipeline(transaction=False)
        for channel in channels:
            pipe.set(_key(channel), 1, ex=settings.LOBBY_PRESENCE_TTL)
        pipe.execute()
    return len(channels)


def channels_dead(channels: list[str]) -> list[str]:
    """The channels, of those given, that no live process holds."""
    if not channels:
        return []
    alive = state_cache.client().mget([_key(c) for c in channels])
    return [c for c, here in zip(channels, alive) if here is None]
