"""Block, Draw and All Fives through the engine protocol (docs/engine.md, "The protocol").

One rules class; the variants differ only in class-level flags: whether a seat that cannot
play draws (`draws`) and whether the open ends score during the hand (`fives`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any

from games.core.actions import Action, FrozenAction, normalise_action
from games.core.errors import IllegalAction
from games.core.fairness import master_seed
from games.core.protocol import Rules
from games.core.tiles import Tile
from games.line import explain, moves, serial, views
from games.line.config import LineConfig, resolve_config
from games.line.match import start_hand
from games.line.moves import checked_move, known_move, listed_move, step
from games.line.options import schema
from games.line.scoring import HandScore, fives_points, score_hand
from games.line.state import NOBODY, OVER, LineState


class LineRules(Rules[LineState]):
    """The shared line game: play to an open end, must play when able, lowest pips win."""

    name = ""
    min_players = 2
    max_players = 10
    draws = True
    fives = False

    def configure(self, players: object, options: Mapping[str, Any] | None) -> LineConfig:
        """The resolved configuration; `OptionError` names a bad option."""
        return resolve_config(self.name, players, options, self.draws, self.fives)

    def new_match(self, players: int, options: Mapping[str, Any] | None = None,
                  seed: bytes | None = None) -> LineState:
        config = self.configure(players, options)
        master = master_seed(seed)
        return start_hand(config, master, 0, scores=(0,) * len(config.teams), revealed=(), last_hand=None,
                          leader=-1)

    @staticmethod
    def to_move(state: LineState) -> int | None:  # static: no bound method per call
        seat = state.to_move
        return None if seat == OVER else seat

    #: The move functions themselves, so the hot calls of rollouts skip a wrapper frame.
    legal_actions = staticmethod(moves.legal_actions)
    advance = staticmethod(moves.advance)
    step = staticmethod(moves.step)
    action_of = staticmethod(moves.action_of)
    move_of = staticmethod(moves.move_of)
    moves = staticmethod(moves.moves)  # last: from here on `moves` in this body is the method

    def apply(self, state: LineState, action: object) -> LineState:
        """The checked step of `Rules.apply`, testing the one action instead of listing all.

        A legal action already in canonical form (what `legal_actions` and the browser send)
        is recognised and stepped at once; anything else is normalised, checked and, when
        refused, explained.
        """
        if type(action) is FrozenAction:
            move = listed_move(state, action)
            if move is None:
                move = known_move(state, action)
        else:
            move = checked_move(state, action)
        if move is not None:
            return step(state, move)
        self.refuse_claim(action)
        canonical = normalise_action(action)
        if state.to_move == OVER:
            raise IllegalAction("the match is over: no more actions")
        if not moves.is_legal(state, canonical):
            raise IllegalAction(explain.explain_illegal(state, canonical))
        return moves.advance(state, canonical)

    def view(self, state: LineState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def result(self, state: LineState) -> dict[str, Any] | None:
        return views.result(state)

    def dump(self, state: LineState) -> dict[str, Any]:
        return serial.dump(state)

    def load(self, data: Mapping[str, Any]) -> LineState:
        if data.get("game") != self.name:
            raise ValueError(f"this is a dump of {data.get('game')!r}, not {self.name}")
        return serial.load(self.configure(data["players"], data["options"]), data)

    def explain_illegal(self, state: LineState, action: Action) -> str:
        return explain.explain_illegal(state, action)

    #: `state.deal.hand_number`, read by C code: searches and servers ask it after every step.
    hand_index = attrgetter("deal.hand_number")  # type: ignore[assignment]

    def scores(self, state: LineState) -> list[int]:
        return list(state.scores)

    def teams(self, state: LineState) -> list[list[int]]:
        return [list(t) for t in state.config.teams]

    def state_from_view(self, view: Mapping[str, Any], hands: Sequence[Sequence[Tile]],
                        boneyard: Sequence[Tile]) -> LineState:
        if view.get("game") != self.name:
            raise ValueError(f"this is a view of {view.get('game')!r}, not {self.name}")
        config = self.configure(view["players"], view["options"])
        return serial.from_view(config, view, hands, boneyard)

    # For a search that steps its own copy of a state (the AI imports no family): the
    # engine's own scoring, so its playouts score as the rules do.
    NOBODY = NOBODY

    @staticmethod
    def fives_points(total: int) -> int:
        return fives_points(total)

    @staticmethod
    def score_hand(config: LineConfig, pips: tuple[int, ...], out: int) -> HandScore:
        return score_hand(config, pips, out)


class BlockRules(LineRules):
    """Block: a seat that cannot play passes; the boneyard is never used."""

    name = "block"
    option_schema = schema("block")
    draws = False


class DrawRules(LineRules):
    """Draw: a seat that cannot play draws one tile at a time, never the last reserve tiles."""

    name = "draw"
    option_schema = schema("draw")


class AllFivesRules(LineRules):
    """All Fives (Muggins): Draw with a spinner, scoring open-end totals that are multiples of five."""

    name = "allfives"
    option_schema = schema("allfives")
    fives = True
