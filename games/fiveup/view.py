"""What a seat may see: its own hand, counts of the others, the public log and the table.

No view holds another seat's tile, a boneyard tile or the current hand's seed; the hands left
at the end of a hand are public then and appear in `last_hand`. Unclaimed points are public
(everyone sees the table and can add it up).
"""

from __future__ import annotations

import threading
from typing import Any

from games.fiveup.events import layout_json, log_json
from games.fiveup.layout import CROSS, DOUBLE, HALF, end_counts, end_id
from games.fiveup.state import NOBODY, OVER, TILES, FiveUpState, HandSummary, events, tiles_of
from games.fiveup.turns import legal_actions

#: The kinds of end where the tile at the end is a double (lying crosswise).
_ON_A_DOUBLE = frozenset({DOUBLE, HALF, CROSS})


def tiles_json(indices: tuple[int, ...]) -> list[list[int]]:
    return [TILES[i].as_list() for i in indices]


def mask_json(mask: int) -> list[list[int]]:
    return [t.as_list() for t in tiles_of(mask)]


def summary_json(summary: HandSummary) -> dict[str, Any]:
    return {
        "number": summary.number,
        "seed": summary.seed.hex(),
        "commitment": summary.commitment,
        "dealt": [tiles_json(d) for d in summary.dealt],
        "hands_left": [mask_json(h) for h in summary.hands_left],
        "points": list(summary.points),
        "fives": list(summary.fives),
        "winner": None if summary.winner == NOBODY else summary.winner,
        "blocked": summary.blocked,
        "stopped": summary.stopped,
        "log": log_json(events(summary.log)),
    }


def result(state: FiveUpState) -> dict[str, Any] | None:
    """docs/engine.md, "Results", with the `target`: the highest side wins, a tie is no winner."""
    if state.to_move != OVER:
        return None
    config = state.config
    scores = list(state.scores)
    best = max(scores)
    winner = scores.index(best) if scores.count(best) == 1 else None
    teams = [list(t) for t in config.teams]
    return {
        "scores": scores,
        "teams": teams,
        "winner": winner,
        "winning_seats": [] if winner is None else teams[winner],
        "hands": state.deal.hand_number + 1,
        "target": config.target,
    }


def ends_json(state: FiveUpState) -> list[dict[str, Any]]:
    return [{"id": end_id(code), "value": value, "double": kind in _ON_A_DOUBLE,
             "counts": end_counts(value, kind)} for code, value, kind in state.table.ends]


_cache = threading.local()


def public_part(state: FiveUpState) -> dict[str, Any]:
    """The keys every seat sees alike, built once per state (the server asks for every seat's
    view of one state in a row). Views of one state share these nested lists: callers must
    not change them."""
    last = getattr(_cache, "last", None)
    if last is not None and last[0] is state:
        return last[1]  # type: ignore[no-any-return]
    deal = state.deal
    config = deal.config
    over = state.to_move == OVER
    history = events(state.log)
    unclaimed = state.unclaimed
    out: dict[str, Any] = {
        "game": config.game,
        "players": config.players,
        "seat": None,
        "options": config.options(),
        "hand_sizes": [h.bit_count() for h in state.hands],
        "boneyard": len(state.boneyard),
        "to_move": None if over else state.to_move,
        "legal": [],
        "log": log_json(history),
        "scores": list(state.scores),
        "teams": [list(t) for t in config.teams],
        "hand_number": deal.hand_number,
        "commitment": deal.commitment,
        "revealed": list(deal.revealed),
        "last_hand": None if deal.last_hand is None else summary_json(deal.last_hand),
        "match_over": over,
        "result": result(state),
        "ends": ends_json(state),
        "count": state.table.total,
        "layout": layout_json(history),
        "unclaimed": None if unclaimed is None else {"seat": unclaimed[0], "points": unclaimed[1]},
        "target": config.target,
        "hand_points": list(state.fives),
    }
    _cache.last = (state, out)
    return out


def view(state: FiveUpState, seat: int | None) -> dict[str, Any]:
    config = state.config
    if seat is not None and (type(seat) is not int or not 0 <= seat < config.players):
        raise ValueError(f"no seat {seat!r} in a {config.players}-player match")
    out = dict(public_part(state))
    out["seat"] = seat
    out["legal"] = legal_actions(state) if seat is not None and seat == state.to_move else []
    if seat is not None:
        out["hand"] = mask_json(state.hands[seat])
    return out
