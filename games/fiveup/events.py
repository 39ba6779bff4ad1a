"""The log and the layout as JSON: the events of docs/rules-fiveup.md, "Log events", and the
tiles on the table in play order.

The same JSON form serves views, `dump` and `state_from_view`, so there is one codec; the
table is never written out, only replayed from the plays of the log.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from games.fiveup.layout import EMPTY, Table, end_code, end_id, lead_table, place
from games.fiveup.state import (
    DRAW,
    GRID,
    HAND_END,
    LEAD,
    MUGGINS,
    NOBODY,
    PASS,
    PLAY,
    SCORE,
    TILES,
    Event,
)


def event_json(event: Event) -> dict[str, Any]:
    kind = event[0]
    if kind == PLAY:
        _, seat, index, code, claim = event
        out: dict[str, Any] = {"type": PLAY, "seat": seat, "tile": TILES[index].as_list()}
        if code != LEAD:
            out["end"] = end_id(code)
        if claim:
            out["claim"] = True
        return out
    if kind == SCORE:
        return {"type": SCORE, "seat": event[1], "side": event[2], "points": event[3]}
    if kind == MUGGINS:
        return {"type": MUGGINS, "seat": event[1], "from": event[2], "points": event[3]}
    if kind == DRAW:
        return {"type": DRAW, "seat": event[1]}
    if kind == PASS:
        return {"type": PASS, "seat": event[1], "ends": list(event[2])}
    winner = event[1]
    return {"type": HAND_END, "winner": None if winner == NOBODY else winner, "blocked": event[2],
            "points": list(event[3])}


def _tile_index(raw: Any) -> int:
    a, b = int(raw[0]), int(raw[1])
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise ValueError(f"[{a}, {b}] is not a tile of the double-six set")
    return GRID[a][b]


def event_from_json(data: Mapping[str, Any]) -> Event:
    kind = data["type"]
    if kind == PLAY:
        code = LEAD
        if "end" in data:
            found = end_code(data["end"])
            if found is None:
                raise ValueError(f"no end {data['end']!r}")
            code = found
        return (PLAY, int(data["seat"]), _tile_index(data["tile"]), code, bool(data.get("claim", False)))
    if kind == SCORE:
        return (SCORE, int(data["seat"]), int(data["side"]), int(data["points"]))
    if kind == MUGGINS:
        return (MUGGINS, int(data["seat"]), int(data["from"]), int(data["points"]))
    if kind == DRAW:
        return (DRAW, int(data["seat"]))
    if kind == PASS:
        return (PASS, int(data["seat"]), tuple(int(v) for v in data["ends"]))
    if kind == HAND_END:
        winner = data["winner"]
        return (HAND_END, NOBODY if winner is None else int(winner), bool(data["blocked"]),
                tuple(int(p) for p in data["points"]))
    raise ValueError(f"unknown log event {kind!r}")


def log_json(history: Sequence[Event]) -> list[dict[str, Any]]:
    return [event_json(e) for e in history]


def walk(history: Sequence[Event]) -> Iterator[tuple[Event, int, int, Table]]:
    """Each play of the log as `(event, inner, outer, table after it)`; `inner` is -1 for the
    lead. `ValueError` when a play does not fit the table (a log that is no Five-Up hand)."""
    table = EMPTY
    for event in history:
        if event[0] != PLAY:
            continue
        index, code = event[2], event[3]
        a, b = TILES[index]
        if code == LEAD:
            if table.placed:
                raise ValueError("a second lead in one hand")
            table = lead_table(a, b)
            yield event, -1, b, table
            continue
        ends = table.ends
        position = next((p for p, e in enumerate(ends) if e[0] == code), None)
        if position is None:
            raise ValueError(f"the end {end_id(code)!r} is not open")
        shown = ends[position][1]
        if shown not in (a, b):
            raise ValueError(f"{TILES[index].label()} does not fit the {end_id(code)} end")
        outer = a + b - shown
        table = place(table, position, outer, a == b)
        yield event, shown, outer, table


def replay_table(history: Sequence[Event]) -> Table:
    table = EMPTY
    for *_, after in walk(history):
        table = after
    return table


def layout_json(history: Sequence[Event]) -> list[dict[str, Any]]:
    """The tiles on the table in play order: `tile`, `seat`, `on` (the end id it was laid on;
    null for the lead), `parent` (the tile number that end belongs to), `inner` (the number
    touching the parent; null for the lead), `outer` (the number facing away) and `double`."""
    out: list[dict[str, Any]] = []
    for event, inner, outer, _ in walk(history):
        tile = TILES[event[2]]
        code = event[3]
        out.append({
            "tile": tile.as_list(),
            "seat": event[1],
            "on": None if code == LEAD else end_id(code),
            "parent": None if code == LEAD else code >> 2,
            "inner": None if code == LEAD else inner,
            "outer": outer,
            "double": tile.is_double,
        })
    return out
