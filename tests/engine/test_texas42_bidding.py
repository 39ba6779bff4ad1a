"""The auction: one bid per seat from left of the shuffler, 30..42, 84 at any time, then a mark at a time."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core.errors import IllegalAction
from games.core.fairness import hand_seed
from games.texas42.bidding import legal_bids
from games.texas42.state import Texas42State

from .test_texas42_support import RULES, SIXES_DEAL, run, table


def bids_allowed(state: Texas42State) -> list[int]:
    return [a["value"] for a in RULES.legal_actions(state) if a["type"] == "bid"]


def test_bidding_starts_left_of_the_shuffler_and_each_seat_bids_once() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"auction")
    view = RULES.view(state, None)
    assert (view["shuffler"], view["to_move"], view["phase"]) == (0, 1, "bidding")
    movers = []
    for step in ("pass", "bid 30", "pass", "bid 31"):
        movers.append(RULES.to_move(state))
        state = run(state, step)
    view = RULES.view(state, None)
    assert movers == [1, 2, 3, 0]
    assert view["bids"] == [
        {"seat": 1, "pass": True}, {"seat": 2, "bid": 30}, {"seat": 3, "pass": True}, {"seat": 0, "bid": 31},
    ]
    assert view["high_bid"] == {"seat": 0, "value": 31}
    assert (view["phase"], view["bidder"], view["to_move"]) == ("trump", 0, 0)
    assert [e["type"] for e in view["log"]] == ["pass", "bid", "pass", "bid"]


def test_the_lowest_bid_is_thirty_and_the_highest_in_points_forty_two() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"auction")
    assert bids_allowed(state) == [*range(30, 43), 84]
    assert RULES.legal_actions(state)[0] == {"type": "pass"}
    for value, message in ((29, "lowest bid is 30"), (43, "whole marks"), (50, "whole marks")):
        with pytest.raises(IllegalAction, match=message):
            RULES.apply(state, {"type": "bid", "value": value})
    assert bids_allowed(run(state, "bid 41")) == [42, 84]
    assert bids_allowed(run(state, "bid 42")) == [84]


def test_a_bid_must_beat_the_standing_bid() -> None:
    state = run(RULES.new_match(players=4, options={}, seed=b"auction"), "bid 35")
    with pytest.raises(IllegalAction, match="beat the standing bid of 35"):
        RULES.apply(state, {"type": "bid", "value": 35})
    with pytest.raises(IllegalAction, match="beat"):
        RULES.apply(state, {"type": "bid", "value": 31})
    with pytest.raises(IllegalAction, match="126 is allowed only over a standing bid of 84"):
        RULES.apply(state, {"type": "bid", "value": 126})


def test_two_marks_may_be_bid_at_any_time() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"auction")
    assert 84 in bids_allowed(state)
    assert 84 in bids_allowed(run(state, "bid 30"))
    assert 84 in bids_allowed(run(state, "pass, pass, bid 42"))
    assert RULES.view(run(state, "bid 84"), None)["high_bid"] == {"seat": 1, "value": 84}


def test_above_two_marks_only_one_mark_more() -> None:
    state = run(RULES.new_match(players=4, options={}, seed=b"auction"), "bid 84")
    assert bids_allowed(state) == [126]
    with pytest.raises(IllegalAction, match="168 is allowed only over a standing bid of 126"):
        RULES.apply(state, {"type": "bid", "value": 168})
    with pytest.raises(IllegalAction, match="beat"):
        RULES.apply(state, {"type": "bid", "value": 84})
    state = run(state, "bid 126")
    assert bids_allowed(state) == [168]
    state = run(state, "bid 168, bid 210")
    assert RULES.view(state, None)["high_bid"] == {"seat": 0, "value": 210}
    assert legal_bids(210) == [252]


def test_all_pass_throws_the_hand_in_and_the_next_seat_shuffles() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"throw in")
    first = RULES.view(state, None)
    dealt = [RULES.view(state, seat)["hand"] for seat in range(4)]
    state = run(state, "pass, pass, pass, pass")
    view = RULES.view(state, None)
    seed = hand_seed(b"throw in", 0)
    assert (view["hand_number"], view["shuffler"], view["to_move"], view["phase"]) == (1, 1, 2, "bidding")
    assert view["scores"] == [0, 0]
    assert view["log"] == []
    assert view["revealed"] == [seed.hex()]
    assert view["commitment"] != first["commitment"]
    last = view["last_hand"]
    assert (last["result"], last["winner"], last["bid"], last["award"]) == ("thrown_in", None, None, 0)
    assert last["log"][-1] == {
        "type": "hand_end", "result": "thrown_in", "bidder": None, "bid": None, "points": [0, 0],
        "side": None, "award": 0, "early": False,
    }
    assert last["dealt"] == last["hands_left"] == dealt
    assert (last["number"], last["seed"], last["commitment"]) == (0, seed.hex(), first["commitment"])


def test_hand_number_counts_redeals_and_the_shuffler_moves_on_each_time() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"throw in")
    shufflers = []
    for _ in range(5):
        shufflers.append(RULES.view(state, None)["shuffler"])
        state = run(state, "pass, pass, pass, pass")
    assert shufflers == [0, 1, 2, 3, 0]
    assert RULES.hand_index(state) == 5
    assert len(RULES.view(state, None)["revealed"]) == 5


def test_under_force_the_shuffler_must_bid_when_the_others_pass() -> None:
    state = RULES.new_match(players=4, options={"all_pass": "force"}, seed=b"force")
    state = run(state, "pass, pass, pass")
    assert RULES.to_move(state) == 0
    assert RULES.legal_actions(state) == [{"type": "bid", "value": v} for v in [*range(30, 43), 84]]
    with pytest.raises(IllegalAction, match="shuffler must bid at least 30"):
        RULES.apply(state, {"type": "pass"})
    state = run(state, "bid 30")
    assert RULES.view(state, None)["phase"] == "trump"


def test_under_force_the_shuffler_may_pass_over_a_bid() -> None:
    state = RULES.new_match(players=4, options={"all_pass": "force"}, seed=b"force")
    state = run(state, "pass, bid 30, pass")
    assert {"type": "pass"} in RULES.legal_actions(state)


def test_the_high_bidder_names_trumps_from_the_suits_the_options_allow() -> None:
    state = run(table(SIXES_DEAL), "bid 30, pass, pass, pass")
    assert RULES.legal_actions(state) == [{"type": "trump", "suit": s} for s in range(7)]
    for name, option in (("doubles", "doubles_trump"), ("follow_me", "follow_me"), ("nello", "nello")):
        with pytest.raises(IllegalAction, match=option):
            RULES.apply(state, {"type": "trump", "suit": name})
    every = run(table(SIXES_DEAL, {"doubles_trump": True, "follow_me": True, "nello": True}),
                "bid 30, pass, pass, pass")
    assert [a["suit"] for a in RULES.legal_actions(every)] == [0, 1, 2, 3, 4, 5, 6, "doubles", "follow_me", "nello"]
    state = run(state, "trump 6")
    view = RULES.view(state, None)
    assert (view["trump"], view["phase"], view["leader"], view["to_move"]) == (6, "playing", 1, 1)
    assert view["log"][-1] == {"type": "trump", "seat": 1, "suit": 6}


def test_actions_out_of_phase_are_refused_with_a_reason() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"auction")
    with pytest.raises(IllegalAction, match="bidding"):
        RULES.apply(state, {"type": "play", "tile": [6, 6]})
    with pytest.raises(IllegalAction, match="bidding"):
        RULES.apply(state, {"type": "trump", "suit": 3})
    naming = run(state, "bid 30, pass, pass, pass")
    with pytest.raises(IllegalAction, match="name trumps"):
        RULES.apply(naming, {"type": "bid", "value": 31})


@given(standing=st.sampled_from([None, *range(30, 43), 84, 126, 168]), value=st.integers(0, 300))
def test_a_bid_is_legal_exactly_when_the_rules_allow_it(standing: int | None, value: int) -> None:
    allowed = (
        (30 <= value <= 42 and (standing is None or value > standing))
        or (value == 84 and (standing is None or standing < 84))
        or (standing is not None and standing >= 84 and value == standing + 42)
    )
    assert (value in legal_bids(standing)) == allowed


def test_a_refused_bid_says_which_bids_are_open() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"auction")
    with pytest.raises(IllegalAction, match=r"not 29: you may bid 30 to 42, or 84$"):
        RULES.apply(state, {"type": "bid", "value": 29})
    with pytest.raises(IllegalAction, match=r"standing bid of 41: you may bid 42, or 84$"):
        RULES.apply(run(state, "bid 41"), {"type": "bid", "value": 40})
    with pytest.raises(IllegalAction, match=r"standing bid of 42: you may bid 84$"):
        RULES.apply(run(state, "bid 42"), {"type": "bid", "value": 42})
    with pytest.raises(IllegalAction, match=r"one mark at a time \(you may bid 126\)$"):
        RULES.apply(run(state, "bid 84"), {"type": "bid", "value": 168})


def test_actions_42_does_not_have_are_refused_in_words() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"auction")
    with pytest.raises(IllegalAction, match="no boneyard"):
        RULES.apply(state, {"type": "draw"})
    with pytest.raises(IllegalAction, match="tiles are played once trumps are named"):
        RULES.apply(state, {"type": "play", "tile": [1, 1]})
    with pytest.raises(ValueError, match="'players': Texas 42 is played by exactly 4 players"):
        RULES.new_match(players=3, options={}, seed=b"x")
