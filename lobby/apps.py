"""The lobby app: rooms, seats, matches and the real-time server."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.core.signals import request_finished
from django.db import connections


def http_connections_close(**_: Any) -> None:
    """An HTTP request's database connections end with it.

    Under ASGI, Django runs each request's view in a thread of its own, so a connection kept
    for reuse (`DB_CONN_MAX_AGE`) would stay open with a thread that never comes back, until
    PostgreSQL runs out of connections. The sockets' database work runs in a fixed pool of
    long-lived threads, which keep theirs; no request signal is sent there. With the
    PostgreSQL pool, closing gives the connection back to the pool for the next request. A
    connection inside a transaction (a test's) is left alone."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


class LobbyConfig(AppConfig):
    name = "lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # What this process holds (threads, connections, caches) lives in one object,
        # made here and reached through `runtime()`; it starts nothing until used.
        from lobby.runtime import runtime_replace

        runtime_replace()
        # Before any URL configuration is read: the API, the socket routes and the pages
        # all name a room by `<room:code>`.
        from lobby.converters import converters_register

        converters_register()
        # The AI and timer scheduler acts on the services' commits through their signals.
        from lobby import bots

        bots.receivers_connect()
        # Each finished hand is reviewed in the background as it ends.
        from lobby import reviews

        reviews.receivers_connect()
        request_finished.connect(http_connections_close, dispatch_uid="lobby-http-connections-close")
