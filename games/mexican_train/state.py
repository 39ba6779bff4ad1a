"""The Mexican Train state: one frozen record per position, and its JSON form.

The trains are kept as `lines`: one per seat in seat order, the Mexican train last, so every
end is an index and an end id is a lookup.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.log import Event
from games.core.records import dump_record, evolver, load_record
from games.core.tiles import Tile


@dataclass(frozen=True, slots=True)
class TrainState:
    """Everything about a match, secrets included; views show only the public part."""

    players: int
    top: int
    rounds: int
    hand_size: int
    double_blank: int
    multiple: bool
    #: A seat that cannot play draws until a tile fits or the boneyard is empty
    #: (`draw_until_play`), instead of one tile.
    draw_until: bool
    master: bytes
    round: int
    seed: bytes
    commitment: str
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    #: Tiles of each personal train in seat order, then the Mexican train, from the engine out.
    lines: tuple[tuple[Tile, ...], ...]
    #: The number each line shows at its open end (the engine's while it is empty).
    line_ends: tuple[int, ...]
    markers: tuple[bool, ...]
    #: Lines ending in an uncovered double, oldest first.
    open_doubles: tuple[int, ...]
    #: Whether each seat has had its first turn of the round.
    opened: tuple[bool, ...]
    turn: int | None
    played: int
    owed: bool
    drawn: Tile | None
    totals: tuple[int, ...]
    dealt: tuple[tuple[Tile, ...], ...]
    log: tuple[Event, ...]
    revealed: tuple[str, ...]
    last_hand: Event | None

    @property
    def engine(self) -> int:
        return self.top - self.round

    @property
    def options(self) -> dict[str, Any]:
        return {
            "set": self.top,
            "rounds": self.rounds,
            "hand_size": self.hand_size,
            "double_blank": self.double_blank,
            "first_turn": "multiple" if self.multiple else "single",
            "draw_until_play": self.draw_until,
        }


#: `dataclasses.replace` for TrainState, cheaper on the per-action path.
evolve = evolver(TrainState)

TILE_ROWS = ("hands", "lines", "dealt")


def dump_state(state: TrainState) -> dict[str, Any]:
    return dump_record(state)


def load_state(data: Mapping[str, Any]) -> TrainState:
    """The state `dump_state` wrote; `ValueError` when a field is missing or malformed.

    A dump from before the `draw_until_play` option (a state cached while the server was
    updated) has no `draw_until`: it drew one tile."""
    if isinstance(data, Mapping) and "draw_until" not in data:
        data = {**data, "draw_until": False}
    return load_record(TrainState, data, TILE_ROWS, "Mexican Train")
