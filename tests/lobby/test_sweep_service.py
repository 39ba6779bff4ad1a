"""The compose file's `sweep` service: `manage.py lobby_sweep` beside the web processes.

A web process sweeps only once a socket has connected to it, so after every web process
restarted, an AI seat whose trigger died with them waited until some player came back.
Here a real daphne process is killed while an AI move is pending, started again with no
socket connecting, and the real command, running beside it over the same stores, plays
the move and counts the player of the dead process as away. Redis database 8 belongs to
this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.typing import Origin

from tests.lobby.procs import ROOT, Daphne, Stores, daphne_group, open_stores, server_env
from tests.lobby.test_compose import command_words, is_one_shot, load_services
from tests.waiting import wait_until

pytestmark = pytest.mark.multiprocess

REDIS_DB = 8
WAIT = 15.0
ENV = {
    "LOBBY_SWEEP_SECONDS": "0.2",
    "LOBBY_PRESENCE_TTL": "2",
    # Long enough for the web process to die before the AI seat's own trigger fires.
    "AI_MOVE_DELAY": "1.5",
}


def http(base: str, method: str, path: str, body: dict[str, Any] | None = None, token: str = "") -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, headers, method=method)
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        return json.loads(response.read() or b"null")


@contextlib.contextmanager
def sweeper(stores: Stores, alive: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`manage.py lobby_sweep` as compose runs it, over the stores of the web processes."""
    env = server_env(stores, ENV)
    with open(stores.workdir / "sweep.log", "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "lobby_sweep", "--alive-file", str(alive)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        yield proc
    finally:
        proc.terminate()
        proc.wait(10)


def until(done: Any, what: str, timeout: float = WAIT) -> Any:
    return wait_until(done, what, timeout)


def test_the_compose_file_runs_the_sweep_command_with_a_health_check_that_reads_its_file() -> None:
    services = load_services()
    (name,) = [n for n, s in services.items() if command_words(s)[1:3] == ["manage.py", "lobby_sweep"]]
    sweep = services[name]
    assert not is_one_shot(sweep), "the sweep runs for as long as the site does"
    assert sweep["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    words = command_words(sweep)
    alive = words[words.index("--alive-file") + 1]
    probe = sweep["healthcheck"]["test"]
    assert probe[:3] == ["CMD", "python", "-c"] and repr(alive) in probe[3]


def test_the_sweep_health_check_passes_on_a_fresh_file_and_fails_on_a_stale_or_missing_one(tmp_path: Path) -> None:
    probe = load_services()["sweep"]["healthcheck"]["test"][3]
    words = command_words(load_services()["sweep"])
    alive = tmp_path / "alive"
    check = probe.replace(repr(words[words.index("--alive-file") + 1]), repr(str(alive)))

    def healthy() -> bool:
        return subprocess.run([sys.executable, "-c", check], capture_output=True, check=False).returncode == 0

    assert not healthy()
    alive.touch()
    assert healthy()
    old = time.time() - 120
    os.utime(alive, (old, old))
    assert not healthy()


@pytest.fixture(scope="module")
def group() -> Iterator[tuple[Stores, list[Daphne]]]:
    stores = open_stores(redis_db=REDIS_DB)
    try:
        stores.flush_redis()
        with daphne_group(1, extra_env=ENV, stores=stores) as made:
            yield made
    finally:
        stores.close()


async def test_multiprocess_ai_seats_move_after_the_web_process_restarts_with_no_socket_connected(group: tuple[Stores, list[Daphne]]) -> None:
    stores, (web,) = group
    alive = stores.workdir / "sweep.alive"
    with sweeper(stores, alive):
        await asyncio.to_thread(until, alive.exists, "the sweep's first round")
        made = await asyncio.to_thread(http, web.url, "POST", "/api/rooms/", {
            "game": "draw", "players": 3, "options": {}, "name": "Ann", "grace_seconds": 3600,
        })
        code, token = made["code"], made["token"]
        for seat in (1, 2):
            await asyncio.to_thread(
                http, web.url, "POST", f"/api/rooms/{code}/seats/", {"seat": seat, "ai": "easy"}, token
            )
        ws = await websockets.connect(f"{web.ws_url}/ws/rooms/{code}/?token={token}", origin=Origin(web.url))
        try:
            await asyncio.to_thread(http, web.url, "POST", f"/api/rooms/{code}/start/", {}, token)
            state = await next_state(ws)
            if state["view"]["to_move"] == 0:
                await ws.send(json.dumps({"type": "action", "id": "a", "action": state["view"]["legal"][0]}))
                state = await next_state(ws)
            assert state["view"]["to_move"] != 0
            # An AI seat is to move in 1.5 s, on a trigger of the web process: it dies now.
            web.kill()
        finally:
            with contextlib.suppress(Exception):
                await ws.close()
        version = state["version"]
        web.start()  # as compose restarts it; nobody connects a socket to it

        def moved() -> dict[str, Any] | None:
            room: dict[str, Any] = http(web.url, "GET", f"/api/rooms/{code}/")
            return room if room["match"]["version"] > version else None

        room = await asyncio.to_thread(until, moved, "the AI seat's move")
        print(f"AI seat moved by the sweep service: version {version} -> {room['match']['version']}")
        # The player's socket died with the process: the sweep service counts the seat away.
        await asyncio.to_thread(
            until, lambda: not http(web.url, "GET", f"/api/rooms/{code}/")["seats"][0]["connected"], "the seat away"
        )
        touched = alive.stat().st_mtime
        await asyncio.to_thread(until, lambda: alive.stat().st_mtime > touched, "another round")


async def next_state(ws: Any) -> dict[str, Any]:
    """The next `state` frame the socket receives (acks and room frames skipped)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if message["type"] == "state":
            return message  # type: ignore[no-any-return]
