"""The engine protocol's parts that Mexican Train and Chicken Foot answer alike.

Both are games of individuals scored by penalty, with a state that keeps its seat to move
as `turn`, its match totals as `totals`, and its log as event text; a family adds its own
layout to the view and its own words to `explain_illegal`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar, cast

from games.core.actions import Action
from games.core.fairness import SEED_BYTES
from games.core.log import Event, decode, decode_log, encode
from games.core.penalty import Boneyarded, penalty_result
from games.core.protocol import Rules
from games.core.tiles import Tile, make_tile, tiles_json


class ViewedState(Boneyarded, Protocol):
    @property
    def last_hand(self) -> Event | None: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def drawn(self) -> Tile | None: ...


P = TypeVar("P", bound=ViewedState)


class PenaltyRules(Rules[P]):
    """A family's Rules base: seats, views' seat check, scores and the result."""

    lower_score_wins = True

    @abstractmethod
    def build_view(self, state: P, seat: int | None, result: dict[str, Any] | None) -> dict[str, Any]:
        """The view of a seat already checked, with the result it shows."""

    def to_move(self, state: P) -> int | None:
        return state.turn

    def view(self, state: P, seat: int | None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
            raise ValueError(f"no seat {seat!r} at a table of {state.players}")
        return self.build_view(state, seat, self.result(state))

    def result(self, state: P) -> dict[str, Any] | None:
        if state.turn is not None:
            return None
        return penalty_result(state.totals, self.hand_index(state) + 1)

    def scores(self, state: P) -> list[int]:
        return list(state.totals)

    def teams(self, state: P) -> list[list[int]]:
        return [[s] for s in range(state.players)]


def common_view(
    state: ViewedState,
    seat: int | None,
    *,
    game: str,
    hand_number: int,
    legal_actions: Callable[[Any], list[Action]],
    result: dict[str, Any] | None,
) -> dict[str, Any]:
    """The common keys (docs/engine.md, "Views") of a penalty game's view.

    The family adds its layout keys after them."""
    players = state.players
    view: dict[str, Any] = {"game": game, "players": players, "seat": seat, "options": state.options}
    if seat is not None:
        view["hand"] = tiles_json(state.hands[seat])
    view.update(
        {
            "hand_sizes": [len(h) for h in state.hands],
            "boneyard": len(state.boneyard),
            "to_move": state.turn,
            "legal": legal_actions(state) if seat is not None and seat == state.turn else [],
            "log": decode_log(state.log),
            "scores": list(state.totals),
            "teams": [[s] for s in range(players)],
            "hand_number": hand_number,
            "commitment": state.commitment,
            "revealed": list(state.revealed),
            "last_hand": decode(state.last_hand),
            "match_over": state.turn is None,
            "result": result,
        }
    )
    return view


def common_fields(
    view: Mapping[str, Any], hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
) -> dict[str, Any]:
    """The state fields a view gives alike in both games, with the hidden tiles placed.

    The seat to move's drawn tile, when it has drawn, is the last tile of its hand. Seeds stay
    secret, so later hands of the rebuilt state come from a placeholder master: it is exact
    up to the end of the current hand.
    """
    turn = view["to_move"]
    phase = view["turn_phase"] or {}
    held = tuple(tuple(make_tile(t[0], t[1]) for t in h) for h in hands)
    return {
        "players": int(view["players"]),
        "master": bytes(SEED_BYTES),
        "seed": bytes(SEED_BYTES),
        "commitment": str(view["commitment"]),
        "hands": held,
        "boneyard": tuple(make_tile(t[0], t[1]) for t in boneyard),
        "turn": turn,
        "drawn": held[turn][-1] if turn is not None and phase.get("drawn") else None,
        "totals": tuple(int(s) for s in view["scores"]),
        "dealt": held,
        "log": tuple(encode(e) for e in view["log"]),
        "revealed": tuple(view["revealed"]),
        "last_hand": None if view["last_hand"] is None else encode(view["last_hand"]),
    }


def redeal(state: P, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> P:
    """A state built by `state_from_view`, with the hidden tiles placed as given instead.

    Equal to rebuilding it from the same view with these tiles (`Tile`s, canonical already),
    without reading the view's layout and log again: an AI places the hidden tiles many times
    per decision.
    """
    held = tuple(tuple(h) for h in hands)
    turn = state.turn
    drawn = held[turn][-1] if turn is not None and state.drawn is not None else None
    pile = tuple(boneyard)
    out: P = replace(cast(Any, state), hands=held, dealt=held, drawn=drawn, boneyard=pile)
    return out

