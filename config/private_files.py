"""The files under var/ that must stay the owner's: the secret key and the SQLite database.

The database holds every hand's seed until the hand is revealed, so another account on the
machine reading it could see every player's tiles; the key signs what the site signs. Both
are created readable by the owner only, and an existing one is narrowed to that.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

OWNER_ONLY = 0o600
OWNER_ONLY_DIR = 0o700


def private_dir(path: Path) -> Path:
    """`path` as a directory only its owner can enter (created when missing)."""
    path.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # not ours to change (a mounted volume): leave it
        if path.stat().st_mode & 0o077:
            path.chmod(OWNER_ONLY_DIR)
    return path


def private_file(path: Path) -> Path:
    """Create `path` empty and owner-only when missing; narrow an existing one to the owner."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY)
    except FileExistsError:
        with contextlib.suppress(OSError):
            if path.stat().st_mode & 0o077:
                path.chmod(OWNER_ONLY)
    else:
        os.close(fd)
    return path


def secret_key(path: Path) -> str:
    """The key kept in `path`, generated on first use.

    Written to a temporary file and linked into place, so two processes starting together
    (the compose file's two web processes on one volume) end with one key, never a torn one."""
    with contextlib.suppress(FileNotFoundError):
        key = path.read_text().strip()
        if key:
            private_file(path)
            return key
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY)
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_urlsafe(50) + "\n")
    try:
        os.link(temp, path)
    except FileExistsError:
        pass
    finally:
        temp.unlink()
    return path.read_text().strip()
