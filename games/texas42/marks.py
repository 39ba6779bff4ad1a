"""When a hand of 42 is decided, and what it scores in marks or in points.

A hand is decided the moment its outcome is certain from the points taken alone: the bidders
have their bid (made), or the opponents hold more than 42 minus the bid (set). A bid in marks
needs every point, so any trick to the opponents sets it. In nello the bidder must lose every
trick: set by the first trick the bidder wins, made once the last trick is lost.
"""

from __future__ import annotations

from games.texas42.bidding import bid_marks, points_needed
from games.texas42.tricks import HAND_TOTAL, TRICKS

MADE = "made"
SET = "set"
THROWN_IN = "thrown_in"


def decide(
    value: int, nello: bool, *, bidders: int, opponents: int, bidder_tricks: int, tricks_played: int
) -> str | None:
    """`MADE`, `SET`, or None while either can still happen.

    `bidders` and `opponents` are points taken by each side, `bidder_tricks` tricks won by the
    bidding side.
    """
    if nello:
        if bidder_tricks:
            return SET
        return MADE if tricks_played == TRICKS else None
    need = points_needed(value)
    if bidders >= need:
        return MADE
    if opponents > HAND_TOTAL - need:
        return SET
    return None


def award(value: int, points_scoring: bool) -> int:
    """What the scoring side adds: the bid's marks, or under points scoring the bid itself."""
    return value if points_scoring else bid_marks(value)
