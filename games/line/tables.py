"""Precomputed tables of a set, so hands can be bitmasks of tile indices.

Bit `i` of a hand stands for tile `i` of the set's canonical order (docs/engine.md, "Tiles and
sets"). A seat can play on an end showing `v` exactly when `hand & suit[v]` is non-zero, which
keeps the hot paths of `legal_actions` and `advance` to a few integer operations.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from games.core.layout import CLOSED, END_IDS, Layout
from games.core.tiles import Tile, full_set, parse_tile, tile_index

Plan = tuple[int, tuple[tuple[int, str], ...]]
#: Per open ends and set: the mask of tiles that fit an open end (0 for the empty layout), the
#: open ends as `(mask, end index)`, the legal moves and the (moves, actions) already worked
#: out by the tiles that fit in the hand of the seat to move (see `games.line.moves._plays`),
#: and the numbers the open ends show.
LayoutInfo = tuple[int, tuple[tuple[int, int], ...], dict[int, tuple[int, ...]],
                   dict[int, tuple[tuple[int, ...], tuple[Any, ...]]], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class TileTable:
    """Per-tile and per-number facts of one set (double-`top`)."""

    top: int
    tiles: tuple[Tile, ...]
    low: tuple[int, ...]
    high: tuple[int, ...]
    pips: tuple[int, ...]
    suit: tuple[int, ...]
    grid: tuple[tuple[int, ...], ...]
    doubles_high_first: tuple[int, ...]
    by_weight: tuple[int, ...]
    plans: dict[tuple[int, ...], Plan] = field(default_factory=dict, compare=False, repr=False)
    #: Pips of every byte of a mask, per byte position: a hand's count is a few lookups.
    byte_pips: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    #: `layout_info` by open ends.
    ends_info: dict[tuple[int, ...], LayoutInfo] = field(default_factory=dict, compare=False, repr=False)
    #: `end_moves`, memoised.
    ends_moves: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = field(
        default_factory=dict, compare=False, repr=False)

    def plan(self, ends: tuple[int, ...]) -> Plan:
        """For open ends `ends`: the mask of tiles that fit any, and `(mask, end id)` per end.

        Memoised: a set has few distinct end tuples, and this is asked on every move.
        """
        found = self.plans.get(ends)
        if found is None:
            per_end = tuple((self.suit[v], END_IDS[e]) for e, v in enumerate(ends) if v != CLOSED)
            fit = 0
            for mask, _ in per_end:
                fit |= mask
            found = self.plans[ends] = (fit, per_end)
        return found

    def end_moves(self, ends: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        """For open ends `ends`: `(mask of the tiles that fit, end index)` per open end."""
        found = self.ends_moves.get(ends)
        if found is None:
            found = self.ends_moves[ends] = tuple(
                (self.suit[v], e) for e, v in enumerate(ends) if v != CLOSED)
        return found

    def layout_info(self, layout: Layout) -> LayoutInfo:
        """What the moves need of `layout` in this set (see `LayoutInfo`): one record per
        open-ends tuple, shared by every layout that shows those ends and kept in each
        one's `memo`, so a move finds it with one lookup."""
        found: LayoutInfo | None = layout.memo.get(self.top)
        if found is None:
            ends = layout.ends
            found = self.ends_info.get(ends)
            if found is None:
                fit = self.plan(ends)[0] if ends[0] != CLOSED else 0
                shown = tuple(v for v in ends if v != CLOSED)
                found = self.ends_info[ends] = (fit, self.end_moves(ends), {}, {}, shown)
            layout.memo[self.top] = found
        return found

    def index(self, tile: Tile) -> int:
        return tile_index(tile, self.top)

    def index_of(self, raw: object) -> int:
        """The index of a JSON tile `[a, b]` (either order); `ValueError` if not of this set."""
        if isinstance(raw, (list, tuple)) and len(raw) == 2:
            a, b = raw
            if type(a) is int and type(b) is int and 0 <= a <= self.top and 0 <= b <= self.top:
                return self.grid[a][b]
        tile = parse_tile(raw)
        raise ValueError(f"{tile.label()} is not a tile of the double-{self.top} set")

    def mask(self, tiles: Iterable[Tile]) -> int:
        out = 0
        for t in tiles:
            out |= 1 << tile_index(t, self.top)
        return out

    def tiles_of(self, mask: int) -> list[Tile]:
        return [self.tiles[i] for i in bits(mask)]

    def pip_count(self, mask: int, double_blank: int) -> int:
        """Pips held, the double-blank counting `double_blank` (it is tile 0 of every set).

        By bytes of the mask, not tile by tile: hands are counted at every end of a hand in
        the AI's playouts and endgame searches.
        """
        total = double_blank if mask & 1 else 0
        for per_byte in self.byte_pips:
            total += per_byte[mask & 255]
            mask >>= 8
        return total


def bits(mask: int) -> Iterator[int]:
    """Indexes of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@cache
def table(top: int) -> TileTable:
    tiles = full_set(top)
    suit = [0] * (top + 1)
    for i, t in enumerate(tiles):
        suit[t.low] |= 1 << i
        suit[t.high] |= 1 << i
    doubles = tuple(tile_index(Tile(d, d), top) for d in range(top, -1, -1))
    by_weight = tuple(sorted(range(len(tiles)), key=lambda i: (-tiles[i].pips, -tiles[i].high)))
    return TileTable(
        top=top,
        tiles=tiles,
        low=tuple(t.low for t in tiles),
        high=tuple(t.high for t in tiles),
        pips=tuple(t.pips for t in tiles),
        suit=tuple(suit),
        grid=tuple(tuple(tile_index(Tile(min(a, b), max(a, b)), top) for b in range(top + 1))
                   for a in range(top + 1)),
        doubles_high_first=doubles,
        by_weight=by_weight,
        byte_pips=tuple(
            tuple(sum(tiles[start + k].pips for k in range(8) if byte >> k & 1 and start + k < len(tiles))
                  for byte in range(256))
            for start in range(0, len(tiles), 8)
        ),
    )
