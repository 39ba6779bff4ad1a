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
    {"plunge": True, "splash": True, "sevens": True, "nello": True, "nello_doubles": "low", "forced_bid": True},
    {"plunge": True, "nello": True, "nello_doubles": "own_suit", "nello_min_marks": 1, "follow_me": True},
    {"splash": True, "sevens": True, "nello": True, "nello_min_marks": 2, "target_points": 250},
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


def marks_of(bid: int | None) -> int:
    return 0 if bid is None else 1 if bid <= 42 else bid // 42


def specials_over(standing: int | None, held: list[Pair], options: dict[str, Any]) -> list[tuple[int, str]]:
    """Plunge: four doubles, four marks or two more than the standing bid; splash: three doubles,
    two marks, or three over two."""
    doubles = sum(1 for a, b in held if a == b)
    out = []
    if options.get("splash") and doubles >= 3 and (standing is None or standing <= 84):
        out.append((84 if standing is None or standing < 84 else 126, "splash"))
    if options.get("plunge") and doubles >= 4:
        out.append((42 * max(4, marks_of(standing) + 2), "plunge"))
    return out


def is_trump(tile: Pair, trump: Any) -> bool:
    if trump == "doubles":
        return tile[0] == tile[1]
    return isinstance(trump, int) and trump in tile


def of_suit(tile: Pair, suit: Any, trump: Any) -> bool:
    """A trump belongs to trumps only; any other tile to every number it carries. In nello
    with the doubles a suit of their own ("own_suit"), a double belongs to that suit only."""
    if trump == "own_suit":
        return (tile[0] == tile[1]) == (suit == "doubles") and (suit == "doubles" or suit in tile)
    if suit == "trumps":
        return is_trump(tile, trump)
    return suit in tile and not is_trump(tile, trump)


def suit_led(tile: Pair, trump: Any) -> Any:
    if trump == "own_suit" and tile[0] == tile[1]:
        return "doubles"
    return "trumps" if is_trump(tile, trump) else max(tile)


def height(tile: Pair, suit: Any, trump: Any) -> int:
    """The double highest, then by the other end; doubles-as-trumps rank by number."""
    if suit == "doubles" or (suit == "trumps" and trump == "doubles"):
        return tile[0]
    if suit == "trumps":
        suit = trump
    if tile[0] == tile[1]:
        return -99 if trump == "low" else 99
    return tile[1] if tile[0] == suit else tile[0]


def off_seven(tile: Pair) -> int:
    return abs(sum(tile) - 7)


def follows_allowed(held: list[Pair], trick: list[Pair], trump: Any) -> list[Pair]:
    if trump == "sevens":
        return sorted(t for t in held if off_seven(t) == min(map(off_seven, held)))
    if not trick:
        return sorted(held)
    suit = suit_led(trick[0], trump)
    return sorted([t for t in held if of_suit(t, suit, trump)] or held)


def trick_winner(trick: list[Pair], trump: Any, bidders: list[bool] | None = None) -> int:
    if trump == "sevens":
        assert bidders is not None
        return min(range(len(trick)), key=lambda i: (off_seven(trick[i]), not bidders[i], i))
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
        self.force = options.get("all_pass") == "force" or bool(options.get("forced_bid"))
        self.contract: str | None = None

    def act(self, action: dict[str, Any]) -> None:
        self.state = RULES.apply(self.state, action)

    def auction(self, number: int, hands: list[list[Pair]]) -> tuple[int | None, int]:
        standing, high = None, None
        self.contract = None
        for turn in range(4):
            seat = (number % 4 + 1 + turn) % 4
            assert RULES.to_move(self.state) == seat
            may_pass = not (self.force and turn == 3 and standing is None)
            expected = [{"type": "pass"}] * may_pass + [{"type": "bid", "value": v} for v in bids_over(standing)]
            expected += [{"type": "bid", "value": v, "contract": c}
                         for v, c in specials_over(standing, hands[seat], self.options)]
            legal = RULES.legal_actions(self.state)
            assert sorted(map(str, legal)) == sorted(map(str, expected))
            specials = [a for a in legal if "contract" in a]
            if specials and self.rng.random() < 0.5:
                action = self.rng.choice(specials)
            else:
                action = {"type": "pass"} if may_pass and self.rng.random() < 0.55 else self.rng.choice(legal)
            self.act(action)
            if action["type"] == "bid":
                standing, high, self.contract = action["value"], seat, action.get("contract")
        return high, standing or 0

    def trumps_for(self, bid: int) -> list[Any]:
        """What may be named: after a plunge or splash no nello or sevens; nello needs
        `nello_min_marks` marks bid, sevens 42."""
        out = [t for t in self.trumps if t != "nello" or bid >= 42 * self.options.get("nello_min_marks", 0)]
        if self.options.get("sevens") and bid >= 42:
            out.append("sevens")
        return [t for t in out if t not in ("nello", "sevens")] if self.contract else out

    def play_hand(self, number: int) -> bool:
        """Referee hand `number`; True once the match is over."""
        hands = deal_of(self.master, number)
        view = RULES.view(self.state, None)
        assert (view["hand_number"], view["scores"]) == (number, self.scores)
        assert [[tuple(t) for t in RULES.view(self.state, k)["hand"]] for k in range(4)] == hands
        high, bid = self.auction(number, hands)
        if high is None:
            assert RULES.hand_index(self.state) == number + 1 and RULES.scores(self.state) == self.scores
            return False
        namer = (high + 2) % 4 if self.contract else high
        assert RULES.to_move(self.state) == namer
        names = self.trumps_for(bid)
        assert sorted(map(str, (a["suit"] for a in RULES.legal_actions(self.state)))) == sorted(map(str, names))
        trump = self.rng.choice(names)
        self.act({"type": "trump", "suit": trump})
        side, out = high % 2, (high + 2) % 4 if trump == "nello" else None
        suit_trump = trump if trump not in ("follow_me", "nello") else None
        if trump == "nello":
            suit_trump = {"high": None, "low": "low", "own_suit": "own_suit"}[self.options.get("nello_doubles", "high")]
        need, taken, leader, result = min(bid, 42), [0, 0], namer, None
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
            leader = seats[trick_winner(trick, suit_trump, [s % 2 == side for s in seats])]
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
