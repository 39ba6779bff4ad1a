"""Per-address throttles for creating rooms and joining seats.

DRF binds its rate table when the throttle class is defined; these read
`settings.LOBBY_THROTTLE_RATES` on each request, so a deployment or a test can change them.

The counters live in the default Redis cache, through one cache object per process: under
ASGI Django's cache handler gives every request a cache object of its own, which opened a
new Redis connection per request (about 7% of a REST call's server time).
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.core.cache import BaseCache, caches
from rest_framework.throttling import SimpleRateThrottle

from lobby.embedded_redis import ensure_configured

_counters: list[BaseCache] = []
_counters_lock = threading.Lock()


def counters() -> BaseCache:
    """The process's cache object for throttle counters, with its own connection pool."""
    if not _counters:
        with _counters_lock:
            if not _counters:
                _counters.append(caches.create_connection("default"))
    return _counters[0]


class _ScopeThrottle(SimpleRateThrottle):
    scope = ""

    def __init__(self) -> None:
        ensure_configured()  # the counters live in the Redis cache
        self.cache = counters()
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def get_rate(self) -> str | None:
        rate: str | None = settings.LOBBY_THROTTLE_RATES.get(self.scope)
        return rate

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class RoomCreateThrottle(_ScopeThrottle):
    scope = "room_create"


class SeatJoinThrottle(_ScopeThrottle):
    scope = "seat_join"
