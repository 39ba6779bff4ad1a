"""Load on loopback: N rooms of 4 players against two daphne processes, beside a bare baseline.

Each room's four clients play Draw through the real wire protocol (REST to create, seat and
start; one WebSocket per seat), the seat to move sending a random legal action at a set pace.
The figures: actions per second, latency from sending an action to the last seat receiving
the new view (p50, p99, max), errors, views dropped (version gaps) or repaired (a seat that
never got the view asks for `sync`), acknowledged actions lost, and server memory per
connection (RSS delta over connections). The same generator then drives a bare Channels
consumer (bench/bare_consumer.py) that only broadcasts ~1 KB per action on the stock
RedisChannelLayer, so each figure is also a ratio measured in the same run.

Everything is bounded: each phase lasts its set seconds, every wait has a timeout, and the
run stops by itself. Usage (see docs/load.md):

    .venv/bin/python bench/load.py --rooms 250 --rate 1 --duration 60 --sweep 2,3 --step 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import statistics
import sys
import time
import urllib.request
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from bench.ws_client import ConnectionClosed, ProtocolError, WebSocket, connect  # noqa: E402
from config import gc_tuning  # noqa: E402
from tests.lobby.procs import LOAD_LIMITS, Daphne, daphne_group, open_stores  # noqa: E402

PLAYERS = 4
#: Seconds a player may stay away before a stand-in plays: longer than any setup here.
SETUP_GRACE = 3600
#: A view later than this is asked for with `sync` (a repaired view); late, not lost.
DELIVERY_TIMEOUT = 5.0
REPAIR_TIMEOUT = 5.0
CONNECT_TIMEOUT = 10.0
CONNECT_TRIES = 3
HTTP_TIMEOUT = 10.0
SETUP_CONCURRENCY = 8
#: The Redis database of the bench's stores: one no test flushes (a test flushing its own
#: database in the middle of a 30-minute run would measure that fault, not the load).
LOAD_REDIS_DB = 6


@dataclass
class Phase:
    """One measured stretch: `rate` actions per second per room, or None for as fast as possible."""

    name: str
    rate: float | None
    seconds: float
    latencies: list[float] = field(default_factory=list)
    #: When each measured action was sent, seconds into the phase (for `--timeline`).
    sent: list[float] = field(default_factory=list)
    #: When each match of the phase ended, seconds into the phase: its table's next one
    #: starts then, which costs the server far more than an action (`--timeline`).
    ended_matches: list[float] = field(default_factory=list)
    actions: int = 0
    started: float = 0.0
    ended: float = 0.0
    #: Seconds between two readings of the servers' RSS during the phase (0: none), and the
    #: readings: seconds into the phase, MiB of every server process together.
    rss_every: float = 0.0
    rss: list[tuple[float, float]] = field(default_factory=list)
    #: Seconds at the phase's start whose readings are shown but not fitted (a soak's warm-up).
    rss_warmup: float = 0.0

    def timeline(self) -> list[dict[str, Any]]:
        """Per second of the phase: actions sent, their p50 and their slowest latency, and
        the matches that ended (each table then starts its next)."""
        seconds: dict[int, list[float]] = {}
        for sent, latency in zip(self.sent, self.latencies):
            seconds.setdefault(int(sent), []).append(latency)
        ended = Counter(int(at) for at in self.ended_matches)
        rows = []
        for second in sorted(seconds):
            ordered = sorted(seconds[second])
            rows.append({"second": second, "actions": len(ordered), "p50_ms": percentile_ms(ordered, 0.5),
                         "max_ms": round(ordered[-1] * 1000, 1), "matches_ended": ended[second]})
        return rows

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        elapsed = max(self.ended - self.started, 1e-9)
        found: dict[str, Any] = {
            "phase": self.name,
            "offered_per_room": self.rate,
            "seconds": round(elapsed, 1),
            "actions": self.actions,
            "actions_per_s": round(self.actions / elapsed, 1),
            "p50_ms": percentile_ms(ordered, 0.50),
            "p99_ms": percentile_ms(ordered, 0.99),
            "max_ms": round(ordered[-1] * 1000, 1) if ordered else None,
        }
        if len(self.rss) >= 3:
            found["rss"] = rss_trend(self.rss, self.rss_warmup)
        return found


def rss_trend(readings: list[tuple[float, float]], warmup: float = 0.0) -> dict[str, Any]:
    """The servers' RSS over a phase: first, last, lowest and highest reading, the least-squares
    slope in MiB per hour over the whole phase and over its second half (the first minutes
    include the caches and arenas filling), and the readings' scatter about the line (the
    residuals' standard deviation, MiB): a slope whose growth over the phase stays within that
    scatter is flat within noise. With `warmup`, the same fit of the readings from then on,
    and the growth it gives over them (`measured`)."""
    def fit(points: list[tuple[float, float]]) -> tuple[float, float]:
        xs, ys = [t for t, _ in points], [m for _, m in points]
        slope, intercept = statistics.linear_regression(xs, ys)
        residuals = [y - (slope * x + intercept) for x, y in points]
        return slope * 3600, statistics.pstdev(residuals)

    slope, scatter = fit(readings)
    half = [r for r in readings if r[0] >= readings[-1][0] / 2]
    later = fit(half)[0] if len(half) >= 3 else None
    values = [m for _, m in readings]
    after = [r for r in readings if r[0] >= warmup]
    measured = None
    if warmup and len(after) >= 3:
        after_slope, after_scatter = fit(after)
        span_h = (after[-1][0] - after[0][0]) / 3600
        measured = {"from_s": round(after[0][0]), "readings": len(after), "first_mib": after[0][1],
                    "last_mib": after[-1][1], "slope_mib_per_hour": round(after_slope, 2),
                    "growth_mib": round(after_slope * span_h, 2), "scatter_mib": round(after_scatter, 2)}
    return {
        "measured": measured,
        "readings": len(readings), "every_s": round(readings[1][0] - readings[0][0], 1),
        "first_mib": values[0], "last_mib": values[-1], "min_mib": min(values), "max_mib": max(values),
        "slope_mib_per_hour": round(slope, 2),
        "second_half_slope_mib_per_hour": round(later, 2) if later is not None else None,
        "scatter_mib": round(scatter, 2),
        "samples": [[round(t), m] for t, m in readings],
    }


def percentile_ms(ordered: list[float], share: float) -> float | None:
    if not ordered:
        return None
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 1)


@dataclass
class Tally:
    """Faults over the whole run of one target."""

    errors: Counter[str] = field(default_factory=Counter)
    dropped_views: int = 0
    repaired_views: int = 0
    timeouts: int = 0
    lost_actions: int = 0
    late_ticks: int = 0
    matches_finished: int = 0
    #: Handshakes tried again while the rooms' sockets opened (setup, not play).
    connect_retries: int = 0

    def summary(self) -> dict[str, Any]:
        return {
            "connect_retries": self.connect_retries,
            "errors": sum(self.errors.values()),
            "error_codes": dict(self.errors),
            "dropped_views": self.dropped_views,
            "repaired_views": self.repaired_views,
            "timeouts": self.timeouts,
            "lost_actions": self.lost_actions,
            "late_ticks": self.late_ticks,
            "matches_finished": self.matches_finished,
        }


#: The head of a state frame, as both targets encode it: the version is read from it, and
#: the view is parsed only when the generator needs it (the seat to move, its legal actions).
STATE_HEAD = re.compile(rb'\{"type": ?"state", ?"version": ?(\d+),')


class Client:
    """One seat's socket: keeps the newest view and tells its room what arrived.

    A state frame's view is kept as the bytes that came and parsed only when read. The
    generator stands in for a thousand devices: parsing and freeing every seat's view took
    half its CPU, on the cores the servers are measured on, for views no one reads."""

    def __init__(self, room: Room, seat: int) -> None:
        self.room = room
        self.seat = seat
        self.ws: WebSocket | None = None
        self.version = -1
        self.states = 0
        self._frame = b""
        self._view: dict[str, Any] | None = {}

    @property
    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = orjson.loads(self._frame).get("view") or {}
        return self._view

    def on_message(self, raw: bytes, now: float) -> None:
        head = STATE_HEAD.match(raw)
        if head is not None:
            self.on_state(int(head[1]), raw, now)
            return
        message = orjson.loads(raw)
        kind = message.get("type")
        if kind == "state":
            self.on_state(int(message["version"]), raw, now)
        elif kind == "ack":
            self.room.acked.add(int(message["version"]))
        elif kind == "error":
            self.room.tally.errors[str(message.get("code"))] += 1

    def on_close(self, code: int | None) -> None:
        if not self.room.closing:
            self.room.tally.errors[f"closed:{code if code is not None else 'none'}"] += 1

    def on_state(self, version: int, frame: bytes, now: float) -> None:
        self.states += 1
        if version <= self.version:
            return
        if self.version >= 0 and version > self.version + 1:
            self.room.tally.dropped_views += version - self.version - 1
        self.version = version
        self._frame, self._view = frame, None
        self.room.on_view(now)

    def send(self, message: dict[str, Any]) -> None:
        if self.ws is None:
            raise ConnectionClosed
        self.ws.send(orjson.dumps(message))


class Room:
    """Four clients of one room and the bookkeeping of its outstanding action."""

    def __init__(self, code: str, tally: Tally, rng: random.Random, tokens: list[str] | None = None) -> None:
        self.code = code
        self.tokens = tokens or []
        self.tally = tally
        self.rng = rng
        self.clients: list[Client] = []
        self.acked: set[int] = set()
        self.waiting_for = 0
        self.sent_at = 0.0
        self.delivered = asyncio.Event()
        #: Set on every new view of any seat: what a wait for a version waits on (a poll of
        #: every waiting room 50 times a second took the generator's whole share of a busy
        #: machine once many rooms were late at once, and kept them late).
        self.progressed = asyncio.Event()
        self.latency: float | None = None
        self.closing = False
        self.actions = 0

    @property
    def version(self) -> int:
        return min(c.version for c in self.clients)

    def on_view(self, now: float) -> None:
        self.progressed.set()
        if self.waiting_for and not self.delivered.is_set() and self.version >= self.waiting_for:
            self.latency = now - self.sent_at
            self.delivered.set()

    async def wait_delivered(self, timeout: float) -> bool:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.delivered.wait(), timeout)
        return self.delivered.is_set()

    async def close(self) -> None:
        self.closing = True
        for client in self.clients:
            if client.ws is not None:
                with contextlib.suppress(Exception):
                    await client.ws.close()


class Target:
    """How one kind of server is set up, joined and played: the game server or the bare consumer."""

    name = ""
    application = ""
    needs_migrate = False

    def __init__(self, servers: list[Daphne], tally: Tally, seed: int) -> None:
        self.servers = servers
        self.tally = tally
        self.seed = seed

    def server_for(self, code: str) -> Daphne:
        """What haproxy's consistent hash does for the deployment: one process per room."""
        return self.servers[zlib.crc32(code.encode()) % len(self.servers)]

    async def prepare(self, index: int) -> Any:
        """What a room needs before its sockets open (the game server: its REST calls)."""
        return None

    async def open_room(self, index: int, prepared: Any = None) -> Room:
        raise NotImplementedError

    async def next_match(self, room: Room, index: int) -> Room:
        """What a room does once its match is over: here, a fresh room in its place."""
        await room.close()
        return await self.open_room(index)

    def next_action(self, room: Room) -> tuple[Client, dict[str, Any]] | None:
        raise NotImplementedError

    async def connect(self, room: Room, paths: list[str]) -> None:
        """Open each seat's socket. A handshake the server dropped (daphne drops one its
        application has not accepted within its connect timeout, as on a machine whose
        cores other work holds) is tried again, up to `CONNECT_TRIES` times, and counted."""
        server = self.server_for(room.code)
        for seat, path in enumerate(paths):
            client = Client(room, seat)
            for attempt in range(1, CONNECT_TRIES + 1):
                try:
                    client.ws = await asyncio.wait_for(
                        connect(server.ws_url + path, server.url, client.on_message, client.on_close),
                        CONNECT_TIMEOUT,
                    )
                    break
                except (ProtocolError, OSError, TimeoutError):
                    if attempt == CONNECT_TRIES:
                        raise
                    self.tally.connect_retries += 1
            room.clients.append(client)


def http_json(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
        data = json.loads(response.read() or b"{}")
    assert isinstance(data, dict)
    return data


class GameTarget(Target):
    """The project's server: Draw for four through POST /api/rooms/ and /ws/rooms/<code>/."""

    name = "server"
    application = "config.asgi:application"
    needs_migrate = True

    def create_room(self, index: int) -> tuple[str, list[str]]:
        base = self.servers[index % len(self.servers)].url
        # Every room is started before any socket opens (so memory can be read between the
        # two), and a player who has not opened the table counts as gone: a grace period
        # longer than the setup keeps stand-in AIs from playing for them meanwhile.
        body = {"game": "draw", "players": PLAYERS, "options": {}, "name": "p0", "grace_seconds": SETUP_GRACE}
        made = http_json(f"{base}/api/rooms/", body)
        code, tokens = str(made["code"]), [str(made["token"])]
        for seat in range(1, PLAYERS):
            tokens.append(str(http_json(f"{base}/api/rooms/{code}/seats/", {"name": f"p{seat}"})["token"]))
        http_json(f"{base}/api/rooms/{code}/start/", {}, token=tokens[0])
        return code, tokens

    async def prepare(self, index: int) -> tuple[str, list[str]]:
        return await asyncio.to_thread(self.create_room, index)

    async def open_room(self, index: int, prepared: Any = None) -> Room:
        code, tokens = prepared if prepared is not None else await self.prepare(index)
        room = Room(code, self.tally, random.Random(f"{self.seed}:{index}"), tokens)
        await self.connect(room, [f"/ws/rooms/{code}/?token={token}" for token in tokens])
        await wait_all_versions(room, 0)
        return room

    async def next_match(self, room: Room, index: int) -> Room:
        """A rematch at the same table, as a family plays on: one REST call, and the sockets
        stay open (a new room for every match would measure joining, not playing)."""
        for client in room.clients:
            client.version = -1
        room.acked.clear()
        url = f"{self.server_for(room.code).url}/api/rooms/{room.code}/rematch/"
        await asyncio.to_thread(http_json, url, {}, room.tokens[0])
        try:
            await wait_all_versions(room, 0)
        except RuntimeError:
            # Late, not lost: a seat without the new match's first view asks for it, as a
            # client does, and a room that still lacks it counts a timeout and plays on
            # (`play_one` repairs it again) instead of ending a long run.
            if not await sync_laggards(self, room, 0):
                self.tally.timeouts += 1
        return room

    def next_action(self, room: Room) -> tuple[Client, dict[str, Any]] | None:
        seat = room.clients[0].view.get("to_move")
        if seat is None:
            return None
        legal = room.clients[seat].view.get("legal") or []
        if not legal:
            raise RuntimeError(f"room {room.code}: seat {seat} is to move and has no legal action")
        # Chosen by the room and the version it makes: an action sent again after its views
        # were late is the same action under the same id, as a client's retry is (another
        # action under that id is refused with id_reused).
        action = random.Random(f"{self.seed}:{room.code}:{room.version + 1}").choice(legal)
        return room.clients[seat], {"type": "action", "id": f"a{room.version + 1}", "action": action}


class BareTarget(Target):
    """The baseline: a group broadcast per action, no game, no database."""

    name = "bare"
    application = "bench.bare_asgi:application"
    #: Group names of one run only: a group left over in Redis would add stale members.
    run_tag = secrets.token_hex(4)

    async def open_room(self, index: int, prepared: Any = None) -> Room:
        room = Room(f"{self.run_tag}-{index}", self.tally, random.Random(index))
        await self.connect(room, [f"/ws/bare/{room.code}/"] * PLAYERS)
        for client in room.clients:
            client.version = 0
        return room

    def next_action(self, room: Room) -> tuple[Client, dict[str, Any]] | None:
        version = room.version + 1
        return room.clients[version % PLAYERS], {"type": "action", "version": version}


async def until_version(room: Room, version: int, timeout: float) -> bool:
    """Wait until every seat of `room` holds `version`, at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while room.version < version:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        room.progressed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(room.progressed.wait(), left)
    return True


async def wait_all_versions(room: Room, version: int, timeout: float = CONNECT_TIMEOUT) -> None:
    if not await until_version(room, version, timeout):
        raise RuntimeError(f"room {room.code}: the first state did not reach every seat")


async def sync_laggards(target: Target, room: Room, version: int) -> bool:
    """Ask every seat behind `version` for `sync` (a view repaired); True once all have it."""
    for lagging in room.clients:
        if lagging.version < version:
            target.tally.repaired_views += 1
            lagging.send({"type": "sync"})
    return await until_version(room, version, REPAIR_TIMEOUT)


async def play_one(target: Target, room: Room, phase: Phase) -> bool:
    """Send one action and wait for all four views; False once the match is over.

    A seat whose view has not arrived after DELIVERY_TIMEOUT asks for `sync`, as a real
    client does, and the latency runs until the repaired view arrives; an action whose views
    never arrive counts as a timeout and play goes on.
    """
    newest = max(c.version for c in room.clients)
    behind = room.version < newest and not isinstance(target, BareTarget)
    if behind and not await sync_laggards(target, room, newest):
        target.tally.timeouts += 1
        return True
    chosen = target.next_action(room)
    if chosen is None:
        return False
    client, message = chosen
    room.waiting_for = room.version + 1
    room.delivered.clear()
    room.sent_at = time.perf_counter()
    client.send(message)
    delivered = await room.wait_delivered(DELIVERY_TIMEOUT)
    if not delivered and not isinstance(target, BareTarget):
        delivered = await sync_laggards(target, room, room.waiting_for)
    if not delivered:
        target.tally.timeouts += 1
        return True
    if room.latency is not None:
        phase.latencies.append(room.latency)
        phase.sent.append(room.sent_at - phase.started)
    phase.actions += 1
    room.actions += 1
    return True


async def rematch(target: Target, rooms: list[Room], index: int) -> Room:
    """The room's next match once one is over, counted, in the room's place."""
    target.tally.matches_finished += 1
    room = await target.next_match(rooms[index], index + len(rooms) * (1 + target.tally.matches_finished))
    rooms[index] = room
    return room


async def drive(target: Target, rooms: list[Room], index: int, phase: Phase, stop_at: float) -> None:
    """One room through one phase: paced with a random phase offset, or back to back."""
    room = rooms[index]
    interval = 1.0 / phase.rate if phase.rate else 0.0
    next_tick = time.perf_counter() + room.rng.random() * interval
    while time.perf_counter() < stop_at:
        if interval:
            delay = next_tick - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            elif delay < -interval:
                target.tally.late_ticks += 1
                next_tick = time.perf_counter()
            next_tick += interval
            if time.perf_counter() >= stop_at:
                break
        try:
            more = await play_one(target, room, phase)
        except ConnectionClosed:
            target.tally.errors["send_on_closed_socket"] += 1
            return
        if not more:
            phase.ended_matches.append(time.perf_counter() - phase.started)
            room = await rematch(target, rooms, index)


async def stagger(target: Target, rooms: list[Room], most: int) -> dict[str, Any]:
    """Each room plays a random number of actions, fewer than `most`, back to back (its own
    seeded draw; a match that ends is rematched), before the measured phases.

    Set up at once, every table would start its first match in the same second, and for the
    length of a few matches the tables would move through their matches together: all
    with short logs at first, all in long hands later. Spread over their matches first, the
    tables hold what a server that has run for a while holds, and a soak's memory curve is
    the server's own, not the tables' shared start working its way out."""
    phase = Phase("stagger", None, 0.0)
    phase.started = time.perf_counter()

    async def one(index: int) -> None:
        room = rooms[index]
        for _ in range(room.rng.randrange(most)):
            if not await play_one(target, room, phase):
                room = await rematch(target, rooms, index)

    await asyncio.gather(*(one(i) for i in range(len(rooms))))
    phase.ended = time.perf_counter()
    return phase.summary()


async def sample_rss(target: Target, phase: Phase, stop_at: float) -> None:
    """The servers' RSS every `phase.rss_every` seconds from the phase's start to its end,
    each reading also printed (a long run shows its trend as it goes)."""
    due = phase.started
    while due <= stop_at:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        at = time.perf_counter() - phase.started
        mib = round(total_rss(target.servers) / 2**20, 1)
        phase.rss.append((at, mib))
        print(f"  {target.name} {phase.name} {round(at)} s: RSS {mib} MiB, errors "
              f"{dict(target.tally.errors)}, timeouts {target.tally.timeouts}, repaired "
              f"{target.tally.repaired_views}, actions {phase.actions}, load {os.getloadavg()[0]:.1f}",
              file=sys.stderr, flush=True)
        due += phase.rss_every


async def run_phase(target: Target, rooms: list[Room], phase: Phase, redis_url: str) -> dict[str, Any]:
    before = cpu_budget(target.servers, redis_url)
    phase.started = time.perf_counter()
    stop_at = phase.started + phase.seconds
    sampler = asyncio.create_task(sample_rss(target, phase, stop_at)) if phase.rss_every else None
    await asyncio.gather(*(drive(target, rooms, i, phase, stop_at) for i in range(len(rooms))))
    phase.ended = time.perf_counter()
    if sampler is not None:
        await sampler
    summary = phase.summary()
    if phase.actions:
        budget = budget_per_action(before, cpu_budget(target.servers, redis_url), phase.actions,
                                   phase.ended - phase.started)
        summary["server_cpu_ms_per_action"] = budget.pop("server")
        summary["cpu_ms_per_action"] = budget
    return summary


def http_get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=HTTP_TIMEOUT) as response:
        data = json.loads(response.read())
    assert isinstance(data, dict)
    return data


async def count_lost(target: GameTarget, rooms: list[Room]) -> None:
    """Every acknowledged action must be in the database: its version at most the match's.

    Asked over REST once the sockets are closed, so the answer is the stored truth and not
    a view that may still be on its way.
    """
    semaphore = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def stored_version(room: Room) -> int | None:
        url = f"{target.server_for(room.code).url}/api/rooms/{room.code}/"
        async with semaphore:
            try:
                info = await asyncio.to_thread(http_get_json, url)
            except (OSError, ValueError) as error:
                target.tally.errors[f"final_check:{type(error).__name__}"] += 1
                return None
        return int(info["match"]["version"])

    versions = await asyncio.gather(*(stored_version(room) for room in rooms))
    for room, stored in zip(rooms, versions):
        if stored is None:
            continue
        target.tally.lost_actions += sum(1 for v in room.acked if v > stored)
        if max(c.version for c in room.clients) > stored:
            target.tally.errors["view_ahead_of_database"] += 1


def total_rss(servers: list[Daphne]) -> int:
    return sum(server.rss() for server in servers)


def cpu_seconds(process: Any) -> float:
    """User and system CPU seconds of a psutil process, with its reaped children's."""
    times = process.cpu_times()
    return float(times.user + times.system + getattr(times, "children_user", 0.0)
                 + getattr(times, "children_system", 0.0))


def total_cpu(servers: list[Daphne]) -> float:
    """CPU seconds the server processes used: a cost per action that other load cannot inflate much."""
    import psutil

    return sum(cpu_seconds(psutil.Process(server.pid)) for server in servers)


def postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL process, with the sessions that ended (reaped by the
    postmaster): a session opened and closed within a phase is counted too."""
    import psutil

    total = 0.0
    for process in psutil.process_iter(["name"]):
        if process.info["name"] in ("postgres", "postmaster"):
            with contextlib.suppress(psutil.Error):
                total += cpu_seconds(process)
    return total


def cpu_budget(servers: list[Daphne], redis_url: str) -> dict[str, float]:
    """CPU seconds so far of every part an action costs: the target's processes, this
    generator, PostgreSQL (all its processes), Redis, and the whole machine busy.

    The phase's difference per action says what a ceiling can be on these cores: the
    generator and the stores take their share of the same cores as the target does.
    """
    import psutil
    import redis

    with redis.Redis.from_url(redis_url) as client:
        info = client.info("cpu")
    machine = psutil.cpu_times()
    busy = machine.user + machine.nice + machine.system + machine.irq + machine.softirq
    return {
        "server": total_cpu(servers),
        "generator": cpu_seconds(psutil.Process()),
        "postgres": postgres_cpu(),
        "redis": float(info["used_cpu_user"]) + float(info["used_cpu_sys"]),
        "machine": busy,
    }


def budget_per_action(before: dict[str, float], after: dict[str, float], actions: int,
                      elapsed: float) -> dict[str, Any]:
    """CPU ms per action of each part, the machine's busy share of its cores, and the rate the
    machine could carry if every core did nothing but this: cores over the total per action."""
    per: dict[str, Any] = {part: round((after[part] - before[part]) * 1000 / actions, 2) for part in before}
    cores = os.cpu_count() or 1
    per["machine_busy_percent"] = round((after["machine"] - before["machine"]) * 100 / (elapsed * cores), 1)
    per["cores_bound_actions_per_s"] = round(cores * 1000 / per["machine"]) if per["machine"] > 0 else None
    return per


async def warm_up(target: Target) -> None:
    """Play a few actions in rooms until every process has served both the REST calls and a
    room's sockets: what a process loads on first use (modules, URL resolvers, connections)
    is then in the baseline, not in the players' memory."""
    rest: set[int] = set()
    sockets: set[int] = set()
    index = 10**6
    while len(rest) < len(target.servers) or len(sockets) < len(target.servers):
        if index > 10**6 + 8 * len(target.servers):
            raise RuntimeError("could not warm every server process")
        room = await target.open_room(index)
        rest.add(index % len(target.servers))
        sockets.add(target.servers.index(target.server_for(room.code)))
        index += 1
        for _ in range(3):
            await play_one(target, room, Phase("warm", None, 0))
        await room.close()


@dataclass
class Setup:
    """A target's rooms with every socket open, and what was measured while they opened."""

    target: Target
    rooms: list[Room]
    redis_url: str
    facts: dict[str, Any]


async def set_up(target: Target, args: argparse.Namespace, redis_url: str) -> Setup:
    await warm_up(target)
    await asyncio.sleep(1.0)
    rss_before = total_rss(target.servers)
    semaphore = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def prepared(index: int) -> Any:
        async with semaphore:
            return await target.prepare(index)

    async def opened(index: int, ready: Any) -> Room:
        async with semaphore:
            return await target.open_room(index, ready)

    setup_started = time.perf_counter()
    # Rooms first, then their sockets: the memory of the sockets alone is measured apart
    # from the memory that creating and starting the rooms left behind.
    ready = list(await asyncio.gather(*(prepared(i) for i in range(args.rooms))))
    await asyncio.sleep(1.0)
    rss_rooms = total_rss(target.servers)
    rooms = list(await asyncio.gather(*(opened(i, r) for i, r in enumerate(ready))))
    setup_seconds = time.perf_counter() - setup_started
    # The generator holds every player's socket and view in one process: with the
    # collector's defaults its passes stalled every arrival stamp at once, which measured
    # the generator, not the server (paced p99 39-42 ms against 19-27 with the servers' own
    # settings, here too, and 18-24 with the collector off altogether).
    gc_tuning.tune()
    cpu_before = total_cpu(target.servers)
    await asyncio.sleep(args.settle)
    idle_cpu = (total_cpu(target.servers) - cpu_before) / args.settle
    connections = len(rooms) * PLAYERS
    rss_idle = total_rss(target.servers)
    return Setup(target, rooms, redis_url, {
        "target": target.name,
        "rooms": len(rooms),
        "connections": connections,
        "processes": len(target.servers),
        "setup_seconds": round(setup_seconds, 1),
        "rss_idle_mib": round(rss_idle / 2**20, 1),
        "memory_per_connection_kib": round((rss_idle - rss_before) / connections / 1024, 1),
        "memory_per_socket_kib": round((rss_idle - rss_rooms) / connections / 1024, 1),
        "idle_server_cpu_percent": round(idle_cpu * 100, 1),
    })


def phases_of(args: argparse.Namespace) -> list[Phase]:
    phases = [Phase("paced", args.rate, args.duration + args.rss_warmup, rss_every=args.rss_every,
                    rss_warmup=args.rss_warmup)]
    phases += [Phase(f"sweep {rate:g}/s per room", rate, args.step) for rate in args.sweep]
    if args.ceiling:
        phases.append(Phase("ceiling (back to back)", None, args.ceiling))
    return phases


async def play(setup: Setup, phase: Phase, args: argparse.Namespace) -> dict[str, Any]:
    summary = await run_phase(setup.target, setup.rooms, phase, setup.redis_url)
    name = setup.target.name
    print(f"  {name} {json.dumps(summary)}", file=sys.stderr, flush=True)
    if args.timeline:
        for row in phase.timeline():
            print(f"    {name} {phase.name} {json.dumps(row)}", file=sys.stderr, flush=True)
    return summary


async def tear_down(setup: Setup, phases: list[dict[str, Any]]) -> dict[str, Any]:
    """Close every socket; the game server's acknowledged versions are then checked against
    its database. The target's result: its setup, its phases and the faults of the whole run."""
    for room in setup.rooms:
        await room.close()
    if isinstance(setup.target, GameTarget):
        await count_lost(setup.target, setup.rooms)
    return {**setup.facts, "phases": phases, **setup.target.tally.summary()}


async def run_target(target: Target, args: argparse.Namespace, redis_url: str) -> dict[str, Any]:
    setup = await set_up(target, args, redis_url)
    if args.stagger:
        staggered = await stagger(target, setup.rooms, args.stagger)
        setup.facts["stagger"] = staggered
        print(f"  {target.name} {json.dumps(staggered)}", file=sys.stderr, flush=True)
    return await tear_down(setup, [await play(setup, phase, args) for phase in phases_of(args)])


Alternated = tuple[list[dict[str, Any]], dict[str, Any]]


async def run_alternating(setups: list[Setup], args: argparse.Namespace) -> Alternated:
    """Each target's phases, then `--alternate` rounds of one back-to-back phase of each, the
    order swapped every round: both targets stay open throughout, so the machine's drift over
    the run, which moves one target's ceiling by a third between runs, falls on both alike."""
    played = [[await play(setup, phase, args) for phase in phases_of(args)] for setup in setups]
    rounds = []
    for number in range(1, args.alternate + 1):
        order = setups if number % 2 else setups[::-1]
        row: dict[str, Any] = {"round": number, "first": order[0].target.name}
        for setup in order:
            phase = Phase(f"alternating ceiling {number}", None, args.ceiling)
            row[setup.target.name] = await play(setup, phase, args)
        server, bare = row["server"]["actions_per_s"], row["bare"]["actions_per_s"]
        row["ratio"] = round(server / bare, 2) if bare else None
        rounds.append(row)
    results = [await tear_down(setup, phases) for setup, phases in zip(setups, played)]
    found = [r["ratio"] for r in rounds if r["ratio"] is not None]
    return results, {"rounds": rounds, "median_ratio": round(statistics.median(found), 2) if found else None}


@contextlib.contextmanager
def servers_for(target_class: type[Target], args: argparse.Namespace) -> Iterator[tuple[list[Daphne], str]]:
    """The target's processes, and the URL of the Redis server they use."""
    database = args.database_url if target_class.needs_migrate else "sqlite"
    stores = open_stores(database=database, redis_url=args.redis_url, redis_db=LOAD_REDIS_DB)
    try:
        with daphne_group(
            processes_of(target_class, args), target_class.application,
            extra_env={**LOAD_LIMITS, **args.server_env},
            needs_migrate=target_class.needs_migrate, stores=stores,
        ) as (_, servers):
            yield servers, stores.redis_url
    finally:
        stores.close()


def processes_of(target_class: type[Target], args: argparse.Namespace) -> int:
    if target_class is BareTarget and args.bare_processes:
        return int(args.bare_processes)
    return int(args.processes)


async def measure(target_class: type[Target], args: argparse.Namespace) -> dict[str, Any]:
    with servers_for(target_class, args) as (servers, redis_url):
        target = target_class(servers, Tally(), args.seed)
        with logs_on_fault([target]):
            return await asyncio.wait_for(run_target(target, args, redis_url), args.time_limit)


async def measure_alternating(args: argparse.Namespace) -> Alternated:
    """Both targets up and set up at once (the server first), for `run_alternating`."""
    with contextlib.ExitStack() as stack:
        targets: list[Target] = []
        redis_urls: list[str] = []
        for cls in (GameTarget, BareTarget):
            servers, redis_url = stack.enter_context(servers_for(cls, args))
            targets.append(cls(servers, Tally(), args.seed))
            redis_urls.append(redis_url)
        with logs_on_fault(targets):

            async def run() -> Alternated:
                setups = [await set_up(t, args, url) for t, url in zip(targets, redis_urls)]
                return await run_alternating(setups, args)

            return await asyncio.wait_for(run(), 2 * args.time_limit)


@contextlib.contextmanager
def logs_on_fault(targets: list[Target]) -> Iterator[None]:
    """The servers' logs, without access lines, when a run fails or a target saw faults."""
    failed = False
    try:
        yield
    except Exception:
        failed = True
        raise
    finally:
        for target in targets:
            if failed or target.tally.errors or target.tally.timeouts:
                for server in target.servers:
                    print(f"--- {target.name} process {server.port}:\n{notable_log(server)}", file=sys.stderr)


def notable_log(server: Daphne, limit: int = 60) -> str:
    """The server log without its access lines: tracebacks and warnings."""
    lines = server.log_path.read_text(errors="replace").splitlines() if server.log_path.exists() else []
    access = re.compile(r'"(WSCONNECT|WSDISCONNECT|WSCONNECTING|GET|POST) ')
    kept = [line for line in lines if not access.search(line)]
    return "\n".join(kept[-limit:])


def ratios(server: dict[str, Any], bare: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for mine, base in zip(server["phases"], bare["phases"]):
        name = mine["phase"]
        for key in ("actions_per_s", "p50_ms", "p99_ms", "server_cpu_ms_per_action"):
            if mine.get(key) and base.get(key):
                out[f"{name}: {key} server/bare"] = round(mine[key] / base[key], 2)
    if bare["memory_per_connection_kib"] > 0:
        out["memory per connection server/bare"] = round(
            server["memory_per_connection_kib"] / bare["memory_per_connection_kib"], 2
        )
    if bare["memory_per_socket_kib"] > 0:
        out["memory per socket server/bare"] = round(
            server["memory_per_socket_kib"] / bare["memory_per_socket_kib"], 2
        )
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--rate", type=float, default=1.0, help="actions per second per room, paced phase")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of the paced phase")
    parser.add_argument("--sweep", type=lambda s: [float(x) for x in s.split(",") if x], default=[],
                        help="further per-room rates, one phase each, e.g. 2,3")
    parser.add_argument("--step", type=float, default=15.0, help="seconds of each sweep phase")
    parser.add_argument("--ceiling", type=float, default=15.0,
                        help="seconds of back-to-back play per room (0: skip)")
    parser.add_argument("--settle", type=float, default=3.0, help="idle seconds before measuring memory")
    parser.add_argument("--rss-warmup", type=float, default=0.0, metavar="SECONDS",
                        help="with --rss-every: play this long before --duration, its readings not fitted")
    parser.add_argument("--stagger", type=int, default=0, metavar="ACTIONS",
                        help="before the phases, each room plays a random number of actions under this, "
                             "back to back, so the tables are spread over their matches (a soak: 200, "
                             "about two matches of Draw for four)")
    parser.add_argument("--rss-every", type=float, default=0.0, metavar="SECONDS",
                        help="read the servers' RSS this often during the paced phase and report its slope "
                             "(a soak: --duration 1800 --rss-every 60)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--bare-processes", type=int, default=None,
                        help="processes of the bare target (default: as many as the server's; 1 gives the "
                             "stock ceiling of a single process)")
    parser.add_argument("--targets", default="server,bare", help="server, bare or both (comma separated)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test"),
                        help="a fresh database is created beside this one and dropped afterwards")
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable of the server processes (repeatable)")
    parser.add_argument("--seed", type=int, default=20260805)
    parser.add_argument("--time-limit", type=float, default=None,
                        help="hard stop for each target, seconds (default: its phases and 15 minutes)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--timeline", action="store_true",
                        help="also print, per second of each phase, actions sent, their p50 and max latency")
    parser.add_argument("--alternate", type=int, default=0, metavar="ROUNDS",
                        help="keep both targets up and, after their phases, play ROUNDS back-to-back phases "
                             "of --ceiling seconds each, alternating the targets; report each round's ratio")
    args = parser.parse_args(argv)
    pairs = [item.partition("=") for item in args.server_env]
    if any(not name or sep != "=" for name, sep, _ in pairs):
        parser.error("--server-env takes NAME=VALUE")
    args.server_env = {name: value for name, _, value in pairs}
    if args.time_limit is None:
        playing = (args.duration + args.rss_warmup + args.step * len(args.sweep)
                   + args.ceiling * (1 + args.alternate))
        args.time_limit = max(1800.0, playing + 900.0)
    if args.rooms < 1 or args.rooms > 5000:
        parser.error("--rooms must be 1..5000")
    if args.rate <= 0:
        parser.error("--rate must be positive")
    if args.stagger < 0:
        parser.error("--stagger takes a number of actions")
    if args.alternate < 0 or (args.alternate and not args.ceiling):
        parser.error("--alternate takes a number of rounds, and --ceiling their seconds")
    return args


def print_table(report: dict[str, Any]) -> None:
    print(f"{report['cpus']} CPUs; 1-minute load average {report['load_average_before']:.2f} before, "
          f"{report['load_average_after']:.2f} after (other work on the machine shares the cores)")
    for result in report["results"]:
        print(f"== {result['target']}: {result['rooms']} rooms, {result['connections']} sockets, "
              f"{result['processes']} processes; setup {result['setup_seconds']} s")
        print(f"   memory: {result['memory_per_connection_kib']} KiB per idle connection with its room's "
              f"share, {result['memory_per_socket_kib']} KiB for the socket alone "
              f"(RSS {result['rss_idle_mib']} MiB in all); "
              f"server CPU while idle {result['idle_server_cpu_percent']}%")
        print(f"   {'phase':<30} actions/s    p50 ms    p99 ms    max ms  actions  cpu ms/action")
        for p in result["phases"]:
            print(f"   {p['phase']:<30} {p['actions_per_s']:>9} {p['p50_ms']!s:>9} {p['p99_ms']!s:>9} "
                  f"{p['max_ms']!s:>9} {p['actions']:>8} {p.get('server_cpu_ms_per_action')!s:>14}")
            if "rss" in p:
                r = p["rss"]
                print(f"   {'':<30} RSS {r['first_mib']} -> {r['last_mib']} MiB (min {r['min_mib']}, max "
                      f"{r['max_mib']}, {r['readings']} readings every {r['every_s']} s): slope "
                      f"{r['slope_mib_per_hour']} MiB/h, second half {r['second_half_slope_mib_per_hour']} "
                      f"MiB/h, scatter {r['scatter_mib']} MiB")
                if r["measured"]:
                    m = r["measured"]
                    print(f"   {'':<30} after the warm-up ({m['from_s']} s on, {m['readings']} readings): "
                          f"{m['first_mib']} -> {m['last_mib']} MiB, slope {m['slope_mib_per_hour']} MiB/h, "
                          f"growth {m['growth_mib']} MiB against a scatter of {m['scatter_mib']} MiB")
            if "cpu_ms_per_action" in p:
                b = p["cpu_ms_per_action"]
                print(f"   {'':<30} CPU ms per action: generator {b['generator']}, "
                      f"PostgreSQL {b['postgres']}, Redis {b['redis']}, machine {b['machine']} "
                      f"({b['machine_busy_percent']}% of the cores busy; "
                      f"at that cost the cores carry {b['cores_bound_actions_per_s']}/s)")
        print(f"   errors {result['errors']} {result['error_codes'] or ''}, dropped views "
              f"{result['dropped_views']}, repaired by sync {result['repaired_views']}, timeouts "
              f"{result['timeouts']}, lost actions {result['lost_actions']}, late ticks "
              f"{result['late_ticks']}, matches finished {result['matches_finished']}, handshakes "
              f"tried again {result['connect_retries']}")
    for key, value in report.get("ratios", {}).items():
        print(f"   ratio {key}: {value}")
    alternating = report.get("alternating")
    if alternating:
        print("== alternating back-to-back phases, both targets open: server / bare actions/s")
        for row in alternating["rounds"]:
            print(f"   round {row['round']} ({row['first']} first): {row['server']['actions_per_s']} / "
                  f"{row['bare']['actions_per_s']} = {row['ratio']}; p99 {row['server']['p99_ms']} / "
                  f"{row['bare']['p99_ms']} ms")
        print(f"   median ratio {alternating['median_ratio']}")


async def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    chosen = {"server": GameTarget, "bare": BareTarget}
    names = [n.strip() for n in args.targets.split(",") if n.strip()]
    if not names or any(n not in chosen for n in names):
        raise SystemExit("--targets takes server and/or bare")
    report: dict[str, Any] = {
        "processes": args.processes, "cpus": os.cpu_count(), "load_average_before": os.getloadavg()[0],
        "results": [],
    }
    if args.alternate:
        if set(names) != {"server", "bare"}:
            raise SystemExit("--alternate needs both targets")
        print("measuring server and bare, alternating ...", file=sys.stderr, flush=True)
        report["results"], report["alternating"] = await measure_alternating(args)
    else:
        for name in names:
            print(f"measuring {name} ...", file=sys.stderr, flush=True)
            report["results"].append(await measure(chosen[name], args))
    report["load_average_after"] = os.getloadavg()[0]
    by_name = {r["target"]: r for r in report["results"]}
    if {"server", "bare"} <= set(by_name):
        report["ratios"] = ratios(by_name["server"], by_name["bare"])
    return report


if __name__ == "__main__":
    result = asyncio.run(main())
    if "--json" in sys.argv:
        print(json.dumps(result))
    else:
        print_table(result)
