"""Dealing a hand from its seed and choosing who leads it with what.

The order of the tiles comes only from games.core.fairness (SPEC §2), so every deal can be
checked by the players once its seed is revealed.
"""

from __future__ import annotations

from games.core.fairness import commitment, deal, hand_seed, shuffle
from games.line.config import LineConfig
from games.line.state import ANY_TILE
from games.line.tables import TileTable, table

Dealt = tuple[bytes, str, tuple[tuple[int, ...], ...], tuple[int, ...]]


def deal_hand(config: LineConfig, master: bytes, number: int) -> Dealt:
    """Seed, commitment, the dealt tile indices of each seat and the boneyard of hand `number`."""
    seed = hand_seed(master, number)
    order = shuffle(range(len(table(config.top).tiles)), seed)
    hands, boneyard = deal(order, config.players, config.hand_size)
    return seed, commitment(seed), hands, boneyard


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
