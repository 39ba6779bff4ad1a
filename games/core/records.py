"""The JSON form of a frozen state record, by the field conventions the penalty games share.

Secrets (`master`, `seed`) are hex; `drawn` is a tile or null; `log` and `last_hand` are
events kept as text (games.core.log); rows of tiles and the boneyard are tiles; any other
tuple is a JSON list. A family says only which of its fields are rows of tiles.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from dataclasses import fields
from operator import attrgetter
from typing import Any, TypeVar

from games.core.log import decode, decode_log, encode
from games.core.tiles import Tile, make_tile

R = TypeVar("R")

SECRETS = ("master", "seed")


def tiles_from_json(raw: Any) -> tuple[Tile, ...]:
    """Tiles from their wire lists, in either order."""
    return tuple(make_tile(int(t[0]), int(t[1])) for t in raw)


def evolver(cls: type[R]) -> Callable[..., R]:
    """A `dataclasses.replace` for one record class, about a third cheaper.

    Every action of every AI rollout makes one new state, so the copy is the hot path's
    largest cost: this one reads all fields with one `attrgetter` and builds positionally.
    A misspelt field name raises `KeyError`.
    """
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    read = attrgetter(*names)
    index = {name: i for i, name in enumerate(names)}

    def evolve(state: R, **changes: Any) -> R:
        values = list(read(state))
        for name, value in changes.items():
            values[index[name]] = value
        return cls(*values)

    return evolve


def dump_record(state: Any) -> dict[str, Any]:
    """Every field as JSON; tiles as `[low, high]`, secrets as hex."""
    out: dict[str, Any] = {}
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name in SECRETS:
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


def load_record(cls: type[R], data: Mapping[str, Any], tile_rows: Collection[str], what: str) -> R:
    """The state `dump_record` wrote; `ValueError` (naming `what`) when a field is bad."""
    try:
        kwargs: dict[str, Any] = {}
        for f in fields(cls):  # type: ignore[arg-type]
            raw = data[f.name]
            if f.name in SECRETS:
                kwargs[f.name] = bytes.fromhex(raw)
            elif f.name in tile_rows:
                kwargs[f.name] = tuple(tiles_from_json(row) for row in raw)
            elif f.name == "boneyard":
                kwargs[f.name] = tiles_from_json(raw)
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
        return cls(**kwargs)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"not a {what} state: {exc!r}") from exc
