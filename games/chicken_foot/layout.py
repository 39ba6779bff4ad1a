"""The barnyard: arms of the opening double, feet of later doubles, and where a tile may go.

Branch `i < arms` is `"arm:<i>"`; branch `arms + 3k + j` is `"toe:<k>:<j>"`, toe `j` of the
`k`-th foot of the hand. `arms` is the opening double's: four (pagat's cross), or six with the
`opening_arms` option (three on each side). Empty arms or toes that must be filled are
interchangeable (they all show the double's number), so only the first of them is offered:
they fill in order.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from games.chicken_foot.state import FootState

#: The opening double's arms by the documents' rule; the `opening_arms` option may make it six.
ARMS = 4
TOES = 3
_ID = re.compile(r"^(?:arm:([0-9])|toe:(\d{1,3}):([0-2]))$")


@cache
def branch_id(index: int, arms: int = ARMS) -> str:
    if index < arms:
        return f"arm:{index}"
    foot, toe = divmod(index - arms, TOES)
    return f"toe:{foot}:{toe}"


@lru_cache(maxsize=4096)
def branch_of(end: str, arms: int = ARMS) -> int | None:
    """The branch index an end id names at a table whose lead double has `arms` arms (None
    when it is no end id there at all)."""
    match = _ID.match(end)
    if match is None:
        return None
    if match.group(1) is not None:
        arm = int(match.group(1))
        return arm if arm < arms else None
    return arms + TOES * int(match.group(2)) + int(match.group(3))


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
