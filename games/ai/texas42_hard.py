"""Hard's 42: every decision searched on deals that fit the view and the auction.

The generic PIMC driver plays 42 through the engine, which is slow, and samples deals that
ignore the bids. Here the bid, the trump and every play are searched on bitmask hands
(`texas42_sim`) drawn by `texas42_deals`, so a decision sees many more deals, each one the
auction makes plausible. Playouts use Medium's trick policy for all four seats; a bid is
judged by completing the auction as plain players would, naming trumps and playing the
hand out, so the level chosen is the one that maximises the expected marks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai.inference import tile_of
from games.ai.policy import View
from games.ai.scored import Scored, pick
from games.ai.texas42_deals import PASS, Reading, next_bid, read, weighted_deals
from games.ai.texas42_sim import (
    INDEX,
    SEATS,
    Deal,
    Solver,
    Table,
    playout,
    suit_strength,
    table,
    trump_of,
)
from games.ai.texas42_sim import strengths as hand_strengths
from games.core.actions import Action

NOISE = 0.1
PLAY_SAMPLES = 96
SOLVE_TRICKS = 3
SOLVER_NODES = 4000
TRUMP_SAMPLES = 96
BID_SAMPLES = 96
ATTEMPTS = 10
MARGIN = 0.001
BUDGET = 64


def award(value: int, points_scoring: bool) -> int:
    """What a made (or set) bid scores: its marks, or the bid itself in points."""
    if points_scoring:
        return value
    return 1 if value <= 42 else value // 42


def contract_value(points: Sequence[int], declarer: int, value: int, me: int, points_scoring: bool) -> float:
    """The hand's worth to `me`'s side: the award won or lost, and a hair of the margin."""
    side = declarer % 2
    made = points[side] >= (value if value < 42 else 42)
    prize = value if points_scoring else 1 if value <= 42 else value // 42  # `award`
    mine = prize if made == (side == me % 2) else -prize
    return mine + MARGIN * (points[me % 2] - points[1 - me % 2])


def _force(view: View) -> bool:
    options = view.get("options") or {}
    return options.get("all_pass") == "force" or bool(options.get("forced_bid"))


def _points_scoring(view: View) -> bool:
    return view.get("scoring") == "points"


def choose_play(view: View, legal: list[Action], rng: random.Random, samples: int = PLAY_SAMPLES) -> Action:
    """The tile with the best mean outcome over plausible deals (`play_scored`)."""
    return play_scored(view, legal, rng, samples).choice


def _means(totals: list[float], deals: int) -> list[float]:
    return [t / max(1, deals) for t in totals]


def play_scored(view: View, legal: list[Action], rng: random.Random, samples: int = PLAY_SAMPLES) -> Scored:
    """Every tile's mean outcome over plausible deals, in marks (`contract_value`).

    Each deal is played out by Medium's policy, or, once few tricks are left, solved
    exactly (every seat playing its best with all tiles known), which is where a playout's
    blunders cost the most and an exact answer is cheap.
    """
    reading = read(view)
    assert reading.deal is not None
    assert reading.declarer is not None
    tab = table(reading.trump)
    high = view.get("high_bid") or {}
    value = int(high.get("value") or 30)
    scoring = _points_scoring(view)
    deals = weighted_deals(reading, rng, samples, samples * ATTEMPTS, _force(view))
    tiles = [INDEX[tile_of(a["tile"])] for a in legal]
    exact = sum(reading.sizes) - 1 <= 4 * SOLVE_TRICKS
    totals = [0.0] * len(legal)
    for hands in deals:
        stream = rng.getrandbits(64)
        solver = Solver(tab, min(value, 42), reading.declarer % 2, SOLVER_NODES) if exact else None
        for i, tile in enumerate(tiles):
            deal = reading.deal.copy()
            deal.hands = list(hands)
            deal.play(tab, reading.me, tile)
            made = solver.makes(deal.copy()) if solver is not None else None
            if made is not None:
                prize = award(value, scoring)
                totals[i] += prize if made == (reading.declarer % 2 == reading.me % 2) else -prize
                continue
            points = playout(tab, deal, random.Random(stream), NOISE)
            totals[i] += contract_value(points, reading.declarer, value, reading.me, scoring)
    return pick(legal, _means(totals, len(deals)), totals)


def _declare(tab: Table, hands: Sequence[int], declarer: int, rng: random.Random) -> list[int]:
    deal = Deal(list(hands), [], [], declarer, [0, 0])
    return playout(tab, deal, rng, NOISE)


def choose_trump(view: View, legal: list[Action], rng: random.Random, samples: int = TRUMP_SAMPLES) -> Scored:
    """The trump with the best mean outcome of the hand over plausible deals."""
    reading = read(view)
    high = view.get("high_bid") or {}
    value = int(high.get("value") or 30)
    scoring = _points_scoring(view)
    deals = weighted_deals(reading, rng, samples, samples * ATTEMPTS, _force(view))
    choices = [a for a in legal if a["suit"] not in ("nello", "sevens")]
    totals = [0.0] * len(choices)
    for hands in deals:
        stream = rng.getrandbits(64)
        for i, action in enumerate(choices):
            points = _declare(table(trump_of(action["suit"])), hands, reading.me, random.Random(stream))
            totals[i] += contract_value(points, reading.me, value, reading.me, scoring)
    return pick(choices, _means(totals, len(deals)), totals)


class _Playouts:
    """One deal played out once per (declarer, trump), on one shared random stream."""

    def __init__(self, hands: Sequence[int], stream: int) -> None:
        self.hands = hands
        self.stream = stream
        self.done: dict[tuple[int, int], list[int]] = {}

    def of(self, seat: int, suit: int) -> list[int]:
        key = (seat, suit)
        if key not in self.done:
            self.done[key] = _declare(table(suit), self.hands, seat, random.Random(self.stream))
        return self.done[key]


def _medium_cap(strength: float) -> int:
    return 0 if strength < 20 else min(42, 30 + int((strength - 20) / 1.5))


def finish_auction(
    bids: Sequence[tuple[int, int]], later: Sequence[int], strengths: Sequence[float], force: bool
) -> tuple[int, int] | None:
    """The auction's end when the seats still to speak bid as Medium does: (seat, value) or None."""
    high: tuple[int, int] | None = None
    for seat, value in bids:
        if value != PASS and (high is None or value > high[1]):
            high = (seat, value)
    spoken = len(bids)
    for seat in later:
        need = next_bid(None if high is None else high[1])
        may_pass = not (force and spoken == 3 and high is None)
        spoken += 1
        if may_pass and high is not None and (high[0] - seat) % 2 == 0 and strengths[seat] < 30:
            continue
        if need <= _medium_cap(strengths[seat]) or not may_pass:
            high = (seat, need)
    return high


def _bid_candidates(legal: list[Action]) -> list[Action]:
    """Pass, the bids in points, the highest plain bid, and any plunge or splash open."""
    plain = [a for a in legal if "contract" not in a]
    kept = [a for a in plain if a["type"] == "pass" or a["value"] <= 42 or a["value"] == plain[-1]["value"]]
    return kept + [a for a in legal if "contract" in a]


def choose_bid(view: View, legal: list[Action], rng: random.Random, samples: int = BID_SAMPLES) -> Scored:
    """The pass or bid with the best expected marks, the auction finished as plain players do.

    Each deal is played out once per possible declarer (and, for this seat, per each of its
    three strongest suits); since the playout policy ignores the bid, one playout decides
    the contract at every level. This seat names, for each candidate, the trump that is best
    over the deals where it ends up declaring. A plunge or a splash that stands is played by
    the partner, who names its own strongest suit and leads: it scores only if the side takes
    every trick, so Hard bids one only when the deals say its doubles and its partner's hand
    will take them all often enough to beat the other candidates.
    """
    reading: Reading = read(view)
    me = reading.me
    force = _force(view)
    scoring = _points_scoring(view)
    order = [(reading.shuffler + 1 + k) % SEATS for k in range(SEATS)]
    later = order[len(reading.bids) + 1 :]
    candidates = _bid_candidates(legal)
    mine = sorted(range(7), key=lambda s: (-suit_strength(reading.hand, s), s))[:3]
    deals = weighted_deals(reading, rng, samples, samples * ATTEMPTS, force)
    common = [0.0] * len(candidates)
    own = [[0.0] * len(mine) for _ in candidates]
    for hands in deals:
        strengths = [max(each) for each in map(hand_strengths, hands)]
        points = _Playouts(hands, rng.getrandbits(64))

        for i, action in enumerate(candidates):
            value = PASS if action["type"] == "pass" else int(action["value"])
            end = finish_auction([*reading.bids, (me, value)], later, strengths, force)
            if end is None:
                continue
            seat, won = end
            if seat == me and "contract" in action and won == value:
                partner = (me + 2) % SEATS
                each = hand_strengths(hands[partner])
                suit = max(range(7), key=lambda s: (each[s], -s))
                common[i] += contract_value(points.of(partner, suit), partner, won, me, scoring)
            elif seat == me:
                for j, suit in enumerate(mine):
                    own[i][j] += contract_value(points.of(me, suit), me, won, me, scoring)
            else:
                each = hand_strengths(hands[seat])
                suit = max(range(7), key=lambda s: (each[s], -s))
                common[i] += contract_value(points.of(seat, suit), seat, won, me, scoring)
    totals = [common[i] + max(own[i]) for i in range(len(candidates))]
    return pick(candidates, _means(totals, len(deals)), totals)


def supported(view: View) -> bool:
    """Whether these searches cover the decision. A nello hand (three seats) and a hand of
    sevens (no suits) are left to the generic search on the engine, and so is naming trumps
    where nello or sevens may be named, so that Hard may still choose them. Everything else,
    the bidding of such rooms and a plunge or splash included (the bidder's partner names
    trumps and leads, as the view says), is searched here."""
    if view.get("trump") in ("nello", "sevens"):
        return False
    naming = view.get("phase") == "trump"
    return not (naming and any(a.get("suit") in ("nello", "sevens") for a in view.get("legal") or ()))


def decide(view: View, legal: list[Action], rng: random.Random, budget: int = BUDGET) -> Scored | None:
    """Hard's 42 decision, or None where the generic search should decide.

    `budget` scales the deals searched (the live budget is `BUDGET`; tests pass less).
    """
    if not supported(view):
        return None
    kinds = {a["type"] for a in legal}

    def scaled(samples: int) -> int:
        return max(2, samples * budget // BUDGET)

    if kinds <= {"bid", "pass"}:
        return choose_bid(view, legal, rng, scaled(BID_SAMPLES))
    if kinds == {"trump"}:
        return choose_trump(view, legal, rng, scaled(TRUMP_SAMPLES))
    if kinds == {"play"}:
        return play_scored(view, legal, rng, scaled(PLAY_SAMPLES))
    return None
