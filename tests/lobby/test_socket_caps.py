"""The socket caps' claims in the real Redis: a cap admits up to its size, a released place
is free again, and claims lost with Redis' data come back at the next renewal."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from pytest_django.fixtures import Settings

from lobby import socket_caps
from lobby.runtime import runtime


@pytest.fixture
def caps(settings: Settings) -> Iterator[None]:
    settings.LOBBY_ADDRESS_CONNECTIONS = 3
    settings.LOBBY_ROOM_SPECTATORS = 2
    yield
    for connection in [f"c{n}" for n in range(10)]:
        runtime().caps.release(connection)


def lose_redis_data() -> None:
    """What a FLUSHDB or a restart without persistence does to this test's keys."""
    client = runtime().redis()
    keys = list(client.scan_iter(match=f"{settings.LOBBY_REDIS_PREFIX}*"))
    if keys:
        client.delete(*keys)


def test_a_cap_admits_its_size_and_a_released_place_is_free_again(caps: None) -> None:
    assert runtime().caps.claim("c0", "192.0.2.1", "room") is None
    assert runtime().caps.claim("c1", "192.0.2.1", "room") is None
    full = runtime().caps.claim("c2", "192.0.2.1", "room")
    assert full is not None and full.close_code == socket_caps.CLOSE_SPECTATORS_FULL
    # A seat's socket is not a spectator: only the address cap counts it.
    assert runtime().caps.claim("c2", "192.0.2.1", None) is None
    too_many = runtime().caps.claim("c3", "192.0.2.1", None)
    assert too_many is not None and too_many.close_code == socket_caps.CLOSE_TOO_MANY_CONNECTIONS
    assert runtime().caps.claim("c3", "192.0.2.2", "room") is not None  # the room is still full
    runtime().caps.release("c0")
    assert runtime().caps.claim("c3", "192.0.2.2", "room") is None


def test_claims_lost_with_redis_data_come_back_at_the_next_renewal(caps: None) -> None:
    for n in range(3):
        assert runtime().caps.claim(f"c{n}", "192.0.2.1", None) is None
    lose_redis_data()
    assert runtime().caps.renew() >= 3
    refused = runtime().caps.claim("c3", "192.0.2.1", None)
    assert refused is not None and refused.close_code == socket_caps.CLOSE_TOO_MANY_CONNECTIONS
