"""Suits, following and trick winners of 42: where a tile belongs once trumps are named.

Trumps are a number 0..6, `DOUBLES` (the seven doubles form the trump suit), or `None` (no
trump suit: follow-me and nello). A led tile's suit is `TRUMPS` when it is a trump, otherwise
its higher end; a tile carrying the trump number is never of another suit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.core.tiles import Tile

DOUBLES = "doubles"
TRUMPS = 7
HANDS = 4
TRICKS = 7
HAND_TOTAL = 42

#: The named trumps of the `trump` action, or None where no suit is trumps.
TrumpSuit = int | str | None


def count_of(tile: Tile) -> int:
    """Count carried by a tile: 5-0, 4-1, 3-2 are worth 5; 6-4 and 5-5 are worth 10."""
    pips = tile.low + tile.high
    return pips if pips in (5, 10) else 0


def trick_points(tiles: Iterable[Tile]) -> int:
    """One point for the trick itself plus the count it holds."""
    return 1 + sum(count_of(t) for t in tiles)


def is_trump(tile: Tile, trump: TrumpSuit) -> bool:
    if trump is None:
        return False
    if trump == DOUBLES:
        return tile.low == tile.high
    return trump in (tile.low, tile.high)


def led_suit(tile: Tile, trump: TrumpSuit) -> int:
    """The suit a lead calls for: `TRUMPS`, or the higher end (a double's own number)."""
    return TRUMPS if is_trump(tile, trump) else tile.high


def follows(tile: Tile, suit: int, trump: TrumpSuit) -> bool:
    """Whether `tile` belongs to `suit`: any tile carrying the number, unless it is a trump."""
    if suit == TRUMPS:
        return is_trump(tile, trump)
    return suit in (tile.low, tile.high) and not is_trump(tile, trump)


def rank(tile: Tile, suit: int, trump: TrumpSuit) -> int:
    """Order within a suit the tile belongs to: the double highest, then by the other end."""
    if suit == TRUMPS:
        if trump == DOUBLES:
            return tile.low
        suit = trump  # type: ignore[assignment]
    if tile.low == tile.high:
        return TRICKS
    return tile.high if tile.low == suit else tile.low


def legal_plays(hand: Sequence[Tile], trick: Sequence[Tile], trump: TrumpSuit) -> list[Tile]:
    """Any tile to lead; afterwards the tiles of the led suit, or anything when void in it.

    `follows` spelled out per kind of trump, since this runs at every play of every rollout.
    """
    if not trick:
        return list(hand)
    lead = trick[0]
    if trump is None:
        suit = lead.high
        following = [t for t in hand if suit in t]
    elif trump == DOUBLES:
        if lead.low == lead.high:
            following = [t for t in hand if t.low == t.high]
        else:
            suit = lead.high
            following = [t for t in hand if suit in t and t.low != t.high]
    elif trump in lead:
        following = [t for t in hand if trump in t]
    else:
        suit = lead.high
        following = [t for t in hand if suit in t and trump not in t]
    return following or list(hand)


def winning_index(trick: Sequence[Tile], trump: TrumpSuit) -> int:
    """Position in `trick` of the winner: the highest trump, else the highest of the led suit."""
    suit = led_suit(trick[0], trump)
    if suit != TRUMPS and any(is_trump(t, trump) for t in trick):
        suit = TRUMPS
    best = 0
    best_rank = -1
    for i, tile in enumerate(trick):
        if follows(tile, suit, trump):
            r = rank(tile, suit, trump)
            if r > best_rank:
                best, best_rank = i, r
    return best
