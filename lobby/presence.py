"""Which seat sockets are alive, across processes, with the database as the only witness.

A seat is away only when no server process holds a socket for it. Each process owns the
truth about its own sockets: it knows which it holds (`presence_add`, `presence_remove`),
and every sweep stamps its `ServerProcess` row with the database's clock (`process_beat`).
The seat records the process of its socket (`Seat.process`). A seat's socket is dead when

- its process is another one whose stamp is older than `LOBBY_PRESENCE_TTL`, by the
  database's clock: that process died (or stalled that long). Whoever sweeps next finds
  it, so a dead process's seats count as away at most TTL plus one sweep period (and one
  sweep's own work) after its last stamp;
- its process is this one, which no longer holds it: its close was never recorded;
- its process is unknown (a channel from before this scheme, or a row long deleted).

Nothing here lives in Redis: flushing or restarting Redis cannot make a connected player
look gone. The stamp comes from the database's clock and is compared with it, so the
clocks of the machines never matter, nor does a sweep that ran late.

A process also re-asserts its sockets: a seat one of its live sockets was bound to, which
the database shows nobody at (another process took this one for dead while it stalled), is
bound to that socket again at its next sweep (`services.connections_reassert`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError
from django.db.models.functions import Now

from lobby.models import ServerProcess

#: This process's name, as the seats of its sockets record it.
PROCESS = secrets.token_hex(8)
#: A process row nobody has stamped for this long is deleted (its seats were closed long ago).
FORGET_AFTER = timedelta(days=1)

#: The seat sockets this process holds: channel -> (room code, token hash), the seat known
#: once the socket was bound ("", "" before).
_held: dict[str, tuple[str, str]] = {}
_held_lock = threading.Lock()
_registered = False


def presence_add(channel: str) -> None:
    """This process holds the socket `channel`: called before a seat records it, so no sweep
    of this process ever sees the channel in a seat without holding it."""
    with _held_lock:
        _held.setdefault(channel, ("", ""))
    if not _registered:
        process_beat()


def presence_remove(channel: str) -> None:
    """The socket is closing (or no longer holds its seat): called before its seat is freed."""
    with _held_lock:
        _held.pop(channel, None)


def seat_bound(channel: str, code: str, token_hash: str) -> bool:
    """Note which seat a socket of this process now holds; False (and nothing noted) when
    this process does not hold `channel`."""
    with _held_lock:
        if channel not in _held:
            return False
        _held[channel] = (code, token_hash)
        return True


def holds(channel: str) -> bool:
    with _held_lock:
        return channel in _held


def held_seats() -> list[tuple[str, str, str]]:
    """(room code, token hash, channel) of every seat a socket of this process holds."""
    with _held_lock:
        return [(code, token_hash, channel) for channel, (code, token_hash) in _held.items() if code]


def process_beat() -> None:
    """Stamp this process's row with the database's clock, creating it on the first call."""
    global _registered
    if not ServerProcess.objects.filter(name=PROCESS).update(beat_at=Now()):
        # Another thread of this process may have created it first.
        with contextlib.suppress(IntegrityError):
            ServerProcess.objects.create(
                name=PROCESS, label=f"{socket.gethostname()}:{os.getpid()}", beat_at=Now()
            )
    _registered = True


def process_renew() -> None:
    """Each sweep: stamp this process's row, once it has held a seat socket (a process that
    never did, like the sweep command, has nothing to vouch for)."""
    if _registered:
        process_beat()


def channels_dead(seats: list[tuple[str, str]]) -> list[str]:
    """The channels, of the (channel, process) pairs given, that no live process holds."""
    others = {process for _channel, process in seats if process and process != PROCESS}
    fresh = Now() - timedelta(seconds=settings.LOBBY_PRESENCE_TTL)
    alive = set(
        ServerProcess.objects.filter(name__in=others, beat_at__gte=fresh).values_list("name", flat=True)
    )
    with _held_lock:
        mine = set(_held)
    return [
        channel
        for channel, process in seats
        if (channel not in mine if process == PROCESS else process not in alive)
    ]


def processes_forget() -> int:
    """Delete the rows of processes gone for `FORGET_AFTER`; returns how many."""
    stale = Now() - FORGET_AFTER
    deleted, _ = ServerProcess.objects.filter(beat_at__lt=stale).exclude(name=PROCESS).delete()
    return deleted
