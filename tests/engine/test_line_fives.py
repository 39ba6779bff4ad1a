"""All Fives (Muggins): scoring the open ends, the spinner, rounding and the mid-hand target,
with the worked examples of the rules documents."""

from typing import Any

import pytest

from games.core.layout import EMPTY, end_total, lead_layout, place
from games.engine import get_rules
from tests.engine.test_line_rules import act, p, play, position


def scores_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in view["log"] if e["type"] == "score"]


def test_the_documents_worked_example_scores_ten_nothing_then_again() -> None:
    # 6-3 is led, 3-4 makes the ends 6 and 4 (10), 4-1 leaves 6 and 1 (nothing). The document's
    # fourth tile repeats the 4-1, which a set holds once; 4-6 on the 6 end leaves 4 and 1 (5).
    hands = [[(3, 6), (1, 4), (0, 0)], [(3, 4), (4, 6), (2, 2)]]
    rules, state = position("allfives", hands, options={"spinner": False}, to_move=0)
    state = rules.apply(state, p((6, 3)))
    assert rules.view(state, 0)["end_total"] == 9
    state = rules.apply(state, p((3, 4), "left"))
    view = rules.view(state, 0)
    assert [(e["id"], e["value"]) for e in view["ends"]] == [("left", 4), ("right", 6)]
    assert scores_of(view) == [{"type": "score", "seat": 1, "side": 1, "points": 10}]
    assert view["scores"] == [0, 10]
    state = rules.apply(state, p((4, 1), "left"))
    assert rules.view(state, 0)["scores"] == [0, 10]
    state = rules.apply(state, p((4, 6), "right"))
    view = rules.view(state, 0)
    assert scores_of(view)[-1] == {"type": "score", "seat": 1, "side": 1, "points": 5}
    assert view["scores"] == [0, 15]


@pytest.mark.parametrize(
    ("lead", "second", "score"),
    [((0, 5), None, 5), ((4, 6), None, 10), ((0, 5), (5, 5), 10), ((3, 6), (6, 6), 15),
     ((3, 4), None, 0), ((1, 6), (6, 6), 0)],
)
def test_the_scoring_table_of_open_ends(lead: tuple[int, int], second: tuple[int, int] | None, score: int) -> None:
    hands = [[lead, (2, 2)], [second or (1, 1), (0, 0)]]
    rules, state = position("allfives", hands, to_move=0)
    state = rules.apply(state, p(lead))
    if second is not None:
        state = rules.apply(state, p(second, "right"))
    view = rules.view(state, 0)
    last = view["log"][-1]
    assert (last["points"] if last["type"] == "score" else 0) == score


def test_end_totals_count_doubles_both_halves_and_a_lone_spinner_once() -> None:
    spinner = lead_layout(5, 5, True)
    assert end_total(spinner) == 10
    assert end_total(lead_layout(5, 5, False)) == 10
    assert end_total(lead_layout(2, 3, True)) == 5
    one_side = place(spinner, 0, 0, False, True)
    assert end_total(one_side) == 0 + 10
    both = place(one_side, 1, 2, False, True)
    assert both.ends == (0, 2, 5, 5)
    assert end_total(both) == 2
    up = place(both, 2, 3, False, True)
    assert end_total(up) == 5
    assert end_total(place(up, 3, 6, True, True)) == 5 + 12
    assert end_total(EMPTY) == 0


def test_spinner_scoring_through_the_engine() -> None:
    hands = [[(5, 5), (2, 5), (1, 1)], [(0, 5), (3, 5), (4, 4)]]
    rules, state = position("allfives", hands, to_move=0, lead=[5, 5])
    state = act(rules, state, p((5, 5)))
    assert scores_of(rules.view(state, 0)) == [{"type": "score", "seat": 0, "side": 0, "points": 10}]
    state = act(rules, state, p((0, 5), "left"))
    assert rules.view(state, 0)["scores"] == [10, 10]
    state = act(rules, state, p((2, 5), "right"))
    view = rules.view(state, 0)
    assert view["scores"] == [10, 10]
    assert [e["id"] for e in view["ends"]] == ["left", "right", "up", "down"]
    state = act(rules, state, p((3, 5), "up"))
    assert rules.view(state, 0)["scores"] == [10, 15]


def test_spinner_played_off_the_lead_waits_for_its_outer_side() -> None:
    hands = [[(0, 5), (1, 5), (3, 6)], [(5, 5), (2, 5), (4, 4)]]
    rules, state = position("allfives", hands, to_move=0)
    state = act(rules, state, p((0, 5)), p((5, 5), "right"))
    assert rules.view(state, 0)["scores"] == [5, 0 + 10]
    assert rules.legal_actions(state) == [{"type": "play", "tile": [1, 5], "end": "right"}]
    state = act(rules, state, p((1, 5), "right"))
    assert [(e["id"], e["value"]) for e in rules.view(state, 1)["ends"]] == [
        ("left", 0), ("right", 1), ("up", 5), ("down", 5)]
    assert rules.view(state, 1)["end_total"] == 1
    layout = rules.view(state, 1)["layout"]
    assert layout["spinner"] == {"tile": [5, 5], "arm": "right", "index": 0}


def test_hand_end_points_round_to_the_nearest_five() -> None:
    hands = [[(1, 2)], [(6, 6), (0, 1)], [(0, 3)]]
    rules, state = position("allfives", hands, players=3, to_move=0, log=[play(1, (2, 4))],
                           options={"spinner": False})
    state = rules.apply(state, p((1, 2), "left"))
    last = rules.view(state, 0)["last_hand"]
    assert last["points"] == [15, 0, 0]
    assert last["fives"] == [5, 0, 0]
    assert rules.view(state, 0)["scores"] == [5 + 15, 0, 0]


def test_round_to_five_can_be_turned_off() -> None:
    hands = [[(1, 2)], [(6, 6), (0, 1)]]
    rules, state = position("allfives", hands, to_move=0, log=[play(1, (2, 4))],
                           options={"round_to_five": False})
    state = rules.apply(state, p((1, 2), "left"))
    assert rules.view(state, 0)["last_hand"]["points"] == [13, 0]


def test_reaching_the_target_on_the_ends_ends_the_match_mid_hand() -> None:
    hands = [[(3, 4), (6, 6), (1, 1)], [(2, 2), (0, 0)]]
    rules, state = position("allfives", hands, to_move=0, log=[play(1, (3, 6))], scores=[245, 100])
    state = rules.apply(state, p((3, 4), "left"))
    assert rules.to_move(state) is None
    result = rules.result(state)
    assert result is not None
    assert result["scores"] == [255, 100] and result["winner"] == 0
    last = rules.view(state, 1)["last_hand"]
    assert last["stopped"] is True and last["winner"] == 0
    assert last["hands_left"][0] == [[1, 1], [6, 6]]


def test_partnership_fives_score_to_the_side() -> None:
    hands = [[(0, 6)], [(1, 1)], [(1, 4), (2, 2)], [(3, 3)]]
    rules, state = position("allfives", hands, options={"partnership": True}, to_move=2,
                           log=[play(1, (1, 6))])
    state = rules.apply(state, p((1, 4), "left"))
    view = rules.view(state, 0)
    assert view["scores"] == [10, 0]
    assert view["log"][-1] == {"type": "score", "seat": 2, "side": 0, "points": 10}


def test_all_fives_defaults() -> None:
    options = get_rules("allfives").view(get_rules("allfives").new_match(2, {}, seed=b"d"), 0)["options"]
    assert options == {"set": 6, "partnership": False, "hand_size": 7, "scoring": "pagat", "spinner": True,
                       "boneyard_reserve": 0, "target": 250, "next_lead": "winner", "double_blank": 0,
                       "round_to_five": True}


def test_hand_end_points_that_reach_the_target_end_the_match() -> None:
    hands = [[(1, 2)], [(6, 6), (0, 1)]]
    rules, state = position("allfives", hands, to_move=0, log=[play(1, (2, 4))], scores=[238, 240],
                           options={"spinner": False})
    state = rules.apply(state, p((1, 2), "left"))
    assert rules.to_move(state) is None
    last = rules.view(state, 1)["last_hand"]
    assert last["winner"] == 0 and last["points"] == [15, 0] and last["stopped"] is False
    assert last["fives"] == [5, 0]
    assert rules.result(state) == {"scores": [238 + 5 + 15, 240], "teams": [[0], [1]], "winner": 0,
                                   "winning_seats": [0], "hands": 1, "target": 250}


def test_a_double_on_the_spinners_up_arm_counts_both_halves() -> None:
    hands = [[(0, 5), (2, 5), (3, 3)], [(5, 5), (1, 5), (2, 2), (6, 6)]]
    rules, state = position("allfives", hands, to_move=1, lead=[5, 5])
    state = act(rules, state, p((5, 5)), p((0, 5), "left"), p((1, 5), "right"), p((2, 5), "up"))
    view = rules.view(state, 0)
    assert [(e["id"], e["value"], e["double"]) for e in view["ends"]] == [
        ("left", 0, False), ("right", 1, False), ("up", 2, False), ("down", 5, True)]
    assert view["end_total"] == 0 + 1 + 2
    assert view["scores"] == [10, 10]
    state = rules.apply(state, p((2, 2), "up"))
    view = rules.view(state, 0)
    assert view["end_total"] == 0 + 1 + 4
    assert view["scores"] == [10, 15]
