"""The immutable state of a line-game match and the record of a finished hand.

Hands are bitmasks of tile indices (games.line.tables) and the boneyard a tuple of indices in
draw order; the log keeps events as small tuples. Everything is a frozen, slotted dataclass of
ints and tuples, so states compare by value and `load(dump(s)) == s`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core.layout import Layout
from games.line.config import LineConfig

# Log events, as tuples whose first item names the kind:
#   (PLAY, seat, tile index, end index or LEAD)   (DRAW, seat)   (PASS, seat, end values)
#   (SCORE, seat, side, points)                   (HAND_END, winner side or NOBODY, blocked, points)
PLAY, DRAW, PASS, SCORE, HAND_END = "play", "draw", "pass", "score", "hand_end"
LEAD = -1
NOBODY = -1
ANY_TILE = -1
OVER = -1

Event = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A finished hand as the next views show it in `last_hand`: public once it is over."""

    number: int
    seed: bytes
    commitment: str
    dealt: tuple[tuple[int, ...], ...]
    hands_left: tuple[int, ...]
    points: tuple[int, ...]
    fives: tuple[int, ...]
    winner: int
    blocked: bool
    stopped: bool
    log: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class LineState:
    """One moment of a match. `to_move` is `OVER` once the match is decided.

    `lead` is the tile index the leader must lead while the layout is empty (`ANY_TILE` when
    the previous winner leads with any tile). `fives` holds the points each side has scored
    on the ends during the current hand.
    """

    config: LineConfig
    master: bytes
    seed: bytes
    commitment: str
    hand_number: int
    hands: tuple[int, ...]
    boneyard: tuple[int, ...]
    layout: Layout
    lead: int
    to_move: int
    scores: tuple[int, ...]
    fives: tuple[int, ...]
    log: tuple[Event, ...]
    dealt: tuple[tuple[int, ...], ...]
    revealed: tuple[str, ...]
    last_hand: HandSummary | None
