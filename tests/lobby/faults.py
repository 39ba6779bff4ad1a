"""Shared steps of the fault-injection tests against real daphne processes: the servers on a
Redis database of their own, REST calls, and a socket client that keeps what it receives.

The processes share the stores the way a deployment does (tests/lobby/procs.py: PostgreSQL
when DATABASE_URL names it, else SQLite). Their Redis database is FAULTS_REDIS_DB, flushed
when the group starts, so the throttle counters of an earlier run never leak in.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import websockets
from websockets.typing import Origin

from tests.lobby.procs import Daphne, Stores, daphne_group, open_stores, with_redis_db

#: Beside the multi-process suite's 13, the browser suite's 12 and the serve test's 11.
FAULTS_REDIS_DB = 10
WAIT = 10.0


@contextlib.contextmanager
def servers(count: int, extra_env: dict[str, str] | None = None) -> Iterator[tuple[Stores, list[Daphne]]]:
    """`count` daphne processes over one fresh set of stores, on our own Redis database."""
    stores = open_stores()
    try:
        stores.redis_url = with_redis_db(stores.redis_url, FAULTS_REDIS_DB)
        stores.flush_redis()
        with daphne_group(count, stores=stores, extra_env=extra_env) as made:
            yield made
    finally:
        stores.close()


def call(
    base: str, method: str, path: str, body: Any = None, *, token: str | None = None,
    headers: dict[str, str] | None = None, raw: bytes | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """One HTTP request: its status, its JSON body (or text) and its headers."""
    sent = {"Content-Type": "application/json", **(headers or {})}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data, sent, method=method)
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            status, content, got = response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        status, content, got = error.code, error.read(), dict(error.headers)
    try:
        return status, json.loads(content or b"null"), got
    except ValueError:
        return status, content.decode(errors="replace"), got


def room_started(base: str, players: int = 2) -> tuple[str, list[str]]:
    """A started Draw room with `players` human seats: its code and the seats' tokens."""
    status, made, _ = call(base, "POST", "/api/rooms/", {"game": "draw", "players": players, "name": "P0"})
    assert status == 201, made
    tokens = [made["token"]]
    for n in range(1, players):
        status, seated, _ = call(base, "POST", f"/api/rooms/{made['code']}/seats/", {"name": f"P{n}"})
        assert status == 201, seated
        tokens.append(seated["token"])
    status, started, _ = call(base, "POST", f"/api/rooms/{made['code']}/start/", token=tokens[0])
    assert status == 201, started
    return made["code"], tokens


class Socket:
    """One WebSocket to a server process; every frame it received, and how it closed."""

    def __init__(self) -> None:
        self.ws: Any = None
        self.frames: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None
        self.close_code: int | None = None
        self.close_reason: str = ""

    @classmethod
    async def open(cls, server: Daphne, code: str, token: str | None = None, **options: Any) -> Socket:
        made = cls()
        query = f"?token={token}" if token else ""
        made.ws = await websockets.connect(
            f"{server.ws_url}/ws/rooms/{code}/{query}", origin=Origin(server.url), open_timeout=WAIT, **options
        )
        made.reader = asyncio.create_task(made._read())
        return made

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.frames.append(json.loads(raw))
                self.arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            if self.ws.close_code is not None:
                self.close_code = self.ws.close_code
                self.close_reason = self.ws.close_reason or ""
            self.arrived.set()

    async def until(self, done: Callable[..., Any], timeout: float = WAIT) -> Any:
        """Wait until `done()` is true (returning it); fail after `timeout`."""
        deadline = time.monotonic() + timeout
        while not (found := done()):
            left = deadline - time.monotonic()
            assert left > 0, f"timed out; frames: {self.frames[-5:]}, closed: {self.close_code}"
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), min(left, 0.25))
        return found

    def latest(self, kind: str) -> dict[str, Any] | None:
        return next((f for f in reversed(self.frames) if f["type"] == kind), None)

    def reply(self, msg_id: str) -> dict[str, Any] | None:
        return next((f for f in self.frames if f["type"] in {"ack", "error"} and f.get("id") == msg_id), None)

    async def send(self, frame: Any) -> None:
        await self.ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    async def closed(self, timeout: float = WAIT) -> int:
        """Wait for the server to close the socket; its close code."""
        await self.until(lambda: self.close_code is not None, timeout)
        assert self.close_code is not None
        return self.close_code

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, WAIT)
