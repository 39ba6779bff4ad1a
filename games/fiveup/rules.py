"""Five-Up through the engine protocol (docs/engine.md, "The protocol"): the `fiveup` entry
of the registry. The rules are docs/rules-fiveup.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.actions import Action
from games.core.fairness import master_seed
from games.core.protocol import Rules
from games.core.tiles import Tile
from games.fiveup import explain, serial, turns, view
from games.fiveup.hands import start_hand
from games.fiveup.layout import fives_points
from games.fiveup.options import GAME, MAX_PLAYERS, MIN_PLAYERS, SCHEMA, FiveUpConfig, resolve
from games.fiveup.scoring import HandScore, score_hand
from games.fiveup.state import NOBODY, OVER, FiveUpState


class FiveUpRules(Rules[FiveUpState]):
    """Five-Up (pagat): draw until a tile fits, every double a spinner, a count that is a
    multiple of five pegs count / 5; the hand's end pegs the opponents' pips / 5."""

    name = GAME
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    option_schema = SCHEMA
    claims = True

    def configure(self, players: object, options: Mapping[str, Any] | None) -> FiveUpConfig:
        """The resolved configuration; `OptionError` names a bad option."""
        return resolve(players, options)

    def new_match(self, players: int, options: Mapping[str, Any] | None = None,
                  seed: bytes | None = None) -> FiveUpState:
        config = self.configure(players, options)
        return start_hand(config, master_seed(seed), 0, scores=(0,) * len(config.teams), revealed=(),
                          last_hand=None, leader=NOBODY)

    @staticmethod
    def to_move(state: FiveUpState) -> int | None:
        seat = state.to_move
        return None if seat == OVER else seat

    #: The move functions themselves, so the hot calls of playouts skip a wrapper frame.
    legal_actions = staticmethod(turns.legal_actions)
    advance = staticmethod(turns.advance)
    step = staticmethod(turns.step)
    action_of = staticmethod(turns.action_of)
    move_of = staticmethod(turns.move_of)
    moves = staticmethod(turns.moves)  # last: from here on `moves` in this body is the method

    def view(self, state: FiveUpState, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def result(self, state: FiveUpState) -> dict[str, Any] | None:
        return view.result(state)

    def dump(self, state: FiveUpState) -> dict[str, Any]:
        return serial.dump(state)

    def load(self, data: Mapping[str, Any]) -> FiveUpState:
        if data.get("game") != self.name:
            raise ValueError(f"this is a dump of {data.get('game')!r}, not {self.name}")
        return serial.load(self.configure(data["players"], data["options"]), data)

    def explain_illegal(self, state: FiveUpState, action: Action) -> str:
        return explain.explain_illegal(state, action)

    def hand_index(self, state: FiveUpState) -> int:
        return state.deal.hand_number

    def scores(self, state: FiveUpState) -> list[int]:
        return list(state.scores)

    def teams(self, state: FiveUpState) -> list[list[int]]:
        return [list(t) for t in state.deal.config.teams]

    def state_from_view(self, view: Mapping[str, Any], hands: Sequence[Sequence[Tile]],
                        boneyard: Sequence[Tile]) -> FiveUpState:
        if view.get("game") != self.name:
            raise ValueError(f"this is a view of {view.get('game')!r}, not {self.name}")
        config = self.configure(view["players"], view["options"])
        return serial.from_view(config, view, hands, boneyard)

    # For a search that steps its own copy of a state (the AI imports no family): the
    # engine's own scoring, so its playouts score as the rules do.
    NOBODY = NOBODY

    @staticmethod
    def fives_points(count: int) -> int:
        return fives_points(count)

    @staticmethod
    def score_hand(config: FiveUpConfig, pips: tuple[int, ...], out: int) -> HandScore:
        return score_hand(config, pips, out)
