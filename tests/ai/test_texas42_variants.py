"""The 42 AI under the house rules (docs/rules-texas42.md, "House rules"): it never bids a plunge
or a splash, but names trumps for its partner's and plays the hand; it plays sevens and nello
under each doubles rule legally, with voids read the way those rules make them."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games.ai import kit_for, make_bot
from games.ai.hard import HardBot
from games.ai.texas42 import DOUBLES_SUIT, SEVENS, trick_rules, winner_index
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


def test_hard_weighs_a_plunge_medium_never_bids_one_and_the_partner_names_trumps_and_plays_it() -> None:
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
