"""The immutable state of a line-game match and the record of a finished hand.

Hands are bitmasks of tile indices (games.line.tables) and the boneyard a tuple of indices in
draw order; the log keeps events as small tuples, newest first. Everything is a frozen, slotted
dataclass of ints and tuples, so states compare by value and `load(dump(s)) == s`.
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
#: The log of the current hand, newest event first: `()` or `(event, older log)`, so a move
#: adds an event without copying the hand's history.
Log = tuple[Any, ...]


def events(log: Log) -> tuple[Event, ...]:
    """The events of a log, oldest first."""
    out = []
    while log:
        out.append(log[0])
        log = log[1]
    out.reverse()
    return tuple(out)


def log_of(history: tuple[Event, ...]) -> Log:
    """The log holding `history` (oldest first)."""
    log: Log = ()
    for event in history:
        log = (event, log)
    return log


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
class Deal:
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


@dataclass(frozen=True, slots=True)
class LineState:
    """One moment of a match. `to_move` is `OVER` once the match is decided.

    `fives` holds the points each side has scored on the ends during the current hand; `log`
    is newest first (see `events`).
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


_new = object.__new__
_SET = {name: LineState.__dict__[name].__set__ for name in LineState.__slots__}
_set_deal, _set_hands, _set_boneyard = _SET["deal"], _SET["hands"], _SET["boneyard"]
_set_layout, _set_to_move, _set_scores = _SET["layout"], _SET["to_move"], _SET["scores"]
_set_fives, _set_log = _SET["fives"], _SET["log"]


def new_state(  # noqa: PLR0917 - positional on purpose: this is the per-move hot path
    deal: Deal, hands: tuple[int, ...], boneyard: tuple[int, ...], layout: Layout,
    to_move: int, scores: tuple[int, ...], fives: tuple[int, ...], log: Log,
) -> LineState:
    """`LineState(...)` for the hot paths, filling the slots directly (about twice as fast).

    The dataclass's own `__init__` only assigns the fields, so this builds an identical,
    still frozen object.
    """
    state = _new(LineState)
    _set_deal(state, deal)
    _set_hands(state, hands)
    _set_boneyard(state, boneyard)
    _set_layout(state, layout)
    _set_to_move(state, to_move)
    _set_scores(state, scores)
    _set_fives(state, fives)
    _set_log(state, log)
    return state



(_set_config, _set_master, _set_seed, _set_commitment, _set_number, _set_dealt, _set_lead,
 _set_revealed, _set_last) = (Deal.__dict__[name].__set__ for name in Deal.__slots__)


def new_deal(  # noqa: PLR0917 - the fields of `Deal`, in order
    config: LineConfig, master: bytes, seed: bytes, commitment: str, hand_number: int,
    dealt: tuple[tuple[int, ...], ...], lead: int, revealed: tuple[str, ...],
    last_hand: HandSummary | None,
) -> Deal:
    """`Deal(...)` filled slot by slot, as `new_state` does: once per hand of every rollout."""
    deal = _new(Deal)
    _set_config(deal, config)
    _set_master(deal, master)
    _set_seed(deal, seed)
    _set_commitment(deal, commitment)
    _set_number(deal, hand_number)
    _set_dealt(deal, dealt)
    _set_lead(deal, lead)
    _set_revealed(deal, revealed)
    _set_last(deal, last_hand)
    return deal
