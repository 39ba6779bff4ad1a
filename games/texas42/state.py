"""The state of a 42 match: room options, the hand in play, the previous hand, and dumps.

Everything is a frozen dataclass of tuples, so `apply` can share unchanged parts between
states, and equal histories give equal states. Phases, the high bid, whose turn it is and
the points taken are derived from the hand, never stored twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.options import resolve_options
from games.core.tiles import Tile, make_tile
from games.texas42.options import SCHEMA
from games.texas42.tricks import DOUBLES, DOUBLES_LOW, DOUBLES_SUIT, SEVENS, TrumpSuit

FOLLOW_ME = "follow_me"
NELLO = "nello"
SEVENS_CHOICE = "sevens"
PLUNGE = "plunge"
SPLASH = "splash"
#: The bids whose bidder names no trumps: the partner does, and leads.
CONTRACTS = (PLUNGE, SPLASH)
SEATS = 4
TEAMS = ((0, 2), (1, 3))
MARK = 42

#: A named trump: a suit 0..6, or "doubles", "follow_me" or "nello" where those options are on.
TrumpChoice = int | str

@dataclass(frozen=True, slots=True)
class Config:
    """The resolved room options."""

    target_marks: int = 7
    target_points: int | None = None
    all_pass: str = "redeal"
    doubles_trump: bool = False
    follow_me: bool = False
    nello: bool = False
    forced_bid: bool = False
    nello_doubles: str = "high"
    nello_min_marks: int = 0
    plunge: bool = False
    splash: bool = False
    sevens: bool = False

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> Config:
        """Checked options; `OptionError` names an unknown option or a bad value.

        `forced_bid` and `all_pass` "force" are two names of one rule: either turns it on, and
        the resolved options show both, so a view reads the same whichever was given.
        """
        resolved = resolve_options("texas42", SCHEMA, options, SEATS)
        if resolved["forced_bid"] or resolved["all_pass"] == "force":
            resolved["forced_bid"], resolved["all_pass"] = True, "force"
        return cls(**resolved)

    @property
    def points_scoring(self) -> bool:
        return self.target_points is not None

    @property
    def target(self) -> int:
        return self.target_points if self.target_points is not None else self.target_marks

    @property
    def force(self) -> bool:
        return self.all_pass == "force"

    def trump_choices(self, value: int, contract: str | None = None) -> list[TrumpChoice]:
        """What may be named on a winning bid of `value`: the suits, then the options' choices.

        Nello needs `nello_min_marks` marks bid (a bid of 42 is one mark), sevens a bid of 42
        or more. After a plunge or a splash the partner names trumps for a side that must take
        every trick, so neither nello nor sevens is offered.
        """
        choices: list[TrumpChoice] = list(range(7))
        if self.doubles_trump:
            choices.append(DOUBLES)
        if self.follow_me:
            choices.append(FOLLOW_ME)
        if contract is None:
            if self.nello and value >= MARK * self.nello_min_marks:
                choices.append(NELLO)
            if self.sevens and value >= MARK:
                choices.append(SEVENS_CHOICE)
        return choices

    def as_dict(self) -> dict[str, Any]:
        return {
            "target_marks": self.target_marks, "target_points": self.target_points,
            "all_pass": self.all_pass, "doubles_trump": self.doubles_trump,
            "follow_me": self.follow_me, "nello": self.nello, "forced_bid": self.forced_bid,
            "nello_doubles": self.nello_doubles, "nello_min_marks": self.nello_min_marks,
            "plunge": self.plunge, "splash": self.splash, "sevens": self.sevens,
        }


#: How nello's doubles rank, as the trick rules see the hand (`nello_doubles`).
NELLO_SUITS: dict[str, TrumpSuit] = {"high": None, "low": DOUBLES_LOW, "own_suit": DOUBLES_SUIT}


def trump_suit(choice: TrumpChoice | None, config: Config) -> TrumpSuit:
    """The suit the trick rules see: a number, `DOUBLES`, None for follow-me (and nello with
    the doubles high), nello's other doubles rules, or `SEVENS`."""
    if choice == NELLO:
        return NELLO_SUITS[config.nello_doubles]
    if choice == SEVENS_CHOICE:
        return SEVENS
    return None if choice == FOLLOW_ME else choice


Play = tuple[int, Tile]


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: (seat, tile) in play order, who took it and the points in it."""

    plays: tuple[Play, ...]
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ended: `result` made / set / thrown_in, the side that scored and how much."""

    result: str
    side: int | None
    award: int
    early: bool


@dataclass(frozen=True, slots=True)
class Hand:
    """One deal: the tiles, the auction, the trumps and the tricks so far."""

    number: int
    seed: bytes
    commitment: str
    dealt: tuple[tuple[Tile, ...], ...]
    hands: tuple[tuple[Tile, ...], ...]
    bids: tuple[tuple[int, int], ...] = ()
    trump: TrumpChoice | None = None
    tricks: tuple[Trick, ...] = ()
    trick: tuple[Play, ...] = ()
    outcome: Outcome | None = None
    #: (seat, "plunge" or "splash") for each such bid of the auction: a seat bids once.
    contracts: tuple[tuple[int, str], ...] = ()

    @property
    def shuffler(self) -> int:
        return self.number % SEATS


@dataclass(frozen=True, slots=True)
class Texas42State:
    """A whole match. `last` is the previous hand, kept whole for the `last_hand` summary."""

    config: Config
    master: bytes
    scores: tuple[int, int]
    revealed: tuple[str, ...]
    hand: Hand
    last: Hand | None = None

    def with_hand(self, hand: Hand) -> Texas42State:
        """The same match with `hand` in play: the hot path of every action, without `replace`."""
        return Texas42State(self.config, self.master, self.scores, self.revealed, hand, self.last)


def side_of(seat: int) -> int:
    return seat % 2


# Dumps ---------------------------------------------------------------------------------
def _tiles(raw: Any) -> tuple[Tile, ...]:
    return tuple(make_tile(a, b) for a, b in raw)


def _plays(raw: Any) -> tuple[Play, ...]:
    return tuple((int(seat), make_tile(*tile)) for seat, tile in raw)


def _dump_plays(plays: tuple[Play, ...]) -> list[list[Any]]:
    return [[seat, [tile.low, tile.high]] for seat, tile in plays]


def dump_hand(hand: Hand) -> dict[str, Any]:
    outcome = hand.outcome
    return {
        "number": hand.number,
        "seed": hand.seed.hex(),
        "commitment": hand.commitment,
        "dealt": [[list(t) for t in h] for h in hand.dealt],
        "hands": [[list(t) for t in h] for h in hand.hands],
        "bids": [[seat, value] for seat, value in hand.bids],
        "trump": hand.trump,
        "tricks": [
            {"plays": _dump_plays(t.plays), "winner": t.winner, "points": t.points}
            for t in hand.tricks
        ],
        "trick": _dump_plays(hand.trick),
        "outcome": None if outcome is None else {
            "result": outcome.result, "side": outcome.side, "award": outcome.award,
            "early": outcome.early,
        },
        "contracts": [[seat, name] for seat, name in hand.contracts],
    }


def load_hand(data: Mapping[str, Any]) -> Hand:
    raw = data["outcome"]
    return Hand(
        number=data["number"],
        seed=bytes.fromhex(data["seed"]),
        commitment=data["commitment"],
        dealt=tuple(_tiles(h) for h in data["dealt"]),
        hands=tuple(_tiles(h) for h in data["hands"]),
        bids=tuple((seat, value) for seat, value in data["bids"]),
        trump=data["trump"],
        tricks=tuple(
            Trick(_plays(t["plays"]), t["winner"], t["points"]) for t in data["tricks"]
        ),
        trick=_plays(data["trick"]),
        outcome=None if raw is None else Outcome(raw["result"], raw["side"], raw["award"], raw["early"]),
        contracts=tuple((seat, name) for seat, name in data.get("contracts", ())),
    )


def dump_state(state: Texas42State) -> dict[str, Any]:
    return {
        "game": "texas42",
        "config": state.config.as_dict(),
        "master": state.master.hex(),
        "scores": list(state.scores),
        "revealed": list(state.revealed),
        "hand": dump_hand(state.hand),
        "last": None if state.last is None else dump_hand(state.last),
    }


def load_state(data: Mapping[str, Any]) -> Texas42State:
    scores = data["scores"]
    return Texas42State(
        config=Config.from_options(data["config"]),
        master=bytes.fromhex(data["master"]),
        scores=(scores[0], scores[1]),
        revealed=tuple(data["revealed"]),
        hand=load_hand(data["hand"]),
        last=None if data["last"] is None else load_hand(data["last"]),
    )
