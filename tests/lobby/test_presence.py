"""Presence across two real server processes when Redis loses its data or its connections,
and when a process dies.

A seat counts as away only when no server process holds a socket for it. Redis is a cache
and a message bus here: flushing its database, or dropping every connection to it as a
restart does, must never make a connected player look gone (a stand-in AI would then play
for someone looking at the table). A process that really dies must still have its seats
counted as away, within the bound docs/server.md states: `LOBBY_PRESENCE_TTL` plus one
sweep period.

The processes run with a short sweep period and presence timeout, and rooms with no grace
period, so any seat wrongly taken for away would be played for within a fraction of a
second. Redis database 9 belongs to this module (13 is the other multi-process tests', 12
the browser suite's, 11 a serve test's, 10 the other fault tests').
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
import websockets
from websockets.typing import Origin

from tests.lobby.procs import LOAD_LIMITS, Daphne, Stores, daphne_group, open_stores

pytestmark = pytest.mark.multiprocess

REDIS_DB = 9
SWEEP = 0.2
PRESENCE_TTL = 2.0
WAIT = 15.0
#: How long a fault is watched for harm: a socket wrongly taken for dead is closed at the
#: next sweep of any process, at most TTL + one sweep after its traces were lost; twice that.
WATCH = 2 * (PRESENCE_TTL + SWEEP)
PLAYERS = 4


@pytest.fixture(scope="module")
def group() -> Iterator[tuple[Stores, list[Daphne]]]:
    stores = open_stores(redis_db=REDIS_DB)
    env = {
        **LOAD_LIMITS,
        "LOBBY_SWEEP_SECONDS": str(SWEEP),
        "LOBBY_PRESENCE_TTL": str(PRESENCE_TTL),
        "AI_MOVE_DELAY": "0",
    }
    try:
        with daphne_group(2, extra_env=env, stores=stores) as made:
            yield made
    finally:
        stores.close()


def http(base: str, method: str, path: str, body: dict[str, Any] | None = None, token: str = "") -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, headers, method=method)
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        return json.loads(response.read() or b"null")


def room_seat(base: str) -> tuple[str, list[str]]:
    """A Draw room of four humans with no grace period: its code and seat tokens."""
    made = http(base, "POST", "/api/rooms/", {
        "game": "draw", "players": PLAYERS, "options": {}, "name": "Ann", "grace_seconds": 0,
    })
    tokens = [made["token"]]
    for name in ("Bob", "Cy", "Di"):
        tokens.append(http(base, "POST", f"/api/rooms/{made['code']}/seats/", {"name": name})["token"])
    return made["code"], tokens


class Player:
    """One seat's socket; keeps the states, the room frames and the replies it received."""

    def __init__(self, seat: int, token: str) -> None:
        self.seat = seat
        self.token = token
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.states: list[dict[str, Any]] = []
        self.rooms: list[dict[str, Any]] = []
        self.replies: dict[str, dict[str, Any]] = {}
        self.arrived = asyncio.Event()

    async def connect(self, server: Daphne, code: str) -> None:
        await self.close()
        self.ws = await websockets.connect(
            f"{server.ws_url}/ws/rooms/{code}/?token={self.token}", origin=Origin(server.url), open_timeout=WAIT
        )
        self.reader = asyncio.create_task(self._read(self.ws))

    async def _read(self, ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "state":
                    self.states.append(message)
                elif message["type"] == "room":
                    self.rooms.append(message["room"])
                elif message["type"] in {"ack", "error"} and "id" in message:
                    self.replies[message["id"]] = message
                self.arrived.set()

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader
        self.ws = self.reader = None

    @property
    def version(self) -> int:
        return self.states[-1]["version"] if self.states else -1

    @property
    def view(self) -> dict[str, Any]:
        return cast(dict[str, Any], self.states[-1]["view"])

    @property
    def room(self) -> dict[str, Any]:
        return self.rooms[-1]

    async def until(self, done: Callable[..., bool], timeout: float = WAIT) -> None:
        """Wait for `done()`, asking for `sync` when nothing came for a while (a message lost
        with a dropped connection); fail after `timeout`."""
        deadline = time.monotonic() + timeout
        asked = time.monotonic()
        while not done():
            left = deadline - time.monotonic()
            assert left > 0, f"seat {self.seat}: timed out at version {self.version}"
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), min(left, 0.25))
            if not done() and time.monotonic() - asked > 1.5:
                await self.ws.send(json.dumps({"type": "sync"}))
                asked = time.monotonic()

    async def act(self, action_id: str, action: dict[str, Any]) -> dict[str, Any]:
        await self.ws.send(json.dumps({"type": "action", "id": action_id, "action": action}))
        await self.until(lambda: action_id in self.replies)
        return self.replies.pop(action_id)


async def table_open(servers: list[Daphne]) -> tuple[str, list[Player]]:
    """A room whose seat k plays on process k % 2, so each process holds sockets of it; the
    match starts once every player is connected (nobody is played for from the start)."""
    code, tokens = await asyncio.to_thread(room_seat, servers[0].url)
    players = [Player(seat, token) for seat, token in enumerate(tokens)]
    for player in players:
        await player.connect(servers[player.seat % 2], code)
    for player in players:
        await player.until(lambda p=player: bool(p.rooms) and all(s["connected"] for s in p.room["seats"]))
    await asyncio.to_thread(http, servers[0].url, "POST", f"/api/rooms/{code}/start/", {}, tokens[0])
    for player in players:
        await player.until(lambda p=player: p.version >= 0)
    return code, players


async def play(players: list[Player], rng: random.Random, count: int) -> None:
    """`count` legal actions by whoever is to move, each acknowledged and seen by every seat."""
    for _ in range(count):
        to_move = players[0].view["to_move"]
        assert to_move is not None
        mover = players[to_move]
        version = mover.version
        reply = await mover.act(f"v{version + 1}", rng.choice(mover.view["legal"]))
        assert reply["type"] == "ack", reply
        assert reply["version"] == version + 1
        for player in players:
            await player.until(lambda p=player, v=version: p.version > v)


def away(room: dict[str, Any]) -> list[int]:
    """The human seats a room frame shows as away or played for."""
    return [s["seat"] for s in room["seats"] if s["human"] and (not s["connected"] or s["standin"])]


async def watch(players: list[Player], seconds: float, harm: Callable[[], str | None]) -> None:
    """Fail as soon as `harm()` names something wrong, during `seconds`: the window in which
    a fault, if it did harm, shows."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        found = harm()
        assert found is None, found
        waits = [asyncio.create_task(p.arrived.wait()) for p in players]
        for player in players:
            player.arrived.clear()
        _, pending = await asyncio.wait(waits, timeout=min(left, 0.1), return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
    found = harm()
    assert found is None, found


def nobody_played_for(players: list[Player], version: int) -> Callable[[], str | None]:
    def harm() -> str | None:
        for player in players:
            if player.version != version:
                return f"seat {player.seat} saw version {player.version}, played while nobody acted"
            if away(player.room):
                return f"seat {player.seat} was shown seats {away(player.room)} away while all are connected"
        return None

    return harm


def room_get(server: Daphne, code: str) -> dict[str, Any]:
    room: dict[str, Any] = http(server.url, "GET", f"/api/rooms/{code}/")
    return room


async def test_multiprocess_a_flushed_or_restarted_redis_leaves_every_connected_player_their_seat(group: tuple[Stores, list[Daphne]]) -> None:
    stores, servers = group
    code, players = await table_open(servers)
    rng = random.Random(31)
    try:
        await play(players, rng, 4)
        for fault in ("flush", "restart"):
            version = players[0].version
            stores.flush_redis()
            if fault == "restart":
                # Every connection to the database drops too: the channel layer's
                # subscriptions, the state cache's and the publisher's clients.
                assert stores.drop_redis_connections() > 0
            await watch(players, WATCH, nobody_played_for(players, version))
            for server in servers:
                room = await asyncio.to_thread(room_get, server, code)
                assert away(room) == [], (fault, room["seats"])
                assert room["match"]["version"] == version
            # Play goes on across both processes: views still cross between them.
            await play(players, rng, 4)
    finally:
        for player in players:
            await player.close()


async def test_multiprocess_the_seats_of_a_killed_process_count_as_away_within_the_presence_bound(group: tuple[Stores, list[Daphne]]) -> None:
    _, servers = group
    survivor, victim = servers
    code, players = await table_open(servers)
    stayers = [p for p in players if p.seat % 2 == 0]
    gone = [p for p in players if p.seat % 2 == 1]
    try:
        rng = random.Random(32)
        await play(players, rng, 2)
        killed_at = time.monotonic()
        victim.kill()
        for player in gone:
            await player.close()
        watcher = stayers[0]
        await watcher.until(lambda: away(watcher.room) == [p.seat for p in gone], timeout=WAIT)
        detected = time.monotonic() - killed_at
        print(f"seats of the killed process shown away after {detected:.2f} s "
              f"(bound: TTL {PRESENCE_TTL} s + sweep {SWEEP} s)")
        # The bound, with room for one slow sweep of a loaded machine.
        assert detected <= PRESENCE_TTL + SWEEP + 2.0, detected
        # With no grace period, the stand-in plays for them; never for a seat still here.
        played_for = 0
        while played_for < 2 and watcher.view["to_move"] is not None:
            to_move, version = watcher.view["to_move"], watcher.version
            if to_move % 2 == 0:
                mover = next(p for p in stayers if p.seat == to_move)
                await mover.until(lambda m=mover, v=version: m.version >= v)
                reply = await mover.act(f"s{version + 1}", rng.choice(mover.view["legal"]))
                assert reply["type"] == "ack", reply
            else:
                played_for += 1
            for player in stayers:
                await player.until(lambda p=player, v=version: p.version > v)
            assert [s for s in away(watcher.room) if s % 2 == 0] == [], watcher.room["seats"]
        # They come back on the surviving process, and have their seats again.
        for player in gone:
            await player.connect(survivor, code)
        await watcher.until(lambda: away(watcher.room) == [])
    finally:
        for player in players:
            await player.close()
        if not victim.is_running():
            victim.start()


async def test_multiprocess_a_stalled_process_takes_its_seats_back_when_it_resumes(group: tuple[Stores, list[Daphne]]) -> None:
    _, servers = group
    stalled = servers[1]
    _, players = await table_open(servers)
    watcher = players[0]
    try:
        # Frozen past the presence timeout, it looks dead to the other process: its seats
        # count as away. Its sockets stay open, and once it runs again it vouches for them
        # and binds their seats again, with nobody reconnecting.
        os.kill(stalled.pid, signal.SIGSTOP)
        try:
            await watcher.until(lambda: away(watcher.room) == [1, 3], timeout=WAIT)
        finally:
            os.kill(stalled.pid, signal.SIGCONT)
        resumed_at = time.monotonic()
        for player in players:
            await player.until(lambda p=player: bool(p.rooms) and away(p.room) == [], timeout=WAIT)
        print(f"seats bound again {time.monotonic() - resumed_at:.2f} s after the process resumed")
        assert all(player.ws.state is websockets.protocol.State.OPEN for player in players)
    finally:
        for player in players:
            await player.close()


async def test_multiprocess_a_process_that_lost_redis_while_stalled_delivers_the_table_again(group: tuple[Stores, list[Daphne]]) -> None:
    """Frozen while its table plays on and while its connections to Redis are dropped (as
    Redis does to a subscriber that stops reading), a process resumes to find them gone: it
    connects again, and its players see every later move and play on."""
    stores, servers = group
    stalled = servers[1]
    _, players = await table_open(servers)
    watcher = players[0]
    rng = random.Random(33)
    try:
        await play(players, rng, 2)
        os.kill(stalled.pid, signal.SIGSTOP)
        try:
            await watcher.until(lambda: away(watcher.room) == [1, 3], timeout=WAIT)
            # The stand-ins play for the frozen process's seats, the others play for
            # themselves: events the frozen process will never read.
            moved = watcher.version
            while watcher.version < moved + 4 and watcher.view["to_move"] is not None:
                to_move, version = watcher.view["to_move"], watcher.version
                if to_move % 2 == 0:
                    mover = players[to_move]
                    await mover.until(lambda m=mover, v=version: m.version >= v)
                    reply = await mover.act(f"f{version + 1}", rng.choice(mover.view["legal"]))
                    assert reply["type"] == "ack", reply
                await watcher.until(lambda v=version: watcher.version > v)
            assert stores.drop_redis_connections() > 0
        finally:
            os.kill(stalled.pid, signal.SIGCONT)
        for player in players:
            await player.until(lambda p=player: bool(p.rooms) and away(p.room) == [], timeout=WAIT)
        await asyncio.gather(*(p.until(lambda p=p: p.version == watcher.version) for p in players))
        if watcher.view["to_move"] is not None:
            await play(players, rng, 4)
    finally:
        for player in players:
            await player.close()
