"""Which seat sockets are alive, across processes, with the database as the only witness.

A seat is away only when no server process holds a socket for it. Each process owns the
truth about its own sockets: it knows which it holds (`Presence.add`, `Presence.remove`),
and every sweep stamps its `ServerProcess` row with the database's clock (`Presence.beat`).
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

#: A process row nobody has stamped for this long is deleted (its seats were closed long ago).
FORGET_AFTER = timedelta(days=1)


class Presence:
    """The seat sockets one process holds, and its name as their seats record it; the
    process's runtime (`lobby/runtime.py`) holds one."""

    def __init__(self) -> None:
        #: This process's name, as the seats of its sockets record it.
        self.name = secrets.token_hex(8)
        #: channel -> (room code, token hash), the seat known once the socket was bound
        #: ("", "" before).
        self._held: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()
        self._registered = False

    def add(self, channel: str) -> None:
        """This process holds the socket `channel`: called before a seat records it, so no
        sweep of this process ever sees the channel in a seat without holding it."""
        with self._lock:
            self._held.setdefault(channel, ("", ""))
        if not self._registered:
            self.beat()

    def remove(self, channel: str) -> None:
        """The socket is closing (or no longer holds its seat): called before its seat is freed."""
        with self._lock:
            self._held.pop(channel, None)

    def seat_bound(self, channel: str, code: str, token_hash: str) -> bool:
        """Note which seat a socket of this process now holds; False (and nothing noted) when
        this process does not hold `channel`."""
        with self._lock:
            if channel not in self._held:
                return False
            self._held[channel] = (code, token_hash)
            return True

    def holds(self, channel: str) -> bool:
        with self._lock:
            return channel in self._held

    def held_seats(self) -> list[tuple[str, str, str]]:
        """(room code, token hash, channel) of every seat a socket of this process holds."""
        with self._lock:
            return [(code, token_hash, channel) for channel, (code, token_hash) in self._held.items() if code]

    def beat(self) -> None:
        """Stamp this process's row with the database's clock, creating it on the first call."""
        if not ServerProcess.objects.filter(name=self.name).update(beat_at=Now()):
            # Another thread of this process may have created it first.
            with contextlib.suppress(IntegrityError):
                ServerProcess.objects.create(
                    name=self.name, label=f"{socket.gethostname()}:{os.getpid()}", beat_at=Now()
                )
        self._registered = True

    def renew(self) -> None:
        """Each sweep: stamp this process's row, once it has held a seat socket (a process
        that never did, like the sweep command, has nothing to vouch for)."""
        if self._registered:
            self.beat()

    def channels_dead(self, seats: list[tuple[str, str]]) -> list[str]:
        """The channels, of the (channel, process) pairs given, that no live process holds."""
        others = {process for _channel, process in seats if process and process != self.name}
        fresh = Now() - timedelta(seconds=settings.LOBBY_PRESENCE_TTL)
        alive = set(
            ServerProcess.objects.filter(name__in=others, beat_at__gte=fresh).values_list("name", flat=True)
        )
        with self._lock:
            mine = set(self._held)
        return [
            channel
            for channel, process in seats
            if (channel not in mine if process == self.name else process not in alive)
        ]

    def processes_forget(self) -> int:
        """Delete the rows of processes gone for `FORGET_AFTER`; returns how many."""
        stale = Now() - FORGET_AFTER
        deleted, _ = ServerProcess.objects.filter(beat_at__lt=stale).exclude(name=self.name).delete()
        return deleted
