"""A daphne process on PostgreSQL serves its REST requests from a pool of connections.

Under ASGI each HTTP request runs in a thread of its own, so a connection kept by the thread
left with it: without the pool every request opened a new PostgreSQL session (about 6 ms of
PostgreSQL's CPU and 6 ms of the request's time on loopback). PostgreSQL counts the sessions
opened to a database, so the test reads that count around twenty requests.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import psycopg
import pytest

from tests.lobby.faults import room_started
from tests.lobby.procs import LOAD_LIMITS, daphne_group, with_database_name

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="the pool is PostgreSQL's"
    ),
]

ROOMS = 4  # five requests each: create, three seats, start
PLAYERS = 4


def sessions_opened(database_url: str) -> int:
    name = urlsplit(database_url).path.lstrip("/")
    with psycopg.connect(with_database_name(database_url, "postgres"), autocommit=True) as admin:
        row = admin.execute("SELECT sessions FROM pg_stat_database WHERE datname = %s", (name,)).fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.parametrize(("pool_max", "opened_at_least", "opened_at_most"), [("32", 0, 8), ("0", 5 * ROOMS, 1000)])
def test_rest_requests_borrow_pooled_connections_instead_of_opening_sessions(
    pool_max: str, opened_at_least: int, opened_at_most: int
) -> None:
    with daphne_group(1, extra_env={**LOAD_LIMITS, "DB_POOL_MAX": pool_max}) as (stores, servers):
        room_started(servers[0].url, PLAYERS)  # the process's first connections
        before = sessions_opened(stores.database_url)
        for _ in range(ROOMS):
            room_started(servers[0].url, PLAYERS)
        opened = sessions_opened(stores.database_url) - before
    assert opened_at_least <= opened <= opened_at_most, opened
