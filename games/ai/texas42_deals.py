"""Deals of the hidden tiles of a 42 hand that fit the view, weighted by what the bids say.

Voids from failures to follow are hard constraints. The auction is soft evidence: a seat
that bid 34 rarely holds a hand too weak to bid, a seat that passed rarely a strong one,
and the bidder usually named its longest, strongest suit. The evidence is read through
Medium's own yardstick (`suit_strength`), which is also how a plain player judges a hand,
and each candidate deal is kept with the probability that yardstick gives its bids, so the
search plays against the hands the table has described rather than against any deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.ai.inference import tile_of
from games.ai.policy import View
from games.ai.rand import shuffle
from games.ai.texas42_sim import (
    ALL,
    INDEX,
    SEATS,
    Deal,
    Trump,
    bits,
    medium_play,
    strengths,
    table,
    trump_of,
)

PASS = 0
SOFT = 2.0
TRUMP_SOFT = 3.0
OPPONENT_ODD = 0.4
PARTNER_ODD = 0.8


@dataclass(slots=True)
class Reading:
    """What a seat knows of the hand in play, on masks."""

    me: int
    shuffler: int
    hand: int
    sizes: list[int]
    played: list[int]
    banned: list[int]
    bids: list[tuple[int, int]]
    trump: Trump = None
    declarer: int | None = None
    deal: Deal | None = None
    plays: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def unseen(self) -> int:
        seen = self.hand
        for mask in self.played:
            seen |= mask
        return ALL & ~seen


def _bids(view: View) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for entry in view.get("bids") or ():
        out.append((int(entry["seat"]), PASS if entry.get("pass") else int(entry["bid"])))
    return out


def read(view: View) -> Reading:
    """The view's hand, auction and tricks as masks, voids included."""
    me = int(view["seat"])
    hand = 0
    for raw in view.get("hand") or ():
        hand |= 1 << INDEX[tile_of(raw)]
    sizes = [int(n) for n in view.get("hand_sizes") or [7] * SEATS]
    played = [0] * SEATS
    banned = [0] * SEATS
    choice = view.get("trump")
    reading = Reading(me, int(view.get("shuffler") or 0), hand, sizes, played, banned, _bids(view))
    if choice is None:
        return reading
    tab = table(trump_of(choice))
    reading.trump = trump_of(choice)
    bidder = view.get("bidder")
    reading.declarer = int(bidder) if bidder is not None else None
    points = [int(p) for p in view.get("points_taken") or (0, 0)]
    trick: list[int] = []
    seats: list[int] = []
    for event in view.get("log") or ():
        kind = event.get("type")
        if kind == "play":
            seat, tile = int(event["seat"]), INDEX[tile_of(event["tile"])]
            if trick and not tab.follow[tab.led[trick[0]]] >> tile & 1:
                banned[seat] |= tab.follow[tab.led[trick[0]]]
            played[seat] |= 1 << tile
            reading.plays.append((seat, tile, len(trick)))
            trick.append(tile)
            seats.append(seat)
        elif kind == "trick":
            trick, seats = [], []
    raw_leader = view.get("leader")
    leader = int(raw_leader) if raw_leader is not None else reading.declarer or 0
    reading.deal = Deal([0] * SEATS, trick, seats, leader, points)
    return reading


def _cap(strength: float) -> float:
    """The highest bid Medium makes with a hand of this strength (below 30: none)."""
    return 30.0 + (strength - 20.0) / 1.5


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def next_bid(high: int | None) -> int:
    """The lowest bid allowed over `high` (None: nobody has bid): 30 up to 42, then marks."""
    if high is None:
        return 30
    if high < 42:
        return high + 1
    return 84 if high == 42 else high + 42


def bid_weight(initial: Sequence[int], bids: Sequence[tuple[int, int]], me: int, force: bool) -> float:
    """How likely the auction so far is with these initial hands, by Medium's yardstick."""
    weight = 1.0
    high: tuple[int, int] | None = None
    for position, (seat, value) in enumerate(bids):
        if seat != me:
            strength = max(strengths(initial[seat]))
            need = next_bid(None if high is None else high[1])
            partner_high = high is not None and (high[0] - seat) % 2 == 0
            forced = force and position == 3 and high is None
            if value == PASS:
                if need <= 42:
                    weak = _sigmoid((_cap(strength) - need) / SOFT * 1.5)
                    if partner_high:
                        weak *= _sigmoid((strength - 30.0) / SOFT)
                    weight *= 1.0 - weak
            elif value <= 42 and not forced:
                weight *= _sigmoid((_cap(strength) - value + 0.5) / SOFT * 1.5)
        if value != PASS and (high is None or value > high[1]):
            high = (seat, value)
    return weight


def trump_weight(initial: int, trump: Trump) -> float:
    """How likely the bidder was to name `trump`: its strongest suit, or close to it."""
    if not isinstance(trump, int):
        return 1.0
    each = strengths(initial)
    return math.exp((each[trump] - max(each)) / TRUMP_SOFT)


#: How `_fill` deals one reading: the unseen tiles in mask order, and for each strictness the
#: seats in the order they take tiles, each with the mask of tiles it may hold.
FillPlan = tuple[list[int], dict[bool, list[tuple[int, int]]]]


def fill_plan(reading: Reading) -> FillPlan:
    """What `_fill` works out from the reading alone, once for all its deals."""
    unseen = reading.unseen
    sizes = reading.sizes
    others = [s for s in range(SEATS) if s != reading.me]
    orders: dict[bool, list[tuple[int, int]]] = {}
    for strict in (True, False):
        allowed = {s: ~reading.banned[s] if strict else ALL for s in others}
        order = sorted(others, key=lambda s: ((allowed[s] & unseen).bit_count() - sizes[s], s))
        orders[strict] = [(seat, allowed[seat]) for seat in order]
    return list(bits(unseen)), orders


def _fill(
    reading: Reading, rng: random.Random, strict: bool, plan: FillPlan | None = None
) -> list[int] | None:
    """Hidden hands for the other seats, voids respected when `strict`.

    The unseen tiles are shuffled, then each seat (the most constrained first) takes the
    first tiles it may hold, in that order. A seat that may hold every tile left simply takes
    the next ones, which is what the scan would find.
    """
    tiles, orders = plan or fill_plan(reading)
    pool = list(tiles)
    shuffle(rng, pool)
    sizes = reading.sizes
    hands = [0] * SEATS
    hands[reading.me] = reading.hand
    left = reading.unseen
    for seat, ok in orders[strict]:
        need = sizes[seat]
        if not left & ~ok:
            if len(pool) < need:
                return None
            mask = 0
            for tile in pool[:need]:
                mask |= 1 << tile
            hands[seat] = mask
            pool = pool[need:]
            left &= ~mask
            continue
        took = 0
        rest = []
        for tile in pool:
            if took < need and ok >> tile & 1:
                hands[seat] |= 1 << tile
                took += 1
            else:
                rest.append(tile)
        if took < need:
            return None
        pool = rest
        left &= ~hands[seat]
    return hands


def sample_hands(reading: Reading, rng: random.Random, plan: FillPlan | None = None) -> list[int]:
    """One deal of the unseen tiles that honours every void (relaxed only when none fits)."""
    plan = plan or fill_plan(reading)
    for attempt in range(16):
        hands = _fill(reading, rng, attempt < 12, plan)
        if hands is not None:
            return hands
    raise ValueError("no deal of the unseen tiles fits the view")


def weight_of(reading: Reading, hands: Sequence[int], force: bool, floor: float = 0.0) -> float:
    """The auction's and the tricks' likelihood of this deal; 0 as soon as it falls below `floor`."""
    initial = [hands[s] | reading.played[s] for s in range(SEATS)]
    weight = bid_weight(initial, reading.bids, reading.me, force)
    if reading.declarer is not None and reading.declarer != reading.me:
        weight *= trump_weight(initial[reading.declarer], reading.trump)
    if weight < floor or not reading.plays:
        return weight
    return play_weight(reading, initial, weight, floor)


def play_weight(reading: Reading, initial: Sequence[int], weight: float, floor: float) -> float:
    """`weight` times a discount for every play of another seat that Medium's policy would not make.

    Plain players win cheaply, feed count to a winning partner and lead trumps while they
    hold two: a deal where a seat's tiles were played against that grain is less likely.
    A partner is discounted less, since it is more often a searching player.
    """
    tab = table(reading.trump)
    holding = list(initial)
    trick: list[int] = []
    seats: list[int] = []
    for seat, tile, position in reading.plays:
        if position == 0:
            trick, seats = [], []
        if seat != reading.me:
            legal = tab.legal(holding[seat], trick[0] if trick else None)
            if legal & (legal - 1) and medium_play(tab, legal, trick, seats, seat) != tile:
                weight *= PARTNER_ODD if (seat - reading.me) % 2 == 0 else OPPONENT_ODD
                if weight < floor:
                    return 0.0
        holding[seat] &= ~(1 << tile)
        trick.append(tile)
        seats.append(seat)
    return weight


def weighted_deals(
    reading: Reading, rng: random.Random, count: int, attempts: int, force: bool = False
) -> list[list[int]]:
    """`count` deals kept with the probability the auction gives them (rejection sampling).

    When the bound on attempts runs out, the likeliest of the rejected deals fill the rest.
    """
    kept: list[list[int]] = []
    spare: list[tuple[float, int, list[int]]] = []
    plan = fill_plan(reading)
    for tries in range(attempts):
        if len(kept) >= count:
            break
        hands = sample_hands(reading, rng, plan)
        draw = rng.random()
        weight = weight_of(reading, hands, force, draw)
        if draw < weight:
            kept.append(hands)
        else:
            spare.append((weight, tries, hands))
    if len(kept) < count:
        spare.sort(key=lambda item: (-item[0], item[1]))
        kept.extend(hands for _, _, hands in spare[: count - len(kept)])
    return kept
