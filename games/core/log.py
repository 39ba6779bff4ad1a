"""Log events kept as compact JSON text, and the writers of the events every game logs.

A state keeps its log as text: immutable, cheap to copy into views (one `json.loads` per
view), and equal exactly when the events are equal. The writers give exactly what `encode`
gives for the same event, without the generic encoder, because a log line is written on
every action of every AI rollout.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from games.core.tiles import Tile

#: A log event or hand summary as compact JSON text.
Event = str


#: A hand's log kept as a chain, newest event first: `()` or `(event, older chain)`, so a move
#: adds an event without copying the hand's history (the line games and Five-Up keep theirs so).
Chain = tuple[Any, ...]


def unchain(log: Chain) -> tuple[Any, ...]:
    """The events of a chained log, oldest first."""
    out = []
    while log:
        out.append(log[0])
        log = log[1]
    out.reverse()
    return tuple(out)


def encode(event: Mapping[str, Any]) -> Event:
    """An event as the compact JSON text a state keeps (tiles become `[low, high]`)."""
    return json.dumps(event, separators=(",", ":"))


def decode_log(log: tuple[Event, ...]) -> list[dict[str, Any]]:
    """Fresh JSON data for a log: the caller may change it without touching the state."""
    events: list[dict[str, Any]] = json.loads("[" + ",".join(log) + "]")
    return events


def decode(event: Event | None) -> Any:
    return None if event is None else json.loads(event)


def play_event(seat: int, tile: Tile, end: str | None) -> Event:
    """A tile played on end `end` (None: the lead, which goes on no end)."""
    where = "" if end is None else f',"end":"{end}"'
    return f'{{"type":"play","seat":{seat},"tile":[{tile.low},{tile.high}]{where}}}'


def void_event(kind: str, seat: int, ends: Iterable[str], values: Iterable[int]) -> Event:
    """A draw or a pass, with the ends the seat could not use and the numbers they showed.

    The numbers go under "values", never as a bare pair, so no event reads like a tile.
    """
    ids = ",".join(f'"{e}"' for e in ends)
    numbers = ",".join(map(str, values))
    return f'{{"type":"{kind}","seat":{seat},"ends":[{ids}],"values":[{numbers}]}}'
