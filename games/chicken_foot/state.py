"""The Chicken Foot state: one frozen record per position, and its JSON form.

The layout is a list of branches: the four arms of the opening double, then three toes for
each foot, in the order they were made. A branch that ends in a double is closed; its toes
carry the play on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.log import Event
from games.core.records import dump_record, evolver, load_record
from games.core.tiles import Tile


@dataclass(frozen=True, slots=True)
class FootState:
    """Everything about a match, secrets included; views show only the public part."""

    players: int
    top: int
    hand_size: int
    double_blank: int
    #: Arms of the opening double to fill before any is extended: 4, or 6 (`opening_arms`).
    arms: int
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
        return {"set": self.top, "hand_size": self.hand_size, "double_blank": self.double_blank,
                "opening_arms": self.arms}


#: `dataclasses.replace` for FootState, cheaper on the per-action path.
evolve = evolver(FootState)

TILE_ROWS = ("hands", "branch_tiles", "dealt")


def dump_state(state: FootState) -> dict[str, Any]:
    return dump_record(state)


def load_state(data: Mapping[str, Any]) -> FootState:
    """The state `dump_state` wrote; `ValueError` when a field is missing or malformed.

    A dump from before the `opening_arms` option (a state cached while the server was
    updated) has no `arms`: its lead double had four."""
    if isinstance(data, Mapping) and "arms" not in data:
        data = {**data, "arms": 4}
    return load_record(FootState, data, TILE_ROWS, "Chicken Foot")
