"""Dealing a hand from its seed and choosing who leads it with what.

The order of the tiles comes only from games.core.fairness (docs/engine.md, "Fair shuffle"),
so every deal can be checked by the players once its seed is revealed.
"""

from __future__ import annotations

from functools import cache

from games.core.fairness import commitment, hand_seed, shuffle
from games.line.config import LineConfig
from games.line.state import ANY_TILE
from games.line.tables import TileTable, table

Dealt = tuple[bytes, str, tuple[tuple[int, ...], ...], tuple[int, ...]]


def deal_hand(config: LineConfig, master: bytes, number: int) -> Dealt:
    """Seed, commitment, the dealt tile indices of each seat and the boneyard of hand `number`."""
    seed = hand_seed(master, number)
    order = shuffle(_indices(config.top), seed)
    size = config.hand_size
    dealt = config.players * size
    if dealt > len(order):
        raise ValueError(f"cannot deal {size} tiles to {config.players} players from {len(order)}")
    # `fairness.deal`, with the slices taken in one comprehension (every hand of every match).
    hands = tuple([order[k:k + size] for k in range(0, dealt, size)])
    return seed, commitment(seed), hands, order[dealt:]


@cache
def _indices(top: int) -> range:
    return range(len(table(top).tiles))


def opening(tiles: TileTable, hands: tuple[int, ...], leader: int) -> tuple[int, int]:
    """The seat that leads and the tile it must lead (`ANY_TILE`: its choice).

    `leader` is the previous winner where the rules let them lead with any tile, else -1:
    then the holder of the highest double leads it, or with no double dealt the heaviest tile
    (the higher end breaking ties).
    """
    if leader >= 0:
        return leader, ANY_TILE
    for wanted in (tiles.doubles_high_first, tiles.by_weight):
        for index in wanted:
            bit = 1 << index
            for seat, hand in enumerate(hands):
                if hand & bit:
                    return seat, index
    raise ValueError("nobody holds a tile")
