"""Texas 42: voids from failures to follow, trick heuristics, and bidding by simulation.

The suit rules below restate docs/engine.md and the 42 document (a tile carrying the trump number is
a trump; otherwise a lead calls for its higher end; the double ranks highest) because the AI
may not import the game family; the engine stays the judge of legality everywhere. The house
rules are restated too (docs/rules-texas42.md, "House rules"): nello's doubles low or a suit of
their own, and sevens, where every seat must play its tile closest to seven pips.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai import texas42_hard
from games.ai.inference import HiddenHand, hand_of, tile_of, unseen_tiles
from games.ai.policy import View
from games.ai.scored import Scored, only
from games.ai.search import determinize, my_side, outcome, playout
from games.core.actions import Action
from games.core.protocol import Rules
from games.core.tiles import Tile, full_set

TRUMPS = 7
Trump = int | str | None
#: Nello with the doubles lowest in their suits, or a suit of their own; and sevens.
DOUBLES_LOW = "doubles_low"
DOUBLES_SUIT = "doubles_suit"
SEVENS = "sevens"
NELLO_DOUBLES = {"high": None, "low": DOUBLES_LOW, "own_suit": DOUBLES_SUIT}


def trump_of(choice: object) -> Trump:
    """The trump suit a trump choice names: a number, "doubles", or None (no trumps)."""
    if isinstance(choice, int):
        return choice
    if choice == "doubles":
        return "doubles"
    return None


def trick_rules(view: View) -> Trump:
    """The rules the hand's tricks follow: `trump_of` the named trumps, except nello under the
    room's `nello_doubles` and sevens."""
    choice = view.get("trump")
    if choice == "nello":
        return NELLO_DOUBLES.get((view.get("options") or {}).get("nello_doubles", "high"))
    return SEVENS if choice == "sevens" else trump_of(choice)


def off_seven(tile: Tile) -> int:
    return abs(tile.pips - 7)


def is_trump(tile: Tile, trump: Trump) -> bool:
    if isinstance(trump, int):
        return tile.has(trump)
    return trump == "doubles" and tile.is_double


def led_suit(tile: Tile, trump: Trump) -> int:
    if trump == DOUBLES_SUIT and tile.is_double:
        return TRUMPS
    return TRUMPS if is_trump(tile, trump) else tile.high


def follows(tile: Tile, suit: int, trump: Trump) -> bool:
    if trump == DOUBLES_SUIT:
        return tile.is_double if suit == TRUMPS else tile.has(suit) and not tile.is_double
    if suit == TRUMPS:
        return is_trump(tile, trump)
    return tile.has(suit) and not is_trump(tile, trump)


def rank(tile: Tile, suit: int, trump: Trump) -> int:
    if suit == TRUMPS:
        if trump in ("doubles", DOUBLES_SUIT):
            return tile.low
        suit = int(trump)  # type: ignore[arg-type]
    if tile.is_double:
        return -1 if trump == DOUBLES_LOW else 7
    return tile.other(suit)


def winner_index(trick: Sequence[Tile], trump: Trump, bidders: Sequence[bool] = ()) -> int:
    """The winning position; in sevens the tile closest to seven, a tie to the bidding side
    (`bidders` marks its tiles), then to the first played."""
    if trump == SEVENS:
        return min(range(len(trick)), key=lambda i: (
            off_seven(trick[i]), 0 if i < len(bidders) and bidders[i] else 1, i))
    suit = led_suit(trick[0], trump)
    if suit != TRUMPS and any(is_trump(t, trump) for t in trick):
        suit = TRUMPS
    best, best_rank = 0, -2
    for i, tile in enumerate(trick):
        if follows(tile, suit, trump) and rank(tile, suit, trump) > best_rank:
            best, best_rank = i, rank(tile, suit, trump)
    return best


def count_of(tile: Tile) -> int:
    return tile.pips if tile.pips in (5, 10) else 0


def _tricks(view: View) -> list[list[tuple[int, Tile]]]:
    """The plays of every trick of the hand so far, the current one last."""
    tricks: list[list[tuple[int, Tile]]] = [[]]
    for event in view.get("log") or ():
        if event.get("type") == "play":
            tricks[-1].append((int(event["seat"]), tile_of(event["tile"])))
        elif event.get("type") == "trick":
            tricks.append([])
    return tricks


def hidden_hands(view: View) -> dict[int, HiddenHand]:
    """Other hands as slots; a seat that did not follow the suit led holds none of it."""
    me = view.get("seat")
    sizes = list(view.get("hand_sizes") or [])
    hands = {seat: HiddenHand([frozenset()] * size) for seat, size in enumerate(sizes) if seat != me}
    trump = trick_rules(view)
    everything = full_set(6)
    for trick in _tricks(view):
        if not trick:
            continue
        if trump == SEVENS:
            # Each seat plays its tile closest to seven: it held none closer.
            for seat, tile in trick:
                hidden = hands.get(seat)
                if hidden is not None:
                    hidden.banned.update(t for t in everything if off_seven(t) < off_seven(tile))
            continue
        suit = led_suit(trick[0][1], trump)
        for seat, tile in trick[1:]:
            hidden = hands.get(seat)
            if hidden is not None and not follows(tile, suit, trump):
                hidden.banned.update(t for t in everything if follows(t, suit, trump))
    return hands


def _sides(view: View) -> tuple[int, set[int]]:
    side = my_side(view)
    return side, set((view.get("teams") or [[], []])[side])


def _play(tile: Tile) -> Action:
    return {"type": "play", "tile": [tile.low, tile.high]}


def nello_play(view: View, legal: list[Action]) -> Action:
    """Nello: the bidder ducks with its highest tile that does not take the trick (leading, its
    lowest); a defender keeps under a bidder who holds the trick, else plays its lowest, so
    the bidder is left on top."""
    trump = trick_rules(view)
    tiles = [tile_of(a["tile"]) for a in legal]
    trick = [(int(p["seat"]), tile_of(p["tile"])) for p in view.get("trick") or ()]
    bidder = view.get("bidder")
    low = min(tiles, key=_weight)
    if not trick:
        return _play(low)
    played = [t for _, t in trick]
    winners = [t for t in tiles if winner_index([*played, t], trump) == len(played)]
    losers = [t for t in tiles if t not in winners]
    if view.get("seat") == bidder:
        return _play(max(losers, key=_weight) if losers else min(winners, key=_weight))
    if trick[winner_index(played, trump)][0] == bidder and losers:
        return _play(max(losers, key=_weight))
    return _play(low)


def _weight(tile: Tile) -> tuple[int, Tile]:
    return tile.pips, tile


def trick_play(view: View, legal: list[Action], rng: random.Random) -> Action:
    """Win with count, feed count to a winning partner, otherwise throw the cheapest tile.

    Nello is played by `nello_play`; in sevens the engine lists only the tiles closest to seven,
    which are all alike here."""
    if view.get("trump") == "nello":
        return nello_play(view, legal)
    trump = trick_rules(view)
    if trump == SEVENS:
        return legal[0]
    _, partners = _sides(view)
    tiles = [tile_of(a["tile"]) for a in legal]
    trick = [(int(p["seat"]), tile_of(p["tile"])) for p in view.get("trick") or ()]

    def cheap(t: Tile) -> tuple[int, int, int]:
        return (count_of(t), 1 if is_trump(t, trump) else 0, t.pips)

    if not trick:
        doubles = [t for t in tiles if t.is_double and not is_trump(t, trump)]
        trumps = sorted((t for t in tiles if is_trump(t, trump)), key=lambda t: -rank(t, TRUMPS, trump))
        if trumps and len(trumps) >= 2:
            return _play(trumps[0])
        if doubles:
            return _play(max(doubles, key=lambda t: (count_of(t), t.pips)))
        return _play(min(tiles, key=cheap))
    played = [t for _, t in trick]
    leader_wins = trick[winner_index(played, trump)][0]
    last = len(trick) == (2 if view.get("sitting_out") is not None else 3)
    if leader_wins in partners:
        # A partner holds the trick: give it count unless someone behind may overtake cheaply.
        best = max(tiles, key=lambda t: (count_of(t), -(1 if is_trump(t, trump) else 0), -t.pips))
        if count_of(best) and (last or len(trick) >= 2):
            return _play(best)
        return _play(min(tiles, key=cheap))
    winners = [t for t in tiles if winner_index([*played, t], trump) == len(played)]
    if winners:
        return _play(min(winners, key=cheap))
    return _play(min(tiles, key=cheap))


def suit_strength(hand: Sequence[Tile], suit: int) -> float:
    """Rough trick-taking worth of a hand with `suit` as trumps, in points."""
    trumps = [t for t in hand if t.has(suit)]
    doubles = [t for t in hand if t.is_double and not t.has(suit)]
    score = 4.5 * len(trumps) + (4.0 if any(t.is_double for t in trumps) else 0.0)
    score += 3.0 * len(doubles) + 0.15 * sum(t.other(suit) for t in trumps)
    return score


def plain_bids(legal: list[Action]) -> list[Action]:
    """The bids in points or marks, lowest first, without the plunge and the splash (Medium
    weighs those by its own rule, `contract_bid`; Hard searches them apart)."""
    return sorted((a for a in legal if a["type"] == "bid" and "contract" not in a), key=lambda a: a["value"])


#: Medium's rule of thumb for the contracts that must take every trick, with the partner
#: naming trumps: a plunge on five doubles or more, a splash on four with the double-six.
#: Four doubles alone (the least the rules allow) lose a trick too often to be worth it.
PLUNGE_DOUBLES = 5
SPLASH_DOUBLES = 4


def contract_bid(legal: list[Action], hand: Sequence[Tile]) -> Action | None:
    """The plunge or splash Medium bids with this hand, if the room allows it and the hand
    is strong enough by `PLUNGE_DOUBLES` / `SPLASH_DOUBLES`; the plunge first."""
    doubles = [t for t in hand if t.is_double]
    offered = {a["contract"]: a for a in legal if a["type"] == "bid" and "contract" in a}
    if "plunge" in offered and len(doubles) >= PLUNGE_DOUBLES:
        return offered["plunge"]
    if "splash" in offered and len(doubles) >= SPLASH_DOUBLES and any(t.pips == 12 for t in doubles):
        return offered["splash"]
    return None


def sevens_hand(hand: Sequence[Tile]) -> bool:
    """Medium names sevens (each trick to the tile closest to seven pips; the bidders must take
    them all) on a hand of at least two exact sevens and six tiles within a pip of seven."""
    near = [t for t in hand if abs(t.pips - 7) <= 1]
    return sum(1 for t in hand if t.pips == 7) >= 2 and len(near) >= 6


class Texas42Kit:
    """Knowledge of 42 for Medium and Hard."""

    prior_weight = 0.0
    candidates = 7
    win_bonus = 0.0

    def prior(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> list[float]:
        return [0.0] * len(legal)

    def budget(self, view: View) -> int:
        return 64

    def hidden(self, view: View) -> dict[int, HiddenHand]:
        return hidden_hands(view)

    def unseen(self, view: View) -> list[Tile]:
        return unseen_tiles(view)

    def medium(self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random) -> Action:
        kinds = {a["type"] for a in legal}
        hand = hand_of(view)
        if "trump" in kinds:
            sevens = next((a for a in legal if a.get("suit") == SEVENS), None)
            if sevens is not None and sevens_hand(hand):
                return sevens
            suits = [a for a in legal if isinstance(a["suit"], int)]
            return max(suits, key=lambda a: suit_strength(hand, a["suit"])) if suits else legal[0]
        if kinds & {"bid", "pass"}:
            return self._medium_bid(view, legal, hand)
        return trick_play(view, legal, rng)

    def _medium_bid(self, view: View, legal: list[Action], hand: Sequence[Tile]) -> Action:
        _, partners = _sides(view)
        high = view.get("high_bid")
        bids = plain_bids(legal)
        passing = next((a for a in legal if a["type"] == "pass"), None)
        strength = max(suit_strength(hand, s) for s in range(7))
        cap = 0 if strength < 20 else min(42, 30 + int((strength - 20) / 1.5))
        special = contract_bid(legal, hand)
        if special is not None and not (high and high.get("seat") in partners):
            return special
        if passing is not None and (not bids or (high and high.get("seat") in partners and strength < 30)):
            return passing
        if bids and bids[0]["value"] <= cap:
            return bids[0]
        return passing if passing is not None else bids[0]

    def rollout(self, rules: Rules[object], state: object, legal: list[Action], rng: random.Random) -> Action:
        kind = legal[0]["type"]
        if kind in ("bid", "pass"):
            return next((a for a in legal if a["type"] == "pass"), legal[0])
        if kind == "trump":
            seat = rules.to_move(state)
            hand = hand_of(rules.view(state, seat))
            return self.medium(rules, {"hand": [list(t) for t in hand]}, legal, rng)
        if rng.random() < 0.1:
            return rng.choice(legal)
        return trick_play(rules.view(state, rules.to_move(state)), legal, rng)

    def special(
        self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random, budget: int
    ) -> Scored | None:
        """Hard's bid, trump and play, searched on bitmask deals (`texas42_hard`).

        Rooms with nello fall back to the simulated bid here and the generic search.
        """
        decision = texas42_hard.decide(view, legal, rng, budget)
        if decision is not None:
            return decision
        if {a["type"] for a in legal} <= {"bid", "pass"}:
            return self._hard_bid(rules, view, legal, rng, budget)
        return None

    def _hard_bid(
        self, rules: Rules[object], view: View, legal: list[Action], rng: random.Random, budget: int
    ) -> Scored:
        """Bid the lowest legal bid when simulating the hand under its best trump makes it.

        Scored as the bid's mean outcome against passing's threshold (the margin it must
        clear); the higher bids are not searched."""
        bids = plain_bids(legal)
        passing = next((a for a in legal if a["type"] == "pass"), None)
        if not bids:
            return only(legal[0])
        me = int(view["seat"])
        side, partners = _sides(view)
        bid = bids[0]
        if bid["value"] > 42 and passing is not None:
            return only(passing)
        hand = hand_of(view)
        suits = sorted(range(7), key=lambda s: -suit_strength(hand, s))[:3]
        samples = max(2, budget // len(suits))
        before = list(view.get("scores") or ())
        number = int(view.get("hand_number") or 0)
        totals = dict.fromkeys(suits, 0.0)
        for _ in range(samples):
            state = rules.advance(determinize(rules, self, view, rng), bid)
            while rules.to_move(state) != me or rules.legal_actions(state)[0]["type"] != "trump":
                if rules.to_move(state) is None or rules.hand_index(state) != number:
                    break
                state = rules.advance(state, self.rollout(rules, state, rules.legal_actions(state), rng))
            else:
                stream = rng.getrandbits(64)
                for suit in suits:
                    trumped = rules.advance(state, {"type": "trump", "suit": suit})
                    end = playout(rules, self, trumped, number, random.Random(stream))
                    totals[suit] += outcome(rules, before, end, side, 0.0)
        best = max(totals.values()) / samples
        scale = max(1, bid["value"] // 42) if bid["value"] > 42 else 1
        threshold = 0.6 * scale if (view.get("high_bid") or {}).get("seat") in partners else 0.0
        if passing is None:
            return Scored((bid,), (best,), 0)
        return Scored((bid, passing), (best, threshold), 0 if best > threshold else 1)


TEXAS42_KIT = Texas42Kit()
