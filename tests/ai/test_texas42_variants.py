"""The 42 AI under the house rules (docs/rules-texas42.md, "House rules"): Medium bids a plunge
or a splash by its rule of thumb and names sevens on a hand made for it, Hard weighs them in
its search; either names trumps for its partner's contract and plays the hand; both play sevens
and nello under each doubles rule legally, with voids read the way those rules make them."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games.ai import kit_for, make_bot
from games.ai.hard import HardBot
from games.ai.texas42 import DOUBLES_SUIT, SEVENS, contract_bid, sevens_hand, trick_rules, winner_index
from games.ai.texas42_hard import choose_bid
from games.core.tiles import make_tile
from tests.engine.test_texas42_support import RULES, SIXES_DEAL, run, table

from .support import fits

KIT = kit_for("texas42")
ALL_ON = {"plunge": True, "splash": True, "sevens": True, "nello": True, "forced_bid": True}


def bots(seed: bytes) -> list[Any]:
    """Hard with a small budget (the property runs stay fast) and Medium, taking turns."""
    return [HardBot("texas42", KIT, seed, budget=8), make_bot("texas42", "medium", seed)]


def play_hand(state: Any, seed: bytes, check: Any = None) -> Any:
    """Every seat played by the bots until the hand ends: each answer legal and reproducible."""
    number = state.hand.number
    turn = 0
    while RULES.to_move(state) is not None and state.hand.number == number:
        seat = RULES.to_move(state)
        view = RULES.view(state, seat)
        bot = bots(seed)[turn % 2]
        action = bot.choose(view)
        assert action in view["legal"]
        assert bots(seed)[turn % 2].choose(view) == action
        if check is not None:
            check(state, view)
        state = RULES.apply(state, action)
        turn += 1
    return state


def true_hands_fit(state: Any, view: dict[str, Any]) -> None:
    """The voids the AI reads from the tricks never rule out a tile the seat really holds."""
    for seat, hidden in KIT.hidden(view).items():
        assert fits([[t.low, t.high] for t in state.hand.hands[seat]], hidden), seat


def test_hard_weighs_a_plunge_medium_leaves_four_doubles_alone_and_the_partner_plays_it() -> None:
    state = run(table(SIXES_DEAL, ALL_ON), "pass")
    view = RULES.view(state, 2)
    assert any("contract" in a for a in view["legal"])
    assert "contract" not in make_bot("texas42", "medium", b"p").choose(view)
    scored = choose_bid(view, view["legal"], Random(1), samples=8)
    assert {"type": "bid", "value": 168, "contract": "plunge"} in scored.actions
    assert {"type": "bid", "value": 84, "contract": "splash"} in scored.actions
    # four doubles and nothing else: taking every trick is a long shot, and Hard sees it
    assert "contract" not in scored.choice
    state = RULES.apply(state, {"type": "bid", "value": 168, "contract": "plunge"})
    state = run(state, "pass, pass")
    assert RULES.to_move(state) == 0
    done = play_hand(state, b"plunge", true_hands_fit)
    last = RULES.view(done, None)["last_hand"]
    assert last["bid"] == 168 and isinstance(last["trump"], int)


def hand(text: str) -> list[Any]:
    return [make_tile(int(a), int(b)) for a, b in (t.split("-") for t in text.split())]


def test_medium_plunges_on_five_doubles_and_splashes_on_four_with_the_double_six() -> None:
    plunge = {"type": "bid", "value": 168, "contract": "plunge"}
    splash = {"type": "bid", "value": 84, "contract": "splash"}
    legal: list[dict[str, Any]] = [{"type": "pass"}, {"type": "bid", "value": 30}, plunge, splash]
    assert contract_bid(legal, hand("6-6 5-5 4-4 3-3 2-2 6-1 0-1")) == plunge
    assert contract_bid(legal, hand("6-6 5-5 4-4 3-3 6-2 6-1 0-1")) == splash
    assert contract_bid(legal, hand("5-5 4-4 3-3 2-2 6-2 6-1 0-1")) is None  # no double-six
    assert contract_bid([{"type": "pass"}, splash], hand("6-6 5-5 4-4 3-3 2-2 6-1 0-1")) == splash
    assert contract_bid([{"type": "pass"}], hand("6-6 5-5 4-4 3-3 2-2 1-1 0-0")) is None


def test_medium_bids_the_plunge_its_hand_calls_for_in_a_real_auction() -> None:
    state = table(("6-6 5-5 4-4 3-3 2-2 6-1 0-1", "6-5 6-4 6-3 6-2 6-0 5-0 5-1",
                   "1-1 0-0 5-2 5-3 5-4 4-0 4-1", "4-2 4-3 3-0 3-1 3-2 2-0 2-1"), ALL_ON)
    while RULES.to_move(state) != 0:
        state = RULES.apply(state, {"type": "pass"})
    view = RULES.view(state, 0)
    assert {"type": "bid", "value": 168, "contract": "plunge"} in view["legal"]
    assert make_bot("texas42", "medium", b"m").choose(view) == {"type": "bid", "value": 168, "contract": "plunge"}


def test_medium_names_sevens_on_a_hand_made_for_it() -> None:
    assert sevens_hand(hand("6-1 5-2 4-3 6-0 5-3 4-4 2-2"))
    assert not sevens_hand(hand("6-1 5-2 6-0 5-3 4-4 0-0 1-1"))  # five near seven
    assert not sevens_hand(hand("6-1 6-0 5-1 4-2 5-3 6-2 4-4"))  # one seven only
    view = {"seat": 0, "hand": [[1, 6], [2, 5], [3, 4], [0, 6], [3, 5], [4, 4], [2, 2]], "options": {},
            "legal": [{"type": "trump", "suit": s} for s in (*range(7), "sevens")]}
    assert make_bot("texas42", "medium", b"s").choose(view) == {"type": "trump", "suit": "sevens"}
    plain = {**view, "hand": [[6, 6], [5, 6], [4, 6], [0, 1], [0, 2], [1, 1], [3, 3]]}
    assert make_bot("texas42", "medium", b"s").choose(plain)["suit"] == 6


@pytest.mark.parametrize("doubles", ["high", "low", "own_suit"])
def test_nello_is_played_legally_under_each_doubles_rule(doubles: str) -> None:
    options = {"nello": True, "nello_doubles": doubles}
    state = run(table(SIXES_DEAL, options), "bid 30, pass, pass, pass, trump nello")
    done = play_hand(state, doubles.encode(), true_hands_fit)
    assert RULES.view(done, None)["last_hand"]["trump"] == "nello"


def test_sevens_is_played_and_its_voids_are_read_from_the_distance_to_seven() -> None:
    state = run(table(SIXES_DEAL, ALL_ON), "bid 42, pass, pass, pass, trump sevens")
    done = play_hand(state, b"sevens", true_hands_fit)
    assert RULES.view(done, None)["last_hand"]["trump"] == "sevens"
    view = {"trump": "sevens", "options": {}, "seat": 0, "hand_sizes": [6, 6, 7, 7], "log": [
        {"type": "play", "seat": 1, "tile": [2, 6]}]}
    banned = KIT.hidden(view)[1].banned
    assert make_tile(3, 4) in banned and make_tile(2, 6) not in banned and make_tile(0, 0) not in banned


def test_the_ais_trick_rules_restate_the_house_rules() -> None:
    assert trick_rules({"trump": "nello", "options": {"nello_doubles": "own_suit"}}) == DOUBLES_SUIT
    assert trick_rules({"trump": "sevens", "options": {}}) == SEVENS
    tiles = [make_tile(2, 6), make_tile(1, 6), make_tile(2, 5), make_tile(0, 1)]
    assert winner_index(tiles, SEVENS, [True, False, True, False]) == 2
    assert winner_index([make_tile(1, 1), make_tile(1, 6), make_tile(3, 3)], DOUBLES_SUIT) == 2


def test_a_match_with_every_house_rule_on_is_played_to_its_end_by_medium() -> None:
    state = RULES.new_match(4, {**ALL_ON, "nello_doubles": "low", "target_marks": 3}, seed=b"variants")
    seated = [make_bot("texas42", "medium", bytes([k])) for k in range(4)]
    moves = 0
    while RULES.to_move(state) is not None:
        seat = RULES.to_move(state)
        assert seat is not None
        state = RULES.apply(state, seated[seat].choose(RULES.view(state, seat)))
        moves += 1
    assert RULES.result(state) is not None and moves < 2000
