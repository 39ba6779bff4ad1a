"""The log and the layout as JSON: events of docs/engine.md, and the tiles of each arm.

The same JSON form serves views, `dump` and `state_from_view`, so there is one codec; the
layout's tiles are never written out, only replayed from the plays of the log.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from games.core.layout import EMPTY, END_IDS, END_INDEX, Layout, lead_layout, place
from games.line.config import LineConfig
from games.line.state import DRAW, HAND_END, LEAD, NOBODY, PASS, PLAY, SCORE, Event
from games.line.tables import TileTable, table


def event_json(tiles: TileTable, event: Event) -> dict[str, Any]:
    kind = event[0]
    if kind == PLAY:
        _, seat, index, end = event
        out: dict[str, Any] = {"type": PLAY, "seat": seat, "tile": tiles.tiles[index].as_list()}
        if end != LEAD:
            out["end"] = END_IDS[end]
        return out
    if kind == DRAW:
        return {"type": DRAW, "seat": event[1]}
    if kind == PASS:
        return {"type": PASS, "seat": event[1], "ends": list(event[2])}
    if kind == SCORE:
        return {"type": SCORE, "seat": event[1], "side": event[2], "points": event[3]}
    winner = event[1]
    return {"type": HAND_END, "winner": None if winner == NOBODY else winner, "blocked": event[2],
            "points": list(event[3])}


def event_from_json(tiles: TileTable, data: Mapping[str, Any]) -> Event:
    kind = data["type"]
    if kind == PLAY:
        index = tiles.index_of(data["tile"])
        return (PLAY, int(data["seat"]), index, END_INDEX[data["end"]] if "end" in data else LEAD)
    if kind == DRAW:
        return (DRAW, int(data["seat"]))
    if kind == PASS:
        return (PASS, int(data["seat"]), tuple(int(v) for v in data["ends"]))
    if kind == SCORE:
        return (SCORE, int(data["seat"]), int(data["side"]), int(data["points"]))
    if kind == HAND_END:
        winner = data["winner"]
        return (HAND_END, NOBODY if winner is None else int(winner), bool(data["blocked"]),
                tuple(int(p) for p in data["points"]))
    raise ValueError(f"unknown log event {kind!r}")


def log_json(tiles: TileTable, log: Sequence[Event]) -> list[dict[str, Any]]:
    return [event_json(tiles, e) for e in log]


def walk(config: LineConfig, log: Sequence[Event]) -> Iterator[tuple[int, int, int, int, Layout]]:
    """Each play of the log as `(tile index, end, inner, outer, layout after it)`."""
    tiles = table(config.top)
    layout = EMPTY
    for event in log:
        if event[0] != PLAY:
            continue
        index: int = event[2]
        end: int = event[3]
        a, b = tiles.low[index], tiles.high[index]
        if end == LEAD:
            layout = lead_layout(a, b, config.spinner)
            yield index, end, a, b, layout
            continue
        shown = layout.ends[end]
        if shown not in (a, b):
            raise ValueError(f"{tiles.tiles[index].label()} does not fit the {END_IDS[end]} end")
        outer = b if a == shown else a
        layout = place(layout, end, outer, a == b, config.spinner)
        yield index, end, shown, outer, layout


def replay_layout(config: LineConfig, log: Sequence[Event]) -> Layout:
    layout = EMPTY
    for *_, after in walk(config, log):
        layout = after
    return layout


def layout_json(config: LineConfig, log: Sequence[Event]) -> dict[str, Any]:
    """The tiles of each arm in order from the centre, so a browser can draw the table.

    `lead` is the first tile; `spinner` says where the spinner lies (`arm` "lead", "left" or
    "right", and its `index` in that arm); each arm tile gives its canonical `tile`, the
    number touching the tile before it (`inner`), the number facing out (`outer`) and `double`.
    """
    tiles = table(config.top)
    lead: dict[str, Any] | None = None
    spinner: dict[str, Any] | None = None
    arms: dict[str, list[dict[str, Any]]] = {name: [] for name in END_IDS}
    for index, end, inner, outer, after in walk(config, log):
        tile = tiles.tiles[index]
        if end == LEAD:
            lead = {"tile": tile.as_list(), "double": tile.is_double}
            if after.spinner >= 0:
                spinner = {"tile": tile.as_list(), "arm": "lead", "index": 0}
            continue
        arm = arms[END_IDS[end]]
        if spinner is None and after.spinner >= 0:
            spinner = {"tile": tile.as_list(), "arm": END_IDS[end], "index": len(arm)}
        arm.append({"tile": tile.as_list(), "inner": inner, "outer": outer, "double": tile.is_double})
    return {"lead": lead, "spinner": spinner, "arms": arms}
