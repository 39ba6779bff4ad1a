"""The room and current match rows of the last change each room had in this process.

With the state memo they let an action be checked and applied before the database is
asked anything, then written in one round trip that checks the match's version under the
room's lock (`action_rows.append_if_current`); anything else takes the locked path. A
room's row changes only between matches (`room_update` refuses during play), apart from
its revision, which that path never writes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from lobby.models import Match, Room
from lobby.state_cache import MEMO_SIZE

_held: OrderedDict[str, tuple[Room, Match]] = OrderedDict()
_lock = threading.Lock()


def held_put(room: Room, match: Match) -> None:
    """Hold the rows as just committed; the caller no longer changes either instance."""
    with _lock:
        cur = _held.get(room.code)
        if cur is not None and (cur[1].number, cur[1].version) > (match.number, match.version):
            return
        _held[room.code] = (room, match)
        _held.move_to_end(room.code)
        while len(_held) > MEMO_SIZE:
            _held.popitem(last=False)


def held_get(code: str) -> tuple[Room, Match] | None:
    with _lock:
        return _held.get(code)


def held_forget() -> None:
    with _lock:
        _held.clear()
