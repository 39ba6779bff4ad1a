"""The Chicken Foot state: one frozen record per position, and its JSON form.

The layout is a list of branches: the four arms of the opening double, then three toes for
each foot, in the order they were made. A branch that ends in a double is closed; its toes
carry the play on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from games.core.tiles import Tile, make_tile

#: A log event or hand summary as compact JSON text: immutable, and one `json.loads` per view.
Event = str


@dataclass(frozen=True, slots=True)
class FootState:
    """Everything about a match, secrets included; views show only the public part."""

    players: int
    top: int
    hand_size: int
    double_blank: int
    master: bytes
    hand: int
    seed: bytes
    commitment: str
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    #: The seat that holds (then led) the hand's double.
    leader: int
    led: bool
    branch_tiles: tuple[tuple[Tile, ...], ...]
    branch_ends: tuple[int, ...]
    #: The branch whose closing double grew this branch as a toe; -1 for the opening arms.
    branch_parent: tuple[int, ...]
    closed: tuple[bool, ...]
    #: Branches still empty that must each take a tile before play goes anywhere else.
    pending: tuple[int, ...]
    turn: int | None
    drawn: Tile | None
    totals: tuple[int, ...]
    dealt: tuple[tuple[Tile, ...], ...]
    log: tuple[Event, ...]
    revealed: tuple[str, ...]
    last_hand: Event | None

    @property
    def lead(self) -> int:
        return self.top - self.hand

    @property
    def options(self) -> dict[str, Any]:
        return {"set": self.top, "hand_size": self.hand_size, "double_blank": self.double_blank}


def encode(event: Mapping[str, Any]) -> Event:
    """An event as the compact JSON text the state keeps (tiles become `[low, high]`)."""
    return json.dumps(event, separators=(",", ":"))


def decode_log(log: tuple[Event, ...]) -> list[dict[str, Any]]:
    """Fresh JSON data for a log: the caller may change it without touching the state."""
    events: list[dict[str, Any]] = json.loads("[" + ",".join(log) + "]")
    return events


def decode(event: Event | None) -> Any:
    return None if event is None else json.loads(event)


def _tiles(raw: Any) -> tuple[Tile, ...]:
    return tuple(make_tile(int(t[0]), int(t[1])) for t in raw)


_BYTES = ("master", "seed")
_TILE_ROWS = ("hands", "branch_tiles", "dealt")


def dump_state(state: FootState) -> dict[str, Any]:
    """Every field as JSON; tiles as `[low, high]`, secrets as hex."""
    out: dict[str, Any] = {}
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name in _BYTES:
            out[f.name] = value.hex()
        elif f.name == "drawn":
            out[f.name] = None if value is None else [value.low, value.high]
        elif f.name == "log":
            out[f.name] = decode_log(value)
        elif f.name == "last_hand":
            out[f.name] = decode(value)
        elif isinstance(value, tuple):
            out[f.name] = json.loads(json.dumps(value))
        else:
            out[f.name] = value
    return out


def load_state(data: Mapping[str, Any]) -> FootState:
    """The state `dump_state` wrote; `ValueError` when a field is missing or malformed."""
    try:
        kwargs: dict[str, Any] = {}
        for f in fields(FootState):
            raw = data[f.name]
            if f.name in _BYTES:
                kwargs[f.name] = bytes.fromhex(raw)
            elif f.name in _TILE_ROWS:
                kwargs[f.name] = tuple(_tiles(row) for row in raw)
            elif f.name == "boneyard":
                kwargs[f.name] = _tiles(raw)
            elif f.name == "drawn":
                kwargs[f.name] = None if raw is None else make_tile(int(raw[0]), int(raw[1]))
            elif f.name == "log":
                kwargs[f.name] = tuple(encode(e) for e in raw)
            elif f.name == "last_hand":
                kwargs[f.name] = None if raw is None else encode(raw)
            elif isinstance(raw, list):
                kwargs[f.name] = tuple(raw)
            else:
                kwargs[f.name] = raw
        return FootState(**kwargs)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"not a Chicken Foot state: {exc!r}") from exc
