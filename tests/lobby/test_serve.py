"""`python3 tasks.py serve` as the README says: it prints the link with the machine's network
address, and that link opens the site from another address than loopback."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import tasks
from config.hosting import network_addresses
from tests.lobby.procs import flush_redis_db, with_redis_db
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
#: Beside the 12 of the browser suite and the 13 of the multi-process suite.
SERVE_REDIS_DB = 11


def free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("0.0.0.0", 0))
        return int(sock.getsockname()[1])


class Served:
    """`tasks.py serve` in its own process group, with every line it printed."""

    def __init__(self, env: dict[str, str]) -> None:
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "tasks.py", "serve"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def line_with(self, pattern: str, seconds: float = 120) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for line in list(self.lines):
                found = re.search(pattern, line)
                if found:
                    return found
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"no line matching {pattern!r}:\n" + "\n".join(self.lines[-40:]))

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def wait_until_open(url: str, seconds: float = 60) -> None:
    def answers() -> bool:
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
            status: int = answer.status
            return status == 200
        return False

    wait_until(answers, f"{url} to answer /healthz", seconds)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, int]]:
    if not network_addresses():
        pytest.skip("this machine has no network address besides loopback")
    port = free_port()
    unset = {"HOST", "PUBLIC_URL", "DATABASE_URL", "SECRET_KEY", *tasks.SERVER_ENV}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update({"PORT": str(port), "VAR_DIR": str(tmp_path / "var"), "PYTHONUNBUFFERED": "1"})
    if env.get("REDIS_URL"):
        env["REDIS_URL"] = with_redis_db(env["REDIS_URL"], SERVE_REDIS_DB)
        flush_redis_db(env["REDIS_URL"])
    server = Served(env)
    try:
        yield server, port
    finally:
        server.stop()
        with contextlib.suppress(OSError, ValueError):
            os.kill(int((tmp_path / "var" / "redis.pid").read_text().strip()), signal.SIGTERM)


def test_serve_prints_the_network_link_and_it_opens_the_site_and_its_rooms(served: tuple[Served, int]) -> None:
    server, port = served
    shared = server.line_with(r"network: (http://[\d.]+:\d+)/").group(1)
    local = server.line_with(r"this computer only: (http://\S+)/").group(1)
    address = network_addresses()[0]
    assert shared == f"http://{address}:{port}"
    assert local == f"http://127.0.0.1:{port}"
    wait_until_open(shared)
    with urllib.request.urlopen(f"{shared}/", timeout=10) as home:
        assert home.status == 200 and b"Start a table" in home.read()
    body = json.dumps({"game": "draw", "players": 2, "name": "Ann"}).encode()
    create = urllib.request.Request(
        f"{local}/api/rooms/", data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(create, timeout=10) as made:
        room = json.loads(made.read())
    # Created from this computer, the link to share still names the network address.
    assert room["url"] == f"{shared}/r/{room['code']}"
    with urllib.request.urlopen(room["url"], timeout=10) as page:
        html = page.read().decode()
    assert f'data-link="{shared}/r/{room["code"]}"' in html
    with pytest.raises(urllib.error.HTTPError) as wrong:
        urllib.request.urlopen(f"{shared}/r/{room['code'][:-2]}", timeout=10)
    assert wrong.value.code == 404
    assert "room was not found" in wrong.value.read().decode()
    # The server runs with the allocator settings serve gives it (serve becomes daphne).
    served_env = Path(f"/proc/{server.proc.pid}/environ")
    if served_env.exists():
        given = b"\0" + served_env.read_bytes()
        for name, value in tasks.SERVER_ENV.items():
            assert f"\0{name}={value}\0".encode() in given, name
    # A name the site was not told it serves on (a rebound DNS name) is refused.
    rebound = urllib.request.Request(f"{shared}/", headers={"Host": "attacker.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(rebound, timeout=10)
    assert refused.value.code == 400
