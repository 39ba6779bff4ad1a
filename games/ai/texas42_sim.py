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
from dataclasses import dataclass, field
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
    #: Medium's key for feeding a partner's trick, `(count, not a trump, -pips)`, as one int
    #: that orders and ties exactly as the tuple does.
    feed: tuple[int, ...] = ()
    #: `medium_choice`'s answers so far (see there).
    memo: dict[int, int] = field(default_factory=dict, compare=False, repr=False)

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
    feed = tuple(
        COUNT[i] * 1000 + (0 if _is_trump(t, trump) else 100) + 50 - t.pips for i, t in enumerate(TILES)
    )
    return Table(trump, trump_mask, led, follow, rank, cheap, feed)


def trump_of(choice: object) -> Trump:
    """The suit rules a named trump stands for: a number, "doubles", or None (no trumps)."""
    if isinstance(choice, int):
        return choice
    return "doubles" if choice == "doubles" else None


#: Medium's key for leading a double, `(count, pips)`, as one int (see `Table.feed`).
_DOUBLE_KEY: tuple[int, ...] = tuple(COUNT[i] * 100 + t.pips for i, t in enumerate(TILES))
_DOUBLES = sum(1 << i for i, t in enumerate(TILES) if t.is_double)


def medium_play(tab: Table, legal: int, trick: Sequence[int], trick_seats: Sequence[int], seat: int) -> int:
    """`texas42.trick_play` on masks: the same tile for the same position."""
    if not trick:
        return medium_choice(tab, legal, 0, False, 0, 0)
    partner = (trick_seats[tab.winner(trick)] - seat) % 2 == 0
    if partner:
        return medium_choice(tab, legal, len(trick), True, 0, 0)
    suit = tab.led[trick[0]]
    trump_mask = tab.trump_mask
    if suit != SUIT_OF_TRUMPS and any(trump_mask >> t & 1 for t in trick):
        suit = SUIT_OF_TRUMPS
    ranks = tab.rank[suit]
    return medium_choice(tab, legal, len(trick), False, suit, max([ranks[t] for t in trick]))


#: Past this many positions remembered per trump, `medium_choice` starts its memory afresh.
MEMO_CAP = 20_000


def medium_choice(tab: Table, legal: int, played: int, partner: bool, suit: int, top: int) -> int:  # noqa: PLR0917
    """Medium's tile from what its rule reads of the trick: `played` tiles down, whether the
    partner holds the trick, and otherwise the suit that rules it and its best rank so far.

    Every choice is a `max` or `min` over the tiles in hand order with an int key that orders
    and ties as Medium's own does (so the first of equals wins, as there). Remembered per
    trump: the playouts of one decision meet the same hands and tricks again and again.
    """
    if not played:
        key = legal << 8
    elif partner:
        key = legal << 8 | (3 if played >= 2 else 1)
    else:
        key = legal << 8 | 128 | suit << 4 | (top + 1)
    memo = tab.memo
    found = memo.get(key)
    if found is not None:
        return found
    tiles = bits(legal)
    cheap = tab.cheap
    trump_mask = tab.trump_mask
    if len(tiles) == 1:
        tile = tiles[0]
    elif not played:
        trumps = legal & trump_mask
        doubles = legal & _DOUBLES & ~trump_mask
        if trumps & (trumps - 1):
            tile = max([t for t in tiles if trumps >> t & 1], key=tab.rank[SUIT_OF_TRUMPS].__getitem__)
        elif doubles:
            tile = max([t for t in tiles if doubles >> t & 1], key=_DOUBLE_KEY.__getitem__)
        else:
            tile = min(tiles, key=cheap.__getitem__)
    elif partner:
        tile = max(tiles, key=tab.feed.__getitem__)
        if not (COUNT[tile] and played >= 2):
            tile = min(tiles, key=cheap.__getitem__)
    else:
        ranks = tab.rank[suit]
        if suit == SUIT_OF_TRUMPS:
            winning = [t for t in tiles if ranks[t] > top]
        else:
            winning = [t for t in tiles if trump_mask >> t & 1 or ranks[t] > top]
        tile = min(winning or tiles, key=cheap.__getitem__)
    if len(memo) >= MEMO_CAP:
        memo.clear()
    memo[key] = tile
    return tile


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
    """Play the hand to its last trick with Medium's policy (one move in 1/noise random).

    `Deal.to_move` and `Deal.play` inlined on local variables (`deal` ends as they leave it),
    and the trick's winner kept as it grows: the suit that rules it (the led suit, or trumps
    once one is played), the best rank under it and its position, as `Table.winner` finds.
    """
    hands = deal.hands
    trick = deal.trick
    seats = deal.trick_seats
    leader = deal.leader
    points = deal.points
    follow = tab.follow
    led = tab.led
    rank = tab.rank
    trumps = tab.trump_mask
    memo = tab.memo
    chance = rng.random
    suit = top = best = 0
    if trick:
        best = tab.winner(trick)
        suit = led[trick[0]]
        if suit != SUIT_OF_TRUMPS and any(trumps >> t & 1 for t in trick):
            suit = SUIT_OF_TRUMPS
        top = rank[suit][trick[best]]
    while hands[leader] or trick:
        seat = (seats[-1] + 1) % SEATS if seats else leader
        hand = hands[seat]
        played = len(trick)
        legal = (hand & follow[led[trick[0]]] or hand) if played else hand
        if noise and chance() < noise:
            choices = bits(legal)
            tile = choices[int(chance() * len(choices))]
        elif not legal & (legal - 1):
            tile = legal.bit_length() - 1
        else:
            # `medium_choice`, its memory looked up here first (see there for the keys).
            if not played:
                key = legal << 8
                partner = False
            else:
                partner = (seats[best] - seat) % 2 == 0
                key = legal << 8 | ((3 if played >= 2 else 1) if partner else 128 | suit << 4 | (top + 1))
            found = memo.get(key)
            tile = found if found is not None else medium_choice(tab, legal, played, partner, suit, top)
        hands[seat] = hand & ~(1 << tile)
        trick.append(tile)
        seats.append(seat)
        if not played:
            suit = led[tile]
            top = rank[suit][tile]
            best = 0
        elif suit != SUIT_OF_TRUMPS and trumps >> tile & 1:
            suit = SUIT_OF_TRUMPS
            top = rank[suit][tile]
            best = played
        elif rank[suit][tile] > top:
            top = rank[suit][tile]
            best = played
        if played == SEATS - 1:
            won = seats[best]
            points[won % 2] += 1 + COUNT[trick[0]] + COUNT[trick[1]] + COUNT[trick[2]] + COUNT[trick[3]]
            leader = won
            trick = []
            seats = []
    deal.trick = trick
    deal.trick_seats = seats
    deal.leader = leader
    return points


def suit_strength(hand: int, suit: int) -> float:
    """`texas42.suit_strength` on a mask (Medium's bidding and trump yardstick)."""
    return strengths(hand)[suit]


def strengths(hand: int) -> tuple[float, ...]:
    """`suit_strength` of the hand for each suit 0..6, by 7-tile chunks of the mask."""
    a = _CHUNK_STRENGTH[0][hand & 127]
    b = _CHUNK_STRENGTH[1][hand >> 7 & 127]
    c = _CHUNK_STRENGTH[2][hand >> 14 & 127]
    d = _CHUNK_STRENGTH[3][hand >> 21]
    return tuple([w + x + y + z for w, x, y, z in zip(a, b, c, d)])


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
        trick = tuple(deal.trick)
        suit = top = best = 0
        if trick:
            tab = self.tab
            best = tab.winner(trick)
            suit = tab.led[trick[0]]
            if suit != SUIT_OF_TRUMPS and any(tab.trump_mask >> t & 1 for t in trick):
                suit = SUIT_OF_TRUMPS
            top = tab.rank[suit][trick[best]]
        points = deal.points
        try:
            return self._search(deal.hands, trick, tuple(deal.trick_seats), deal.leader,
                                points[self.side], points[1 - self.side], suit, top, best)
        except _OutOfNodes:
            return None

    def _search(  # noqa: PLR0917 - one frame per node: positional, and the trick's winner kept
        self, hands: list[int], trick: tuple[int, ...], seats: tuple[int, ...], leader: int,
        mine: int, theirs: int, suit: int, top: int, best: int,
    ) -> bool:
        """Whether the declarer side makes it from here. `mine` and `theirs` are the points of
        the side asked about and of the other; `suit`, `top` and `best` are the trick's ruling
        suit, best rank and winning position so far (as `playout` keeps them). The same
        nodes in the same order as a search that lists each trick and asks `Table.winner`."""
        if mine >= self.need:
            return True
        if theirs > 42 - self.need:
            return False
        key = None
        if not trick:
            if not hands[leader]:
                return False
            key = (hands[0], hands[1], hands[2], hands[3], leader, mine)
            known = self.memo.get(key)
            if known is not None:
                return known
        self.left -= 1
        if self.left < 0:
            raise _OutOfNodes
        tab = self.tab
        played = len(trick)
        seat = (seats[-1] + 1) % SEATS if played else leader
        hand = hands[seat]
        if not played:
            legal = hand
            first = medium_choice(tab, legal, 0, False, 0, 0)
        else:
            legal = hand & tab.follow[tab.led[trick[0]]] or hand
            if (seats[best] - seat) % 2 == 0:
                first = medium_choice(tab, legal, played, True, 0, 0)
            else:
                first = medium_choice(tab, legal, played, False, suit, top)
        order = [first, *(t for t in bits(legal) if t != first)]
        side = self.side
        want = seat % 2 == side
        result = not want
        rank = tab.rank
        for tile in order:
            hands[seat] = hand & ~(1 << tile)
            if not played:
                now_suit = tab.led[tile]
                now_top = rank[now_suit][tile]
                now_best = 0
            elif suit != SUIT_OF_TRUMPS and tab.trump_mask >> tile & 1:
                now_suit, now_top, now_best = SUIT_OF_TRUMPS, rank[SUIT_OF_TRUMPS][tile], played
            elif rank[suit][tile] > top:
                now_suit, now_top, now_best = suit, rank[suit][tile], played
            else:
                now_suit, now_top, now_best = suit, top, best
            if played == 3:
                won = seat if now_best == 3 else seats[now_best]
                gain = 1 + COUNT[trick[0]] + COUNT[trick[1]] + COUNT[trick[2]] + COUNT[tile]
                if won % 2 == side:
                    outcome = self._search(hands, (), (), won, mine + gain, theirs, 0, 0, 0)
                else:
                    outcome = self._search(hands, (), (), won, mine, theirs + gain, 0, 0, 0)
            else:
                outcome = self._search(hands, (*trick, tile), (*seats, seat), leader, mine, theirs,
                                       now_suit, now_top, now_best)
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
