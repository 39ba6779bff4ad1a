"""The engine protocol (docs/engine.md, "The protocol") as a base class that every game family extends.

`apply` is the checked path used by the server; `advance` is the unchecked step that AI
rollouts call with actions taken from `legal_actions`. Families implement the abstract
methods; the checking, normalising and error wording live here once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from games.core.actions import ACTION_KEYS, Action, normalise_action
from games.core.errors import IllegalAction, MalformedAction
from games.core.options import Option
from games.core.tiles import Tile

S = TypeVar("S")


class Rules(ABC, Generic[S]):
    """One game. Instances are stateless; every method is a pure function of its arguments."""

    name: str = ""
    min_players: int = 2
    max_players: int = 4
    #: True where the lowest score wins (penalty games: Mexican Train, Chicken Foot).
    lower_score_wins: bool = False
    #: The game's room options, declared once (games/core/options.py): the engine's checks,
    #: the API's schema and the room form all read this.
    option_schema: tuple[Option, ...] = ()
    #: True where a play may carry `"claim": true` (Five-Up's muggins house rule). Every other
    #: game refuses the field as before it existed (`refuse_claim`).
    claims: bool = False

    # The engine protocol -------------------------------------------------------------
    @abstractmethod
    def new_match(
        self, players: int, options: Mapping[str, Any] | None = None, seed: bytes | None = None
    ) -> S:
        """A new match with its first hand dealt; `OptionError` names a bad option."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat that must act, or None once the match is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[Action]:
        """Every legal action of the seat to move, in canonical form."""

    @abstractmethod
    def advance(self, state: S, action: Action) -> S:
        """Apply a canonical legal action without checking it (AI rollouts)."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), as JSON-safe data."""

    @abstractmethod
    def result(self, state: S) -> dict[str, Any] | None:
        """Final standings once the match is over, else None."""

    @abstractmethod
    def dump(self, state: S) -> dict[str, Any]:
        """The whole state as JSON-safe data (secrets included: server side only)."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> S:
        """The state that `dump` produced."""

    # Helpers shared by the server and the AI -----------------------------------------
    @abstractmethod
    def explain_illegal(self, state: S, action: Action) -> str:
        """Why a well-formed action is not legal now, in words a player understands."""

    @abstractmethod
    def hand_index(self, state: S) -> int:
        """0-based count of deals so far in the match (redeals included)."""

    @abstractmethod
    def scores(self, state: S) -> list[int]:
        """Match scores, one per side."""

    @abstractmethod
    def teams(self, state: S) -> list[list[int]]:
        """The seats of each side, in the order of `scores`."""

    @abstractmethod
    def state_from_view(
        self, view: Mapping[str, Any], hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
    ) -> S:
        """A full state equal to the view, with the hidden tiles placed as given.

        `hands[k]` is seat k's hand (the viewer's own included, as in the view) and
        `boneyard` the stock in draw order. This is how the Hard AI builds the deals it
        searches: the view says what is public, the sample says the rest.
        """

    # The fast path of searches: moves as small hashable handles -----------------------
    # A family may override these four so that a search steps states without building an
    # action dict per move; the defaults use the actions themselves as the moves.
    def moves(self, state: S) -> Sequence[Any]:
        """The legal moves of the seat to move, in the order of `legal_actions`."""
        return self.legal_actions(state)

    def step(self, state: S, move: Any) -> S:
        """`advance` for a move of `moves` (unchecked)."""
        return self.advance(state, move)

    def action_of(self, state: S, move: Any) -> Action:
        """The action a move of `moves(state)` stands for."""
        return dict(move)

    def move_of(self, state: S, action: Action) -> Any:
        """The move of `moves(state)` that a canonical legal action stands for."""
        return action

    def apply(self, state: S, action: object) -> S:
        """The checked step: malformed raises `MalformedAction`, illegal `IllegalAction`."""
        self.refuse_claim(action)
        canonical = normalise_action(action)
        if self.to_move(state) is None:
            raise IllegalAction("the match is over: no more actions")
        if canonical not in self.legal_actions(state):
            raise IllegalAction(self.explain_illegal(state, canonical))
        return self.advance(state, canonical)

    def refuse_claim(self, action: object) -> None:
        """`MalformedAction` for the muggins house rule's shapes (a play's `claim`, the
        `muggins` action) in a game that has no claims, worded as before they existed: they
        are Five-Up's alone, and every other game still refuses them as malformed."""
        if self.claims or type(action) is not dict:
            return
        kind = action.get("type")
        if kind == "play" and "claim" in action:
            raise MalformedAction("a play action has no field 'claim'")
        if kind == "muggins":
            known = ", ".join(sorted(k for k in ACTION_KEYS if k != "muggins"))
            raise MalformedAction(f"unknown action type 'muggins': expected one of {known}")

    def side_of(self, state: S, seat: int) -> int:
        """Index in `scores` of the side that `seat` plays for."""
        for side, seats in enumerate(self.teams(state)):
            if seat in seats:
                return side
        raise ValueError(f"no seat {seat}")
