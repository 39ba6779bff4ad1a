#!/usr/bin/env python3
"""One-command set-up: `python3 tasks.py serve` runs the site, `python3 tasks.py test` the tests.

Needs only Python 3.11+. It creates `.venv`, installs the project into it (again only when
pyproject.toml changes), prepares the database and static files, then serves or tests. Redis
and PostgreSQL are optional: without REDIS_URL the project starts its own embedded Redis, and
without DATABASE_URL it uses a SQLite file under var/.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


#: daphne's own limits (docs/server.md): frames over 64 KiB dropped before the server reads
#: them; an HTTP request the application has not answered in 30 s gets 503; a WebSocket
#: handshake the application has not accepted in 10 s is dropped; an idle socket is pinged
#: every 20 s and closed when 30 s pass without an answer. docker-compose.yml passes the same.
DAPHNE_LIMITS = [
    "--websocket-max-message-size", "65536",
    "--http-timeout", "30",
    "--websocket_connect_timeout", "10",
    "--ping-interval", "20",
    "--ping-timeout", "30",
]


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    result = subprocess.run([str(a) for a in args], cwd=ROOT, env=env, check=False)
    if result.returncode != 0:
        sys.exit(result.returncode)


def ensure_venv(extras: str) -> None:
    """Create the venv and install the project, skipping work already done for this pyproject.

    An install with the test extras also serves `serve`: serving after testing (or the
    other way round, for `serve` then `test`, only the extras are added) reinstalls nothing."""
    if sys.version_info < (3, 11):  # noqa: UP036 - says so on an older Python
        sys.exit("Python 3.11 or newer is needed")
    if not PYTHON.exists():
        print("creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]
    stamp = VENV / f".installed-{digest}{extras}"
    if stamp.exists() or (not extras and any(VENV.glob(f".installed-{digest}*"))):
        return
    print(f"installing the project{extras} into .venv", flush=True)
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PYTHON, "-m", "pip", "install", "--quiet", "-e", f".{extras}")
    for old in VENV.glob(".installed-*"):
        if not old.name.startswith(f".installed-{digest}"):
            old.unlink()
    stamp.touch()


def serve(argv: list[str]) -> None:
    """Serve on every interface (HOST=127.0.0.1: this computer only) and print the links."""
    sys.path.insert(0, str(ROOT))
    from config.hosting import HostingError, hosting, serve_message

    try:
        site = hosting(os.environ)
    except HostingError as exc:
        sys.exit(f"cannot serve: {exc}")
    ensure_venv("")
    run(PYTHON, "manage.py", "migrate", "--noinput", "-v", "0")
    run(PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0")
    print(serve_message(site), flush=True)
    daphne = str(BIN / "daphne")
    limits = DAPHNE_LIMITS
    bind = site.bind.strip("[]")
    env = {**os.environ, "HOST": site.bind, "PORT": str(site.port)}
    os.execve(
        daphne,
        [daphne, "-b", bind, "-p", str(site.port), *limits, *argv, "config.asgi:application"],
        env,
    )


def test(argv: list[str]) -> None:
    ensure_venv("[dev]")
    os.execv(str(PYTHON), [str(PYTHON), "-m", "pytest", *argv])


def main() -> None:
    commands = {"serve": serve, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit("usage: python3 tasks.py serve | test [pytest arguments]")
    os.chdir(ROOT)
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
