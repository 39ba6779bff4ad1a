"""The immutable state of a line-game match and the record of a finished hand.

Hands are bitmasks of tile indices (games.line.tables) and the boneyard a tuple of indices in
draw order; the log keeps events as small tuples, newest first. Every record is a named tuple of
ints and tuples, immutable, so states compare by value and `load(dump(s)) == s`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.core.layout import Layout
from games.core.log import Chain, unchain
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
#: The log of the current hand, a chain (games/core/log.py), newest event first.
Log = Chain
#: The events of a log, oldest first.
events = unchain


def log_of(history: tuple[Event, ...]) -> Log:
    """The log holding `history` (oldest first)."""
    log: Log = ()
    for event in history:
        log = (event, log)
    return log


class HandSummary(NamedTuple):
    """A finished hand as the next views show it in `last_hand`: public once it is over.

    `log` is the hand's log, newest first, as the state kept it (see `events`).
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
    """What stays fixed from one deal to the next: the match, the hand's seed and deal, history.

    `lead` is the tile index the leader must lead while the layout is empty (`ANY_TILE` when
    the previous winner leads with any tile). Keeping these apart from the moving parts makes
    every move build a small state.
    """

    config: LineConfig
    master: bytes
    seed: bytes
    commitment: str
    hand_number: int
    dealt: tuple[tuple[int, ...], ...]
    lead: int
    revealed: tuple[str, ...]
    last_hand: HandSummary | None


class LineState(NamedTuple):
    """One moment of a match. `to_move` is `OVER` once the match is decided.

    `fives` holds the points each side has scored on the ends during the current hand; `log`
    is newest first (see `events`). A named tuple, immutable like every state: a move builds
    the next one with a single `tuple.__new__` (`new_state`), the cheapest record Python has.
    """

    deal: Deal
    hands: tuple[int, ...]
    boneyard: tuple[int, ...]
    layout: Layout
    to_move: int
    scores: tuple[int, ...]
    fives: tuple[int, ...]
    log: Log

    @property
    def config(self) -> LineConfig:
        return self.deal.config

    @property
    def master(self) -> bytes:
        return self.deal.master

    @property
    def seed(self) -> bytes:
        return self.deal.seed

    @property
    def commitment(self) -> str:
        return self.deal.commitment

    @property
    def hand_number(self) -> int:
        return self.deal.hand_number

    @property
    def dealt(self) -> tuple[tuple[int, ...], ...]:
        return self.deal.dealt

    @property
    def lead(self) -> int:
        return self.deal.lead

    @property
    def revealed(self) -> tuple[str, ...]:
        return self.deal.revealed

    @property
    def last_hand(self) -> HandSummary | None:
        return self.deal.last_hand


_tuple_new = tuple.__new__


def new_state(  # noqa: PLR0917 - positional on purpose: this is the per-move hot path
    deal: Deal, hands: tuple[int, ...], boneyard: tuple[int, ...], layout: Layout,
    to_move: int, scores: tuple[int, ...], fives: tuple[int, ...], log: Log,
) -> LineState:
    """`LineState(...)` for the hot paths: the tuple built directly, without the keyword
    handling of the named tuple's own constructor."""
    return _tuple_new(LineState, (deal, hands, boneyard, layout, to_move, scores, fives, log))


def new_deal(  # noqa: PLR0917 - the fields of `Deal`, in order
    config: LineConfig, master: bytes, seed: bytes, commitment: str, hand_number: int,
    dealt: tuple[tuple[int, ...], ...], lead: int, revealed: tuple[str, ...],
    last_hand: HandSummary | None,
) -> Deal:
    """`Deal(...)` built directly, as `new_state` does: once per hand of every rollout."""
    return _tuple_new(Deal, (config, master, seed, commitment, hand_number, dealt, lead, revealed,
                             last_hand))
