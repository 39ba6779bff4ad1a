"""A seated player's action latency while anonymous sockets flood one server process.

One daphne process with the deployment's limits (socket caps, the slower rates for sockets
without a seat and for `sync`); a two-player Draw room whose two seats this script plays,
one action at a time, timing each from the `action` frame sent to its `ack` received.
Phases alternate, in one run: quiet (the players alone), then flood (as many anonymous
sockets, each from a loopback address of its own, sending `sync` `--sync-rate` times a
second and `ping` in between up to `--pings` frames a second, opening a new socket whenever
the server closes one), then quiet again, and so on. The flood runs in a process of its own.
By default the flood sends exactly what the limits allow a socket without a seat (a `sync`
every 5 s, one frame a second); `--sync-rate 10 --pings 10` floods past them.
The spectator cap of a room is filled in the players' room, the rest watch other rooms.

    .venv/bin/python bench/flood.py --flooders 300 --actions 300 --rounds 2 --pace 0.15

The figure to read is the flood phases' p99 against the quiet phases' p99 (the ratio).

`--against DIR` also runs another version of the server (a tree such as `git archive
<commit>` unpacked in DIR) as a second process with stores of its own, and each round plays
a quiet and a flood phase against each version, the order swapped every round: both are
measured on the same machine at the same time, which a machine shared with other work
needs (its load moves a p99 more than most changes do).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil
import websockets
from websockets.typing import Origin

from tests.lobby.procs import Daphne, free_port, open_stores, server_env, wait_for_port

#: The deployment's defaults but the room-creation throttles (this script makes rooms).
SERVER_ENV = {"THROTTLE_ROOM_CREATE": "100000/minute", "THROTTLE_SEAT_JOIN": "100000/minute"}
SPECTATOR_CAP = 50
WAIT = 30.0
#: Action ids, fresh across phases and matches (an id is bound to its action).
ids = itertools.count()
#: Actions slower than this are listed with when they were sent (seconds into the run).
SLOW_MS = 100
STARTED = time.perf_counter()
slow: list[tuple[float, int]] = []


def post(base: str, path: str, body: dict[str, Any] | None, token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data or b"{}", headers, method="POST")
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        found: dict[str, Any] = json.loads(response.read() or b"{}")
    return found


def room(base: str, start: bool) -> tuple[str, list[str]]:
    made = post(base, "/api/rooms/", {"game": "draw", "players": 2, "name": "Ann"})
    joined = post(base, f"/api/rooms/{made['code']}/seats/", {"name": "Bob"})
    if start:
        post(base, f"/api/rooms/{made['code']}/start/", None, made["token"])
    return made["code"], [made["token"], joined["token"]]


class Player:
    """One seat's socket: the newest state and the acks by id."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.acks: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                frame = json.loads(raw)
                if frame["type"] == "state" and (
                    self.state is None or frame["version"] >= self.state["version"] or frame["version"] == 0
                ):
                    self.state = frame
                    self.changed.set()
                elif frame["type"] in {"ack", "error"} and frame.get("id") in self.acks:
                    self.acks.pop(frame["id"]).set_result(frame)


async def play(
    server: Daphne, code: str, tokens: list[str], players: list[Player], *, count: int, pace: float
) -> list[float]:
    """`count` actions, each by the seat to move, `pace` seconds apart (a player's pace,
    within the seated rate limit); the milliseconds from send to ack."""
    took: list[float] = []
    while len(took) < count:
        newest = max((p.state for p in players if p.state), key=lambda s: s["version"])
        to_move = newest["view"]["to_move"]
        if to_move is None:  # the match is over: the next one, from version 0
            for p in players:
                p.state = None
            await asyncio.to_thread(post, server.url, f"/api/rooms/{code}/start/", None, tokens[0])
            for p in players:
                while p.state is None:
                    p.changed.clear()
                    await asyncio.wait_for(p.changed.wait(), WAIT)
            continue
        mover = players[to_move]
        while mover.state is None or mover.state["version"] < newest["version"]:
            mover.changed.clear()
            await asyncio.wait_for(mover.changed.wait(), WAIT)
        assert mover.state is not None
        msg_id = f"a{next(ids)}"
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        mover.acks[msg_id] = reply
        frame = {"type": "action", "id": msg_id, "action": mover.state["view"]["legal"][0],
                 "version": mover.state["version"]}
        sent = time.perf_counter()
        await mover.ws.send(json.dumps(frame))
        answer = await asyncio.wait_for(reply, WAIT)
        took.append((time.perf_counter() - sent) * 1000)
        if took[-1] > SLOW_MS:
            slow.append((round(sent - STARTED, 2), round(took[-1])))
        assert answer["type"] == "ack", answer
        for p in players:
            while p.state is None or p.state["version"] < answer["version"]:
                p.changed.clear()
                await asyncio.wait_for(p.changed.wait(), WAIT)
        await asyncio.sleep(max(0.0, pace - (time.perf_counter() - sent)))
    return took


class Flood:
    """Anonymous sockets, each from its own loopback address, each sending `sync` `rate`
    times a second, with a `ping` between them up to `pings` frames a second: at the
    limits, or past them (then closed, and opened again at once)."""

    def __init__(
        self, ws_url: str, origin: str, rooms: list[str], *, count: int, rate: float, pings: float
    ) -> None:
        self.ws_url, self.origin, self.rooms = ws_url, origin, rooms
        self.count, self.rate, self.pings = count, rate, pings
        self.sent = self.refused = self.opened = 0
        self.closes: dict[int, int] = {}

    async def run(self, stop: Any) -> dict[str, Any]:
        tasks = [asyncio.create_task(self.one(n)) for n in range(self.count)]
        began = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        seconds = time.perf_counter() - began
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        return {
            "flood_frames_per_s": round(self.sent / seconds), "sockets_opened": self.opened,
            "refused_rate_limited": self.refused, "closes": self.closes,
        }

    async def one(self, n: int) -> None:
        # The players' room takes its cap less one place; the rest watch other rooms.
        first = SPECTATOR_CAP - 1
        code = self.rooms[0] if n < first else self.rooms[1 + (n - first) // SPECTATOR_CAP]
        address = f"127.0.{1 + n // 250}.{1 + n % 250}"
        await asyncio.sleep(n * 0.01)
        while True:
            try:
                async with websockets.connect(
                    f"{self.ws_url}/ws/rooms/{code}/", origin=Origin(self.origin),
                    local_addr=(address, 0), open_timeout=WAIT, max_queue=None,
                ) as ws:
                    self.opened += 1
                    reader = asyncio.create_task(self.drain(ws))
                    try:
                        await self.send(ws)
                    finally:
                        reader.cancel()
            except websockets.ConnectionClosed as closed:
                code_seen = closed.rcvd.code if closed.rcvd else 1006
                self.closes[code_seen] = self.closes.get(code_seen, 0) + 1
            except (OSError, TimeoutError):
                await asyncio.sleep(0.5)

    async def send(self, ws: Any) -> None:
        step = 1 / max(self.rate, self.pings)
        due_sync = 0.0
        while True:
            now = time.perf_counter()
            if now >= due_sync:
                await ws.send('{"type": "sync"}')
                due_sync = now + 1 / self.rate
            else:
                await ws.send('{"type": "ping"}')
            self.sent += 1
            await asyncio.sleep(step)

    async def drain(self, ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in ws:
                if '"rate_limited"' in raw:
                    self.refused += 1


def flood_process(flood: Flood, stop: Any, results: Any) -> None:
    """The flood in a process of its own, so its sockets never delay the timed player's."""
    results.put(asyncio.run(flood.run(stop)))


def figures(took: list[float]) -> dict[str, float]:
    ordered = sorted(took)
    return {
        "actions": len(ordered),
        "p50_ms": round(statistics.median(ordered), 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2),
        "max_ms": round(ordered[-1], 2),
    }


@dataclass
class DaphneAt(Daphne):
    """A daphne process serving the code of the tree `root` (this one, or another version)."""

    root: Path = Path(__file__).resolve().parent.parent

    def start(self) -> DaphneAt:
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                 "--websocket-max-message-size", "65536", self.application],
                cwd=self.root, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )
        try:
            wait_for_port(self.port, timeout=120, proc=self.proc)
        except RuntimeError as error:
            raise RuntimeError(f"{error}\n{self.log()}") from error
        return self


@contextlib.contextmanager
def version_server(root: Path) -> Iterator[DaphneAt]:
    """One daphne process of the tree `root`, with stores of its own (migrated by that
    tree's own manage.py); stopped and removed on exit."""
    stores = open_stores()
    server: DaphneAt | None = None
    try:
        env = server_env(stores, SERVER_ENV)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=root, env=env,
                       capture_output=True, timeout=300, check=True)
        log = stores.workdir / "daphne.log"
        server = DaphneAt("config.asgi:application", free_port(), env, log, root=root)
        server.start()
        yield server
    finally:
        if server is not None:
            server.stop()
        stores.close()


@dataclass
class Subject:
    """One version of the server: its process, the timed players' room and the flood's rooms."""

    name: str
    server: DaphneAt
    code: str = ""
    tokens: list[str] = field(default_factory=list)
    others: list[str] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    phases: list[dict[str, Any]] = field(default_factory=list)
    quiet: list[float] = field(default_factory=list)
    flooded: list[float] = field(default_factory=list)

    async def set_up(self, args: argparse.Namespace) -> None:
        url = self.server.url
        self.code, self.tokens = await asyncio.to_thread(room, url, True)
        self.others = [
            (await asyncio.to_thread(room, url, False))[0] for _ in range(1 + args.flooders // SPECTATOR_CAP)
        ]
        for token in self.tokens:
            path = f"/ws/rooms/{self.code}/?token={token}"
            ws = await websockets.connect(self.server.ws_url + path, origin=Origin(url), open_timeout=WAIT)
            self.players.append(Player(ws))
        for p in self.players:
            await asyncio.wait_for(p.changed.wait(), WAIT)
        await self.play(20, args.pace)  # warm up

    async def play(self, count: int, pace: float) -> list[float]:
        return await play(self.server, self.code, self.tokens, self.players, count=count, pace=pace)

    def cpu(self) -> float:
        assert self.server.proc is not None
        times = psutil.Process(self.server.proc.pid).cpu_times()
        return float(times.user + times.system)

    async def round(self, number: int, args: argparse.Namespace) -> None:
        """A quiet phase, then a flood phase."""
        began, used, load = time.perf_counter(), self.cpu(), os.getloadavg()[0]
        took = await self.play(args.actions, args.pace)
        self.quiet += took
        self.phases.append({"phase": f"quiet {number}", **figures(took), **self.usage(began, used, load)})
        flood = Flood(
            self.server.ws_url, self.server.url, [self.code, *self.others],
            count=args.flooders, rate=args.sync_rate, pings=args.pings,
        )
        context = multiprocessing.get_context("spawn")
        stop, results = context.Event(), context.Queue()
        child = context.Process(target=flood_process, args=(flood, stop, results))
        child.start()
        await asyncio.sleep(args.settle)
        began, used, load = time.perf_counter(), self.cpu(), os.getloadavg()[0]
        took = await self.play(args.actions, args.pace)
        usage = self.usage(began, used, load)
        stop.set()
        counts = await asyncio.to_thread(results.get, True, 60)
        await asyncio.to_thread(child.join, 30)
        self.flooded += took
        self.phases.append({"phase": f"flood {number}", **figures(took), **usage, **counts})
        await asyncio.sleep(args.settle)

    def usage(self, began: float, used: float, load: float) -> dict[str, Any]:
        """The server's CPU over a phase in percent of one core, and the machine's 1-minute
        load average at its start and end."""
        cpu = round((self.cpu() - used) / (time.perf_counter() - began) * 100, 1)
        return {"server_cpu_percent": cpu, "load_average": [round(load, 1), round(os.getloadavg()[0], 1)]}

    def result(self) -> dict[str, Any]:
        quiet, flood = figures(self.quiet), figures(self.flooded)
        return {"version": self.name, "phases": self.phases, "quiet": quiet, "flood": flood,
                "p99_ratio": round(flood["p99_ms"] / quiet["p99_ms"], 2)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    here = Path(__file__).resolve().parent.parent
    roots = [("this", here)] + ([("other", args.against.resolve())] if args.against else [])
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    with contextlib.ExitStack() as stack:
        subjects = [Subject(name, stack.enter_context(version_server(root))) for name, root in roots]
        for subject in subjects:
            await subject.set_up(args)
        for number in range(1, args.rounds + 1):
            order = subjects if number % 2 else subjects[::-1]
            for subject in order:
                print(f"round {number}: {subject.name} ...", file=sys.stderr, flush=True)
                await subject.round(number, args)
        for subject in subjects:
            for p in subject.players:
                await p.ws.close()
    results = [subject.result() for subject in subjects]
    return {
        "started": started, "ended": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "cpus": os.cpu_count(), "flooders": args.flooders, "sync_per_s": args.sync_rate,
        "frames_per_s": args.pings, "results": results, "slow_actions_s_ms": slow,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flooders", type=int, default=300)
    parser.add_argument("--sync-rate", type=float, default=0.2, help="syncs a second per flooding socket")
    parser.add_argument("--pings", type=float, default=1.0,
                        help="frames a second per flooding socket (the server's LOBBY_SPECTATOR_RATE)")
    parser.add_argument("--actions", type=int, default=300, help="actions timed per phase")
    parser.add_argument("--rounds", type=int, default=2, help="quiet/flood pairs")
    parser.add_argument("--pace", type=float, default=0.15, help="seconds from one action to the next")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds of flood before timing")
    parser.add_argument("--against", type=Path, default=None,
                        help="a tree of another version of the server, measured alternately in the same run")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=1))


if __name__ == "__main__":
    main()
