"""Who wins a finished hand and what it scores, and what the open ends score in All Fives.

The documents disagree on blocked hands (pagat subtracts the winner's own pips, most
summaries do not), so both are here behind the `scoring` option; a tie for the lowest hand
scores nothing (pagat).
"""

from __future__ import annotations

from typing import NamedTuple

from games.line.config import LineConfig
from games.line.state import NOBODY


class HandScore(NamedTuple):
    """The outcome of a hand: the winning side (`NOBODY` for a tie), its points, next leader."""

    winner: int
    points: int
    leader: int


def round_to_five(points: int) -> int:
    """The nearest multiple of five (a whole number is never exactly between two)."""
    return (points + 2) // 5 * 5


def fives_points(total: int) -> int:
    """What an open-ends total scores in All Fives: itself when a positive multiple of five."""
    return total if total and total % 5 == 0 else 0


def score_hand(config: LineConfig, pips: tuple[int, ...], out: int) -> HandScore:
    """Score a hand that ended with seat `out` going out, or blocked when `out` is `NOBODY`.

    `pips` are the pips each seat still holds (the double-blank as the room counts it).
    """
    subtract = config.scoring == "pagat"
    if config.partnership:
        side_pips = [0, 0]
        for seat, p in enumerate(pips):
            side_pips[config.side[seat]] += p
        if out != NOBODY:
            win = config.side[out]
            points = side_pips[1 - win]
            leader = out
        else:
            if side_pips[0] == side_pips[1]:
                return HandScore(NOBODY, 0, NOBODY)
            win = 0 if side_pips[0] < side_pips[1] else 1
            points = side_pips[1 - win] - (side_pips[win] if subtract else 0)
            leader = min(config.teams[win], key=lambda s: (pips[s], s))
    else:
        if out != NOBODY:
            win = out
        else:
            low = min(pips)
            if pips.count(low) > 1:
                return HandScore(NOBODY, 0, NOBODY)
            win = pips.index(low)
        others = sum(pips) - pips[win]
        points = others - (pips[win] if subtract else 0)
        leader = win
    if config.round_to_five:
        points = round_to_five(points)
    return HandScore(win, points, leader)
