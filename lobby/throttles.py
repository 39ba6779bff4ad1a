"""Per-address throttles for creating rooms and joining seats.

DRF binds its rate table when the throttle class is defined; these read
`settings.LOBBY_THROTTLE_RATES` on each request, so a deployment or a test can change them.

The counters live in the default Redis cache, through the one cache object of the process's
runtime (`Runtime.throttle_counters`).
"""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from lobby.runtime import runtime


class _ScopeThrottle(SimpleRateThrottle):
    scope = ""

    def __init__(self) -> None:
        self.cache = runtime().throttle_counters()
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
