"""The barnyard: arms of the opening double, feet of later doubles, and where a tile may go.

Branch `i < 4` is `"arm:<i>"`; branch `4 + 3k + j` is `"toe:<k>:<j>"`, toe `j` of the `k`-th
foot of the hand. Empty arms or toes that must be filled are interchangeable (they all show
the double's number), so only the first of them is offered: they fill in order.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from games.chicken_foot.state import FootState

ARMS = 4
TOES = 3
_ID = re.compile(r"^(?:arm:([0-3])|toe:(\d{1,3}):([0-2]))$")


@cache
def branch_id(index: int) -> str:
    if index < ARMS:
        return f"arm:{index}"
    foot, toe = divmod(index - ARMS, TOES)
    return f"toe:{foot}:{toe}"


@lru_cache(maxsize=4096)
def branch_of(end: str) -> int | None:
    """The branch index an end id names (None when it is no end id at all)."""
    match = _ID.match(end)
    if match is None:
        return None
    if match.group(1) is not None:
        return int(match.group(1))
    return ARMS + TOES * int(match.group(2)) + int(match.group(3))


def open_branches(state: FootState) -> tuple[int, ...]:
    """Branches a tile may be added to now: the next empty arm or toe, else every open end."""
    if state.pending:
        return (state.pending[0],)
    closed = state.closed
    return tuple(i for i in range(len(closed)) if not closed[i])


def is_blocked(state: FootState) -> bool:
    """The yard is empty and no hand holds a tile for any end that may be played on.

    Where a tile may go does not depend on who plays it, so if nobody can play now nobody
    ever will.
    """
    if state.boneyard or not state.led:
        return False
    ends = {state.branch_ends[i] for i in open_branches(state)}
    return not any(t.low in ends or t.high in ends for hand in state.hands for t in hand)
