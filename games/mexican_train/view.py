"""What a seat sees of a Mexican Train position, and the state a view describes.

The view carries every public fact a bot needs (trains, markers, open doubles, who has had a
first turn, whether the seat to move has drawn), so `state_from_view` can rebuild the full
position from it plus a placement of the hidden tiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.penalty_rules import common_fields, common_view
from games.core.records import tiles_from_json
from games.core.tiles import Tile, tiles_json
from games.mexican_train.options import GAME
from games.mexican_train.state import TrainState
from games.mexican_train.trains import allowed_lines, end_ids, in_opening, is_frozen
from games.mexican_train.turns import legal_actions


def _ends(state: TrainState) -> list[dict[str, Any]]:
    players = state.players
    ids = end_ids(players)
    playable = set(allowed_lines(state, state.turn)) if state.turn is not None else set()
    out = []
    for i, line in enumerate(state.lines):
        out.append(
            {
                "id": ids[i],
                "value": state.line_ends[i],
                "double": bool(line) and line[-1].is_double,
                "owner": i if i < players else None,
                "marker": state.markers[i] if i < players else bool(line),
                "started": bool(line),
                "playable": i in playable,
            }
        )
    return out


def _double(state: TrainState, line: int) -> dict[str, Any]:
    value = state.line_ends[line]
    return {"end": end_ids(state.players)[line], "tile": [value, value]}


def build_view(state: TrainState, seat: int | None, result: dict[str, Any] | None) -> dict[str, Any]:
    """The view of docs/engine.md, "Views", with the Mexican Train keys of docs/rules-mexican-train.md."""
    players = state.players
    over = state.turn is None
    view = common_view(
        state, seat, game=GAME, hand_number=state.round, legal_actions=legal_actions, result=result
    )
    frozen = is_frozen(state)
    view.update(
        {
            "ends": _ends(state),
            "engine": [state.engine, state.engine],
            "trains": [
                {
                    "owner": s,
                    "tiles": tiles_json(state.lines[s]),
                    "marker": state.markers[s],
                    "open_end": state.line_ends[s],
                }
                for s in range(players)
            ],
            "mexican": {
                "tiles": tiles_json(state.lines[players]),
                "started": bool(state.lines[players]),
                "marker": bool(state.lines[players]),
                "open_end": state.line_ends[players],
            },
            "open_double": _double(state, state.open_doubles[0]) if state.open_doubles else None,
            "open_doubles": [_double(state, i) for i in state.open_doubles],
            "round": state.round,
            "rounds": state.rounds,
            "opened": list(state.opened),
            "turn_phase": None if over else {
                "seat": state.turn,
                "first_turn": state.turn is not None and in_opening(state, state.turn),
                "tiles_played": state.played,
                "must_play_again": state.owed,
                "drawn": state.drawn is not None,
                "frozen": frozen,
            },
        }
    )
    return view


def state_from_view(
    view: Mapping[str, Any], hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]
) -> TrainState:
    """The position a view shows, with the hidden tiles placed as given (see `common_fields`)."""
    options = view["options"]
    players = int(view["players"])
    trains = view["trains"]
    mexican = view["mexican"]
    lines = (*(tiles_from_json(t["tiles"]) for t in trains), tiles_from_json(mexican["tiles"]))
    ends = (*(int(t["open_end"]) for t in trains), int(mexican["open_end"]))
    ids = end_ids(players)
    phase = view["turn_phase"] or {}
    return TrainState(
        **common_fields(view, hands, boneyard),
        top=int(options["set"]),
        rounds=int(options["rounds"]),
        hand_size=int(options["hand_size"]),
        double_blank=int(options["double_blank"]),
        multiple=options["first_turn"] == "multiple",
        draw_until=bool(options.get("draw_until_play", False)),
        round=int(view["round"]),
        lines=lines,
        line_ends=ends,
        markers=tuple(bool(t["marker"]) for t in trains),
        open_doubles=tuple(ids.index(d["end"]) for d in view["open_doubles"]),
        opened=tuple(bool(o) for o in view["opened"]),
        played=int(phase.get("tiles_played", 0)),
        owed=bool(phase.get("must_play_again", False)),
    )
