"""Two real daphne processes serve one room; a crashed process and a flushed Redis lose nothing.

The stores are shared the way a deployment shares them (procs.py: PostgreSQL when
DATABASE_URL names it, else SQLite; the Redis of REDIS_URL, else a private one). The seats of
one room sit on different processes, so every view crosses the channel layer between them.
Select these tests with `-k multiprocess`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
import re
import shutil
import time
import urllib.request
from collections.abc import Iterator
from typing import Any, cast

import pytest
import websockets
from websockets.typing import Origin

from tests.lobby.procs import LOAD_LIMITS, Daphne, Haproxy, Stores, daphne_group
from tests.waiting import until

PLAYERS = 4
WAIT = 10.0
#: A view that never arrives (a message lost with a crashed process) is asked for after this.
SYNC_AFTER = 1.5
SEED = 20260805


@pytest.fixture(scope="module")
def group() -> Iterator[tuple[Stores, list[Daphne]]]:
    with daphne_group(2, extra_env=LOAD_LIMITS) as made:
        yield made


def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        assert response.status == 201 or path.endswith("/start/"), response.status
        data = json.loads(response.read() or b"{}")
    assert isinstance(data, dict)
    return data


def room_start(base: str) -> tuple[str, list[str]]:
    """A started four-player Draw room: its code and the seats' tokens, through the REST API."""
    made = post(base, "/api/rooms/", {"game": "draw", "players": PLAYERS, "options": {}, "name": "Ann"})
    assert made["seat"] == 0
    assert made["link"] == f"/r/{made['code']}"
    tokens = [made["token"]]
    for name in ("Bob", "Cy", "Di"):
        seated = post(base, f"/api/rooms/{made['code']}/seats/", {"name": name})
        assert seated["seat"] == len(tokens)
        tokens.append(seated["token"])
    post(base, f"/api/rooms/{made['code']}/start/", {}, token=tokens[0])
    return made["code"], tokens


class Seat:
    """One player's socket; keeps every message it received, in order."""

    def __init__(self, seat: int, token: str) -> None:
        self.seat = seat
        self.token = token
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.states: list[dict[str, Any]] = []
        self.replies: dict[str, dict[str, Any]] = {}
        self.arrived = asyncio.Event()

    async def connect(self, server: Daphne | Haproxy, code: str) -> None:
        await self.close()
        self.ws = await websockets.connect(
            f"{server.ws_url}/ws/rooms/{code}/?token={self.token}", origin=Origin(server.url), open_timeout=WAIT
        )
        self.reader = asyncio.create_task(self.read(self.ws))

    async def read(self, ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "state":
                    self.states.append(message)
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

    async def until(self, done: Any, timeout: float = WAIT) -> None:
        """Wait for `done()`, asking for `sync` when a message seems lost; fail after `timeout`."""
        deadline = time.monotonic() + timeout
        asked = time.monotonic()
        while not done():
            left = deadline - time.monotonic()
            assert left > 0, f"seat {self.seat}: timed out at version {self.version}"
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), min(left, 0.25))
            if not done() and time.monotonic() - asked > SYNC_AFTER:
                await self.ws.send(json.dumps({"type": "sync"}))
                asked = time.monotonic()

    async def reach(self, version: int) -> None:
        await self.until(lambda: self.version >= version)

    async def act(self, action_id: str, action: dict[str, Any]) -> dict[str, Any]:
        """Send an action and wait for its ack or error."""
        await self.ws.send(json.dumps({"type": "action", "id": action_id, "action": action}))
        await self.until(lambda: action_id in self.replies)
        return self.replies.pop(action_id)


async def seats_open(code: str, tokens: list[str], servers: list[Daphne]) -> list[Seat]:
    """Seat k connects to process k % 2: every view of the room crosses between processes."""
    seats = [Seat(i, token) for i, token in enumerate(tokens)]
    for seat in seats:
        await seat.connect(servers[seat.seat % len(servers)], code)
    for seat in seats:
        await seat.reach(0)
    return seats


def assert_views_agree(seats: list[Seat]) -> None:
    """Every seat at the same version sees the same public facts and only its own tiles."""
    version = seats[0].version
    views = [s.view for s in seats]
    assert all(s.version == version for s in seats)
    for key in ("to_move", "scores", "commitment", "revealed", "hand_sizes", "log"):
        assert all(v[key] == views[0][key] for v in views), key
    for seat, view in zip(seats, views):
        assert view["seat"] == seat.seat
        assert len(view["hand"]) == view["hand_sizes"][seat.seat]
        if view["to_move"] != seat.seat:
            assert view["legal"] == []


async def play(seats: list[Seat], rng: random.Random, count: int, acked: list[int]) -> None:
    """`count` random legal actions (fewer if the match ends), each seen by every seat."""
    for _ in range(count):
        to_move = seats[0].view["to_move"]
        if to_move is None:
            return
        mover = seats[to_move]
        version = mover.version
        action = rng.choice(mover.view["legal"])
        reply = await mover.act(f"v{version + 1}", action)
        assert reply["type"] == "ack", reply
        assert reply["version"] == version + 1
        acked.append(reply["version"])
        for seat in seats:
            await seat.reach(version + 1)
        assert_views_agree(seats)


def assert_no_gaps_in(seat: Seat) -> None:
    versions = [m["version"] for m in seat.states]
    assert versions == sorted(versions)


def assert_revealed_seeds_match_commitments(seat: Seat) -> None:
    commitments: dict[int, str] = {}
    for state in seat.states:
        commitments.setdefault(state["view"]["hand_number"], state["view"]["commitment"])
    revealed = seat.view["revealed"]
    assert revealed
    for number, seed in enumerate(revealed):
        if seed is not None and number in commitments:
            assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitments[number]


async def test_multiprocess_room_spanning_two_processes_plays_a_match_to_its_end(group: tuple[Stores, list[Daphne]]) -> None:
    _, servers = group
    code, tokens = await asyncio.to_thread(room_start, servers[0].url)
    seats = await seats_open(code, tokens, servers)
    acked: list[int] = []
    try:
        assert_views_agree(seats)
        await play(seats, random.Random(SEED), 2000, acked)
        final = seats[0].view
        assert final["to_move"] is None
        assert final["match_over"] is True
        assert final["result"]["winner"] in (None, *range(len(final["scores"])))
        assert acked == list(range(1, len(acked) + 1))
        assert seats[0].version == len(acked)
        for seat in seats:
            assert_no_gaps_in(seat)
        assert_revealed_seeds_match_commitments(seats[1])
    finally:
        for seat in seats:
            await seat.close()


async def test_multiprocess_sigkill_and_redis_flush_mid_match_lose_no_acknowledged_action(group: tuple[Stores, list[Daphne]]) -> None:
    stores, servers = group
    code, tokens = await asyncio.to_thread(room_start, servers[1].url)
    seats = await seats_open(code, tokens, servers)
    rng = random.Random(SEED + 1)
    acked: list[int] = []
    victim, survivor = servers
    try:
        await play(seats, rng, 12, acked)
        # An action in flight on the process that dies: it may or may not have been accepted.
        to_move = seats[0].view["to_move"]
        mover = seats[to_move]
        before = mover.version
        in_flight = rng.choice(mover.view["legal"])
        mover.replies.clear()
        await mover.ws.send(json.dumps({"type": "action", "id": f"v{before + 1}", "action": in_flight}))
        moved_to_victim = [s for s in seats if s.seat % 2 == 0]
        if to_move % 2 == 0:
            victim.kill()
        else:
            await mover.until(lambda: f"v{before + 1}" in mover.replies)
            victim.kill()
        assert not victim.is_running()
        acked_before_crash = mover.replies.get(f"v{before + 1}", {}).get("version")
        stores.flush_redis()

        for seat in moved_to_victim:
            await seat.connect(survivor, code)
        for seat in seats:
            await seat.until(lambda seat=seat: seat.version >= before)
        # Resending the same id is acknowledged (applied at most once, wherever it landed).
        reply = await mover.act(f"v{before + 1}", in_flight)
        assert reply["type"] == "ack", reply
        assert reply["version"] == before + 1
        if acked_before_crash is not None:
            assert acked_before_crash == before + 1
        acked.append(before + 1)
        for seat in seats:
            await seat.reach(before + 1)
        assert_views_agree(seats)
        assert seats[0].version == len(acked)

        await play(seats, rng, 12, acked)
        assert acked == list(range(1, len(acked) + 1))
        assert seats[0].version == len(acked)

        # The crashed process comes back (as compose restarts it) and serves the room again.
        victim.start()
        for seat in moved_to_victim:
            await seat.connect(victim, code)
        for seat in moved_to_victim:
            await seat.reach(len(acked))
        await play(seats, rng, 6, acked)
        assert seats[0].version == len(acked)
        assert acked == list(range(1, len(acked) + 1))
    finally:
        for seat in seats:
            await seat.close()
        if not victim.is_running():
            victim.start()


def servers_by_room(log: str) -> dict[str, set[str]]:
    """From haproxy's log: which backend server carried each room's sockets."""
    served: dict[str, set[str]] = {}
    for found in re.finditer(r" rooms/(\w+) .* GET /ws/rooms/(\w+)/", log):
        served.setdefault(found.group(2), set()).add(found.group(1))
    return served


def logged(proxy: Haproxy, codes: list[str]) -> dict[str, set[str]] | None:
    """`servers_by_room` once haproxy's log shows a socket of every room in `codes`."""
    served = servers_by_room(proxy.log())
    return served if set(codes) <= set(served) else None


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
async def test_multiprocess_haproxy_keeps_each_room_on_one_process_and_fails_over(group: tuple[Stores, list[Daphne]]) -> None:
    stores, servers = group
    names = {"web1": servers[0], "web2": servers[1]}
    proxy = Haproxy.start(stores.workdir, {name: server.port for name, server in names.items()})
    seats: list[Seat] = []
    killed: Daphne | None = None
    try:
        codes = []
        for _ in range(3):
            code, tokens = await asyncio.to_thread(room_start, proxy.url)
            codes.append(code)
            seats = [Seat(i, token) for i, token in enumerate(tokens)]
            for seat in seats:
                await seat.connect(proxy, code)
                await seat.reach(0)
            for seat in seats:
                await seat.close()
        # haproxy logs a socket when it closes: wait for every room's.
        served = await until(lambda: logged(proxy, codes), "haproxy to log every room's sockets")
        assert served is not None
        assert set(served) == set(codes)
        assert all(len(names_used) == 1 for names_used in served.values()), served
        assert "token=" not in proxy.log()

        (home,) = served[codes[-1]]
        killed = names[home]
        killed.kill()
        for seat in seats:
            await seat.connect(proxy, codes[-1])
            await seat.reach(0)
        await play(seats, random.Random(SEED + 2), 4, [])
        for seat in seats:
            await seat.close()
        other = ({"web1", "web2"} - {home}).pop()
        await until(lambda: other in servers_by_room(proxy.log()).get(codes[-1], set()),
                    "haproxy to log the sockets moved to the other process")
        assert servers_by_room(proxy.log())[codes[-1]] == {home, other}
    finally:
        for seat in seats:
            await seat.close()
        proxy.stop()
        if killed is not None:
            killed.start()
