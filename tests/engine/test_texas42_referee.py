"""An independent referee written from the rules text and docs/engine.md, checked against the engine.

Nothing here comes from `games.texas42`: the shuffle, the bid ladder, the suits, the trick
winner, the count, the early end and the scoring are restated from docs/engine.md ("Fair
shuffle", "Turn order", "Options") and the "How to Play 42" document, and every random match
is refereed action by action through the public protocol only.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from .test_texas42_support import RULES

Pair = tuple[int, int]
TRUMP_OPTIONS = (("doubles", "doubles_trump"), ("follow_me", "follow_me"), ("nello", "nello"))
VARIANTS: list[dict[str, Any]] = [
    {}, {"all_pass": "force"}, {"doubles_trump": True, "follow_me": True, "nello": True},
    {"target_points": 250}, {"target_points": 120, "nello": True, "all_pass": "force", "follow_me": True},
    {"target_marks": 3, "doubles_trump": True},
]


def deal_of(master: bytes, number: int) -> list[list[Pair]]:
    """The fair shuffle: the hand seed, the HMAC Fisher-Yates of the canonical set, seven tiles a seat."""
    seed = hmac.new(master, f"hand:{number}".encode(), hashlib.sha256).digest()
    order = [(a, b) for a in range(7) for b in range(a, 7)]
    for i in range(len(order) - 1, 0, -1):
        j = int.from_bytes(hmac.new(seed, f"r:{i}".encode(), hashlib.sha256).digest(), "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return [sorted(order[7 * k:7 * k + 7]) for k in range(4)]


def bids_over(standing: int | None) -> list[int]:
    """30..42 over a lower bid, 84 at any time below it, one mark more over two marks or more."""
    if standing is None:
        return [*range(30, 43), 84]
    if standing >= 84:
        return [standing + 42]
    return [*range(standing + 1, 43), 84]


def is_trump(tile: Pair, trump: Any) -> bool:
    if trump == "doubles":
        return tile[0] == tile[1]
    return isinstance(trump, int) and trump in tile


def of_suit(tile: Pair, suit: Any, trump: Any) -> bool:
    """A trump belongs to trumps only; any other tile to every number it carries."""
    if suit == "trumps":
        return is_trump(tile, trump)
    return suit in tile and not is_trump(tile, trump)


def suit_led(tile: Pair, trump: Any) -> Any:
    return "trumps" if is_trump(tile, trump) else max(tile)


def height(tile: Pair, suit: Any, trump: Any) -> int:
    """The double highest, then by the other end; doubles-as-trumps rank by number."""
    if suit == "trumps":
        if trump == "doubles":
            return tile[0]
        suit = trump
    if tile[0] == tile[1]:
        return 99
    return tile[1] if tile[0] == suit else tile[0]


def follows_allowed(held: list[Pair], trick: list[Pair], trump: Any) -> list[Pair]:
    if not trick:
        return sorted(held)
    suit = suit_led(trick[0], trump)
    return sorted([t for t in held if of_suit(t, suit, trump)] or held)


def trick_winner(trick: list[Pair], trump: Any) -> int:
    suit = "trumps" if any(is_trump(t, trump) for t in trick) else suit_led(trick[0], trump)
    contenders = [i for i, t in enumerate(trick) if of_suit(t, suit, trump)]
    return max(contenders, key=lambda i: height(trick[i], suit, trump))


def count(tile: Pair) -> int:
    return sum(tile) if sum(tile) in (5, 10) else 0


class Referee:
    """Plays a random match through `RULES.apply`, checking every step against the rules text."""

    def __init__(self, master: bytes, options: dict[str, Any], rng: random.Random) -> None:
        self.master, self.options, self.rng = master, options, rng
        self.state = RULES.new_match(players=4, options=options, seed=master)
        self.scores = [0, 0]
        self.points = options.get("target_points") is not None
        self.target = options.get("target_points") or options.get("target_marks", 7)
        self.trumps: list[Any] = [*range(7), *(name for name, opt in TRUMP_OPTIONS if options.get(opt))]

    def act(self, action: dict[str, Any]) -> None:
        self.state = RULES.apply(self.state, action)

    def auction(self, number: int) -> tuple[int | None, int]:
        standing, high = None, None
        for turn in range(4):
            seat = (number % 4 + 1 + turn) % 4
            assert RULES.to_move(self.state) == seat
            may_pass = not (self.options.get("all_pass") == "force" and turn == 3 and standing is None)
            expected = [{"type": "pass"}] * may_pass + [{"type": "bid", "value": v} for v in bids_over(standing)]
            legal = RULES.legal_actions(self.state)
            assert sorted(map(str, legal)) == sorted(map(str, expected))
            action = {"type": "pass"} if may_pass and self.rng.random() < 0.55 else self.rng.choice(legal)
            self.act(action)
            if action["type"] == "bid":
                standing, high = action["value"], seat
        return high, standing or 0

    def play_hand(self, number: int) -> bool:
        """Referee hand `number`; True once the match is over."""
        hands = deal_of(self.master, number)
        view = RULES.view(self.state, None)
        assert (view["hand_number"], view["scores"]) == (number, self.scores)
        assert [[tuple(t) for t in RULES.view(self.state, k)["hand"]] for k in range(4)] == hands
        high, bid = self.auction(number)
        if high is None:
            assert RULES.hand_index(self.state) == number + 1 and RULES.scores(self.state) == self.scores
            return False
        assert RULES.to_move(self.state) == high
        assert sorted(map(str, (a["suit"] for a in RULES.legal_actions(self.state)))) == sorted(map(str, self.trumps))
        trump = self.rng.choice(self.trumps)
        self.act({"type": "trump", "suit": trump})
        side, out = high % 2, (high + 2) % 4 if trump == "nello" else None
        suit_trump = trump if trump not in ("follow_me", "nello") else None
        need, taken, leader, result = min(bid, 42), [0, 0], high, None
        for number_of_trick in range(1, 8):
            trick: list[Pair] = []
            seats: list[int] = []
            seat = leader
            while len(trick) < (3 if out is not None else 4):
                assert RULES.to_move(self.state) == seat
                legal = sorted(tuple(a["tile"]) for a in RULES.legal_actions(self.state))
                assert legal == follows_allowed(hands[seat], trick, suit_trump)
                tile = self.rng.choice(legal)
                self.act({"type": "play", "tile": list(tile)})
                hands[seat].remove(tile)
                trick.append(tile)
                seats.append(seat)
                seat = (seat + 1) % 4
                seat = (seat + 1) % 4 if seat == out else seat
            leader = seats[trick_winner(trick, suit_trump)]
            taken[leader % 2] += 1 + sum(map(count, trick))
            if out is not None:
                result = "set" if leader % 2 == side else "made" if number_of_trick == 7 else None
            elif taken[side] >= need:
                result = "made"
            elif taken[1 - side] > 42 - need:
                result = "set"
            if result is not None:
                break
            view = RULES.view(self.state, None)
            assert (view["points_taken"], view["leader"], view["to_move"]) == (taken, leader, leader)
        scorer = side if result == "made" else 1 - side
        self.scores[scorer] += bid if self.points else max(1, bid // 42)
        assert RULES.scores(self.state) == self.scores
        last = RULES.view(self.state, None)["last_hand"]
        assert (last["points"], last["winner"], last["result"]) == (taken, scorer, result)
        assert [sorted(tuple(t) for t in h) for h in last["hands_left"]] == hands
        if max(self.scores) >= self.target:
            result_ = RULES.result(self.state)
            assert RULES.to_move(self.state) is None and result_ is not None
            assert (result_["winner"], result_["scores"]) == (scorer, self.scores)
            return True
        assert RULES.hand_index(self.state) == number + 1
        return False


@settings(max_examples=60, deadline=None)
@given(master=st.binary(min_size=1, max_size=12), variant=st.sampled_from(VARIANTS), stream=st.integers(0, 2**32))
def test_random_matches_follow_the_rules_text_action_by_action(
    master: bytes, variant: dict[str, Any], stream: int
) -> None:
    referee = Referee(master, variant, random.Random(stream))
    for number in range(5):
        if referee.play_hand(number):
            break
