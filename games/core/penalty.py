"""Penalty scoring (Mexican Train, Chicken Foot): pips held count against, lowest total wins.

What both games do at the end of a hand and of the match lives here once: points per seat,
the hand's winner, the summary the view shows as `last_hand`, and the result (docs/engine.md, "Results").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from games.core.log import Event, decode_log, encode
from games.core.options import OptionError
from games.core.text import gettext_noop
from games.core.tiles import Tile, pip_total, set_size


class PenaltyState(Protocol):
    """The fields a penalty game's state keeps under these names."""

    @property
    def players(self) -> int: ...
    @property
    def double_blank(self) -> int: ...
    @property
    def seed(self) -> bytes: ...
    @property
    def commitment(self) -> str: ...
    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]: ...
    @property
    def dealt(self) -> tuple[tuple[Tile, ...], ...]: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def log(self) -> tuple[Event, ...]: ...
    @property
    def revealed(self) -> tuple[str, ...]: ...


class Boneyarded(PenaltyState, Protocol):
    @property
    def boneyard(self) -> tuple[Tile, ...]: ...


S = TypeVar("S", bound=PenaltyState)


def hand_winner(points: Sequence[int], out: int | None) -> int | None:
    """The seat that went out; when blocked (`out` None), the one seat with fewest pips, if one."""
    if out is not None:
        return out
    low = min(points)
    return points.index(low) if points.count(low) == 1 else None


def close_hand(state: PenaltyState, number: int, double: tuple[str, int], out: int | None) -> dict[str, Any]:
    """The changes that score a hand: totals, the revealed seed, and the `last_hand` summary.

    `double` names the hand's double and its number ("engine" or "lead"); `out` is the seat
    that went out, None when the hand is blocked.
    """
    points = tuple(pip_total(hand, state.double_blank) for hand in state.hands)
    winner = hand_winner(points, out)
    blocked = out is None
    end: dict[str, Any] = {"type": "hand_end", "blocked": blocked, "winner": winner, "points": points}
    key, value = double
    summary = encode(
        {
            "number": number,
            key: (value, value),
            "seed": state.seed.hex(),
            "commitment": state.commitment,
            "dealt": state.dealt,
            "hands_left": state.hands,
            "points": points,
            "winner": winner,
            "blocked": blocked,
            "log": [*decode_log(state.log), end],
        }
    )
    return {
        "totals": tuple(t + p for t, p in zip(state.totals, points)),
        "revealed": (*state.revealed, state.seed.hex()),
        "last_hand": summary,
    }


def penalty_result(totals: Sequence[int], hands: int) -> dict[str, Any]:
    """The result of a match of individuals where the lowest total wins; a tie has no winner."""
    scores = list(totals)
    low = min(scores)
    leaders = [s for s, t in enumerate(scores) if t == low]
    winner = leaders[0] if len(leaders) == 1 else None
    return {
        "scores": scores,
        "teams": [[s] for s in range(len(scores))],
        "winner": winner,
        "winning_seats": [] if winner is None else [winner],
        "hands": hands,
        "lower_score_wins": True,
    }


def drawn_from_boneyard(state: Boneyarded, seat: int) -> dict[str, Any]:
    """The changes of `seat` drawing the boneyard's next tile, which it alone may then play."""
    tile = state.boneyard[0]
    hands = state.hands
    return {
        "hands": (*hands[:seat], (*hands[seat], tile), *hands[seat + 1:]),
        "boneyard": state.boneyard[1:],
        "drawn": tile,
    }


def settle(state: S, is_blocked: Callable[[S], bool], finish: Callable[[S, int | None], S]) -> S:
    """End every hand nobody can play on any more.

    No pass discovers a block (docs/engine.md, "The protocol")."""
    while state.turn is not None and is_blocked(state):
        state = finish(state, None)
    return state



def check_hands_fit(players: int, hand_size: int, top: int, set_aside: int = 0) -> None:
    """`OptionError` naming 'hand_size' when the hands do not fit in the set (less `set_aside`)."""
    tiles = set_size(top) - set_aside
    if players * hand_size > tiles:
        message = (gettext_noop("option 'hand_size': %(players)s hands of %(size)s do not fit in the "
                                "%(tiles)s tiles of a double-%(top)s set less its engine") if set_aside
                   else gettext_noop("option 'hand_size': %(players)s hands of %(size)s do not fit in the "
                                     "%(tiles)s tiles of a double-%(top)s set"))
        raise OptionError("hand_size", "does_not_fit", message,
                          {"players": players, "size": hand_size, "tiles": tiles, "top": top})
