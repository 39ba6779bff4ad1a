"""Log events written straight as the compact JSON text the state keeps.

Each builder gives exactly what `state.encode` would give for the same event (the round trip
is tested), only without the generic encoder, because a log line is written on every action
of every AI rollout.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core.tiles import Tile


def play_event(seat: int, tile: Tile, end: str | None) -> str:
    where = "" if end is None else f',"end":"{end}"'
    return f'{{"type":"play","seat":{seat},"tile":[{tile.low},{tile.high}]{where}}}'


def void_event(kind: str, seat: int, ends: Iterable[str], values: Iterable[int]) -> str:
    """A draw or a pass, with the ends the seat could not use and the numbers they showed."""
    ids = ",".join(f'"{e}"' for e in ends)
    numbers = ",".join(map(str, values))
    return f'{{"type":"{kind}","seat":{seat},"ends":[{ids}],"values":[{numbers}]}}'


def lead_draw_event(seat: int) -> str:
    """A tile taken because nobody held the double that leads the hand."""
    return f'{{"type":"draw","seat":{seat},"lead":true}}'
