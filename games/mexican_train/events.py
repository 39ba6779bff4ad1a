"""Log events written straight as the compact JSON text the state keeps.

Each builder gives exactly what `state.encode` would give for the same event (the round trip
is tested), only without the generic encoder, because a log line is written on every action
of every AI rollout.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core.tiles import Tile


def _ids(ids: Iterable[str]) -> str:
    return "[" + ",".join(f'"{i}"' for i in ids) + "]"


def _ints(values: Iterable[int]) -> str:
    return "[" + ",".join(map(str, values)) + "]"


def play_event(seat: int, tile: Tile, end: str) -> str:
    return f'{{"type":"play","seat":{seat},"tile":[{tile.low},{tile.high}],"end":"{end}"}}'


def marker_event(seat: int, end: str, on: bool) -> str:
    return f'{{"type":"marker","seat":{seat},"end":"{end}","on":{"true" if on else "false"}}}'


def void_event(kind: str, seat: int, ends: Iterable[str], values: Iterable[int]) -> str:
    """A draw or a pass, with the ends the seat could not use and the numbers they showed."""
    return f'{{"type":"{kind}","seat":{seat},"ends":{_ids(ends)},"values":{_ints(values)}}}'


def end_turn_event(seat: int) -> str:
    return f'{{"type":"end_turn","seat":{seat}}}'
