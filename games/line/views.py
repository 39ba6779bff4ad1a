"""What a seat may see: its own hand, counts of the others, the public log and layout.

No view holds another seat's tile, a boneyard tile or the current hand's seed; the hands left
at the end of a hand are public then and appear in `last_hand`.
"""

from __future__ import annotations

import threading
from typing import Any

from games.core.layout import END_IDS, end_total
from games.line.config import LineConfig
from games.line.events import layout_json, log_json
from games.line.moves import legal_actions
from games.line.state import NOBODY, OVER, HandSummary, LineState, events
from games.line.tables import table


def tiles_json(config: LineConfig, indices: tuple[int, ...]) -> list[list[int]]:
    tiles = table(config.top).tiles
    return [tiles[i].as_list() for i in indices]


def mask_json(config: LineConfig, mask: int) -> list[list[int]]:
    return [t.as_list() for t in table(config.top).tiles_of(mask)]


def summary_json(config: LineConfig, summary: HandSummary) -> dict[str, Any]:
    return {
        "number": summary.number,
        "seed": summary.seed.hex(),
        "commitment": summary.commitment,
        "dealt": [tiles_json(config, d) for d in summary.dealt],
        "hands_left": [mask_json(config, h) for h in summary.hands_left],
        "points": list(summary.points),
        "fives": list(summary.fives),
        "winner": None if summary.winner == NOBODY else summary.winner,
        "blocked": summary.blocked,
        "stopped": summary.stopped,
        "log": log_json(table(config.top), events(summary.log)),
    }


def result(state: LineState) -> dict[str, Any] | None:
    if state.to_move != OVER:
        return None
    scores = list(state.scores)
    best = max(scores)
    winner = scores.index(best) if scores.count(best) == 1 else None
    teams = [list(t) for t in state.config.teams]
    return {
        "scores": scores,
        "teams": teams,
        "winner": winner,
        "winning_seats": [] if winner is None else teams[winner],
        "hands": state.hand_number + 1,
        "target": state.config.target,
    }


_cache = threading.local()


def public_part(state: LineState) -> dict[str, Any]:
    """The keys every seat sees alike, built once per state: the server's fan-out asks for
    every seat's view of one state in a row, and the log and layout are most of the work.

    Kept per thread for the last state only (states are immutable, so identity is enough);
    views of one state share these nested lists, so callers must not mutate them."""
    last = getattr(_cache, "last", None)
    if last is not None and last[0] is state:
        return last[1]  # type: ignore[no-any-return]
    config = state.config
    tiles = table(config.top)
    layout = state.layout
    over = state.to_move == OVER
    history = events(state.log)
    out: dict[str, Any] = {
        "game": config.game,
        "players": config.players,
        "seat": None,
        "options": config.options(),
        "hand_sizes": [h.bit_count() for h in state.hands],
        "boneyard": len(state.boneyard),
        "to_move": None if over else state.to_move,
        "legal": None,
        "log": log_json(tiles, history),
        "scores": list(state.scores),
        "teams": [list(t) for t in config.teams],
        "hand_number": state.hand_number,
        "commitment": state.commitment,
        "revealed": list(state.revealed),
        "last_hand": None if state.last_hand is None else summary_json(config, state.last_hand),
        "match_over": over,
        "result": result(state),
        "ends": [{"id": END_IDS[e], "value": v, "double": layout.is_double_at(e)}
                 for e, v in layout.open_ends()],
        "layout": layout_json(config, history),
        "target": config.target,
    }
    if config.fives:
        out["end_total"] = end_total(layout)
        out["hand_points"] = list(state.fives)
    _cache.last = (state, out)
    return out


def view(state: LineState, seat: int | None) -> dict[str, Any]:
    config = state.config
    if seat is not None and (type(seat) is not int or not 0 <= seat < config.players):
        raise ValueError(f"no seat {seat!r} in a {config.players}-player match")
    out = dict(public_part(state))
    out["seat"] = seat
    out["legal"] = legal_actions(state) if seat is not None and seat == state.to_move else []
    if seat is not None:
        out["hand"] = mask_json(config, state.hands[seat])
    return out
