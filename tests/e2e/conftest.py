"""Browser fixtures: Debian's Chromium driven by Playwright, a static file server, a real daphne.

Playwright's own browser download cannot work offline, so the tests launch the system
Chromium and skip, saying why, where there is none.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.lobby.procs import flush_redis_db, with_redis_db

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "frontend" / "static"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
#: Beside the 13 of the multi-process suite and the load generator.
E2E_REDIS_DB = 12
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if shutil.which("chromium") is None:
        reason = "Debian's chromium is not installed (shutil.which('chromium') is None)"
        skip = pytest.mark.skip(reason=reason)
        for item in items:
            if "e2e" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=shutil.which("chromium"), headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    yield pg
    context.close()


def free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    """The frontend's static files over plain HTTP, for unit checks of the ES modules."""
    handler = functools.partial(_QuietHandler, directory=str(STATIC))
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], log: Path, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.closing(socket.socket()) as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"daphne did not listen on {port}:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def daphne_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real daphne on a free port with its own SQLite file, migrated first, AI delay 0."""
    work = tmp_path_factory.mktemp("daphne")
    env = dict(os.environ)
    if env.get("REDIS_URL"):
        env["REDIS_URL"] = _own_redis_db(env["REDIS_URL"])
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{work / 'e2e.sqlite3'}",
            "VAR_DIR": str(work),
            "DEBUG": "1",
            "AI_MOVE_DELAY": "0",
            "AI_DELAY": "0",
            "PYTHONUNBUFFERED": "1",
        }
    )
    port = free_port()
    # As `tasks.py serve` runs it: every interface, so the network address opens it too.
    env.update({"HOST": "0.0.0.0", "PORT": str(port)})
    env.pop("PUBLIC_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT, env=env, check=True, capture_output=True,
    )
    log = work / "daphne.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "0.0.0.0", "-p", str(port), "config.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_for_port(port, proc, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        _stop_embedded_redis(work)


@pytest.fixture(scope="session")
def network_url(daphne_url: str) -> str:
    """The same daphne at this machine's network address, as a relative's phone opens it."""
    from config.hosting import network_addresses

    addresses = network_addresses()
    if not addresses:
        pytest.skip("this machine has no network address besides loopback")
    return daphne_url.replace("127.0.0.1", addresses[0])


def _own_redis_db(url: str) -> str:
    """A Redis database of the browser suite's own, emptied first: the suites that run in
    this process count room creations from 127.0.0.1 in the shared one, under their own
    raised limits, and a daphne with the default limits reading those counts refused the
    first room it was asked for when the browser suite ran right after them."""
    own = with_redis_db(url, E2E_REDIS_DB)
    flush_redis_db(own)
    return own


def _stop_embedded_redis(work: Path) -> None:
    """The embedded Redis that daphne started under `work` outlives it: stop it too."""
    pidfile = work / "redis.pid"
    with contextlib.suppress(OSError, ValueError):
        os.kill(int(pidfile.read_text().strip()), signal.SIGTERM)


def screenshot(page: Page, name: str, full_page: bool = True) -> Path:
    """Save a screenshot under tests/e2e/screenshots/ (git-ignored) for a look later: the whole
    page, or (`full_page=False`) just what the screen shows."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
