"""The turn: lead the hand's double, then one tile a turn, or draw one, or miss the turn."""

from __future__ import annotations

from typing import Any

from games.chicken_foot.hands import finish_hand
from games.chicken_foot.layout import TOES, branch_id, branch_of, is_blocked, open_branches
from games.chicken_foot.state import FootState, evolve
from games.core.actions import Action
from games.core.log import play_event, void_event
from games.core.penalty import drawn_from_boneyard
from games.core.penalty import settle as settle_hands
from games.core.tiles import Tile, make_tile


def legal_actions(state: FootState) -> list[Action]:
    """Every legal action of the seat to move; empty once the match is over."""
    seat = state.turn
    if seat is None:
        return []
    if not state.led:
        return [{"type": "play", "tile": [state.lead, state.lead]}]
    ends = state.branch_ends
    arms = state.arms
    tiles = (state.drawn,) if state.drawn is not None else state.hands[seat]
    plays: list[Action] = [
        {"type": "play", "tile": [t.low, t.high], "end": branch_id(i, arms)}
        for i in open_branches(state)
        for t in tiles
        if t.low == ends[i] or t.high == ends[i]
    ]
    if plays:
        return plays
    return [{"type": "draw"}] if state.drawn is None and state.boneyard else [{"type": "pass"}]


def _voids(state: FootState, seat: int, kind: str) -> str:
    """The draw or pass event, by end id and number (never a bare pair that reads as a tile)."""
    lines = open_branches(state)
    values = sorted({state.branch_ends[i] for i in lines})
    return void_event(kind, seat, (branch_id(i, state.arms) for i in lines), values)


def _next(state: FootState, seat: int, event: str, **changes: Any) -> FootState:
    return evolve(state, turn=(seat + 1) % state.players, drawn=None, log=(*state.log, event), **changes)


def _without(state: FootState, seat: int, tile: Tile) -> tuple[tuple[Tile, ...], ...]:
    hands = state.hands
    hand = list(hands[seat])
    hand.remove(tile)
    return (*hands[:seat], tuple(hand), *hands[seat + 1:])


def _lead(state: FootState, seat: int) -> FootState:
    """The lead double, and its arms to fill: four, or six with `opening_arms` (three a side)."""
    arms = state.arms
    double = Tile(state.lead, state.lead)
    hands = _without(state, seat, double)
    after = _next(
        state,
        seat,
        play_event(seat, double, None),
        hands=hands,
        led=True,
        branch_tiles=((),) * arms,
        branch_ends=(state.lead,) * arms,
        branch_parent=(-1,) * arms,
        closed=(False,) * arms,
        pending=tuple(range(arms)),
    )
    return finish_hand(after, seat) if not hands[seat] else after


def _play(state: FootState, seat: int, tile: Tile, branch: int) -> FootState:
    hands = _without(state, seat, tile)
    value = state.branch_ends[branch]
    tiles = state.branch_tiles
    tiles = (*tiles[:branch], (*tiles[branch], tile), *tiles[branch + 1:])
    ends = state.branch_ends
    ends = (*ends[:branch], tile.other(value), *ends[branch + 1:])
    pending = state.pending
    if branch in pending:
        pending = tuple(i for i in pending if i != branch)
    parents, closed = state.branch_parent, state.closed
    if tile.is_double:
        first = len(tiles)
        tiles = (*tiles, *((),) * TOES)
        ends = (*ends, *(value,) * TOES)
        parents = (*parents, *(branch,) * TOES)
        closed = (*closed[:branch], True, *closed[branch + 1:], *(False,) * TOES)
        pending = tuple(range(first, first + TOES))
    after = _next(
        state,
        seat,
        play_event(seat, tile, branch_id(branch, state.arms)),
        hands=hands,
        branch_tiles=tiles,
        branch_ends=ends,
        branch_parent=parents,
        closed=closed,
        pending=pending,
    )
    return finish_hand(after, seat) if not hands[seat] else after


def _draw(state: FootState, seat: int) -> FootState:
    log = (*state.log, _voids(state, seat, "draw"))
    return evolve(state, log=log, **drawn_from_boneyard(state, seat))


def settle(state: FootState) -> FootState:
    """End every hand nobody can play on any more.

    No pass discovers a block (docs/engine.md, "The protocol")."""
    return settle_hands(state, is_blocked, finish_hand)


def advance(state: FootState, action: Action) -> FootState:
    """Apply a canonical legal action without checking it."""
    seat = state.turn
    assert seat is not None, "the match is over"
    kind = action["type"]
    if kind == "play":
        raw = action["tile"]
        tile = make_tile(raw[0], raw[1])
        if not state.led:
            return settle(_lead(state, seat))
        branch = branch_of(action["end"], state.arms)
        assert branch is not None, f"no end {action['end']!r}"
        after = _play(state, seat, tile, branch)
    elif kind == "draw":
        after = _draw(state, seat)
    elif kind == "pass":
        after = _next(state, seat, _voids(state, seat, "pass"))
    else:
        raise ValueError(f"Chicken Foot has no {kind!r} action")
    return settle(after)
