"""The turn sequence: the opening chain, one tile a turn, doubles, draw-or-mark.

`legal_actions` and `advance` are the hot path of AI rollouts, so they work on indices and
tuples and build dicts only for the actions they return.
"""

from __future__ import annotations

from typing import Any

from games.core.actions import Action
from games.core.log import play_event, void_event
from games.core.penalty import drawn_from_boneyard
from games.core.penalty import settle as settle_hands
from games.core.tiles import Tile, make_tile
from games.mexican_train.events import end_turn_event, marker_event
from games.mexican_train.rounds import finish_round
from games.mexican_train.state import TrainState, evolve
from games.mexican_train.trains import allowed_lines, end_ids, in_opening, is_blocked, line_of


def legal_actions(state: TrainState) -> list[Action]:
    """Every legal action of the seat to move; empty once the match is over."""
    seat = state.turn
    if seat is None:
        return []
    ends = state.line_ends
    ids = end_ids(state.players)
    tiles = (state.drawn,) if state.drawn is not None else state.hands[seat]
    plays: list[Action] = [
        {"type": "play", "tile": [t.low, t.high], "end": ids[i]}
        for i in allowed_lines(state, seat)
        for t in tiles
        if t.low == ends[i] or t.high == ends[i]
    ]
    if in_opening(state, seat) and not state.owed:
        if state.played == 0:
            return plays or [{"type": "pass"}]
        return [*plays, {"type": "end_turn"}]
    if plays:
        return plays
    # One draw a turn, or with `draw_until_play` another while the last one did not fit.
    if state.boneyard and (state.drawn is None or state.draw_until):
        return [{"type": "draw"}]
    return [{"type": "pass"}]


def _voids(state: TrainState, seat: int, kind: str) -> str:
    """The draw or pass event: what the seat proved it could not match.

    The numbers go under "values", never as a bare pair, so no event reads like a tile.
    """
    lines = allowed_lines(state, seat)
    ids = end_ids(state.players)
    values = sorted({state.line_ends[i] for i in lines})
    return void_event(kind, seat, (ids[i] for i in lines), values)


def _turn_over(state: TrainState, seat: int) -> dict[str, Any]:
    """The changes that hand the turn to the next seat."""
    opened = state.opened
    if not opened[seat]:
        opened = (*opened[:seat], True, *opened[seat + 1:])
    return {"turn": (seat + 1) % state.players, "opened": opened, "played": 0, "owed": False, "drawn": None}


def _play(state: TrainState, seat: int, tile: Tile, line: int) -> TrainState:
    hands = state.hands
    hand = list(hands[seat])
    hand.remove(tile)
    lines = state.lines
    ends = state.line_ends
    open_doubles = state.open_doubles
    if line in open_doubles:
        open_doubles = tuple(i for i in open_doubles if i != line)
    if tile.is_double:
        open_doubles = (*open_doubles, line)
    end = end_ids(state.players)[line]
    log = (*state.log, play_event(seat, tile, end))
    markers = state.markers
    if line == seat and markers[seat]:
        markers = (*markers[:seat], False, *markers[seat + 1:])
        log = (*log, marker_event(seat, end, False))
    if hand and not (tile.is_double or (state.multiple and state.drawn is None and in_opening(state, seat))):
        changes = _turn_over(state, seat)
    else:
        changes = {"played": state.played + 1, "owed": tile.is_double, "drawn": None}
    after = evolve(
        state,
        hands=(*hands[:seat], tuple(hand), *hands[seat + 1:]),
        lines=(*lines[:line], (*lines[line], tile), *lines[line + 1:]),
        line_ends=(*ends[:line], tile.other(ends[line]), *ends[line + 1:]),
        open_doubles=open_doubles,
        markers=markers,
        log=log,
        **changes,
    )
    return after if hand else finish_round(after, seat)


def _pass(state: TrainState, seat: int) -> TrainState:
    log = (*state.log, _voids(state, seat, "pass"))
    markers = state.markers
    if not markers[seat]:
        markers = (*markers[:seat], True, *markers[seat + 1:])
        log = (*log, marker_event(seat, end_ids(state.players)[seat], True))
    return evolve(state, markers=markers, log=log, **_turn_over(state, seat))


def _draw(state: TrainState, seat: int) -> TrainState:
    log = (*state.log, _voids(state, seat, "draw"))
    return evolve(state, log=log, **drawn_from_boneyard(state, seat))


def settle(state: TrainState) -> TrainState:
    """End every round that nobody can play on any more.

    No pass discovers a block (docs/engine.md, "The protocol")."""
    return settle_hands(state, is_blocked, finish_round)


def advance(state: TrainState, action: Action) -> TrainState:
    """Apply a canonical legal action without checking it."""
    seat = state.turn
    assert seat is not None, "the match is over"
    kind = action["type"]
    if kind == "play":
        line = line_of(state.players, action["end"])
        assert line is not None, f"no end {action['end']!r}"
        raw = action["tile"]
        after = _play(state, seat, make_tile(raw[0], raw[1]), line)
    elif kind == "draw":
        after = _draw(state, seat)
    elif kind == "pass":
        after = _pass(state, seat)
    elif kind == "end_turn":
        after = evolve(state, log=(*state.log, end_turn_event(seat)), **_turn_over(state, seat))
    else:
        raise ValueError(f"Mexican Train has no {kind!r} action")
    return settle(after)
