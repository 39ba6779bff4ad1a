"""The current state of each match, cached in Redis by room, match and version.

The database log is the truth; this cache only saves replaying it. An entry is used only
when its version equals the version the database holds, and entries are written after the
commit that made them true, so a rolled-back action can never be read back. A small
in-process memo in front of Redis saves decoding the state again in the process that just
wrote it (states are immutable, so sharing one object is safe).

The memo also holds, per room, the match row of the last change this process committed
with its state (`held_get`): the next action of that room is checked and applied to them
without reading the match, and its append tells whether they were still current (the
action log's sequence numbers are unique, `services/matches.py`). With them, whether any
seat may be played for at the room's revision: every change of a seat or of the room counts
a revision, so at the same revision the held room (`match.room`) and seats are as they are.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson
import redis
from django.conf import settings

if TYPE_CHECKING:
    from lobby.models import Match

#: How many rooms' newest states (and held rows) the memo keeps; the least recently used go.
MEMO_SIZE = 512
#: The state is written to Redis at every this many versions (and when a match ends): a
#: process that finds an older entry replays only the actions after it.
DUMP_EVERY = 8

# Write only if newer, so a slow writer never replaces a later version.
_PUT_IF_NEWER = """
local cur = redis.call('HGET', KEYS[1], 'v')
if cur and tonumber(cur) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 's', ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
"""


class Held(NamedTuple):
    """A room's match row and state as this process last committed them, and whether a
    seat of the room may be played for (an AI, a human with no socket) at `revision`."""

    match: Match
    state: Any
    revision: int
    ai_may_play: bool


def key(code: str, match_number: int) -> str:
    return f"{settings.LOBBY_REDIS_PREFIX}state:{code}:{match_number}"


def dump_wanted(version: int, over: bool) -> bool:
    """Whether the state at `version` is worth writing to Redis."""
    return over or version % DUMP_EVERY == 0


class StateCache:
    """The memo, the held rows and the Redis entries of one process; the process's runtime
    (`lobby/runtime.py`) holds one, over its Redis client (`client`, made on first use)."""

    def __init__(self, client: Callable[[], redis.Redis]) -> None:
        self.client = client
        self._put_script: Any = None
        #: Room code -> (match number, version, state) of its newest match this process saw.
        self._memo: OrderedDict[str, tuple[int, int, Any]] = OrderedDict()
        self._held: OrderedDict[str, Held] = OrderedDict()
        self._lock = threading.Lock()

    def memo_get(self, code: str, match_number: int, version: int) -> Any | None:
        with self._lock:
            hit = self._memo.get(code)
            if hit is not None and hit[:2] == (match_number, version):
                self._memo.move_to_end(code)
                return hit[2]
        return None

    def memo_put(self, code: str, match_number: int, version: int, state: Any) -> None:
        """Keep the room's newest state: one entry per room, so a rematch replaces the
        finished match's state instead of adding one more (they filled the memo up to its
        size, a state per finished match, and a long-running process grew with them). An
        older match or version than the one kept (a record read) is not kept."""
        with self._lock:
            cur = self._memo.get(code)
            if cur is None or cur[:2] < (match_number, version):
                self._memo[code] = (match_number, version, state)
                self._memo.move_to_end(code)
                while len(self._memo) > MEMO_SIZE:
                    self._memo.popitem(last=False)

    def memo_rooms(self) -> int:
        """How many rooms' states the memo holds (at most `MEMO_SIZE`)."""
        with self._lock:
            return len(self._memo)

    def held_put(self, code: str, held: Held) -> None:
        """Hold the rows as just committed; the caller no longer changes the match instance.
        An older version than the one held is ignored."""
        match = held.match
        with self._lock:
            cur = self._held.get(code)
            if cur is not None and (cur.match.number, cur.match.version) > (match.number, match.version):
                return
            self._held[code] = held
            self._held.move_to_end(code)
            while len(self._held) > MEMO_SIZE:
                self._held.popitem(last=False)

    def held_get(self, code: str) -> Held | None:
        """The room's match row of the last change committed here, and its state; the
        database may have gone on since (another process wrote)."""
        with self._lock:
            return self._held.get(code)

    def dump_get(self, code: str, match_number: int, version: int) -> tuple[int, dict[str, Any]] | None:
        """The newest dumped state at `version` or before it, with its version; None when the
        entry is missing or newer (a newer entry belongs to a log this reader has not seen)."""
        raw = self.client().hmget(key(code, match_number), ["v", "s"])
        if raw[0] is None or int(raw[0]) > version or raw[1] is None:
            return None
        data: dict[str, Any] = orjson.loads(raw[1])
        return int(raw[0]), data

    def dump_put(self, code: str, match_number: int, version: int, dump: dict[str, Any]) -> None:
        if self._put_script is None:
            self._put_script = self.client().register_script(_PUT_IF_NEWER)
        self._put_script(
            keys=[key(code, match_number)],
            args=[version, orjson.dumps(dump, option=orjson.OPT_NON_STR_KEYS), settings.LOBBY_STATE_TTL],
        )

    def forget(self, code: str, match_number: int) -> None:
        """Drop a match's entry here and in this process's memo (tests, operators)."""
        self.client().delete(key(code, match_number))
        with self._lock:
            kept = self._memo.get(code)
            if kept is not None and kept[0] == match_number:
                del self._memo[code]
            held = self._held.get(code)
            if held is not None and held.match.number == match_number:
                del self._held[code]

    def forget_local(self) -> None:
        """Empty the memo and the held rows (tests; Redis keeps its entries)."""
        with self._lock:
            self._memo.clear()
            self._held.clear()
