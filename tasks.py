#!/usr/bin/env python3
"""One-command set-up: `python3 tasks.py serve` runs the site, `python3 tasks.py test` the tests.

Needs only Python 3.11+. It creates `.venv`, installs the locked dependencies into it (again
only when pyproject.toml or a lock file changes), prepares the database and static files, then
serves or tests. Redis and PostgreSQL are optional: without REDIS_URL the project starts its
own embedded Redis, and without DATABASE_URL it uses a SQLite file under var/.

`python3 tasks.py lock` regenerates the lock files from pyproject.toml, keeping the pinned
versions that still fit; `python3 tasks.py lock --upgrade` moves every pin to the newest
release allowed (CONTRIBUTING.md, "Dependencies and the lock files").
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
PYPROJECT = ROOT / "pyproject.toml"
#: Every dependency of `dependencies`, direct and indirect, pinned with its hashes ...
LOCK = ROOT / "requirements.lock"
#: ... and the same with the `dev` extra (tests, linters, type checker). Every pin of LOCK is
#: also a pin of DEV_LOCK: LOCK is resolved under DEV_LOCK's pins.
DEV_LOCK = ROOT / "requirements-dev.lock"
#: The resolver `lock` runs from a throwaway venv; not a dependency of the project.
LOCK_TOOL = "uv==0.13.9"
#: The header line that records which dependency lists a lock was made from.
DIGEST_PREFIX = "# pyproject-dependencies-sha256: "


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


#: The server process's allocator settings, unless the environment gives its own. glibc
#: gives each thread that allocates an arena of its own, up to eight a core, and Django runs
#: each HTTP request on a thread of its own: a server had sixteen arenas, each keeping its
#: own freed memory, and its resident size crept up with the requests' garbage scattered
#: across them. Two arenas made that creep a third smaller (docs/benchmarks.md, "The
#: allocator's arenas"). deploy/Dockerfile sets the same.
SERVER_ENV = {"MALLOC_ARENA_MAX": "2"}


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    result = subprocess.run([str(a) for a in args], cwd=ROOT, env=env, check=False)
    if result.returncode != 0:
        sys.exit(result.returncode)


def dependency_digest(pyproject: bytes) -> str:
    """The sha256 of pyproject's dependency lists (requires-python, dependencies, every extra).

    Each lock records it in its header; tests/test_lock.py fails when it no longer matches, so
    a dependency added to pyproject.toml without `python3 tasks.py lock` is caught."""
    project = tomllib.loads(pyproject.decode())["project"]
    lists = {
        "requires-python": project.get("requires-python", ""),
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
    }
    return hashlib.sha256(json.dumps(lists, sort_keys=True).encode()).hexdigest()


def ensure_venv(extras: str) -> None:
    """Create the venv and install the locked dependencies, then the project itself.

    The dependencies come only from the lock (`--require-hashes`: every file checked against
    its recorded hash), the project is installed editable without dependencies. A stamp named
    after pyproject.toml and both locks skips the work already done: an install with the test
    extras also serves `serve`, since every pin of the base lock is in the dev lock."""
    if sys.version_info < (3, 11):  # noqa: UP036 - says so on an older Python
        sys.exit("Python 3.11 or newer is needed")
    lock = DEV_LOCK if extras else LOCK
    if not lock.exists():
        sys.exit(f"{lock.name} is missing: run `python3 tasks.py lock`")
    if not PYTHON.exists():
        print("creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    inputs = hashlib.sha256()
    for path in (PYPROJECT, LOCK, DEV_LOCK):
        inputs.update(path.read_bytes() if path.exists() else b"")
    digest = inputs.hexdigest()[:16]
    stamp = VENV / f".installed-{digest}{extras}"
    if stamp.exists() or (not extras and any(VENV.glob(f".installed-{digest}*"))):
        return
    print(f"installing {lock.name} and the project into .venv", flush=True)
    pip = (PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check")
    run(*pip, "--require-hashes", "-r", lock.name)
    # setuptools, the build backend, is itself in the lock: no unpinned download to build.
    run(*pip, "--no-deps", "--no-build-isolation", "-e", ".")
    for old in VENV.glob(".installed-*"):
        if not old.name.startswith(f".installed-{digest}"):
            old.unlink()
    stamp.touch()


def lock(argv: list[str]) -> None:
    """Write requirements-dev.lock, then requirements.lock under its pins, from pyproject.toml.

    The resolver runs from a throwaway venv. The resolution is universal (markers where a
    platform or Python version needs another package) for Python 3.11 and newer, with the
    hashes of every file PyPI has for each pinned version. Pins already in a lock are kept
    while they still satisfy pyproject.toml; `--upgrade` resolves everything afresh."""
    header = (
        "# Every dependency, direct and indirect, pinned with the hashes of its files, for\n"
        "# CPython 3.11+ on any platform. Made from pyproject.toml by `python3 tasks.py lock`;\n"
        "# do not edit by hand. tests/test_lock.py checks it against pyproject.toml.\n"
        f"{DIGEST_PREFIX}{dependency_digest(PYPROJECT.read_bytes())}\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        tool_venv = Path(tmp) / "venv"
        venv.EnvBuilder(with_pip=True).create(tool_venv)
        tool_bin = tool_venv / ("Scripts" if os.name == "nt" else "bin")
        run(tool_bin / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", LOCK_TOOL)
        compile_ = (
            tool_bin / "uv", "pip", "compile", "--quiet", PYPROJECT.name, "--universal",
            "--python-version", "3.11", "--generate-hashes", "--no-emit-index-url",
            "--custom-compile-command", "python3 tasks.py lock",
        )
        upgrade = ["--upgrade"] if "--upgrade" in argv else []
        run(*compile_, "--extra", "dev", *upgrade, "-o", DEV_LOCK.name)
        run(*compile_, "-c", DEV_LOCK.name, *upgrade, "-o", LOCK.name)
    for path in (DEV_LOCK, LOCK):
        path.write_text(header + path.read_text())
        print(f"wrote {path.name}", flush=True)


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
    env = {**SERVER_ENV, **os.environ, "HOST": site.bind, "PORT": str(site.port)}
    os.execve(
        daphne,
        [daphne, "-b", bind, "-p", str(site.port), *limits, *argv, "config.asgi:application"],
        env,
    )


#: What `messages` leaves out of the catalogs: not the product's code.
MESSAGE_IGNORES = (".venv", "bench", "tests", "build", "staticfiles", "var", "deploy")


def messages_command(domain: str) -> list[str]:
    """`makemessages` for one domain (`django`, or `djangojs` for the browser code), every
    language of the site but English, the project's own code only."""
    ignores = [f"--ignore={name}" for name in MESSAGE_IGNORES]
    return [str(PYTHON), "manage.py", "makemessages", "-d", domain, "-l", "es", "-l", "pt_BR",
            "--no-obsolete", "--no-wrap", "--add-location=file", *ignores, "-v", "0"]


def messages(argv: list[str]) -> None:
    """Bring `locale/` up to date with the code's messages (needs GNU gettext's xgettext and
    msgmerge): new messages arrive untranslated, and the catalog test fails until they are
    translated (docs/translating.md)."""
    ensure_venv("[dev]")
    for domain in ("django", "djangojs"):
        run(*messages_command(domain))


def test(argv: list[str]) -> None:
    ensure_venv("[dev]")
    os.execv(str(PYTHON), [str(PYTHON), "-m", "pytest", *argv])


def main() -> None:
    commands = {"serve": serve, "test": test, "lock": lock, "messages": messages}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit("usage: python3 tasks.py serve | test [pytest arguments] | lock [--upgrade] | messages")
    os.chdir(ROOT)
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
