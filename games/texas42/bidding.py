"""The auction of 42: one bid or pass per seat, each bid beating the standing one.

Bids are 30..42 in points, 84 (two marks) at any time, and one mark more (126, 168, ...)
only over a standing bid of two marks or more. A pass is stored as `PASS` (0).
"""

from __future__ import annotations

from collections.abc import Sequence

MIN_BID = 30
MAX_POINTS_BID = 42
MARK = 42
TWO_MARKS = 2 * MARK
PASS = 0

#: (seat, value) in bidding order; value `PASS` for a pass.
Bids = Sequence[tuple[int, int]]


def bid_marks(value: int) -> int:
    """Marks at stake: a points bid is one mark, 84 two, 126 three, ..."""
    return 1 if value <= MAX_POINTS_BID else value // MARK


def points_needed(value: int) -> int:
    """Points the bidders must take: the bid, or all 42 for a bid in marks."""
    return min(value, MAX_POINTS_BID)


def high_bid(bids: Bids) -> tuple[int, int] | None:
    """(seat, value) of the standing bid, or None while every seat has passed."""
    best: tuple[int, int] | None = None
    for seat, value in bids:
        if value != PASS and (best is None or value > best[1]):
            best = (seat, value)
    return best


def legal_bids(standing: int | None) -> list[int]:
    """Every bid that beats `standing` (None: no bid yet), lowest first."""
    if standing is None:
        return [*range(MIN_BID, MAX_POINTS_BID + 1), TWO_MARKS]
    if standing < MAX_POINTS_BID:
        return [*range(standing + 1, MAX_POINTS_BID + 1), TWO_MARKS]
    if standing == MAX_POINTS_BID:
        return [TWO_MARKS]
    return [standing + MARK]


PLUNGE_DOUBLES = 4
SPLASH_DOUBLES = 3


def plunge_value(standing: int | None) -> int:
    """A plunge's bid: four marks, or two marks more than a standing bid of three or more."""
    marks = 0 if standing is None else bid_marks(standing)
    return MARK * max(4, marks + 2)


def splash_value(standing: int | None) -> int | None:
    """A splash's bid: two marks, or three over a standing bid of two; none over three marks."""
    if standing is None or standing < TWO_MARKS:
        return TWO_MARKS
    return TWO_MARKS + MARK if standing == TWO_MARKS else None


def may_pass(bids: Bids, force: bool) -> bool:
    """Passing is allowed except for the last seat under `force` when all the others passed."""
    return not (force and len(bids) == 3 and high_bid(bids) is None)


def describe_bids(standing: int | None) -> str:
    """The bids open over `standing`, in words: "30 to 42, or 84", "84", "126"."""
    bids = legal_bids(standing)
    if len(bids) == 1:
        return str(bids[0])
    low, top = bids[0], bids[-2]
    points = str(low) if low == top else f"{low} to {top}"
    return f"{points}, or {bids[-1]}"


def explain_bid(value: int, standing: int | None) -> str:
    """Why a bid of `value` is refused over `standing`, with the bids that are open."""
    open_bids = describe_bids(standing)
    if value > MAX_POINTS_BID and value % MARK:
        return (
            f"a bid above {MAX_POINTS_BID} is in whole marks (84, 126, ...), not {value}: "
            f"you may bid {open_bids}"
        )
    if value < MIN_BID:
        return f"the lowest bid is {MIN_BID}, not {value}: you may bid {open_bids}"
    if standing is not None and value <= standing:
        return f"a bid must beat the standing bid of {standing}: you may bid {open_bids}"
    return (
        f"a bid of {value} is allowed only over a standing bid of {value - MARK}: "
        f"above two marks, bids go up one mark at a time (you may bid {open_bids})"
    )
