"""Tiles and sets: the canonical form `[low, high]` and the canonical order of a set."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from games.core.errors import MalformedAction

SET_SIZES: tuple[int, ...] = (6, 9, 12, 15, 18)


class Tile(NamedTuple):
    """One domino, always stored low end first so equal tiles compare equal.

    A NamedTuple serialises to JSON as `[low, high]`, the wire form of docs/engine.md, "Tiles and sets".
    """

    low: int
    high: int

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    def has(self, number: int) -> bool:
        return number in (self.low, self.high)

    def other(self, number: int) -> int:
        """The number at the far end when `number` is matched (a double gives its own)."""
        return self.high if self.low == number else self.low

    def label(self) -> str:
        return f"[{self.low}, {self.high}]"

    def as_list(self) -> list[int]:
        return [self.low, self.high]


def make_tile(a: int, b: int) -> Tile:
    """A tile from two numbers in either order."""
    return Tile(a, b) if a <= b else Tile(b, a)


@cache
def full_set(top: int) -> tuple[Tile, ...]:
    """Every tile of double-`top` in canonical order: `for a in 0..N: for b in a..N`."""
    if top not in SET_SIZES:
        raise ValueError(f"set must be one of {list(SET_SIZES)}, not {top!r}")
    return tuple(Tile(a, b) for a in range(top + 1) for b in range(a, top + 1))


def set_size(top: int) -> int:
    return (top + 1) * (top + 2) // 2


def tile_index(tile: Tile, top: int) -> int:
    """Position of `tile` in the canonical order of double-`top` (for bitmask encodings)."""
    a, b = tile
    return a * (top + 1) - a * (a - 1) // 2 + (b - a)


def parse_tile(raw: object) -> Tile:
    """Read a tile from a JSON value (`[a, b]` in either order); anything else is malformed."""
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise MalformedAction(f"a tile is a list of two numbers, not {raw!r}")
    a, b = raw
    if type(a) is not int or type(b) is not int or a < 0 or b < 0 or a > 18 or b > 18:
        raise MalformedAction(f"a tile is a list of two numbers from 0 to 18, not {raw!r}")
    return make_tile(a, b)


def tiles_json(tiles: object) -> list[list[int]]:
    """Tiles as the JSON lists of the wire."""
    return [[t[0], t[1]] for t in tiles]  # type: ignore[attr-defined]


def pip_total(tiles: object, double_blank: int = 0) -> int:
    """Pips held, with the double-blank counting `double_blank` where a room option says so."""
    total = 0
    for t in tiles:  # type: ignore[attr-defined]
        if t[0] == 0 and t[1] == 0:
            total += double_blank
        else:
            total += t[0] + t[1]
    return total
