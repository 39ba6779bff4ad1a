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
"""

from __future__ import annotations

import logging
import threading
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
