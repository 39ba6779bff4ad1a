"""Five-Up as a referee reads docs/rules-fiveup.md: one scenario per rule, on hand-built
positions (a real match's dump with the hands, boneyard, table and scores set by hand, loaded
through the protocol) or fixed seeds, plus properties over random play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.actions import normalise_action
from games.core.errors import IllegalAction, MalformedAction
from games.core.fairness import hand_seed, shuffle
from games.core.tiles import full_set, make_tile
from games.engine import get_rules
from games.replay import hand_positions

RULES = get_rules("fiveup")
Tiles = list[tuple[int, int]]


Play = tuple[int, tuple[int, int], str | None]


def position(hands: list[Tiles], *, options: dict[str, Any] | None = None, boneyard: Tiles | None = None,
             plays: list[Play] | None = None, to_move: int = 0, scores: list[int] | None = None,
             unclaimed: tuple[int, int] | None = None, seed: bytes = b"five-up") -> Any:
    """A position of a match of `len(hands)` players: a real match's dump with the given
    hands, boneyard, plays on the table (`(seat, tile, end)`, end None for the lead), seat to
    move and scores, loaded through the protocol. Without a `boneyard` it holds one tile used
    nowhere else (so a position is no block unless a test empties it: `boneyard=[]`)."""
    plays = plays or []
    if boneyard is None:
        used = {make_tile(*t) for h in hands for t in h} | {make_tile(*t) for _, t, _ in plays}
        spare = next(t for t in full_set(6) if t not in used)
        boneyard = [(spare.low, spare.high)]
    state = RULES.new_match(len(hands), options or {}, seed=seed)
    data = RULES.dump(state)
    data["hands"] = [[list(t) for t in h] for h in hands]
    data["boneyard"] = [list(t) for t in boneyard]
    log = []
    for seat, tile, end in plays:
        event: dict[str, Any] = {"type": "play", "seat": seat, "tile": sorted(tile)}
        if end is not None:
            event["end"] = end
        log.append(event)
    data["log"] = log
    data["to_move"] = to_move
    if scores is not None:
        data["scores"] = scores
    data["unclaimed"] = None if unclaimed is None else list(unclaimed)
    return RULES.load(data)


def play(tile: tuple[int, int], end: str | None = None, claim: bool = False) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "play", "tile": list(tile)}
    if end is not None:
        action["end"] = end
    if claim:
        action["claim"] = True
    return action


def ends(state: Any) -> list[tuple[str, int, int]]:
    return [(e["id"], e["value"], e["counts"]) for e in RULES.view(state, None)["ends"]]


def last(state: Any, kind: str) -> dict[str, Any] | None:
    found = [e for e in RULES.view(state, None)["log"] if e["type"] == kind]
    return found[-1] if found else None


FILLER = [(0, 0)]


# --- Every double is a spinner: sides first, then the crosswise ends ----------------------

def test_a_lead_double_takes_both_sides_then_opens_its_crosswise_ends() -> None:
    state = position([[(5, 5), (0, 0)], [(2, 5), (1, 1)], ], to_move=0)
    state = RULES.apply(state, play((5, 5)))
    # A lone double counts its pips once: each side adds its number.
    assert ends(state) == [("0l", 5, 5), ("0r", 5, 5)]
    assert RULES.view(state, None)["count"] == 10
    state = position([[(0, 0), (3, 5)], [(2, 5), (1, 1)]], plays=[(0, (5, 5), None)], to_move=1)
    state = RULES.apply(state, play((2, 5), "0l"))
    # One side covered: the free side counts both halves.
    assert ends(state) == [("0r", 5, 10), ("1", 2, 2)]
    assert RULES.view(state, None)["count"] == 12
    # The crosswise ends are not open yet: the 3-5 may only go on the free side.
    assert [a.get("end") for a in RULES.legal_actions(state)] == ["0r"]
    with pytest.raises(IllegalAction, match="crosswise ends open only once both of its sides"):
        RULES.apply(state, play((3, 5), "0u"))
    state = RULES.apply(state, play((3, 5), "0r"))
    # Both sides covered: the double counts nothing, its crosswise ends open and count 0.
    assert ends(state) == [("1", 2, 2), ("0u", 5, 0), ("0d", 5, 0), ("2", 3, 3)]
    assert RULES.view(state, None)["count"] == 5
    assert last(state, "score") == {"type": "score", "seat": 0, "side": 0, "points": 1}


def test_a_double_played_on_an_arm_has_one_free_side_then_two_crosswise_ends() -> None:
    state = position([[(2, 4), (1, 4), (0, 0)], [(4, 4), (4, 6), (3, 3)]], to_move=0)
    state = RULES.apply(state, play((2, 4)))
    assert RULES.view(state, None)["count"] == 6
    state = RULES.apply(state, play((4, 4), "0r"))
    # The double at the end of the arm counts both halves while its side is free: 2 + 8.
    assert ends(state) == [("0l", 2, 2), ("1", 4, 8)]
    assert last(state, "score") == {"type": "score", "seat": 1, "side": 1, "points": 2}
    state = RULES.apply(state, play((1, 4), "1"))
    assert ends(state) == [("0l", 2, 2), ("1u", 4, 0), ("1d", 4, 0), ("2", 1, 1)]
    assert RULES.view(state, None)["count"] == 3
    state = RULES.apply(state, play((4, 6), "1u"))
    # The tile on the crosswise end counts its outer end.
    assert ends(state) == [("0l", 2, 2), ("1d", 4, 0), ("2", 1, 1), ("3", 6, 6)]
    assert RULES.view(state, None)["count"] == 9
    layout = RULES.view(state, None)["layout"]
    assert layout[0] == {"tile": [2, 4], "seat": 0, "on": None, "parent": None, "inner": None,
                         "outer": 4, "double": False}
    assert layout[1] == {"tile": [4, 4], "seat": 1, "on": "0r", "parent": 0, "inner": 4, "outer": 4,
                         "double": True}
    assert layout[3] == {"tile": [4, 6], "seat": 1, "on": "1u", "parent": 1, "inner": 4, "outer": 6,
                         "double": False}


def test_every_double_is_a_spinner_not_only_the_first() -> None:
    plays = [(0, (3, 3), None), (1, (3, 6), "0l"), (0, (6, 6), "1")]
    state = position([[(1, 2), (0, 0)], [(2, 6), (4, 4)]], plays=plays, to_move=1)
    assert ends(state) == [("0r", 3, 6), ("2", 6, 12)]
    state = RULES.apply(state, play((2, 6), "2"))
    assert ends(state) == [("0r", 3, 6), ("2u", 6, 0), ("2d", 6, 0), ("3", 2, 2)]


@pytest.mark.parametrize(("lead", "points"), [((5, 5), 2), ((4, 6), 2), ((2, 3), 1), ((0, 5), 1),
                                              ((3, 4), 0), ((0, 0), 0)])
def test_the_lead_scores_count_over_five(lead: tuple[int, int], points: int) -> None:
    state = position([[lead, (1, 1)], [(2, 2), (6, 6)]], to_move=0)
    state = RULES.apply(state, play(lead))
    assert RULES.view(state, None)["scores"] == [points, 0]


def test_scoring_units_a_count_of_fifteen_scores_three() -> None:
    plays = [(0, (5, 5), None), (1, (5, 0), "0l")]
    state = position([[(5, 6), (1, 1)], [(2, 2), (3, 3)]], plays=plays, to_move=0)
    # 0r counts 10, "1" shows 0; the 5-6 on 0r leaves 0 + 6: nothing.
    assert RULES.view(state, None)["count"] == 10
    state = position([[(0, 5), (1, 1)], [(2, 2), (3, 3)]], plays=[(0, (5, 5), None)], to_move=0)
    state = RULES.apply(state, play((0, 5), "0l"))
    assert RULES.view(state, None)["scores"] == [2, 0]  # 10 + 0
    plays = [(0, (5, 5), None), (1, (5, 0), "0l"), (0, (0, 5), "1")]
    state = position([[(5, 6), (1, 1)], [(1, 5), (3, 3)]], plays=plays, to_move=1)
    assert RULES.view(state, None)["count"] == 15  # 0r 10, "2" 5
    state = RULES.apply(state, play((1, 5), "2"))  # 10 + 1
    assert RULES.view(state, None)["scores"] == [0, 0]


# --- Must play, draw until a tile fits, pass ---------------------------------------------

def test_a_seat_that_can_play_must_play() -> None:
    state = position([[(1, 1), (0, 0)], [(1, 3), (6, 6)]], plays=[(0, (1, 2), None)], to_move=1,
                     boneyard=[(4, 4), (5, 5)])
    kinds = {a["type"] for a in RULES.legal_actions(state)}
    assert kinds == {"play"}
    with pytest.raises(IllegalAction, match="you have a tile to play, so you may not draw"):
        RULES.apply(state, {"type": "draw"})
    with pytest.raises(IllegalAction, match="you may not pass"):
        RULES.apply(state, {"type": "pass"})


def test_a_seat_that_cannot_play_draws_one_tile_at_a_time_until_one_fits() -> None:
    state = position([[(1, 1), (0, 0)], [(3, 3), (6, 6)]], plays=[(0, (1, 2), None)], to_move=1,
                     boneyard=[(4, 4), (2, 5), (3, 4)])
    assert RULES.legal_actions(state) == [{"type": "draw"}]
    with pytest.raises(IllegalAction, match="draw"):
        RULES.apply(state, {"type": "pass"})
    state = RULES.apply(state, {"type": "draw"})
    assert RULES.view(state, 1)["hand"] == [[3, 3], [4, 4], [6, 6]]
    assert RULES.to_move(state) == 1 and RULES.legal_actions(state) == [{"type": "draw"}]
    state = RULES.apply(state, {"type": "draw"})
    assert RULES.to_move(state) == 1
    assert RULES.legal_actions(state) == [play((2, 5), "0r")]
    assert [e for e in RULES.view(state, 0)["log"] if e["type"] == "draw"] == [
        {"type": "draw", "seat": 1}, {"type": "draw", "seat": 1}]


def test_with_the_boneyard_empty_a_seat_that_cannot_play_passes() -> None:
    # Seat 1 holds nothing for the 1 and the 4; seat 0 can still play its 1-1, so it is no block.
    state = position([[(1, 1), (0, 0)], [(3, 3), (6, 6)]], plays=[(0, (1, 2), None), (1, (2, 4), "0r")],
                     to_move=1, boneyard=[])
    assert RULES.legal_actions(state) == [{"type": "pass"}]
    with pytest.raises(IllegalAction, match="boneyard is empty"):
        RULES.apply(state, {"type": "draw"})
    state = RULES.apply(state, {"type": "pass"})
    assert last(state, "pass") == {"type": "pass", "seat": 1, "ends": [1, 4]}
    assert RULES.to_move(state) == 0


# --- The end of a hand ------------------------------------------------------------------

def test_dominoing_scores_the_opponents_pips_rounded_to_five_over_five() -> None:
    # Seat 0 plays its last tile; seat 1 holds 23 pips: 25 / 5 = 5.
    state = position([[(1, 6)], [(6, 6), (5, 6)]], plays=[(1, (1, 2), None)], to_move=0,
                     boneyard=[(0, 0)])
    state = RULES.apply(state, play((1, 6), "0l"))
    summary = RULES.view(state, None)["last_hand"]
    assert summary["winner"] == 0 and not summary["blocked"]
    assert summary["points"] == [5, 0]
    assert summary["log"][-1] == {"type": "hand_end", "winner": 0, "blocked": False, "points": [5, 0]}
    assert RULES.view(state, None)["scores"] == [5, 0]


@pytest.mark.parametrize(("left", "points"), [([(6, 6), (4, 6)], 4), ([(1, 2)], 1), ([(1, 1)], 0),
                                              ([(3, 4)], 1), ([(6, 6), (6, 5), (6, 4)], 7)])
def test_the_rounding_of_the_pips_left(left: Tiles, points: int) -> None:
    state = position([[(1, 0)], left], plays=[(1, (1, 2), None)], to_move=0, boneyard=[(5, 5)])
    state = RULES.apply(state, play((0, 1), "0l"))
    assert RULES.view(state, None)["last_hand"]["points"] == [points, 0]


def test_a_partnership_that_dominoes_scores_both_opponents_not_the_partner() -> None:
    hands = [[(1, 6)], [(6, 6)], [(5, 5), (4, 4)], [(3, 3)]]
    state = position(hands, plays=[(3, (1, 2), None)], to_move=0, boneyard=[(0, 0)])
    assert RULES.teams(state) == [[0, 2], [1, 3]]
    state = RULES.apply(state, play((1, 6), "0l"))
    # 12 + 6 = 18 -> 20 -> 4; the partner's 18 pips do not count.
    assert RULES.view(state, None)["last_hand"]["points"] == [4, 0]


def test_a_blocked_hand_goes_to_the_fewest_pips_who_score_the_others() -> None:
    # Seat 1 plays the 2-3 on the 2 end; nobody holds a 3 or a 1 and the boneyard is empty.
    hands = [[(4, 4), (0, 0)], [(2, 3), (6, 6), (5, 5)]]
    state = position(hands, plays=[(0, (1, 2), None)], to_move=1, boneyard=[])
    state = RULES.apply(state, play((2, 3), "0r"))
    summary = RULES.view(state, None)["last_hand"]
    assert summary["blocked"] and summary["winner"] == 0
    assert summary["points"] == [4, 0]  # 22 pips -> 20 -> 4
    # After a block the next hand is led by lot.
    view = RULES.view(state, None)
    data = RULES.dump(state)
    seed = bytes.fromhex(data["seed"])
    assert view["to_move"] == shuffle((0, 1), seed + b":lot")[0]


def test_a_blocked_partnership_hand_adds_the_partners_hands() -> None:
    hands = [[(4, 4)], [(2, 3), (0, 0)], [(0, 5)], [(6, 6)]]
    state = position(hands, plays=[(0, (1, 2), None)], to_move=1, boneyard=[])
    state = RULES.apply(state, play((2, 3), "0r"))
    summary = RULES.view(state, None)["last_hand"]
    # Side 0 holds 8 + 5 = 13, side 1 holds 0 + 12 = 12: side 1 wins and scores 13 -> 15 -> 3.
    assert summary["blocked"] and summary["winner"] == 1 and summary["points"] == [0, 3]


def test_a_blocked_tie_between_two_sides_scores_nothing() -> None:
    hands = [[(4, 4)], [(2, 3), (6, 2)]]
    state = position(hands, plays=[(0, (1, 2), None)], to_move=1, boneyard=[])
    state = RULES.apply(state, play((2, 3), "0r"))
    summary = RULES.view(state, None)["last_hand"]
    assert summary["blocked"] and summary["winner"] is None and summary["points"] == [0, 0]


def test_three_players_two_tied_for_fewest_split_the_thirds_points() -> None:
    hands = [[(4, 4)], [(2, 3), (6, 2)], [(6, 6), (5, 5), (0, 5)]]
    state = position(hands, plays=[(2, (1, 2), None)], to_move=1, boneyard=[])
    state = RULES.apply(state, play((2, 3), "0r"))
    summary = RULES.view(state, None)["last_hand"]
    # Seats 0 and 1 hold 8 each; seat 2 holds 27 -> 25 -> 5 points, 2 each (rounded down).
    assert summary["blocked"] and summary["winner"] is None and summary["points"] == [2, 2, 0]


def test_the_seat_that_dominoed_leads_the_next_hand_with_any_tile() -> None:
    state = position([[(1, 2)], [(6, 6)], [(5, 5)]], plays=[(2, (1, 1), None)], to_move=0,
                     boneyard=[(3, 3)])
    state = RULES.apply(state, play((1, 2), "0l"))
    view = RULES.view(state, None)
    assert view["hand_number"] == 1 and view["to_move"] == 0
    assert len(RULES.legal_actions(state)) == 5  # any of its five tiles, no end
    assert all("end" not in a for a in RULES.legal_actions(state))


def test_the_first_lead_is_by_lot_from_the_hand_seed() -> None:
    for players in (2, 3, 4):
        for n in range(6):
            master = b"lot-%d" % n
            state = RULES.new_match(players, {}, seed=master)
            assert RULES.to_move(state) == shuffle(tuple(range(players)), hand_seed(master, 0) + b":lot")[0]
            assert len(RULES.legal_actions(state)) == 5


def test_the_deal_is_five_each_from_the_fair_shuffle() -> None:
    state = RULES.new_match(3, {}, seed=b"deal")
    order = shuffle(full_set(6), hand_seed(b"deal", 0))
    for seat in range(3):
        assert RULES.view(state, seat)["hand"] == sorted([list(t) for t in order[5 * seat:5 * seat + 5]])
    assert RULES.view(state, None)["boneyard"] == 28 - 15


# --- The match ---------------------------------------------------------------------------

def test_reaching_the_target_in_the_middle_of_a_hand_ends_the_match_there() -> None:
    state = position([[(4, 6), (1, 1)], [(2, 2), (3, 3)]], to_move=0, scores=[59, 60],
                     options={"target": 61}, boneyard=[(0, 0)])
    state = RULES.apply(state, play((4, 6)))  # 10 -> 2 points: 61
    assert RULES.to_move(state) is None
    result = RULES.result(state)
    assert result is not None and result["winner"] == 0 and result["scores"] == [61, 60]
    assert result["target"] == 61
    summary = RULES.view(state, None)["last_hand"]
    assert summary["stopped"] and summary["winner"] == 0 and summary["points"] == [0, 0]
    assert RULES.view(state, None)["revealed"][-1] == summary["seed"]


def test_hand_end_points_that_reach_the_target_end_the_match() -> None:
    state = position([[(1, 6)], [(6, 6), (5, 6)]], plays=[(1, (1, 2), None)], to_move=0,
                     boneyard=[(0, 0)], scores=[57, 10], options={"target": 61})
    state = RULES.apply(state, play((1, 6), "0l"))
    assert RULES.result(state)["scores"] == [62, 10]  # type: ignore[index]


def test_the_target_defaults_to_61_and_121_for_two() -> None:
    assert RULES.view(RULES.new_match(2, {}, seed=b"t"), None)["target"] == 121
    assert RULES.view(RULES.new_match(3, {}, seed=b"t"), None)["target"] == 61
    assert RULES.view(RULES.new_match(4, {}, seed=b"t"), None)["options"] == {
        "partnership": True, "target": 61, "muggins": False}
    assert RULES.view(RULES.new_match(4, {"partnership": False}, seed=b"t"), None)["teams"] == [
        [0], [1], [2], [3]]
    assert RULES.view(RULES.new_match(3, {}, seed=b"t"), None)["options"]["partnership"] is False
    with pytest.raises(ValueError, match="partnership"):
        RULES.new_match(3, {"partnership": True}, seed=b"t")


# --- Muggins ------------------------------------------------------------------------------

MUGGINS = {"muggins": True}


def test_with_muggins_every_play_is_listed_twice_and_a_claim_scores() -> None:
    state = position([[(4, 6), (1, 1)], [(2, 2), (3, 3)]], to_move=0, options=MUGGINS)
    assert RULES.legal_actions(state) == [play((1, 1)), play((1, 1), claim=True),
                                          play((4, 6)), play((4, 6), claim=True)]
    claimed = RULES.apply(state, play((4, 6), claim=True))
    assert RULES.view(claimed, None)["scores"] == [2, 0]
    assert RULES.view(claimed, None)["unclaimed"] is None
    assert RULES.view(claimed, None)["log"][0] == {"type": "play", "seat": 0, "tile": [4, 6], "claim": True}
    # A claim on a play that scores nothing is legal and scores nothing.
    nothing = RULES.apply(state, play((1, 1), claim=True))
    assert RULES.view(nothing, None)["scores"] == [0, 0]
    assert RULES.view(nothing, None)["unclaimed"] is None


def test_forgotten_points_stand_unclaimed_and_the_next_seat_may_take_them() -> None:
    state = position([[(4, 6), (1, 1)], [(2, 6), (3, 3)]], to_move=0, options=MUGGINS)
    state = RULES.apply(state, play((4, 6)))
    view = RULES.view(state, None)
    assert view["scores"] == [0, 0] and view["unclaimed"] == {"seat": 0, "points": 2}
    legal = RULES.legal_actions(state)
    assert legal[0] == {"type": "muggins"}
    state = RULES.apply(state, {"type": "muggins"})
    view = RULES.view(state, None)
    assert view["scores"] == [0, 2] and view["unclaimed"] is None
    assert view["log"][-1] == {"type": "muggins", "seat": 1, "from": 0, "points": 2}
    assert view["hand_points"] == [0, 2]
    # The same seat then plays its turn; muggins is not offered again.
    assert RULES.to_move(state) == 1
    assert {"type": "muggins"} not in RULES.legal_actions(state)


def test_the_window_closes_when_the_next_seat_does_anything_else() -> None:
    state = position([[(4, 6), (1, 1)], [(2, 6), (3, 3)]], to_move=0, options=MUGGINS)
    state = RULES.apply(state, play((4, 6)))
    state = RULES.apply(state, play((2, 6), "0r"))
    view = RULES.view(state, None)
    assert view["unclaimed"] is None and view["scores"] == [0, 0]
    assert RULES.to_move(state) == 0
    with pytest.raises(IllegalAction, match="no unclaimed points"):
        RULES.apply(state, {"type": "muggins"})
    # A draw closes it too.
    state = position([[(4, 6), (1, 1)], [(2, 2), (3, 3)]], to_move=0, options=MUGGINS,
                     boneyard=[(5, 5), (0, 0)])
    state = RULES.apply(state, play((4, 6)))
    assert RULES.legal_actions(state) == [{"type": "muggins"}, {"type": "draw"}]
    state = RULES.apply(state, {"type": "draw"})
    assert RULES.view(state, None)["unclaimed"] is None
    assert {"type": "muggins"} not in RULES.legal_actions(state)


def test_points_unclaimed_by_the_play_that_ends_the_hand_are_lost() -> None:
    state = position([[(4, 6)], [(2, 2), (3, 3)]], plays=[(1, (6, 6), None)], to_move=0,
                     options=MUGGINS, boneyard=[(0, 0)])
    state = RULES.apply(state, play((4, 6), "0l"))  # 12 + 4 = 16: nothing anyway
    state = position([[(5, 6)], [(2, 2), (3, 3)]], plays=[(1, (0, 6), None)], to_move=0,
                     options=MUGGINS, boneyard=[(1, 1)])
    state = RULES.apply(state, play((5, 6), "0r"))  # 0 + 5 = 5: one point, not claimed
    view = RULES.view(state, None)
    assert view["hand_number"] == 1 and view["unclaimed"] is None
    # The hand's points: only the domino (10 pips -> 2); the unclaimed point is gone.
    assert view["last_hand"]["points"] == [2, 0] and view["scores"] == [2, 0]
    assert {"type": "muggins"} not in RULES.legal_actions(state)


def test_a_muggins_call_that_reaches_the_target_ends_the_match() -> None:
    state = position([[(4, 6), (1, 1)], [(2, 6), (3, 3)]], to_move=0, options={**MUGGINS, "target": 30},
                     scores=[0, 29])
    state = RULES.apply(state, play((4, 6)))
    state = RULES.apply(state, {"type": "muggins"})
    assert RULES.result(state)["winner"] == 1  # type: ignore[index]


def test_without_muggins_a_claim_and_the_muggins_action_are_refused_with_a_reason() -> None:
    state = position([[(4, 6), (1, 1)], [(2, 6), (3, 3)]], to_move=0)
    assert all("claim" not in a for a in RULES.legal_actions(state))
    with pytest.raises(IllegalAction, match="scoring is automatic"):
        RULES.apply(state, play((4, 6), claim=True))
    state = RULES.apply(state, play((4, 6)))
    assert RULES.view(state, None)["scores"] == [2, 0]  # scored by itself
    with pytest.raises(IllegalAction, match="house rule that is off"):
        RULES.apply(state, {"type": "muggins"})


def test_other_games_refuse_claims_and_muggins_as_malformed_as_before() -> None:
    for game in ("draw", "allfives", "chicken_foot", "mexican_train", "texas42"):
        rules = get_rules(game)
        state = rules.new_match(4, {}, seed=b"x")
        action = dict(rules.legal_actions(state)[0])
        with pytest.raises(MalformedAction, match="no field 'claim'"):
            rules.apply(state, {**action, "claim": True})
        with pytest.raises(MalformedAction, match="unknown action type 'muggins'"):
            rules.apply(state, {"type": "muggins"})


def test_claim_normalises_to_absent_when_false_and_must_be_boolean() -> None:
    assert normalise_action({"type": "play", "tile": [6, 4], "end": "3", "claim": False}) == {
        "type": "play", "tile": [4, 6], "end": "3"}
    assert normalise_action({"type": "play", "tile": [6, 4], "claim": True}) == {
        "type": "play", "tile": [4, 6], "claim": True}
    assert normalise_action({"type": "muggins"}) == {"type": "muggins"}
    for bad in (1, "yes", None):
        with pytest.raises(MalformedAction, match="claim"):
            normalise_action({"type": "play", "tile": [1, 2], "claim": bad})
    with pytest.raises(MalformedAction, match="no field"):
        normalise_action({"type": "muggins", "points": 2})
    # claim false is the plain play, in Five-Up with the house rule or without.
    state = position([[(4, 6), (1, 1)], [(2, 6), (3, 3)]], to_move=0, options=MUGGINS)
    after = RULES.apply(state, {"type": "play", "tile": [6, 4], "claim": False})
    assert RULES.view(after, None)["unclaimed"] == {"seat": 0, "points": 2}


# --- Illegal plays ------------------------------------------------------------------------

@pytest.mark.parametrize(("action", "reason"), [
    (play((5, 5), "0l"), "not in your hand"),
    (play((1, 4)), "say which end"),
    (play((1, 4), "7"), "no '7' end: the open ends are 0l, 0r"),
    (play((1, 4), "0r"), "does not fit: the 0r end shows 3"),
    (play((1, 4), "0u"), "no '0u' end"),
    ({"type": "bid", "value": 30}, "no 'bid' action"),
])
def test_illegal_plays_are_refused_with_a_clear_reason(action: dict[str, Any], reason: str) -> None:
    state = position([[(0, 0)], [(1, 4), (6, 6)]], plays=[(0, (1, 3), None)], to_move=1)
    before = RULES.dump(state)
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, action)
    assert reason in str(refused.value)
    assert RULES.dump(state) == before


def test_the_lead_takes_no_end() -> None:
    state = position([[(1, 4)], [(6, 6)]], to_move=0)
    with pytest.raises(IllegalAction, match="leads the hand: the first tile takes no end"):
        RULES.apply(state, play((1, 4), "0l"))


def test_a_tile_that_fits_two_ends_is_two_actions() -> None:
    state = position([[(0, 0)], [(3, 5), (6, 6)]], plays=[(0, (3, 3), None)], to_move=1)
    assert RULES.legal_actions(state) == [play((3, 5), "0l"), play((3, 5), "0r")]


# --- The protocol's extras -----------------------------------------------------------------

def test_state_from_view_with_the_true_hands_plays_like_the_real_state() -> None:
    rng = random.Random(5)
    for options in ({}, MUGGINS):
        state = RULES.new_match(4, options, seed=b"sfv")
        for _ in range(60):
            if RULES.to_move(state) is None:
                break
            seat = RULES.to_move(state)
            view = RULES.view(state, seat)
            data = RULES.dump(state)
            hands = [[make_tile(*t) for t in h] for h in data["hands"]]
            boneyard = [make_tile(*t) for t in data["boneyard"]]
            rebuilt = RULES.state_from_view(view, hands, boneyard)
            assert RULES.legal_actions(rebuilt) == RULES.legal_actions(state)
            action = rng.choice(RULES.legal_actions(state))
            after, again = RULES.apply(state, action), RULES.apply(rebuilt, action)
            if RULES.hand_index(after) == RULES.hand_index(state):
                mine = RULES.view(after, seat)
                theirs = RULES.view(again, seat)
                for key in ("ends", "count", "layout", "scores", "unclaimed", "hand", "log", "to_move"):
                    assert mine[key] == theirs[key], key
            state = after


def test_the_replay_shows_the_last_tile_of_each_hand_laid() -> None:
    rng = random.Random(3)
    state = RULES.new_match(4, {"target": 25, "muggins": True}, seed=b"replay")
    while RULES.result(state) is None:
        number, start = RULES.hand_index(state), state
        actions: list[list[Any]] = []
        while RULES.result(state) is None and RULES.hand_index(state) == number:
            action = rng.choice(RULES.legal_actions(state))
            actions.append([RULES.to_move(state), action])
            state = RULES.apply(state, action)
        got = hand_positions(RULES, start, actions)
        assert got["summary"]["number"] == number
        closing = actions[-1][1]
        if closing["type"] == "play":
            a, b = closing["tile"]
            assert [a, b] in [t["tile"] for t in got["positions"][-1]["view"]["layout"]]


# --- Properties ---------------------------------------------------------------------------

PRESETS = [(2, {}), (3, {}), (4, {}), (4, {"partnership": False}), (2, MUGGINS), (4, MUGGINS)]


def open_ends_of(layout: list[dict[str, Any]]) -> dict[str, int]:
    """The open ends and what each adds to the count, worked out from the view's `layout`
    alone, straight from docs/rules-fiveup.md (a model apart from the engine's table)."""
    covered = {t["on"] for t in layout if t["on"] is not None}
    out: dict[str, int] = {}
    for k, t in enumerate(layout):
        a, b = t["tile"]
        if k == 0 and t["double"]:
            free = [side for side in ("0l", "0r") if side not in covered]
            if len(free) == 2:
                out.update({"0l": a, "0r": a})
            elif len(free) == 1:
                out[free[0]] = 2 * a
            else:
                out.update({c: 0 for c in ("0u", "0d") if c not in covered})
        elif k == 0:
            out.update({side: v for side, v in (("0l", a), ("0r", b)) if side not in covered})
        elif t["double"]:
            if str(k) not in covered:
                out[str(k)] = 2 * t["outer"]
            else:
                out.update({f"{k}{c}": 0 for c in "ud" if f"{k}{c}" not in covered})
        elif str(k) not in covered:
            out[str(k)] = t["outer"]
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.binary(min_size=1, max_size=8),
       picks=st.lists(st.integers(0, 1 << 16), max_size=80))
def test_the_count_is_the_sum_of_the_ends_and_tiles_are_conserved(
        preset: tuple[int, dict[str, Any]], seed: bytes, picks: list[int]) -> None:
    players, options = preset
    state = RULES.new_match(players, options, seed=seed)
    everything = sorted(map(tuple, (t.as_list() for t in full_set(6))))
    for pick in picks:
        if RULES.to_move(state) is None:
            break
        view = RULES.view(state, None)
        assert view["count"] == sum(e["counts"] for e in view["ends"])
        assert {e["id"]: e["counts"] for e in view["ends"]} == open_ends_of(view["layout"])
        for e in view["ends"]:
            assert e["counts"] in (0, e["value"], 2 * e["value"])
        data = RULES.dump(state)
        held = [tuple(t) for h in data["hands"] for t in h]
        laid = [tuple(t["tile"]) for t in view["layout"]]
        stock = [tuple(t) for t in data["boneyard"]]
        assert sorted(held + laid + stock) == everything
        assert view["hand_sizes"] == [len(h) for h in data["hands"]]
        legal = RULES.legal_actions(state)
        before = json.dumps(data, sort_keys=True)
        state = RULES.apply(state, legal[pick % len(legal)])
        assert json.dumps(RULES.dump(RULES.load(data)), sort_keys=True) == before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.binary(min_size=1, max_size=8))
def test_scores_only_grow_and_a_finished_match_has_a_side_at_the_target(
        preset: tuple[int, dict[str, Any]], seed: bytes) -> None:
    players, options = preset
    options = {**options, "target": 25}
    rng = random.Random(seed)
    state = RULES.new_match(players, options, seed=seed)
    scores = RULES.scores(state)
    while RULES.to_move(state) is not None:
        state = RULES.advance(state, rng.choice(RULES.legal_actions(state)))
        now = RULES.scores(state)
        assert all(a >= b for a, b in zip(now, scores, strict=True))
        scores = now
    assert max(scores) >= 25
