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
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from lobby import state_cache

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
    """Why a socket was not admitted: its close code, error code and message."""

    close_code: int
    error_code: str
    message: str


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

_penalties: dict[str, float] = {}
_penalties_lock = threading.Lock()

_held: dict[str, list[str]] = {}
_held_lock = threading.Lock()
_renewer: list[threading.Thread] = []
_scripts: dict[str, Any] = {}


def _address_key(address: str) -> str:
    return f"{settings.LOBBY_REDIS_PREFIX}caps:address:{address}"


def _spectators_key(code: str) -> str:
    return f"{settings.LOBBY_REDIS_PREFIX}caps:spectators:{code}"


def _script(name: str, source: str) -> Any:
    found = _scripts.get(name)
    if found is None:
        found = _scripts[name] = state_cache.client().register_script(source)
    return found


def claim(connection: str, address: str, spectator_of: str | None) -> Refusal | None:
    """Take a place for `connection` under the cap of its address and, for a spectator,
    of the room `spectator_of`; None when admitted. A refused connection holds nothing."""
    claim_script = _script("claim", _CLAIM)
    wanted = [(_address_key(address), settings.LOBBY_ADDRESS_CONNECTIONS)]
    if spectator_of is not None:
        wanted.append((_spectators_key(spectator_of), settings.LOBBY_ROOM_SPECTATORS))
    taken: list[str] = []
    for key, cap in wanted:
        if not claim_script(keys=[key], args=[connection, cap, CLAIM_SECONDS]):
            for done in taken:
                state_cache.client().zrem(done, connection)
            return _refusal(key, cap)
        taken.append(key)
    with _held_lock:
        _held[connection] = taken
    _renewer_ensure()
    return None


def _refusal(key: str, cap: int) -> Refusal:
    if key.startswith(f"{settings.LOBBY_REDIS_PREFIX}caps:address:"):
        return Refusal(
            CLOSE_TOO_MANY_CONNECTIONS,
            "rate_limited",
            f"too many connections from your address (at most {cap}): close another tab or device",
        )
    return Refusal(
        CLOSE_SPECTATORS_FULL,
        "conflict",
        f"this room has as many spectators as it takes ({cap}): try again later",
    )


def release(connection: str) -> None:
    """Give back the places `connection` holds (nothing if it holds none)."""
    with _held_lock:
        keys = _held.pop(connection, [])
    if keys:
        pipe = state_cache.client().pipeline(transaction=False)
        for key in keys:
            pipe.zrem(key, connection)
        pipe.execute()


def renew() -> int:
    """Renew every claim this process holds (after a Redis flush: make it again); returns
    how many connections hold claims."""
    with _held_lock:
        held = [(key, connection) for connection, keys in _held.items() for key in keys]
        count = len(_held)
    if held:
        _script("renew", _RENEW)(
            keys=[key for key, _ in held], args=[CLAIM_SECONDS, *(connection for _, connection in held)]
        )
    return count


def _renewer_ensure() -> None:
    if _renewer and _renewer[0].is_alive():
        return
    with _held_lock:
        if _renewer and _renewer[0].is_alive():
            return
        thread = threading.Thread(target=_renew_forever, name="socket-caps-renew", daemon=True)
        _renewer[:] = [thread]
        thread.start()


def _renew_forever() -> None:
    stop = threading.Event()
    while not stop.wait(RENEW_SECONDS):
        try:
            renew()
        except Exception:
            logger.exception("could not renew the socket caps' claims")


def penalty_seconds() -> float:
    return float(settings.LOBBY_FLOOD_PENALTY_SECONDS)


def penalize(address: str, now: float | None = None) -> None:
    """`address` had a socket closed for flooding: refuse its sockets for the penalty."""
    seconds = penalty_seconds()
    if seconds <= 0 or address == UNKNOWN_ADDRESS:
        return
    until = (time.monotonic() if now is None else now) + seconds
    with _penalties_lock:
        _penalties.pop(address, None)  # to the end: the dict's order is the lapse order
        _penalties[address] = until
        while len(_penalties) > PENALTY_ADDRESSES:
            del _penalties[next(iter(_penalties))]


def penalized(address: str, now: float | None = None) -> Refusal | None:
    """The refusal of a socket from `address` while its penalty lasts, else None. Memory
    only: this runs before any other work of a new socket."""
    until = _penalties.get(address)
    if until is None:
        return None
    left = until - (time.monotonic() if now is None else now)
    if left <= 0:
        with _penalties_lock:
            if _penalties.get(address) == until:
                del _penalties[address]
        return None
    return Refusal(
        CLOSE_FLOODING,
        "rate_limited",
        f"a socket from your address kept sending past its rate limit: wait {left:.0f} s to connect again",
    )


def penalties_forget() -> None:
    """Lift every penalty (tests)."""
    with _penalties_lock:
        _penalties.clear()
