"""Views, options, the deal of the fair shuffle, dumps, and `state_from_view` (the Hard AI's determinization)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.fairness import commitment, hand_seed, shuffle
from games.core.tiles import full_set, make_tile
from games.texas42.state import Texas42State

from .conformance_support import tiles_in
from .test_texas42_support import RULES, SIXES_DEAL, run, table, tiles

COMMON_KEYS = {
    "game", "players", "seat", "options", "hand", "hand_sizes", "boneyard", "to_move", "legal", "log",
    "scores", "teams", "hand_number", "commitment", "revealed", "last_hand", "match_over", "result",
}
TEXAS42_KEYS = {
    "phase", "shuffler", "bids", "high_bid", "bidder", "trump", "trick", "leader", "tricks_won",
    "points_taken", "sitting_out", "decided", "scoring", "target",
}
VARIANTS = [{}, {"all_pass": "force"}, {"doubles_trump": True, "follow_me": True, "nello": True},
            {"target_points": 250},
            {"nello": True, "nello_doubles": "own_suit", "nello_min_marks": 1, "plunge": True,
             "splash": True, "sevens": True, "forced_bid": True}]


def test_a_view_has_the_common_keys_and_the_42_keys_and_nothing_hidden() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"view")
    view = RULES.view(state, 2)
    assert set(view) == COMMON_KEYS | TEXAS42_KEYS
    assert (view["game"], view["players"], view["seat"], view["boneyard"]) == ("texas42", 4, 2, 0)
    assert view["options"] == {"target_marks": 7, "target_points": None, "all_pass": "redeal",
                               "doubles_trump": False, "follow_me": False, "nello": False,
                               "forced_bid": False, "nello_doubles": "high", "nello_min_marks": 0,
                               "plunge": False, "splash": False, "sevens": False}
    assert (view["scoring"], view["target"], view["scores"], view["teams"]) == ("marks", 7, [0, 0], [[0, 2], [1, 3]])
    assert view["hand_sizes"] == [7, 7, 7, 7]
    assert (view["high_bid"], view["bidder"], view["trump"], view["leader"], view["decided"]) == (None,) * 5
    assert view["commitment"] == commitment(hand_seed(b"view", 0))
    assert view["revealed"] == [] and view["last_hand"] is None and view["result"] is None
    assert view["legal"] == [] and RULES.view(state, 1)["legal"] == RULES.legal_actions(state)
    spectator = RULES.view(state, None)
    assert "hand" not in spectator
    assert set(spectator) == COMMON_KEYS - {"hand"} | TEXAS42_KEYS
    own = {make_tile(*t) for t in view["hand"]}
    assert tiles_in({k: v for k, v in view.items() if k != "hand"}) == set()
    assert tiles_in(spectator) == set() and len(own) == 7


def test_seat_k_is_dealt_block_k_of_the_hand_seed_shuffle() -> None:
    state = RULES.new_match(players=4, options={}, seed=b"deal")
    order = shuffle(full_set(6), hand_seed(b"deal", 0))
    for seat in range(4):
        block = sorted(order[seat * 7:(seat + 1) * 7])
        assert [make_tile(*t) for t in RULES.view(state, seat)["hand"]] == block


def test_options_are_checked_and_name_the_option() -> None:
    for options, name in (
        ({"no_such": 1}, "no_such"), ({"all_pass": "sometimes"}, "all_pass"), ({"nello": "yes"}, "nello"),
        ({"target_points": 0}, "target_points"), ({"target_marks": 0}, "target_marks"),
        ({"doubles_trump": 1}, "doubles_trump"), ({"follow_me": None, "target_marks": 2.5}, "target_marks"),
    ):
        with pytest.raises(ValueError, match=name):
            RULES.new_match(players=4, options=options, seed=b"x")
    bad_players: tuple[Any, ...] = (2, 3, 5, "4")  # "4": a string on purpose
    for players in bad_players:
        with pytest.raises(ValueError, match="players"):
            RULES.new_match(players=players, options={}, seed=b"x")
    with pytest.raises(ValueError, match="seat"):
        RULES.view(RULES.new_match(players=4, options={}, seed=b"x"), 4)


def test_target_points_switches_scoring_to_points_whatever_target_marks_says() -> None:
    view = RULES.view(RULES.new_match(players=4, options={"target_points": 150, "target_marks": 3}, seed=b"x"), 0)
    assert (view["scoring"], view["target"]) == ("points", 150)


def test_live_matches_draw_a_secret_master() -> None:
    a = RULES.new_match(players=4, options={}, seed=None)
    b = RULES.new_match(players=4, options={}, seed=None)
    assert RULES.view(a, None)["commitment"] != RULES.view(b, None)["commitment"]


def test_dump_is_json_and_loads_back_equal_mid_hand() -> None:
    state = run(table(SIXES_DEAL, {"nello": True}), "bid 30, pass, pass, pass, trump nello, 6-0")
    data = json.loads(json.dumps(RULES.dump(state)))
    assert RULES.load(data) == state


def random_point(
    seed: bytes, options: dict[str, Any], steps: int
) -> tuple[Texas42State, list[dict[str, Any]]]:
    rng = random.Random(seed)
    state = RULES.new_match(players=4, options=options, seed=seed)
    trail = []
    for _ in range(steps):
        if RULES.to_move(state) is None:
            break
        action = rng.choice(RULES.legal_actions(state))
        trail.append(action)
        state = RULES.advance(state, action)
    return state, trail


@settings(max_examples=40, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), steps=st.integers(0, 120), variant=st.sampled_from(VARIANTS),
       viewer=st.sampled_from([0, 1, 2, 3, None]))
def test_state_from_view_rebuilds_a_state_with_the_same_views_and_future(
    seed: bytes, steps: int, variant: dict[str, Any], viewer: int | None
) -> None:
    state, _ = random_point(seed, variant, steps)
    hands = [[make_tile(*t) for t in RULES.view(state, k)["hand"]] for k in range(4)]
    view = RULES.view(state, viewer)
    rebuilt = RULES.state_from_view(view, hands, [])
    for seat in (0, 1, 2, 3, None):
        assert RULES.view(rebuilt, seat) == RULES.view(state, seat)
    assert RULES.legal_actions(rebuilt) == RULES.legal_actions(state)
    assert RULES.load(json.loads(json.dumps(RULES.dump(rebuilt)))) == rebuilt
    rng = random.Random(steps)
    number = RULES.hand_index(state)
    while RULES.to_move(state) is not None and RULES.hand_index(state) == number:
        action = rng.choice(RULES.legal_actions(state))
        state, rebuilt = RULES.apply(state, action), RULES.apply(rebuilt, action)
        if RULES.to_move(state) is not None and RULES.hand_index(state) == number:
            assert RULES.view(rebuilt, viewer) == RULES.view(state, viewer)
    assert RULES.scores(rebuilt) == RULES.scores(state)


def test_state_from_view_places_other_hands_as_sampled() -> None:
    state = run(table(SIXES_DEAL), "bid 30, pass, pass, pass, trump 6, 6-6")
    view = RULES.view(state, 1)
    swapped = [tiles(h) for h in (
        "2-4 2-5 3-3 3-4 3-5 4-4 4-5", "", "5-5 5-0 4-1 3-2 0-0 1-1 2-2", "0-1 0-2 0-3 0-4 1-2 1-3 1-5")]
    swapped[1] = [make_tile(*t) for t in view["hand"]]
    sample = RULES.state_from_view(view, swapped, [])
    assert RULES.view(sample, 1) == view
    assert RULES.view(sample, 3)["hand"] == [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 5]]


def test_state_from_view_refuses_tiles_that_do_not_fit() -> None:
    state = run(table(SIXES_DEAL), "bid 30, pass, pass, pass, trump 6, 6-6")
    view = RULES.view(state, 0)
    hands = [[make_tile(*t) for t in RULES.view(state, k)["hand"]] for k in range(4)]
    with pytest.raises(ValueError, match="boneyard"):
        RULES.state_from_view(view, hands, [make_tile(0, 0)])
    with pytest.raises(ValueError, match="own hand"):
        RULES.state_from_view(view, [hands[2], hands[1], hands[0], hands[3]], [])
    doubled = [hands[0], hands[1], hands[2], [*hands[3][:-1], make_tile(6, 6)]]
    with pytest.raises(ValueError, match="exactly once"):
        RULES.state_from_view(view, doubled, [])
    with pytest.raises(ValueError, match="do not fit"):
        RULES.state_from_view(view, [hands[0], hands[1], hands[2], hands[3][:-1]], [])


def test_load_checks_the_options_of_a_dump() -> None:
    data = json.loads(json.dumps(RULES.dump(RULES.new_match(players=4, options={}, seed=b"x"))))
    data["config"]["all_pass"] = "never"
    with pytest.raises(ValueError, match="all_pass"):
        RULES.load(data)
