"""Suits, following and trick winners of 42: where a tile belongs once trumps are named.

Trumps are a number 0..6, `DOUBLES` (the seven doubles form the trump suit), or `None` (no
trump suit: follow-me and nello). A led tile's suit is `TRUMPS` when it is a trump, otherwise
its higher end; a tile carrying the trump number is never of another suit.

Three more kinds of hand have no trump suit and rules of their own (docs/rules-texas42.md):
`DOUBLES_LOW` (nello with the doubles lowest in their suits), `DOUBLES_SUIT` (nello with the
doubles a suit of their own, which is not trumps: a double lead calls for doubles, as
`DOUBLES` does) and `SEVENS` (no suits at all: every seat must play its tile closest to seven
pips, and the closest tile wins).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.core.tiles import Tile

DOUBLES = "doubles"
DOUBLES_LOW = "doubles_low"
DOUBLES_SUIT = "doubles_suit"
SEVENS = "sevens"
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
    if isinstance(trump, int):
        return trump in (tile.low, tile.high)
    return trump == DOUBLES and tile.low == tile.high


def distance(tile: Tile) -> int:
    """How far a tile's pips are from seven: what ranks it in sevens (0 is best)."""
    return abs(tile.low + tile.high - 7)


def _doubles_apart(trump: TrumpSuit) -> bool:
    """Whether the doubles form a suit of their own (as trumps, or in nello as a plain suit)."""
    return trump in (DOUBLES, DOUBLES_SUIT)


def led_suit(tile: Tile, trump: TrumpSuit) -> int:
    """The suit a lead calls for: `TRUMPS` (or the doubles' own suit, also 7), or the higher end
    (a double's own number)."""
    if is_trump(tile, trump) or (trump == DOUBLES_SUIT and tile.low == tile.high):
        return TRUMPS
    return tile.high


def follows(tile: Tile, suit: int, trump: TrumpSuit) -> bool:
    """Whether `tile` belongs to `suit`: any tile carrying the number, unless it is a trump (or
    a double where the doubles are a suit apart)."""
    if trump == DOUBLES_SUIT:
        double = tile.low == tile.high
        return double if suit == TRUMPS else suit in (tile.low, tile.high) and not double
    if suit == TRUMPS:
        return is_trump(tile, trump)
    return suit in (tile.low, tile.high) and not is_trump(tile, trump)


def rank(tile: Tile, suit: int, trump: TrumpSuit) -> int:
    """Order within a suit the tile belongs to: the double highest (lowest in `DOUBLES_LOW`),
    then by the other end; the doubles' own suit by number."""
    if suit == TRUMPS:
        if _doubles_apart(trump):
            return tile.low
        suit = trump  # type: ignore[assignment]
    if tile.low == tile.high:
        return -1 if trump == DOUBLES_LOW else TRICKS
    return tile.high if tile.low == suit else tile.low


def legal_plays(hand: Sequence[Tile], trick: Sequence[Tile], trump: TrumpSuit) -> list[Tile]:
    """Any tile to lead; afterwards the tiles of the led suit, or anything when void in it.

    `follows` spelled out per kind of trump, since this runs at every play of every rollout.
    """
    if trump == SEVENS:
        closest = min(distance(t) for t in hand)
        return [t for t in hand if distance(t) == closest]
    if not trick:
        return list(hand)
    lead = trick[0]
    if trump is None or trump == DOUBLES_LOW:
        suit = lead.high
        following = [t for t in hand if suit in t]
    elif _doubles_apart(trump):
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


def winning_index(trick: Sequence[Tile], trump: TrumpSuit, favoured: Sequence[bool] = ()) -> int:
    """Position in `trick` of the winner: the highest trump, else the highest of the led suit.

    In sevens, the tile closest to seven pips; among equally close tiles the first of those
    `favoured` marks (the bidding side's: a tie does not set the bidder), else the first played.
    """
    if trump == SEVENS:
        return min(range(len(trick)), key=lambda i: (
            distance(trick[i]), 0 if i < len(favoured) and favoured[i] else 1, i))
    suit = led_suit(trick[0], trump)
    if suit != TRUMPS and any(is_trump(t, trump) for t in trick):
        suit = TRUMPS
    best = 0
    best_rank = -2
    for i, tile in enumerate(trick):
        if follows(tile, suit, trump):
            r = rank(tile, suit, trump)
            if r > best_rank:
                best, best_rank = i, r
    return best
