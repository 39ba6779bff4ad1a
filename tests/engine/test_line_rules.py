"""Block and Draw as the rules documents state them: dealing, the lead, playing, drawing,
blocking, scoring, partnerships and the match target.

Positions are set up by loading a crafted dump, so each test shows the exact hands it is about.
"""

from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core.actions import Action
from games.core.errors import IllegalAction, MalformedAction
from games.core.protocol import Rules
from games.core.tiles import Tile, full_set
from games.engine import get_rules
from games.line.dealing import opening
from games.line.tables import table


def play(seat: int, tile: Sequence[int], end: str | None = None) -> Action:
    event = {"type": "play", "seat": seat, "tile": sorted(tile)}
    if end is not None:
        event["end"] = end
    return event


def position(game: str, hands: Sequence[Sequence[Sequence[int]]], *, players: int | None = None,
             options: dict[str, Any] | None = None, log: Sequence[Action] = (), to_move: int = 0,
             scores: list[int] | None = None, boneyard: Iterable[Sequence[int]] | None = None,
             lead: list[int] | None = None) -> tuple[Rules[Any], Any]:
    """A state of `game` with the given hands and layout (the plays in `log`)."""
    rules = get_rules(game)
    players = players or len(hands)
    base = rules.dump(rules.new_match(players, options or {}, seed=b"position"))
    top = base["options"]["set"]
    used = {tuple(sorted(t)) for hand in hands for t in hand}
    used |= {tuple(e["tile"]) for e in log if e["type"] == "play"}
    if boneyard is None:
        boneyard = [list(t) for t in full_set(top) if tuple(t) not in used]
    sides = len(base["scores"])
    data = dict(
        base,
        hands=[[sorted(t) for t in hand] for hand in hands],
        dealt=[[sorted(t) for t in hand] for hand in hands],
        boneyard=[sorted(t) for t in boneyard],
        log=list(log),
        to_move=to_move,
        scores=scores or [0] * sides,
        fives=[0] * sides,
        lead=lead,
    )
    return rules, rules.load(data)


def act(rules: Rules[Any], state: Any, *actions: Action) -> Any:
    for action in actions:
        state = rules.apply(state, action)
    return state


def p(tile: Sequence[int], end: str | None = None) -> Action:
    action = {"type": "play", "tile": list(tile)}
    if end is not None:
        action["end"] = end
    return action


DRAW = {"type": "draw"}
PASS = {"type": "pass"}


# Dealing and defaults --------------------------------------------------------------------

@pytest.mark.parametrize(
    ("game", "players", "size"),
    [("block", 2, 7), ("block", 3, 5), ("block", 4, 5), ("draw", 2, 7), ("draw", 3, 7),
     ("draw", 4, 6), ("allfives", 2, 7), ("allfives", 3, 5), ("allfives", 4, 5)],
)
def test_deal_follows_the_documents_tables_on_double_six(game: str, players: int, size: int) -> None:
    rules = get_rules(game)
    state = rules.new_match(players, {}, seed=b"deal")
    view = rules.view(state, 0)
    assert view["hand_sizes"] == [size] * players
    assert view["boneyard"] == 28 - size * players
    assert view["options"]["hand_size"] == size


@pytest.mark.parametrize(
    ("game", "players", "options", "target"),
    [("block", 2, {}, 100), ("draw", 3, {}, 61), ("draw", 4, {}, 61),
     ("draw", 4, {"partnership": True}, 100), ("block", 4, {"partnership": True}, 100),
     ("allfives", 2, {}, 250), ("allfives", 3, {}, 200), ("allfives", 4, {"partnership": True}, 200),
     ("draw", 2, {"target": 150}, 150)],
)
def test_match_targets_default_by_players_and_partnership(game: str, players: int, options: dict[str, Any], target: int) -> None:
    rules = get_rules(game)
    assert rules.view(rules.new_match(players, options, seed=b"t"), None)["options"]["target"] == target


def test_deal_is_the_spec_deal_of_the_hand_seed() -> None:
    from games.core.fairness import hand_seed, shuffle

    rules = get_rules("draw")
    state = rules.new_match(2, {}, seed=b"master")
    order = shuffle(full_set(6), hand_seed(b"master", 0))
    dump = rules.dump(state)
    assert dump["dealt"] == [[list(t) for t in order[:7]], [list(t) for t in order[7:14]]]
    assert dump["boneyard"] == [list(t) for t in order[14:]]
    assert rules.view(state, 0)["commitment"] == dump["commitment"]


@pytest.mark.parametrize(
    ("options", "players", "name"),
    [({"colour": 1}, 2, "colour"), ({"set": 7}, 2, "set"), ({"partnership": True}, 3, "partnership"),
     ({"hand_size": 15}, 2, "hand_size"), ({"scoring": "all"}, 2, "scoring"),
     ({"spinner": 1}, 2, "spinner"), ({"boneyard_reserve": -1}, 2, "boneyard_reserve"),
     ({"target": 0}, 2, "target"), ({"next_lead": "loser"}, 2, "next_lead"),
     ({"double_blank": 25}, 2, "double_blank"), ({"round_to_five": "yes"}, 2, "round_to_five"),
     ({}, 5, "players"), ({"set": 9}, 7, "players"), ({}, 1, "players")],
)
def test_bad_options_raise_value_error_naming_the_option(options: dict[str, Any], players: int, name: str) -> None:
    with pytest.raises(ValueError, match=f"'{name}'"):
        get_rules("draw").new_match(players, options, seed=b"x")


@pytest.mark.parametrize(("top", "players", "size"), [(9, 2, 9), (9, 6, 7), (12, 4, 12), (12, 8, 9), (12, 10, 7)])
def test_larger_sets_seat_more_players(top: int, players: int, size: int) -> None:
    rules = get_rules("block")
    view = rules.view(rules.new_match(players, {"set": top}, seed=b"big"), None)
    assert view["hand_sizes"] == [size] * players


# The lead ---------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [bytes([i]) for i in range(30)])
def test_first_hand_is_led_by_the_highest_double_which_must_be_led(seed: bytes) -> None:
    rules = get_rules("block")
    state = rules.new_match(3, {}, seed=seed)
    dump = rules.dump(state)
    doubles = [(t[0], k) for k, hand in enumerate(dump["hands"]) for t in hand if t[0] == t[1]]
    if not doubles:
        pytest.skip("no double dealt")
    best, holder = max(doubles)
    assert rules.to_move(state) == holder
    assert rules.legal_actions(state) == [{"type": "play", "tile": [best, best]}]


def test_without_a_double_the_heaviest_tile_leads_the_higher_end_breaking_ties() -> None:
    tiles = table(6)
    hands = (tiles.mask([Tile(2, 6), Tile(0, 1)]), tiles.mask([Tile(3, 5), Tile(1, 2)]))
    assert opening(tiles, hands, -1) == (0, tiles.index(Tile(2, 6)))
    hands = (tiles.mask([Tile(1, 2)]), tiles.mask([Tile(3, 5), Tile(0, 4)]))
    assert opening(tiles, hands, -1) == (1, tiles.index(Tile(3, 5)))


def test_leading_another_tile_than_the_highest_double_is_refused() -> None:
    rules, state = position("draw", [[(6, 6), (1, 2)], [(5, 5), (0, 1)]],
                           lead=[6, 6])
    with pytest.raises(IllegalAction, match=r"you must lead \[6, 6\], the highest double"):
        rules.apply(state, p((1, 2)))
    with pytest.raises(IllegalAction, match="first tile takes no end"):
        rules.apply(state, p((6, 6), "left"))


def test_after_a_lead_left_shows_the_low_end_and_right_the_high_end() -> None:
    rules, state = position("block", [[(2, 5), (5, 6)], [(1, 2), (0, 0)]], lead=None)
    state = rules.apply(state, p((5, 2)))
    assert rules.view(state, 1)["ends"] == [
        {"id": "left", "value": 2, "double": False}, {"id": "right", "value": 5, "double": False}]
    assert rules.legal_actions(state) == [{"type": "play", "tile": [1, 2], "end": "left"}]


def test_a_tile_fitting_both_ends_showing_one_number_is_two_actions() -> None:
    rules, state = position("block", [[(1, 4), (0, 0)], [(4, 4), (2, 3)]],
                           log=[play(0, (4, 4))], to_move=0)
    assert rules.legal_actions(state) == [
        {"type": "play", "tile": [1, 4], "end": "left"}, {"type": "play", "tile": [1, 4], "end": "right"}]
    left = rules.apply(state, p((4, 1), "left"))
    right = rules.apply(state, p((4, 1), "right"))
    assert rules.view(left, None)["ends"][0] == {"id": "left", "value": 1, "double": False}
    assert rules.view(right, None)["ends"][1] == {"id": "right", "value": 1, "double": False}
    assert rules.view(left, None)["ends"][1] == {"id": "right", "value": 4, "double": True}


# Playing, drawing and passing ------------------------------------------------------------

def test_illegal_actions_explain_themselves_and_change_nothing() -> None:
    rules, state = position("draw", [[(2, 4), (6, 6)], [(1, 1), (0, 3)]],
                           log=[play(1, (4, 5)), play(0, (5, 5), "right")], to_move=0)
    before = rules.dump(state)
    cases = [
        (p((3, 5), "left"), r"\[3, 5\] is not in your hand"),
        (p((6, 6), "left"), r"\[6, 6\] does not fit: the left end shows 4"),
        (p((2, 4)), "say which end"),
        (p((2, 4), "up"), "no 'up' end"),
        (DRAW, r"you hold \[2, 4\], which fits: you must play"),
        (PASS, r"you hold \[2, 4\], which fits: you must play"),
        ({"type": "bid", "value": 30}, "no bid"),
        (p((7, 7), "left"), "not a tile of the double-6 set"),
    ]
    for action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            rules.apply(state, action)
    with pytest.raises(MalformedAction):
        rules.apply(state, {"type": "play", "tile": "2-4"})
    assert rules.dump(state) == before


def test_draw_one_tile_at_a_time_until_a_tile_fits() -> None:
    boneyard = [(0, 1), (0, 2), (3, 6), (1, 1), (2, 2)]
    rules, state = position("draw", [[(0, 0), (1, 2)], [(6, 6), (5, 6)]], boneyard=boneyard,
                           log=[play(1, (4, 4)), play(0, (3, 4), "left")], to_move=1)
    assert rules.legal_actions(state) == [{"type": "draw"}]
    state = act(rules, state, DRAW, DRAW)
    assert rules.to_move(state) == 1
    assert rules.legal_actions(state) == [{"type": "draw"}]
    state = rules.apply(state, DRAW)
    assert rules.legal_actions(state) == [{"type": "play", "tile": [3, 6], "end": "left"}]
    view = rules.view(state, 0)
    assert view["boneyard"] == 2
    assert [e["type"] for e in view["log"]] == ["play", "play", "draw", "draw", "draw"]
    assert view["log"][-1] == {"type": "draw", "seat": 1}


def test_the_last_two_boneyard_tiles_are_never_drawn() -> None:
    rules, state = position("draw", [[(0, 0), (1, 2)], [(6, 6), (5, 6)]],
                           boneyard=[(0, 2), (0, 3), (2, 3)],
                           log=[play(1, (4, 4)), play(0, (1, 4), "left")], to_move=1)
    state = rules.apply(state, DRAW)
    assert rules.view(state, 1)["boneyard"] == 2
    assert rules.legal_actions(state) == [{"type": "pass"}]
    with pytest.raises(IllegalAction, match="last 2 tiles of the boneyard are never drawn"):
        rules.apply(state, DRAW)
    state = rules.apply(state, PASS)
    assert rules.to_move(state) == 0
    assert rules.view(state, 0)["log"][-1] == {"type": "pass", "seat": 1, "ends": [1, 4]}


def test_boneyard_reserve_zero_lets_the_last_tile_be_drawn() -> None:
    rules, state = position("draw", [[(0, 0), (1, 2)], [(6, 6), (5, 6)]],
                           options={"boneyard_reserve": 0}, boneyard=[(0, 2), (2, 3)],
                           log=[play(1, (4, 4)), play(0, (1, 4), "left")], to_move=1)
    state = act(rules, state, DRAW, DRAW)
    assert rules.view(state, 0)["boneyard"] == 0
    assert rules.legal_actions(state) == [{"type": "pass"}]


def test_block_never_draws_a_seat_that_cannot_play_passes() -> None:
    rules, state = position("block", [[(0, 0), (1, 2)], [(6, 6), (2, 5), (4, 6)]],
                           log=[play(1, (4, 4)), play(0, (2, 4), "left")], to_move=1)
    assert rules.legal_actions(state) == [
        {"type": "play", "tile": [2, 5], "end": "left"}, {"type": "play", "tile": [4, 6], "end": "right"}]
    state = rules.apply(state, p((2, 5), "left"))
    assert rules.legal_actions(state) == [{"type": "pass"}]
    with pytest.raises(IllegalAction, match="no drawing in Block"):
        rules.apply(state, DRAW)


# Ending a hand and scoring ---------------------------------------------------------------

def blocked_position(game: str, scoring: str, double_blank: int = 0) -> tuple[Rules[Any], Any]:
    """Seat 0 blocks the line on 6 and 5 holding 3 pips; seat 1 is left with 12."""
    options = {"scoring": scoring, "double_blank": double_blank}
    if game == "draw":
        options["boneyard_reserve"] = 2
    return position(game, [[(5, 6), (1, 2)], [(4, 4), (0, 4)]], options=options,
                    boneyard=[(0, 1), (0, 2)] if game == "draw" else None,
                    log=[play(1, (5, 5))], to_move=0)


@pytest.mark.parametrize("game", ["block", "draw"])
@pytest.mark.parametrize(("scoring", "points"), [("pagat", 9), ("opponents", 12)])
def test_blocked_hand_lowest_pips_win_pagat_subtracts_own(game: str, scoring: str, points: int) -> None:
    rules, state = blocked_position(game, scoring)
    state = rules.apply(state, p((5, 6), "left"))
    view = rules.view(state, 0)
    last = view["last_hand"]
    assert last["blocked"] is True
    assert last["winner"] == 0
    assert last["points"] == [points, 0]
    assert view["scores"] == [points, 0]
    assert last["hands_left"] == [[[1, 2]], [[0, 4], [4, 4]]]
    assert [e["type"] for e in last["log"]] == ["play", "play", "hand_end"]
    assert view["hand_number"] == 1 and view["log"] == []
    assert len(view["revealed"]) == 1 and view["revealed"][0] == last["seed"]


def test_double_blank_fifty_counts_in_the_pips_left() -> None:
    rules, state = position("block", [[(5, 6), (0, 0)], [(4, 4), (0, 4)]],
                           options={"double_blank": 50}, log=[play(1, (5, 5))], to_move=0)
    state = rules.apply(state, p((5, 6), "left"))
    last = rules.view(state, 0)["last_hand"]
    assert last["winner"] == 1
    assert last["points"] == [0, 50 - 12]


def test_tied_blocked_hand_scores_nothing_and_highest_double_leads_next() -> None:
    rules, state = position("block", [[(5, 6), (1, 2)], [(0, 3)]],
                           log=[play(1, (5, 5))], to_move=0)
    state = rules.apply(state, p((5, 6), "left"))
    view = rules.view(state, None)
    assert view["last_hand"]["winner"] is None
    assert view["scores"] == [0, 0]
    legal = rules.legal_actions(state)
    assert len(legal) == 1 and legal[0]["tile"][0] == legal[0]["tile"][1]


def test_going_out_scores_everyone_elses_pips_and_the_winner_leads_next_with_any_tile() -> None:
    rules, state = position("draw", [[(1, 5)], [(6, 6), (2, 3)], [(0, 4)]], players=3,
                           log=[play(2, (5, 5))], to_move=0)
    state = rules.apply(state, p((1, 5), "left"))
    view = rules.view(state, 0)
    assert view["last_hand"]["winner"] == 0 and view["last_hand"]["blocked"] is False
    assert view["scores"] == [12 + 5 + 4, 0, 0]
    assert view["to_move"] == 0
    assert len(view["legal"]) == 7
    assert all("end" not in a for a in view["legal"])


def test_next_lead_highest_double_ignores_the_winner() -> None:
    rules, state = position("draw", [[(1, 5)], [(6, 6), (2, 3)]], options={"next_lead": "highest_double"},
                           log=[play(1, (5, 5))], to_move=0)
    state = rules.apply(state, p((1, 5), "left"))
    legal = rules.legal_actions(state)
    assert len(legal) == 1 and legal[0]["tile"][0] == legal[0]["tile"][1]


def test_a_hand_ends_the_moment_the_line_is_blocked_nobody_passes() -> None:
    rules, state = position("block", [[(5, 6), (1, 2)], [(4, 4), (0, 4)], [(3, 3)]], players=3,
                           log=[play(1, (5, 5))], to_move=0)
    state = rules.apply(state, p((5, 6), "right"))
    last = rules.view(state, 0)["last_hand"]
    assert last["blocked"] is True
    assert "pass" not in [e["type"] for e in last["log"]]
    assert last["winner"] == 0
    assert last["points"] == [12 + 6 - 3, 0, 0]


# Partnerships -----------------------------------------------------------------------------

def test_partnership_going_out_scores_both_opponents_pips() -> None:
    hands = [[(0, 0), (6, 6)], [(1, 1)], [(2, 5)], [(3, 4), (0, 6)]]
    rules, state = position("block", hands, options={"partnership": True},
                           log=[play(1, (5, 5))], to_move=2)
    state = rules.apply(state, p((2, 5), "left"))
    view = rules.view(state, 3)
    assert view["teams"] == [[0, 2], [1, 3]]
    assert view["last_hand"]["winner"] == 0
    assert view["scores"] == [2 + 7 + 6, 0]
    assert view["to_move"] == 2


@pytest.mark.parametrize(("scoring", "points"), [("pagat", 14 - 4), ("opponents", 14)])
def test_blocked_partnership_hand_goes_to_the_lighter_side(scoring: str, points: int) -> None:
    hands = [[(5, 6), (0, 1)], [(4, 4)], [(0, 3)], [(2, 4)]]
    rules, state = position("block", hands, options={"partnership": True, "scoring": scoring},
                           log=[play(1, (5, 5))], to_move=0)
    state = rules.apply(state, p((5, 6), "left"))
    view = rules.view(state, 0)
    assert view["last_hand"]["blocked"] is True
    assert view["last_hand"]["winner"] == 0
    assert view["scores"] == [points, 0]
    assert view["to_move"] == 0


def test_equal_partnership_sides_score_nothing() -> None:
    hands = [[(5, 6), (0, 1)], [(0, 4)], [(0, 3)], [(0, 0)]]
    rules, state = position("block", hands, options={"partnership": True},
                           log=[play(1, (5, 5))], to_move=0)
    state = rules.apply(state, p((5, 6), "left"))
    view = rules.view(state, 0)
    assert view["last_hand"]["winner"] is None and view["scores"] == [0, 0]


# The match ---------------------------------------------------------------------------------

def test_reaching_the_target_ends_the_match_with_a_result() -> None:
    rules, state = position("draw", [[(1, 5)], [(6, 6), (2, 3)]], scores=[90, 40],
                           log=[play(1, (5, 5))], to_move=0)
    state = rules.apply(state, p((1, 5), "left"))
    assert rules.to_move(state) is None
    assert rules.legal_actions(state) == []
    assert rules.result(state) == {"scores": [107, 40], "teams": [[0], [1]], "winner": 0,
                                   "winning_seats": [0], "hands": 1, "target": 100}
    view = rules.view(state, 1)
    assert view["match_over"] is True and view["legal"] == []
    assert view["last_hand"]["hands_left"] == [[], [[2, 3], [6, 6]]]
    with pytest.raises(IllegalAction, match="match is over"):
        rules.apply(state, PASS)


def test_spinner_in_draw_opens_up_and_down_once_both_sides_are_covered() -> None:
    rules, state = position("draw", [[(3, 6), (3, 4), (0, 1)], [(3, 3), (1, 3), (2, 2)]],
                           options={"spinner": True}, log=[], to_move=1, lead=[3, 3])
    state = rules.apply(state, p((3, 3)))
    assert [e["id"] for e in rules.view(state, 0)["ends"]] == ["left", "right"]
    state = act(rules, state, p((3, 6), "left"), p((1, 3), "right"))
    ends = rules.view(state, 0)["ends"]
    assert [(e["id"], e["value"]) for e in ends] == [("left", 6), ("right", 1), ("up", 3), ("down", 3)]
    assert rules.legal_actions(state) == [
        {"type": "play", "tile": [0, 1], "end": "right"},
        {"type": "play", "tile": [3, 4], "end": "up"},
        {"type": "play", "tile": [3, 4], "end": "down"},
    ]
    state = rules.apply(state, p((3, 4), "down"))
    layout = rules.view(state, 1)["layout"]
    assert layout["lead"] == {"tile": [3, 3], "double": True}
    assert layout["spinner"] == {"tile": [3, 3], "arm": "lead", "index": 0}
    assert layout["arms"]["down"] == [{"tile": [3, 4], "inner": 3, "outer": 4, "double": False}]


def test_a_value_equal_to_an_allowed_one_but_of_another_type_is_still_refused() -> None:
    rules = get_rules("draw")
    assert rules.view(rules.new_match(2, {"spinner": True, "set": 6}, seed=b"ok"), 0)["options"]["spinner"]
    for bad in ({"spinner": 1, "set": 6}, {"spinner": True, "set": 6.0}, {"spinner": True, "set": True}):
        with pytest.raises(ValueError, match="option"):
            rules.new_match(2, bad, seed=b"bad")


def test_blocked_four_player_hand_pagat_scores_the_sum_of_the_others_less_own() -> None:
    hands = [[(5, 6), (0, 1)], [(4, 4)], [(0, 3)], [(2, 4), (1, 1)]]
    rules, state = position("block", hands, log=[play(1, (5, 5))], to_move=0)
    state = rules.apply(state, p((5, 6), "left"))
    view = rules.view(state, None)
    assert view["teams"] == [[0], [1], [2], [3]]
    assert view["last_hand"]["winner"] == 0 and view["last_hand"]["blocked"] is True
    assert view["scores"] == [8 + 3 + 8 - 1, 0, 0, 0]
    assert view["options"]["target"] == 61
    assert view["to_move"] == 0 and len(rules.legal_actions(state)) == 5


def test_after_a_blocked_partnership_win_the_lighter_partner_leads_with_any_tile() -> None:
    hands = [[(5, 6), (0, 3)], [(4, 4)], [(0, 1)], [(2, 4)]]
    rules, state = position("block", hands, options={"partnership": True}, log=[play(1, (5, 5))], to_move=0)
    state = rules.apply(state, p((5, 6), "left"))
    view = rules.view(state, None)
    assert view["last_hand"]["winner"] == 0
    assert view["scores"] == [14 - 4, 0]
    assert view["to_move"] == 2
    assert len(rules.legal_actions(state)) == 5
    assert all("end" not in a for a in rules.legal_actions(state))


def test_after_drawing_a_tile_that_fits_any_fitting_tile_may_be_played() -> None:
    rules, state = position("draw", [[(0, 0), (1, 2)], [(6, 6), (5, 6)]], boneyard=[(3, 4), (0, 2), (2, 3)],
                           log=[play(1, (4, 4)), play(0, (1, 4), "left")], to_move=1)
    state = rules.apply(state, DRAW)
    assert rules.legal_actions(state) == [{"type": "play", "tile": [3, 4], "end": "right"}]
    rules, state = position("draw", [[(0, 0), (1, 2)], [(6, 6), (5, 6)]], boneyard=[(1, 6), (0, 2), (2, 3)],
                           log=[play(1, (4, 4)), play(0, (1, 4), "left")], to_move=1)
    state = rules.apply(state, DRAW)
    assert rules.legal_actions(state) == [{"type": "play", "tile": [1, 6], "end": "left"}]
    with pytest.raises(IllegalAction, match="you must play"):
        rules.apply(state, DRAW)


@given(top=st.sampled_from([6, 9, 12]), bits=st.integers(min_value=0), double_blank=st.sampled_from([0, 50]))
def test_a_hands_pip_count_is_the_sum_of_its_tiles_the_double_blank_as_the_room_counts_it(
    top: int, bits: int, double_blank: int
) -> None:
    tiles = table(top)
    mask = bits & ((1 << len(tiles.tiles)) - 1)
    held = [t for i, t in enumerate(tiles.tiles) if mask >> i & 1]
    expected = sum(t.pips for t in held) + (double_blank if (0, 0) in [(t.low, t.high) for t in held] else 0)
    assert tiles.pip_count(mask, double_blank) == expected
