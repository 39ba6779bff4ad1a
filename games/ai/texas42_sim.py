"""Texas 42 hands on bitmasks: the trick rules, Medium's trick policy and fast playouts.

Hard's searches play thousands of tricks per decision; the engine's immutable states and
views are far too slow for that, so this module restates the trick rules on tile indices
(a hand is a 28-bit mask). It covers numbered trumps, doubles and no trumps (follow-me);
nello is left to the generic search. The engine stays the judge of legality: these
functions only ever choose among moves the engine listed, or among sampled hidden tiles.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from games.core.tiles import Tile, full_set

TILES: tuple[Tile, ...] = full_set(6)
INDEX: dict[Tile, int] = {t: i for i, t in enumerate(TILES)}
ALL = (1 << len(TILES)) - 1
SUIT_OF_TRUMPS = 7
SEATS = 4
Trump = int | str | None


def count_of(tile: Tile) -> int:
    return tile.pips if tile.pips in (5, 10) else 0


COUNT: tuple[int, ...] = tuple(count_of(t) for t in TILES)


def _chunk_bits(chunk: int, offset: int) -> tuple[int, ...]:
    return tuple(offset + i for i in range(7) if chunk >> i & 1)


_BITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_chunk_bits(c, 7 * k) for c in range(128)) for k in range(4)
)


def bits(mask: int) -> tuple[int, ...]:
    """The tile indices of a mask, lowest first (the canonical order of the hand)."""
    return (
        _BITS[0][mask & 127] + _BITS[1][mask >> 7 & 127] + _BITS[2][mask >> 14 & 127] + _BITS[3][mask >> 21]
    )


def mask_of(tiles: Sequence[Tile]) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << INDEX[tile]
    return mask


@dataclass(frozen=True, slots=True)
class Table:
    """Everything the trick rules need for one trump choice, precomputed per tile."""

    trump: Trump
    trump_mask: int
    led: tuple[int, ...]
    follow: tuple[int, ...]
    rank: tuple[tuple[int, ...], ...]
    cheap: tuple[int, ...]

    def is_trump(self, tile: int) -> bool:
        return bool(self.trump_mask >> tile & 1)

    def legal(self, hand: int, lead: int | None) -> int:
        if lead is None:
            return hand
        following = hand & self.follow[self.led[lead]]
        return following or hand

    def winner(self, trick: Sequence[int]) -> int:
        """Position of the winning tile in `trick`."""
        suit = self.led[trick[0]]
        if suit != SUIT_OF_TRUMPS:
            for tile in trick:
                if self.trump_mask >> tile & 1:
                    suit = SUIT_OF_TRUMPS
                    break
        ranks = self.rank[suit]
        best, best_rank = 0, ranks[trick[0]]
        for i in range(1, len(trick)):
            r = ranks[trick[i]]
            if r > best_rank:
                best, best_rank = i, r
        return best


def _is_trump(tile: Tile, trump: Trump) -> bool:
    if trump is None:
        return False
    if trump == "doubles":
        return tile.is_double
    return tile.has(int(trump))


def _rank(tile: Tile, suit: int, trump: Trump) -> int:
    if suit == SUIT_OF_TRUMPS:
        if not _is_trump(tile, trump):
            return -1
        if trump == "doubles":
            return tile.low
        number = int(trump)  # type: ignore[arg-type]
        return 7 if tile.is_double else tile.other(number)
    if _is_trump(tile, trump) or not tile.has(suit):
        return -1
    if trump == "doubles" and tile.is_double:
        return -1
    return 7 if tile.is_double else tile.other(suit)


@cache
def table(trump: Trump) -> Table:
    """The precomputed rules for `trump`: a number 0..6, "doubles", or None (no trumps)."""
    trump_mask = mask_of([t for t in TILES if _is_trump(t, trump)])
    led = tuple(SUIT_OF_TRUMPS if _is_trump(t, trump) else t.high for t in TILES)
    rank = tuple(tuple(_rank(t, s, trump) for t in TILES) for s in range(8))
    follow = tuple(mask_of([t for i, t in enumerate(TILES) if rank[s][i] >= 0]) for s in range(8))
    cheap = tuple(
        COUNT[i] * 1000 + (100 if _is_trump(t, trump) else 0) + t.pips for i, t in enumerate(TILES)
    )
    return Table(trump, trump_mask, led, follow, rank, cheap)


def trump_of(choice: object) -> Trump:
    """The suit rules a named trump stands for: a number, "doubles", or None (no trumps)."""
    if isinstance(choice, int):
        return choice
    return "doubles" if choice == "doubles" else None


def medium_play(tab: Table, legal: int, trick: Sequence[int], trick_seats: Sequence[int], seat: int) -> int:
    """`texas42.trick_play` on masks: the same tile for the same position."""
    tiles = bits(legal)
    if len(tiles) == 1:
        return tiles[0]
    cheap = tab.cheap
    if not trick:
        trumps = [t for t in tiles if tab.trump_mask >> t & 1]
        if len(trumps) >= 2:
            ranks = tab.rank[SUIT_OF_TRUMPS]
            return max(trumps, key=lambda t: ranks[t])
        doubles = [t for t in tiles if TILES[t].is_double and not tab.trump_mask >> t & 1]
        if doubles:
            return max(doubles, key=lambda t: (COUNT[t], TILES[t].pips))
        return min(tiles, key=lambda t: cheap[t])
    lead_wins = trick_seats[tab.winner(trick)]
    if (lead_wins - seat) % 2 == 0:
        best = max(tiles, key=lambda t: (COUNT[t], -(tab.trump_mask >> t & 1), -TILES[t].pips))
        if COUNT[best] and len(trick) >= 2:
            return best
        return min(tiles, key=lambda t: cheap[t])
    size = len(trick)
    played = list(trick)
    best_win = -1
    for t in tiles:
        if tab.winner([*played, t]) == size and (best_win < 0 or cheap[t] < cheap[best_win]):
            best_win = t
    if best_win >= 0:
        return best_win
    return min(tiles, key=lambda t: cheap[t])


@dataclass(slots=True)
class Deal:
    """A hand in play: every seat's tiles as a mask, the trick in progress, points per side."""

    hands: list[int]
    trick: list[int]
    trick_seats: list[int]
    leader: int
    points: list[int]

    def copy(self) -> Deal:
        trick, seats = list(self.trick), list(self.trick_seats)
        return Deal(list(self.hands), trick, seats, self.leader, list(self.points))

    def to_move(self) -> int:
        if not self.trick_seats:
            return self.leader
        return (self.trick_seats[-1] + 1) % SEATS

    def play(self, tab: Table, seat: int, tile: int) -> None:
        self.hands[seat] &= ~(1 << tile)
        self.trick.append(tile)
        self.trick_seats.append(seat)
        if len(self.trick) == SEATS:
            won = self.trick_seats[tab.winner(self.trick)]
            trick = self.trick
            self.points[won % 2] += 1 + COUNT[trick[0]] + COUNT[trick[1]] + COUNT[trick[2]] + COUNT[trick[3]]
            self.leader = won
            self.trick = []
            self.trick_seats = []

    def done(self) -> bool:
        return not self.trick and not any(self.hands)


def playout(tab: Table, deal: Deal, rng: random.Random, noise: float) -> list[int]:
    """Play the hand to its last trick with Medium's policy (one move in 1/noise random)."""
    hands = deal.hands
    while hands[deal.leader] or deal.trick:
        seat = deal.to_move()
        legal = tab.legal(hands[seat], deal.trick[0] if deal.trick else None)
        if noise and rng.random() < noise:
            choices = bits(legal)
            tile = choices[int(rng.random() * len(choices))]
        else:
            tile = medium_play(tab, legal, deal.trick, deal.trick_seats, seat)
        deal.play(tab, seat, tile)
    return deal.points


def suit_strength(hand: int, suit: int) -> float:
    """`texas42.suit_strength` on a mask (Medium's bidding and trump yardstick)."""
    return strengths(hand)[suit]


def strengths(hand: int) -> tuple[float, ...]:
    """`suit_strength` of the hand for each suit 0..6, by 7-tile chunks of the mask."""
    a = _CHUNK_STRENGTH[0][hand & 127]
    b = _CHUNK_STRENGTH[1][hand >> 7 & 127]
    c = _CHUNK_STRENGTH[2][hand >> 14 & 127]
    d = _CHUNK_STRENGTH[3][hand >> 21]
    return tuple(a[s] + b[s] + c[s] + d[s] for s in range(7))


def _strength_of(tile: Tile, suit: int) -> float:
    if tile.has(suit):
        return 4.5 + 0.15 * tile.other(suit) + (4.0 if tile.is_double else 0.0)
    return 3.0 if tile.is_double else 0.0


_STRENGTH: tuple[tuple[float, ...], ...] = tuple(
    tuple(_strength_of(t, s) for t in TILES) for s in range(7)
)


class Solver:
    """Exact play of the rest of a hand with every tile known: does the declarer side make it?

    Alpha-beta on a yes/no question is cheap (one side stops at its first winning tile), and
    positions repeat at trick boundaries, so they are remembered. `nodes` bounds the work:
    once spent, the remaining questions are answered by a Medium playout instead.
    """

    def __init__(self, tab: Table, need: int, side: int, nodes: int) -> None:
        self.tab = tab
        self.need = need
        self.side = side
        self.left = nodes
        self.memo: dict[tuple[int, int, int, int, int, int], bool] = {}

    def makes(self, deal: Deal) -> bool | None:
        """True or False, or None when the node budget ran out first."""
        try:
            return self._search(deal.hands, deal.trick, deal.trick_seats, deal.leader, deal.points)
        except _OutOfNodes:
            return None

    def _search(
        self, hands: list[int], trick: list[int], seats: list[int], leader: int, points: list[int]
    ) -> bool:
        side = self.side
        if points[side] >= self.need:
            return True
        if points[1 - side] > 42 - self.need:
            return False
        key = None
        if not trick:
            if not hands[leader]:
                return False
            key = (hands[0], hands[1], hands[2], hands[3], leader, points[side])
            known = self.memo.get(key)
            if known is not None:
                return known
        self.left -= 1
        if self.left < 0:
            raise _OutOfNodes
        tab = self.tab
        seat = leader if not seats else (seats[-1] + 1) % SEATS
        legal = tab.legal(hands[seat], trick[0] if trick else None)
        first = medium_play(tab, legal, trick, seats, seat)
        order = [first, *(t for t in bits(legal) if t != first)]
        want = seat % 2 == side
        result = not want
        hand = hands[seat]
        for tile in order:
            hands[seat] = hand & ~(1 << tile)
            if len(trick) == 3:
                full = [*trick, tile]
                won = [*seats, seat][tab.winner(full)]
                gain = 1 + COUNT[full[0]] + COUNT[full[1]] + COUNT[full[2]] + COUNT[tile]
                after = list(points)
                after[won % 2] += gain
                outcome = self._search(hands, [], [], won, after)
            else:
                outcome = self._search(hands, [*trick, tile], [*seats, seat], leader, points)
            if outcome == want:
                result = want
                break
        hands[seat] = hand
        if key is not None:
            self.memo[key] = result
        return result


class _OutOfNodes(Exception):
    """The solver's node budget is spent."""


_CHUNK_STRENGTH: tuple[tuple[tuple[float, ...], ...], ...] = tuple(
    tuple(
        tuple(sum(_STRENGTH[s][t] for t in _BITS[k][c]) for s in range(7)) for c in range(128)
    )
    for k in range(4)
)
