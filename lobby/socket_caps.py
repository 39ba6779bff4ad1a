"""Caps on open sockets, counted across every server process: sockets per client address,
and spectators (sockets without a seat) per room.

A refused socket is accepted and then closed with its own close code (docs/protocol.md),
as a wrong room is: a browser cannot read why a handshake was refused, and retries it.

Each cap is a Redis sorted set of the connections it holds, each scored with the time its
claim lapses. A process renews the claims of its own sockets every `RENEW_SECONDS`, so the
claims of a process that died without closing its sockets lapse within `CLAIM_SECONDS`
instead of holding places forever; and a Redis that lost its data (a flush, a restart) is
told every live claim again on the next renewal: the caps let a few sockets too many in
for at most that long, and never refuse one they should admit.

An address whose socket was closed for flooding (4008) sits out a penalty: for
`LOBBY_FLOOD_PENALTY_SECONDS` (default 60) this process refuses its new sockets at once,
before any database or Redis work. A client that obeys 4008 (docs/protocol.md) does not
come back on its own; a script that opens a new socket at once would otherwise be admitted
(two caps, the room read, the snapshot) before it floods again. Per process, on purpose: a
check that asks Redis is work a flood gets for free. The proxy's connection rate per
address (deploy/haproxy.cfg) holds the same address across processes.

The claims this process holds (`SocketCaps`) and its penalties (`FloodPenalties`) belong
to the process's runtime (`lobby/runtime.py`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import redis
from django.conf import settings
from django.utils.translation import gettext_noop

from lobby.errors import worded

logger = logging.getLogger(__name__)

#: How long a claim lasts without renewal, and how often each process renews its own.
CLAIM_SECONDS = 90
RENEW_SECONDS = 20

# Drop lapsed claims, then add this one if the cap leaves room (or it is already in).
# KEYS[1]: the set; ARGV: member, cap, claim seconds. Redis' own clock, so processes on
# machines whose clocks differ agree.
_CLAIM = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], t + tonumber(ARGV[3]), ARGV[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
"""

# Renew claims this process holds: re-add each with a fresh lapse time, cap aside (it was
# admitted; the set may have been lost with Redis' data). KEYS: sets; ARGV: claim seconds,
# then the member of each set in order.
_RENEW = """
local now = redis.call('TIME')
local lapse = tonumber(now[1]) + tonumber(now[2]) / 1000000 + tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, lapse, ARGV[i + 1])
  redis.call('EXPIRE', key, tonumber(ARGV[1]))
end
return #KEYS
"""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a socket was not admitted: its close code, error code and message (a message of
    the catalogs, `%(name)s` placeholders filled from `params`)."""

    close_code: int
    error_code: str
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The message in English."""
        return self.template % dict(self.params) if self.params else self.template

    def said(self) -> str:
        """The message in the active language (the refused socket's)."""
        return worded(self.template, self.params)


CLOSE_TOO_MANY_CONNECTIONS = 4429
CLOSE_SPECTATORS_FULL = 4409
#: A socket closed for flooding, and a socket its address opens during the penalty.
CLOSE_FLOODING = 4008
#: How many penalised addresses a process keeps at most (the length is the setting
#: LOBBY_FLOOD_PENALTY_SECONDS): past that, the
#: oldest penalties go first (a flood from more addresses than that is the proxy's to stop).
PENALTY_ADDRESSES = 100_000
#: The address of a socket whose scope says none: never penalised (it would be every such socket).
UNKNOWN_ADDRESS = "unknown"


def _address_key(address: str) -> str:
    return f"{settings.LOBBY_REDIS_PREFIX}caps:address:{address}"


def _spectators_key(code: str) -> str:
    return f"{settings.LOBBY_REDIS_PREFIX}caps:spectators:{code}"


def _wanted(address: str, spectator_of: str | None) -> list[tuple[str, int]]:
    """The caps a socket takes a place under, each with its size: its address's and, for a
    spectator, its room's."""
    wanted = [(_address_key(address), settings.LOBBY_ADDRESS_CONNECTIONS)]
    if spectator_of is not None:
        wanted.append((_spectators_key(spectator_of), settings.LOBBY_ROOM_SPECTATORS))
    return wanted


def _refusal(key: str, cap: int) -> Refusal:
    if key.startswith(f"{settings.LOBBY_REDIS_PREFIX}caps:address:"):
        return Refusal(
            CLOSE_TOO_MANY_CONNECTIONS,
            "rate_limited",
            gettext_noop("too many connections from your address (at most %(cap)s): close another tab or "
                         "device"),
            {"cap": cap},
        )
    return Refusal(
        CLOSE_SPECTATORS_FULL,
        "conflict",
        gettext_noop("this room has as many spectators as it takes (%(cap)s): try again later"),
        {"cap": cap},
    )


class SocketCaps:
    """The places this process's sockets hold under the caps, in Redis through `client`,
    and the thread that renews their claims (started with the first claim)."""

    def __init__(self, client: Callable[[], redis.Redis]) -> None:
        self.client = client
        self._held: dict[str, list[str]] = {}
        self._lock = threading.Lock()
        self._renewer: threading.Thread | None = None
        self._stop = threading.Event()
        self._scripts: dict[str, Any] = {}

    def _script(self, name: str, source: str) -> Any:
        found = self._scripts.get(name)
        if found is None:
            found = self._scripts[name] = self.client().register_script(source)
        return found

    def claim(self, connection: str, address: str, spectator_of: str | None) -> Refusal | None:
        """Take a place for `connection` under the cap of its address and, for a spectator,
        of the room `spectator_of`; None when admitted. A refused connection holds nothing."""
        claim_script = self._script("claim", _CLAIM)
        taken: list[str] = []
        for key, cap in _wanted(address, spectator_of):
            if not claim_script(keys=[key], args=[connection, cap, CLAIM_SECONDS]):
                for done in taken:
                    self.client().zrem(done, connection)
                return _refusal(key, cap)
            taken.append(key)
        with self._lock:
            self._held[connection] = taken
        self._renewer_ensure()
        return None

    def release(self, connection: str) -> None:
        """Give back the places `connection` holds (nothing if it holds none)."""
        with self._lock:
            keys = self._held.pop(connection, [])
        if keys:
            pipe = self.client().pipeline(transaction=False)
            for key in keys:
                pipe.zrem(key, connection)
            pipe.execute()

    def renew(self) -> int:
        """Renew every claim this process holds (after a Redis flush: make it again); returns
        how many connections hold claims."""
        with self._lock:
            held = [(key, connection) for connection, keys in self._held.items() for key in keys]
            count = len(self._held)
        if held:
            self._script("renew", _RENEW)(
                keys=[key for key, _ in held], args=[CLAIM_SECONDS, *(connection for _, connection in held)]
            )
        return count

    def _renewer_ensure(self) -> None:
        if self._renewer is not None and self._renewer.is_alive():
            return
        with self._lock:
            if self._stop.is_set() or (self._renewer is not None and self._renewer.is_alive()):
                return
            thread = threading.Thread(target=self._renew_forever, name="socket-caps-renew", daemon=True)
            self._renewer = thread
            thread.start()

    def _renew_forever(self) -> None:
        while not self._stop.wait(RENEW_SECONDS):
            try:
                self.renew()
            except Exception:
                logger.exception("could not renew the socket caps' claims")

    def stop(self) -> None:
        """End the renewing thread (a runtime shut down); the claims lapse in Redis."""
        self._stop.set()


def penalty_seconds() -> float:
    return float(settings.LOBBY_FLOOD_PENALTY_SECONDS)


class FloodPenalties:
    """The addresses this process refuses for a while, each with when its penalty ends
    (`time.monotonic()`), oldest first."""

    def __init__(self) -> None:
        self._until: dict[str, float] = {}
        self._lock = threading.Lock()

    def penalize(self, address: str, now: float | None = None) -> None:
        """`address` had a socket closed for flooding: refuse its sockets for the penalty."""
        seconds = penalty_seconds()
        if seconds <= 0 or address == UNKNOWN_ADDRESS:
            return
        until = (time.monotonic() if now is None else now) + seconds
        with self._lock:
            self._until.pop(address, None)  # to the end: the dict's order is the lapse order
            self._until[address] = until
            while len(self._until) > PENALTY_ADDRESSES:
                del self._until[next(iter(self._until))]

    def penalized(self, address: str, now: float | None = None) -> Refusal | None:
        """The refusal of a socket from `address` while its penalty lasts, else None. Memory
        only: this runs before any other work of a new socket."""
        until = self._until.get(address)
        if until is None:
            return None
        left = until - (time.monotonic() if now is None else now)
        if left <= 0:
            with self._lock:
                if self._until.get(address) == until:
                    del self._until[address]
            return None
        return Refusal(
            CLOSE_FLOODING,
            "rate_limited",
            gettext_noop("a socket from your address kept sending past its rate limit: wait %(seconds)s s to "
                         "connect again"),
            {"seconds": f"{left:.0f}"},
        )

    def forget(self) -> None:
        """Lift every penalty (tests)."""
        with self._lock:
            self._until.clear()
