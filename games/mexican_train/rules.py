"""Mexican Train on the engine protocol: the `mexican_train` entry of the registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.actions import Action
from games.core.fairness import master_seed
from games.core.penalty_rules import PenaltyRules
from games.core.tiles import make_tile
from games.mexican_train import options as opts
from games.mexican_train.rounds import deal_round
from games.mexican_train.state import TrainState, dump_state, load_state
from games.mexican_train.trains import MEXICAN, allowed_lines, end_ids, in_opening, is_frozen, line_of
from games.mexican_train.turns import advance, legal_actions, settle
from games.mexican_train.view import build_view, state_from_view


class MexicanTrainRules(PenaltyRules[TrainState]):
    """Pagat's Mexican Train as the rules documents give it, the contested points as options."""

    name = opts.GAME
    min_players = opts.MIN_PLAYERS
    max_players = opts.MAX_PLAYERS
    option_schema = opts.SCHEMA

    def new_match(
        self, players: int, options: Mapping[str, Any] | None = None, seed: bytes | None = None
    ) -> TrainState:
        count, resolved = opts.resolve(players, options)
        blank = TrainState(
            players=count,
            top=resolved["set"],
            rounds=resolved["rounds"],
            hand_size=resolved["hand_size"],
            double_blank=resolved["double_blank"],
            multiple=resolved["first_turn"] == "multiple",
            draw_until=resolved["draw_until_play"],
            master=master_seed(seed),
            round=0,
            seed=b"",
            commitment="",
            hands=(),
            boneyard=(),
            lines=(),
            line_ends=(),
            markers=(),
            open_doubles=(),
            opened=(),
            turn=0,
            played=0,
            owed=False,
            drawn=None,
            totals=(0,) * count,
            dealt=(),
            log=(),
            revealed=(),
            last_hand=None,
        )
        return settle(deal_round(blank, 0))

    legal_actions = staticmethod(legal_actions)
    advance = staticmethod(advance)
    build_view = staticmethod(build_view)
    dump = staticmethod(dump_state)
    load = staticmethod(load_state)
    state_from_view = staticmethod(state_from_view)

    def explain_illegal(self, state: TrainState, action: Action) -> str:
        seat = state.turn
        if seat is None:
            return "the match is over: no more actions"
        kind = action["type"]
        legal = legal_actions(state)
        kinds = {a["type"] for a in legal}
        if kind in ("draw", "pass", "end_turn") and kind not in kinds:
            if "play" in kinds:
                return f"you have a tile to play, so you may not {kind.replace('_', ' ')}"
            if kind == "end_turn":
                return "end_turn only stops your opening chain, after at least one tile on your train"
            if kind == "draw" and in_opening(state, seat):
                return "on your first turn you do not draw: pass to mark your train"
            if kind == "draw" and state.draw_until:
                return "the boneyard is empty: there is nothing to draw"
            if kind == "draw":
                return "you may draw only one tile a turn, and only from a boneyard that has tiles"
            return "you may pass only when you can neither play nor draw"
        if kind != "play":
            return f"Mexican Train has no {kind!r} action"
        return self._explain_play(state, seat, action)

    def _explain_play(self, state: TrainState, seat: int, action: Action) -> str:
        tile = make_tile(*action["tile"])
        end = action.get("end")
        if tile not in state.hands[seat]:
            return f"you do not hold {tile.label()}"
        if state.drawn is not None and tile != state.drawn:
            return f"after drawing you may play only the tile you drew, {state.drawn.label()}"
        if end is None:
            return "say where the tile goes: \"end\" is \"train:<seat>\" or \"mexican\""
        line = line_of(state.players, end)
        if line is None:
            ids = ", ".join(end_ids(state.players))
            return f"there is no end {end!r} at this table: the ends are {ids}"
        if line not in allowed_lines(state, seat):
            if is_frozen(state):
                d = end_ids(state.players)[state.open_doubles[0]]
                return f"the double on {d} is uncovered: the next tile must go on it"
            if not state.opened[seat]:
                return "on your first turn you may play only on your own train"
            if end == MEXICAN:
                return "you may not play on the Mexican train now"
            return f"{end} belongs to another seat and carries no marker"
        return f"{tile.label()} does not match the {state.line_ends[line]} open on {end}"

    def hand_index(self, state: TrainState) -> int:
        return state.round
