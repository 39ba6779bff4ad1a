"""The house rules of docs/rules-texas42.md, "House rules": plunge, splash, sevens, nello's
doubles and its smallest bid, and forced_bid, each from the rules text, on chosen deals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.errors import IllegalAction
from games.core.options import OptionError
from games.texas42.tricks import DOUBLES_LOW, DOUBLES_SUIT, SEVENS, legal_plays, winning_index

from .test_texas42_support import RULES, SIXES_DEAL, run, table, tile, tiles

# Seat 2 holds four doubles (0-0 1-1 2-2 5-5), seat 3 two, seat 1 one, seat 0 none.
ALL_ON = {"plunge": True, "splash": True, "sevens": True, "nello": True}


def specials(state: Any) -> list[tuple[int, str]]:
    return [(a["value"], a["contract"]) for a in RULES.legal_actions(state) if "contract" in a]


def bid(value: int, contract: str) -> dict[str, Any]:
    return {"type": "bid", "value": value, "contract": contract}


def trumps(state: Any) -> list[Any]:
    return [a["suit"] for a in RULES.legal_actions(state)]


def play_out(state: Any) -> Any:
    """The first legal action until the hand is over (the next hand is dealt at once)."""
    number = state.hand.number
    while state.hand.number == number and RULES.to_move(state) is not None:
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    return state


def test_plunge_needs_four_doubles_and_is_four_marks_or_two_more_than_the_standing_bid() -> None:
    state = table(SIXES_DEAL, {"plunge": True})
    assert specials(state) == []  # seat 1 holds one double
    state = run(state, "pass")
    assert specials(state) == [(168, "plunge")]
    assert specials(run(table(SIXES_DEAL, {"plunge": True}), "bid 84")) == [(168, "plunge")]
    assert specials(run(table(SIXES_DEAL, {"plunge": True}), "bid 35")) == [(168, "plunge")]
    with pytest.raises(IllegalAction, match="needs at least 4 doubles in your hand; you hold 1"):
        RULES.apply(table(SIXES_DEAL, {"plunge": True}), bid(168, "plunge"))
    with pytest.raises(IllegalAction, match="needs the room option 'plunge'"):
        RULES.apply(run(table(SIXES_DEAL), "pass"), bid(168, "plunge"))
    with pytest.raises(IllegalAction, match="a plunge here is a bid of 168, not 84"):
        RULES.apply(state, bid(84, "plunge"))
    with pytest.raises(IllegalAction, match='a plunge of 168 is bid with "contract": "plunge"'):
        RULES.apply(state, {"type": "bid", "value": 168})
    # two marks more than a standing bid of three marks or more
    deal = ("0-1 0-2 0-3 0-4 1-2 1-3 1-5", "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
            "2-4 2-5 3-3 3-4 3-5 4-4 4-5", "5-5 5-0 4-1 3-2 0-0 1-1 2-2")
    later = run(table(deal, {"plunge": True}), "bid 84, bid 126")
    assert specials(later) == [(210, "plunge")]
    assert [a["value"] for a in RULES.legal_actions(later) if a["type"] == "bid"] == [168, 210]


def test_after_a_plunge_the_partner_names_trumps_and_leads_and_one_lost_trick_sets_it() -> None:
    state = run(table(SIXES_DEAL, {"plunge": True, "nello": True, "sevens": True}), "pass")
    state = RULES.apply(state, bid(168, "plunge"))
    state = run(state, "pass, pass")
    view = RULES.view(state, None)
    assert view["high_bid"] == {"seat": 2, "value": 168, "contract": "plunge"}
    assert view["bids"][1] == {"seat": 2, "bid": 168, "contract": "plunge"}
    assert (view["phase"], view["bidder"], view["to_move"]) == ("trump", 2, 0)
    assert trumps(state) == list(range(7))  # neither nello nor sevens after a plunge
    with pytest.raises(IllegalAction, match="partner names trumps"):
        RULES.apply(state, {"type": "trump", "suit": "nello"})
    state = run(state, "trump 1")
    view = RULES.view(state, 0)
    assert (view["leader"], view["to_move"]) == (0, 0)
    assert [e for e in view["log"] if e["type"] == "trump"] == [{"type": "trump", "seat": 0, "suit": 1}]
    assert RULES.load(RULES.dump(state)) == state
    assert RULES.state_from_view(RULES.view(state, None), state.hand.hands, []).hand.contracts == ((2, "plunge"),)
    done = play_out(state)
    last = RULES.view(done, None)["last_hand"]
    assert (last["result"], last["winner"], last["award"]) == ("set", 1, 4)
    assert last["tricks_won"][1] == 1 and last["early"]


def test_splash_needs_three_doubles_and_is_two_marks_or_three_over_two() -> None:
    deal = ("0-1 0-2 0-3 0-4 1-2 1-3 1-5", "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
            "2-4 2-5 3-3 3-4 3-5 4-4 4-5", "5-5 5-0 4-1 3-2 0-0 1-1 2-2")
    state = run(table(deal, {"splash": True}), "pass")
    assert specials(state) == []  # seat 2 holds two doubles
    state = run(state, "pass")
    assert specials(state) == [(84, "splash")]
    assert specials(run(table(deal, {"splash": True, "plunge": True}), "pass, bid 84")) == [
        (126, "splash"), (168, "plunge")]
    assert specials(run(table(deal, {"splash": True}), "pass, bid 84, pass")) == []
    assert specials(run(table(deal, {"splash": True}), "bid 84, bid 126")) == []
    with pytest.raises(IllegalAction, match="cannot beat the standing bid"):
        RULES.apply(run(table(deal, {"splash": True}), "bid 84, bid 126"), bid(168, "splash"))
    state = run(RULES.apply(state, bid(84, "splash")), "pass")
    assert (RULES.to_move(state), RULES.view(state, None)["bidder"]) == (1, 3)


def test_a_plain_bid_over_a_plunge_wins_the_auction_and_its_bidder_names_trumps() -> None:
    state = RULES.apply(run(table(SIXES_DEAL, {"plunge": True}), "pass"), bid(168, "plunge"))
    state = run(state, "bid 210, pass")
    view = RULES.view(state, None)
    assert view["high_bid"] == {"seat": 3, "value": 210}
    assert (view["bidder"], view["to_move"]) == (3, 3)


def test_sevens_is_named_on_a_bid_of_42_or_more_and_each_seat_plays_its_tile_closest_to_seven() -> None:
    assert "sevens" not in trumps(run(table(SIXES_DEAL, {"sevens": True}), "bid 41, pass, pass, pass"))
    with pytest.raises(IllegalAction, match="sevens needs a winning bid of at least 42, not 41"):
        RULES.apply(run(table(SIXES_DEAL, {"sevens": True}), "bid 41, pass, pass, pass"),
                    {"type": "trump", "suit": "sevens"})
    with pytest.raises(IllegalAction, match="needs the room option 'sevens'"):
        RULES.apply(run(table(SIXES_DEAL), "bid 42, pass, pass, pass"), {"type": "trump", "suit": "sevens"})
    state = run(table(SIXES_DEAL, {"sevens": True}), "bid 42, pass, pass, pass, trump sevens")
    # seat 1: 6-1 and 6-0 ... 6-1 is 7 pips: the only legal lead
    assert [a["tile"] for a in RULES.legal_actions(state)] == [[1, 6]]
    state = run(state, "6-1")
    # seat 2 (5-5 5-0 4-1 3-2 0-0 1-1 2-2): 5-0 (5), 4-1 (5), 3-2 (5) are two from seven
    assert [a["tile"] for a in RULES.legal_actions(state)] == [[0, 5], [1, 4], [2, 3]]
    with pytest.raises(IllegalAction, match="closest to seven pips"):
        RULES.apply(state, {"type": "play", "tile": [5, 5]})
    state = play_out(run(state, "5-0"))
    last = RULES.view(state, None)["last_hand"]
    assert last["trump"] == "sevens" and last["award"] == 1
    assert last["result"] == ("set" if last["tricks_won"][0] else "made")


def test_sevens_tricks_go_to_the_tile_closest_to_seven_and_a_tie_to_the_bidding_side() -> None:
    assert winning_index(tiles("6-2 3-4 5-5 0-6"), SEVENS, [True, False, True, False]) == 1
    assert winning_index(tiles("3-4 1-6 2-5 0-6"), SEVENS, [True, False, True, False]) == 0
    # the leader is off by one; an opponent and the leader's partner both hit seven
    assert winning_index(tiles("6-2 1-6 2-5 0-1"), SEVENS, [True, False, True, False]) == 2
    assert legal_plays(tiles("6-6 0-0 4-4 3-5 2-3"), [tile("3-4")], SEVENS) == tiles("4-4 3-5")


def test_nello_doubles_high_low_or_a_suit_of_their_own() -> None:
    # high (the default): 6-6 is the top six
    assert winning_index(tiles("6-1 6-6 6-5"), None) == 1
    # low: 6-6 is the lowest six, 6-0 beats it
    assert winning_index(tiles("6-6 6-0 6-1"), DOUBLES_LOW) == 2
    assert winning_index(tiles("6-6 2-2 3-3"), DOUBLES_LOW) == 0
    assert legal_plays(tiles("6-6 6-1 2-2"), [tile("6-5")], DOUBLES_LOW) == tiles("6-6 6-1")
    # own suit: a double lead calls for doubles, ranked by number; 6-6 is not a six
    assert legal_plays(tiles("6-6 6-1 2-3"), [tile("1-1")], DOUBLES_SUIT) == tiles("6-6")
    assert legal_plays(tiles("6-6 6-1 2-3"), [tile("6-5")], DOUBLES_SUIT) == tiles("6-1")
    assert winning_index(tiles("1-1 6-1 3-3 0-0"), DOUBLES_SUIT) == 2
    assert winning_index(tiles("6-5 6-6 6-1"), DOUBLES_SUIT) == 0


def test_nello_doubles_in_play_and_its_refusal_names_the_doubles() -> None:
    options = {"nello": True, "nello_doubles": "own_suit"}
    state = run(table(SIXES_DEAL, options), "bid 30, pass, pass, pass, trump nello")
    state = run(state, "6-6")  # seat 1 leads a double: seat 2 must follow with a double
    assert [a["tile"] for a in RULES.legal_actions(state)] == [[0, 0], [1, 1], [2, 2], [5, 5]]
    with pytest.raises(IllegalAction, match="doubles were led"):
        RULES.apply(state, {"type": "play", "tile": [0, 5]})
    low = run(table(SIXES_DEAL, {"nello": True, "nello_doubles": "low"}), "bid 30, pass, pass, pass, trump nello")
    assert RULES.view(low, None)["options"]["nello_doubles"] == "low"


@pytest.mark.parametrize(("marks", "lowest"), [(0, 30), (1, 42), (2, 84)])
def test_nello_needs_the_smallest_bid_the_room_sets(marks: int, lowest: int) -> None:
    options = {"nello": True, "nello_min_marks": marks}
    for value in (30, 41, 42, 84):
        state = run(table(SIXES_DEAL, options), f"bid {value}, pass, pass, pass")
        assert ("nello" in trumps(state)) == (value >= lowest), value
    if marks:
        state = run(table(SIXES_DEAL, options), "bid 41, pass, pass, pass")
        with pytest.raises(IllegalAction, match="nello needs a winning bid of at least"):
            RULES.apply(state, {"type": "trump", "suit": "nello"})


def test_forced_bid_is_the_other_name_of_all_pass_force() -> None:
    for options in ({"forced_bid": True}, {"all_pass": "force"}):
        state = run(table(SIXES_DEAL, options), "pass, pass, pass")
        assert RULES.legal_actions(state)[0] == {"type": "bid", "value": 30}
        with pytest.raises(IllegalAction, match="must bid at least 30"):
            RULES.apply(state, {"type": "pass"})
        assert {k: RULES.view(state, None)["options"][k] for k in ("forced_bid", "all_pass")} == {
            "forced_bid": True, "all_pass": "force"}


@pytest.mark.parametrize(("given", "name"), [
    ({"nello_doubles": "own_suit"}, "nello_doubles"),
    ({"nello_min_marks": 1, "plunge": True}, "nello_min_marks"),
    ({"nello_min_marks": 3}, "nello_min_marks"),
    ({"sevens": "yes"}, "sevens"),
])
def test_a_bad_house_rule_is_refused_naming_it(given: dict[str, Any], name: str) -> None:
    with pytest.raises(OptionError) as refused:
        RULES.new_match(4, given, seed=bytes(32))
    assert refused.value.option == name and name in str(refused.value)


@settings(max_examples=12, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), doubles=st.sampled_from(["high", "low", "own_suit"]))
def test_every_variant_hand_is_legal_and_scored_by_its_rule(seed: bytes, doubles: str) -> None:
    """Random legal play with every house rule on: a plunge or splash is led by the partner,
    and every match ends with a result."""
    rng = random.Random(seed)
    state = RULES.new_match(4, {**ALL_ON, "nello_doubles": doubles, "target_marks": 3}, seed=seed)
    while RULES.to_move(state) is not None:
        legal = RULES.legal_actions(state)
        action = rng.choice(legal)
        before = state
        state = RULES.apply(state, action)
        if action["type"] == "trump" and before.hand.contracts:
            view = RULES.view(state, None)
            if view["high_bid"].get("contract"):
                assert view["leader"] == (view["bidder"] + 2) % 4
    assert RULES.result(state) is not None
