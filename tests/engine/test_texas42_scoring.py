"""Whole hands from chosen deals: made and set in marks and in points, early ends, nello, match end."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.errors import IllegalAction

from .test_texas42_support import RULES, SIXES_DEAL, hand_events, run, table

# Seat 1 bids 30 on sixes and has 33 points after three tricks.
MADE_IN_THREE = (
    "bid 30, pass, pass, pass, trump 6, "
    "6-6, 5-5, 4-5, 0-1, "  # 1 trick + 10 count
    "6-4, 5-0, 2-4, 0-2, "  # 1 + 10 + 5
    "6-5, 4-1, 3-3, 0-3"  # 1 + 5: 33 reached
)
# Seat 0 bids 30 on blanks; the opponents take 6 then 16 points, more than 42 - 30.
SET_IN_TWO = "pass, pass, pass, bid 30, trump 0, 1-3, 6-3, 3-2, 3-3, 4-4, 1-2, 6-4, 4-1"


def play_out(state: Any) -> Any:
    """Finish the hand in progress, each seat playing its first legal action."""
    number = RULES.hand_index(state)
    while RULES.to_move(state) is not None and RULES.hand_index(state) == number:
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    return state


def test_a_made_points_bid_scores_one_mark_and_ends_the_moment_it_is_made() -> None:
    state = run(table(SIXES_DEAL), MADE_IN_THREE)
    view = RULES.view(state, 0)
    last = view["last_hand"]
    assert view["scores"] == [0, 1]
    assert (view["hand_number"], view["shuffler"], view["to_move"], view["phase"]) == (1, 1, 2, "bidding")
    assert (last["result"], last["early"], last["winner"], last["award"]) == ("made", True, 1, 1)
    assert (last["bidder"], last["bid"], last["trump"]) == (1, 30, 6)
    assert (last["points"], last["tricks_won"]) == ([0, 33], [0, 3])
    assert [len(h) for h in last["hands_left"]] == [4, 4, 4, 4]
    assert [e["points"] for e in hand_events(last, "trick")] == [11, 16, 6]
    assert hand_events(last, "trick")[0] == {
        "type": "trick", "winner": 1, "points": 11, "tiles": [[6, 6], [5, 5], [4, 5], [0, 1]],
    }
    assert last["log"][-1] == {
        "type": "hand_end", "result": "made", "bidder": 1, "bid": 30, "points": [0, 33], "side": 1,
        "award": 1, "early": True,
    }
    assert view["revealed"] == [last["seed"]]


def test_in_points_a_made_bid_scores_the_bid() -> None:
    state = run(table(SIXES_DEAL, {"target_points": 250}), MADE_IN_THREE)
    assert RULES.scores(state) == [0, 30]
    assert RULES.view(state, None)["scoring"] == "points"
    assert RULES.view(state, None)["last_hand"]["award"] == 30


def test_a_set_points_bid_gives_the_opponents_one_mark_once_the_bid_is_out_of_reach() -> None:
    state = run(table(SIXES_DEAL), SET_IN_TWO)
    last = RULES.view(state, None)["last_hand"]
    assert RULES.scores(state) == [0, 1]
    assert (last["result"], last["early"], last["bidder"], last["winner"]) == ("set", True, 0, 1)
    assert (last["points"], last["tricks_won"]) == ([0, 22], [0, 2])


def test_in_points_a_set_gives_the_opponents_the_bid() -> None:
    state = run(table(SIXES_DEAL, {"target_points": 250, "target_marks": 3}), SET_IN_TWO)
    assert RULES.scores(state) == [0, 30]


def test_a_two_mark_bid_needs_every_trick_and_scores_two_marks() -> None:
    state = run(table(SIXES_DEAL), "bid 84, pass, pass, pass, trump 6")
    state = play_out(state)
    last = RULES.view(state, None)["last_hand"]
    assert RULES.scores(state) == [0, 2]
    assert (last["result"], last["early"], last["points"], last["tricks_won"]) == ("made", False, [0, 42], [0, 7])
    assert [len(h) for h in last["hands_left"]] == [0, 0, 0, 0]


def test_a_two_mark_bid_is_set_by_the_first_trick_the_opponents_take() -> None:
    state = run(table(SIXES_DEAL), "pass, pass, pass, bid 84, trump 0, 1-3, 6-3, 3-2, 3-3")
    last = RULES.view(state, None)["last_hand"]
    assert RULES.scores(state) == [0, 2]
    assert (last["result"], last["early"], last["points"], last["award"]) == ("set", True, [0, 6], 2)
    points = run(table(SIXES_DEAL, {"target_points": 250}), "pass, pass, pass, bid 84, trump 0, 1-3, 6-3, 3-2, 3-3")
    assert RULES.scores(points) == [0, 84]


def test_marks_add_up_over_hands_and_the_match_ends_at_the_target() -> None:
    state = run(table(SIXES_DEAL, {"target_marks": 1}), MADE_IN_THREE)
    view = RULES.view(state, 3)
    assert view["match_over"] is True
    assert (view["to_move"], view["legal"], view["phase"], view["decided"]) == (None, [], "over", "made")
    assert view["result"] == RULES.result(state) == {
        "scores": [0, 1], "teams": [[0, 2], [1, 3]], "winner": 1, "winning_seats": [1, 3], "hands": 1,
        "scoring": "marks",
    }
    assert view["last_hand"]["result"] == "made"
    assert len(view["revealed"]) == 1
    with pytest.raises(IllegalAction, match="over"):
        RULES.apply(state, {"type": "pass"})


def test_points_target_ends_the_match_when_reached() -> None:
    state = run(table(SIXES_DEAL, {"target_points": 30}), MADE_IN_THREE)
    assert RULES.to_move(state) is None
    result = RULES.result(state)
    assert result is not None
    assert result["scores"] == [0, 30]
    assert result["scoring"] == "points"


def test_nello_partner_sits_out_and_the_bidder_is_set_by_the_first_trick_won() -> None:
    state = run(table(SIXES_DEAL, {"nello": True}), "bid 30, pass, pass, pass, trump nello")
    view = RULES.view(state, None)
    assert (view["sitting_out"], view["trump"], view["leader"]) == (3, "nello", 1)
    movers = []
    for tile in ("6-0", "0-0", "0-1"):
        movers.append(RULES.to_move(state))
        state = run(state, tile)
    assert movers == [1, 2, 0]
    last = RULES.view(state, None)["last_hand"]
    assert hand_events(last, "trick") == [{"type": "trick", "winner": 1, "points": 1, "tiles": [[0, 6], [0, 0], [0, 1]]}]
    assert (last["result"], last["early"], last["winner"]) == ("set", True, 0)
    assert RULES.scores(state) == [1, 0]


NELLO_DEAL = (
    "1-1 2-2 3-3 4-4 5-5 6-6 0-0",
    "0-1 0-2 0-3 0-4 0-5 0-6 1-2",
    "1-3 1-4 1-5 1-6 2-3 2-4 2-5",
    "2-6 3-4 3-5 3-6 4-5 4-6 5-6",
)


def test_nello_is_made_when_the_bidder_loses_all_seven_tricks_of_three() -> None:
    state = run(table(NELLO_DEAL, {"nello": True}), "bid 30, pass, pass, pass, trump nello")
    seen = set()
    while RULES.hand_index(state) == 0:
        seen.add(RULES.to_move(state))
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    last = RULES.view(state, None)["last_hand"]
    assert seen == {0, 1, 2}
    assert all(len(e["tiles"]) == 3 for e in hand_events(last, "trick"))
    assert (last["result"], last["early"], last["winner"], last["tricks_won"]) == ("made", False, 1, [7, 0])
    assert last["points"] == [32, 0]  # the 6-4 stays in the sitting-out hand
    assert [len(h) for h in last["hands_left"]] == [0, 0, 0, 7]
    assert RULES.scores(state) == [0, 1]


def test_a_play_must_follow_suit_and_says_so() -> None:
    state = run(table(SIXES_DEAL), "pass, pass, pass, bid 30, trump 0, 1-3")
    assert RULES.legal_actions(state) == [{"type": "play", "tile": [3, 6]}]
    with pytest.raises(IllegalAction, match=r"follow suit: threes were led and you hold \[3, 6\]$"):
        RULES.apply(state, {"type": "play", "tile": [6, 6]})
    with pytest.raises(IllegalAction, match=r"do not hold \[0, 0\]"):
        RULES.apply(state, {"type": "play", "tile": [0, 0]})
    with pytest.raises(IllegalAction, match="never an end"):
        RULES.apply(state, {"type": "play", "tile": [3, 6], "end": "left"})
    assert RULES.view(run(state, "6-3"), 2)["trick"] == [
        {"seat": 0, "tile": [1, 3]}, {"seat": 1, "tile": [3, 6]},
    ]


def legal_tiles(state: Any) -> list[list[int]]:
    return [a["tile"] for a in RULES.legal_actions(state)]


def test_doubles_trump_through_the_engine_a_double_lead_calls_for_doubles() -> None:
    state = run(table(SIXES_DEAL, {"doubles_trump": True}), "bid 30, pass, pass, pass, trump doubles, 6-6")
    assert legal_tiles(state) == [[0, 0], [1, 1], [2, 2], [5, 5]]
    state = run(state, "0-0")
    assert legal_tiles(state) == [[3, 3], [4, 4]]
    state = run(state, "3-3")
    assert len(legal_tiles(state)) == 7
    view = RULES.view(run(state, "0-1"), None)
    assert hand_events(view, "trick") == [
        {"type": "trick", "winner": 1, "points": 1, "tiles": [[6, 6], [0, 0], [3, 3], [0, 1]]}]
    assert (view["leader"], view["to_move"], view["tricks_won"], view["points_taken"]) == (1, 1, [0, 1], [0, 1])


def test_follow_me_through_the_engine_a_lead_calls_for_its_higher_end_only() -> None:
    state = run(table(SIXES_DEAL, {"follow_me": True}), "bid 30, pass, pass, pass, trump follow_me, 6-5")
    assert len(legal_tiles(state)) == 7  # 5-5 is a five, not a six: no six held, anything goes
    state = run(state, "5-5")
    assert legal_tiles(state) == [[2, 4], [2, 5], [3, 3], [3, 4], [3, 5], [4, 4], [4, 5]]
    view = RULES.view(run(state, "4-5, 1-5"), None)
    assert hand_events(view, "trick")[0]["winner"] == 1
    assert view["points_taken"] == [0, 11]


def test_a_bid_of_42_needs_every_point_and_is_set_by_the_first_trick_lost() -> None:
    state = run(table(SIXES_DEAL), "pass, pass, pass, bid 42, trump 0, 1-3, 6-3, 3-2, 3-3")
    last = RULES.view(state, None)["last_hand"]
    assert RULES.scores(state) == [0, 1]
    assert (last["result"], last["early"], last["points"], last["winner"], last["award"]) == (
        "set", True, [0, 6], 1, 1)


def test_three_marks_over_two_scores_three_marks_made_or_set() -> None:
    # Hand 3 is shuffled by seat 3, so seat 0 bids first and seat 1, holding every six, bids over it.
    made = play_out(run(table(SIXES_DEAL, hand_number=3), "bid 84, bid 126, pass, pass, trump 6"))
    last = RULES.view(made, None)["last_hand"]
    assert RULES.scores(made) == [0, 3]
    assert (last["bidder"], last["bid"], last["result"], last["points"], last["early"]) == (
        1, 126, "made", [0, 42], False)
    # Seat 2 bids three marks on blanks and leads the 3-2; the 3-3 takes the trick and sets it.
    lost = run(table(SIXES_DEAL, hand_number=3), "bid 84, pass, bid 126, pass, trump 0, 3-2, 3-3, 1-3, 6-3")
    last = RULES.view(lost, None)["last_hand"]
    assert (last["bidder"], last["result"], last["winner"], last["award"], last["early"]) == (2, "set", 1, 3, True)
    assert (last["points"], RULES.scores(lost)) == ([0, 6], [0, 3])


def test_a_set_nello_scores_the_bid_to_the_opponents_in_points() -> None:
    state = run(table(SIXES_DEAL, {"nello": True, "target_points": 250}),
                "bid 31, pass, pass, pass, trump nello, 6-0, 0-0, 0-1")
    assert RULES.scores(state) == [31, 0]
    assert RULES.view(state, None)["last_hand"]["result"] == "set"
