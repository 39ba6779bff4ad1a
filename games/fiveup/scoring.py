"""What a finished hand scores, in Five-Up's units (one point for every five pips).

pagat (All Fives and Five Up pages): the player or side that dominoes scores the pips left in
the opponents' hands (a partner's tiles do not count), rounded to the nearest five; on a
block the side with the fewest pips in hand wins and scores the same way. A tie for fewest
scores nothing with two sides; three individuals where two tie split the third's points.
Five-Up pegs every score divided by five (docs/rules-fiveup.md, "Scoring a hand").
"""

from __future__ import annotations

from typing import NamedTuple

from games.fiveup.options import FiveUpConfig
from games.fiveup.state import NOBODY


class HandScore(NamedTuple):
    """The hand's winning side (`NOBODY` when none), the points each side scores, and the
    seat that leads the next hand (`NOBODY`: by lot, after a block)."""

    winner: int
    points: tuple[int, ...]
    leader: int


def round_to_five(pips: int) -> int:
    """The nearest multiple of five (a whole number is never exactly between two): 3 -> 5, 2 -> 0."""
    return (pips + 2) // 5 * 5


def units(pips: int) -> int:
    """Pips left in hand as points: rounded to the nearest five, then one point per five."""
    return round_to_five(pips) // 5


def side_pips(config: FiveUpConfig, pips: tuple[int, ...]) -> list[int]:
    """The pips each side holds (a partnership's two hands together)."""
    out = [0] * len(config.teams)
    for seat, p in enumerate(pips):
        out[config.side[seat]] += p
    return out


def score_hand(config: FiveUpConfig, pips: tuple[int, ...], out: int) -> HandScore:
    """Score a hand that ended with seat `out` dominoing, or blocked when `out` is `NOBODY`.

    `pips` are the pips each seat still holds.
    """
    held = side_pips(config, pips)
    zeros = [0] * len(held)
    if out != NOBODY:
        win = config.side[out]
        zeros[win] = units(sum(held) - held[win])
        return HandScore(win, tuple(zeros), out)
    low = min(held)
    lowest = [side for side, p in enumerate(held) if p == low]
    if len(lowest) == 1:
        win = lowest[0]
        zeros[win] = units(sum(held) - low)
        return HandScore(win, tuple(zeros), NOBODY)
    if len(held) == 3 and len(lowest) == 2:
        # pagat (All Fives): two of three tied for fewest split the third player's points;
        # a peg is a whole point, so each takes half, rounded down.
        third = next(side for side in range(3) if side not in lowest)
        share = units(held[third]) // 2
        for side in lowest:
            zeros[side] = share
        return HandScore(NOBODY, tuple(zeros), NOBODY)
    return HandScore(NOBODY, tuple(zeros), NOBODY)
