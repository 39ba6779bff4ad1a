"""The Five-Up state: named tuples of ints, so a move builds the next state in one step.

Hands are bitmasks over the canonical order of the double-six set (bit `i` is tile `i` of
docs/engine.md, "Tiles and sets"), the boneyard a tuple of tile indices in draw order, and the
log a newest-first chain `(event, older log)`, so a move adds an event without copying the
hand's history. What stays fixed for a whole hand (the configuration, the seeds, the deal) is
kept apart in `Deal`, so each move builds a state of nine slots.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.core.log import Chain, unchain
from games.core.tiles import Tile, full_set, tile_index
from games.fiveup.layout import Table
from games.fiveup.options import TOP, FiveUpConfig

#: The double-six set and its per-tile facts, indexed by tile index.
TILES: tuple[Tile, ...] = full_set(TOP)
LOW: tuple[int, ...] = tuple(t.low for t in TILES)
HIGH: tuple[int, ...] = tuple(t.high for t in TILES)
PIPS: tuple[int, ...] = tuple(t.pips for t in TILES)
#: `SUIT[v]`: the mask of the tiles showing number `v` on either half.
SUIT: tuple[int, ...] = tuple(sum(1 << i for i, t in enumerate(TILES) if t.has(v)) for v in range(TOP + 1))
#: `GRID[a][b]`: the index of tile `[a, b]` (either order).
GRID: tuple[tuple[int, ...], ...] = tuple(
    tuple(tile_index(Tile(min(a, b), max(a, b)), TOP) for b in range(TOP + 1)) for a in range(TOP + 1))

# Log event kinds, as the JSON "type" names them.
PLAY, DRAW, PASS, SCORE, MUGGINS, HAND_END = "play", "draw", "pass", "score", "muggins", "hand_end"
#: The end of the lead in a play event (the lead goes on no end).
LEAD = -1
NOBODY = -1
#: `to_move` once the match is over.
OVER = -1

#: One log event, a tuple whose first item is its kind:
#: `(PLAY, seat, tile index, end code or LEAD, claim)`, `(SCORE, seat, side, points)`,
#: `(MUGGINS, seat, from seat, points)`, `(DRAW, seat)`, `(PASS, seat, values of the open ends)`,
#: `(HAND_END, winning side or NOBODY, blocked, points per side)`.
Event = tuple[Any, ...]
#: The log of the current hand, a chain (games/core/log.py), newest event first.
Log = Chain
#: The events of a log, oldest first.
events = unchain


def log_of(history: tuple[Event, ...] | list[Event]) -> Log:
    """The log holding `history` (oldest first)."""
    log: Log = ()
    for event in history:
        log = (event, log)
    return log


def pip_count(mask: int) -> int:
    """The pips of the tiles of a hand mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() - 1]
        mask ^= low
    return total


def tiles_of(mask: int) -> list[Tile]:
    """The tiles of a mask, in canonical order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(TILES[low.bit_length() - 1])
        mask ^= low
    return out


class HandSummary(NamedTuple):
    """A finished hand as the next views show it in `last_hand`: public once it is over.

    `fives` are the points each side scored during the hand (plays and muggins); `stopped`
    says the match ended in the middle of the hand, a side having reached the target.
    """

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
    log: Log


class Deal(NamedTuple):
    """What stays fixed for a hand: the match, the hand's seeds and deal, the history."""

    config: FiveUpConfig
    master: bytes
    seed: bytes
    commitment: str
    hand_number: int
    dealt: tuple[tuple[int, ...], ...]
    revealed: tuple[str, ...]
    last_hand: HandSummary | None


class FiveUpState(NamedTuple):
    """One moment of a match; `to_move` is `OVER` once the match is decided.

    `fives` holds the points each side has scored during the current hand; `unclaimed` is
    `(seat, points)` while a play's points wait for the muggins call of the next seat (the
    muggins house rule), else None.
    """

    deal: Deal
    hands: tuple[int, ...]
    boneyard: tuple[int, ...]
    table: Table
    to_move: int
    scores: tuple[int, ...]
    fives: tuple[int, ...]
    unclaimed: tuple[int, int] | None
    log: Log

    @property
    def config(self) -> FiveUpConfig:
        return self.deal.config


_tuple_new = tuple.__new__


def new_state(  # noqa: PLR0917 - positional on purpose: the per-move hot path
    deal: Deal, hands: tuple[int, ...], boneyard: tuple[int, ...], table: Table, to_move: int,
    scores: tuple[int, ...], fives: tuple[int, ...], unclaimed: tuple[int, int] | None, log: Log,
) -> FiveUpState:
    """`FiveUpState(...)` built directly, without the named tuple's keyword handling."""
    return _tuple_new(FiveUpState, (deal, hands, boneyard, table, to_move, scores, fives, unclaimed, log))
