"""Lobby test fixtures: a real database, the real Redis channel layer and state cache.

Each test gets its own Redis key prefix, and every timer, AI move and cached key it
created is cleared afterwards, so tests never see each other's rooms.
"""

from __future__ import annotations

import gc
import uuid
from collections.abc import Iterator

import pytest
from asgiref.sync import SyncToAsync
from django.db import connections
from pytest_django.fixtures import Settings

from lobby.runtime import runtime


@pytest.fixture(scope="session", autouse=True)
def database_connections_closed(django_db_setup: None, django_db_blocker: object) -> Iterator[None]:
    """Before the test database is dropped, end the worker threads and collect their
    database connections, so PostgreSQL sees no session left on it."""
    yield
    runtime().shutdown()
    # asgiref's one thread for thread-sensitive calls lives on with its connection.
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=10)
    gc.collect()


@pytest.fixture(autouse=True)
def lobby_settings(settings: Settings) -> Iterator[None]:
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    settings.AI_MOVE_DELAY = 0
    settings.LOBBY_SWEEP_SECONDS = 0
    settings.LOBBY_REVIEW_AFTER_HAND = False
    settings.LOBBY_MESSAGE_RATE = 1000
    settings.LOBBY_REDIS_PREFIX = prefix
    settings.LOBBY_THROTTLE_RATES = {"room_create": "100000/minute", "seat_join": "100000/minute"}
    yield
    process = runtime()
    work = process.background()
    work.cancel_timers()
    work.wait_idle(20)
    process.forget()
    client = process.redis()
    keys = list(client.scan_iter(match=f"{prefix}*"))
    if keys:
        client.delete(*keys)
