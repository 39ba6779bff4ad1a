"""Where a seat may play: its own train, marked trains, the Mexican train, the open double.

Lines are indexed by seat, the Mexican train last (index `players`). These functions are the
whole of the placement rules; the turn sequence lives in `turns.py`.
"""

from __future__ import annotations

from functools import cache

from games.mexican_train.state import TrainState

MEXICAN = "mexican"


@cache
def end_ids(players: int) -> tuple[str, ...]:
    """The end ids by line index: "train:<seat>" for each seat, then "mexican".

    docs/engine.md, "Actions"."""
    return (*(f"train:{seat}" for seat in range(players)), MEXICAN)


def line_of(players: int, end: str) -> int | None:
    """The line index an end id names, or None for an id that is not an end of this table."""
    ids = end_ids(players)
    return ids.index(end) if end in ids else None


def is_frozen(state: TrainState) -> bool:
    """An uncovered double from an earlier turn binds the next tile anyone plays."""
    return bool(state.open_doubles) and not state.owed


def in_opening(state: TrainState, seat: int) -> bool:
    """The seat is on its first turn of the round and no open double overrides it."""
    return not state.opened[seat] and not is_frozen(state)


def allowed_lines(state: TrainState, seat: int) -> tuple[int, ...]:
    """The lines `seat` may add a tile to now, in seat order, the Mexican train last.

    An open double overrides ownership: anyone must answer it, marked or not.
    """
    if is_frozen(state):
        return (state.open_doubles[0],)
    if not state.opened[seat]:
        return (seat,)
    lines = [i for i, marked in enumerate(state.markers) if marked or i == seat]
    lines.append(state.players)
    return tuple(lines)


def is_blocked(state: TrainState) -> bool:
    """With the boneyard empty, no seat will ever be able to lay a tile.

    Without an open double, passing marks every train in turn, so any tile matching any end
    will be played eventually; with one, only its number counts, because nothing else may be
    played until it is covered.
    """
    if state.boneyard:
        return False
    seat = state.turn
    if seat is not None and state.owed:
        ends = {state.line_ends[i] for i in allowed_lines(state, seat)}
        if any(t.low in ends or t.high in ends for t in state.hands[seat]):
            return False
    if state.open_doubles:
        ends = {state.line_ends[state.open_doubles[0]]}
    else:
        ends = set(state.line_ends)
    return not any(t.low in ends or t.high in ends for hand in state.hands for t in hand)
