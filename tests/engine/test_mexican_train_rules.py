"""Mexican Train scenarios taken from the rules text, each asserting the whole outcome."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.core.errors import IllegalAction
from games.core.protocol import Rules
from games.core.tiles import Tile, make_tile
from games.engine import get_rules
from games.mexican_train.state import TrainState

RULES: Rules[TrainState] = get_rules("mexican_train")


def tiles(*pairs: tuple[int, int]) -> tuple[Tile, ...]:
    return tuple(make_tile(a, b) for a, b in pairs)


def table(
    players: int = 3,
    hands: list[tuple[Tile, ...]] | None = None,
    boneyard: tuple[Tile, ...] = (),
    *,
    options: dict[str, object] | None = None,
    lines: list[tuple[Tile, ...]] | None = None,
    opened: bool = True,
    markers: tuple[bool, ...] | None = None,
    turn: int = 0,
    **extra: Any,
) -> TrainState:
    """A round-0 position with the given hands, boneyard and trains (engine 12 by default)."""
    state = RULES.new_match(players, options or {}, seed=b"scenario")
    engine = state.engine
    rows = lines or [()] * (players + 1)
    ends = []
    for row in rows:
        value = engine
        for t in row:
            assert t.has(value), f"{t} does not follow {value}"
            value = t.other(value)
        ends.append(value)
    return replace(
        state,
        hands=tuple(hands or [()] * players),
        boneyard=boneyard,
        lines=tuple(rows),
        line_ends=tuple(ends),
        markers=markers or (False,) * players,
        opened=(opened,) * players,
        turn=turn,
        log=(),
        **extra,
    )


def play(state: TrainState, a: int, b: int, end: str) -> TrainState:
    return RULES.apply(state, {"type": "play", "tile": [a, b], "end": end})


def act(state: TrainState, kind: str) -> TrainState:
    return RULES.apply(state, {"type": kind})


def plays(state: TrainState) -> list[tuple[tuple[int, int], str]]:
    return [(tuple(a["tile"]), a["end"]) for a in RULES.legal_actions(state) if a["type"] == "play"]


def kinds(state: TrainState) -> list[str]:
    return [a["type"] for a in RULES.legal_actions(state)]


FILLER = tiles((1, 2), (2, 4), (1, 4))


# The opening turn -------------------------------------------------------------------------


def test_first_turn_lays_a_chain_on_the_own_train_then_ends_it() -> None:
    hand = tiles((12, 3), (3, 5), (5, 7), (0, 1), (12, 8))
    state = table(hands=[hand, FILLER, FILLER], boneyard=tiles((6, 6)), opened=False)
    assert plays(state) == [((3, 12), "train:0"), ((8, 12), "train:0")]
    state = play(state, 3, 12, "train:0")
    assert RULES.legal_actions(state) == [
        {"type": "play", "tile": [3, 5], "end": "train:0"},
        {"type": "end_turn"},
    ]
    state = play(state, 5, 3, "train:0")
    state = play(state, 5, 7, "train:0")
    assert RULES.legal_actions(state) == [{"type": "end_turn"}]
    state = act(state, "end_turn")
    view = RULES.view(state, 0)
    assert view["trains"][0] == {"owner": 0, "tiles": [[3, 12], [3, 5], [5, 7]], "marker": False, "open_end": 7}
    assert view["hand"] == [[0, 1], [8, 12]]
    assert view["to_move"] == 1
    assert view["opened"] == [True, False, False]
    assert [e["type"] for e in view["log"]] == ["play", "play", "play", "end_turn"]
    assert state.boneyard == tiles((6, 6))


def test_first_turn_single_lays_one_tile() -> None:
    hand = tiles((12, 3), (3, 5), (0, 1))
    state = table(hands=[hand, FILLER, FILLER], opened=False, options={"first_turn": "single"})
    state = play(state, 12, 3, "train:0")
    assert state.turn == 1
    assert state.lines[0] == tiles((3, 12))
    assert state.hands[0] == tiles((3, 5), (0, 1))


def test_first_turn_double_in_the_chain_must_be_covered_before_ending() -> None:
    hand = tiles((12, 5), (5, 5), (5, 9), (0, 1))
    state = table(hands=[hand, FILLER, FILLER], boneyard=tiles((6, 6)), opened=False)
    state = play(state, 12, 5, "train:0")
    state = play(state, 5, 5, "train:0")
    assert RULES.legal_actions(state) == [{"type": "play", "tile": [5, 9], "end": "train:0"}]
    with pytest.raises(IllegalAction, match="tile to play"):
        act(state, "end_turn")
    state = play(state, 5, 9, "train:0")
    assert kinds(state) == ["end_turn"]


def test_unstartable_train_is_marked_without_drawing() -> None:
    state = table(
        hands=[tiles((1, 2), (3, 4)), tiles((12, 6), (6, 1), (0, 0)), tiles((12, 9), (9, 2))],
        boneyard=tiles((12, 2), (8, 8)),
        opened=False,
    )
    assert RULES.legal_actions(state) == [{"type": "pass"}]
    with pytest.raises(IllegalAction, match="first turn you do not draw"):
        act(state, "draw")
    state = act(state, "pass")
    assert state.boneyard == tiles((12, 2), (8, 8))
    assert state.hands[0] == tiles((1, 2), (3, 4))
    assert state.markers == (True, False, False)
    assert RULES.view(state, 1)["log"] == [
        {"type": "pass", "seat": 0, "ends": ["train:0"], "values": [12]},
        {"type": "marker", "seat": 0, "end": "train:0", "on": True},
    ]
    # Seat 1 is on its own first turn: only its own train, though train:0 is marked.
    assert plays(state) == [((6, 12), "train:1")]
    state = play(state, 12, 6, "train:1")
    state = play(state, 6, 1, "train:1")
    state = act(state, "end_turn")
    state = play(state, 12, 9, "train:2")
    state = act(state, "end_turn")
    assert kinds(state) == ["draw"]
    state = act(state, "draw")
    assert plays(state) == [((2, 12), "train:0"), ((2, 12), "mexican")]
    state = play(state, 12, 2, "train:0")
    assert state.markers == (False, False, False)
    assert RULES.view(state, 1)["log"][-2:] == [
        {"type": "play", "seat": 0, "tile": [2, 12], "end": "train:0"},
        {"type": "marker", "seat": 0, "end": "train:0", "on": False},
    ]
    assert all(end != "train:0" for _, end in plays(state))


def test_marked_train_is_started_by_another_seat_and_only_its_owner_removes_the_marker() -> None:
    state = table(
        hands=[tiles((1, 2), (3, 4)), tiles((12, 6), (6, 1), (0, 0)), FILLER],
        boneyard=tiles((8, 8), (9, 9), (10, 10)),
        opened=False,
    )
    state = act(state, "pass")
    state = play(state, 12, 6, "train:1")
    state = act(state, "end_turn")
    state = replace(state, hands=(state.hands[0], state.hands[1], tiles((2, 5),)))
    state = act(state, "pass")  # seat 2 cannot start its train
    assert state.markers == (True, False, True)
    state = act(state, "draw")  # seat 0: 8-8 does not fit
    assert kinds(state) == ["pass"]
    state = act(state, "pass")
    assert state.markers == (True, False, True)
    # Seat 1 in its second turn: own train (6), the marked trains 0 and 2, the Mexican train.
    assert plays(state) == [((1, 6), "train:1")]
    state = replace(state, hands=(state.hands[0], tiles((12, 1), (0, 0)), state.hands[2]))
    assert plays(state) == [
        ((1, 12), "train:0"),
        ((1, 12), "train:2"),
        ((1, 12), "mexican"),
    ]
    state = play(state, 12, 1, "train:0")
    assert state.lines[0] == tiles((1, 12))
    assert state.markers == (True, False, True)
    assert state.turn == 2


def test_mexican_train_is_closed_on_a_first_turn_and_open_from_the_second() -> None:
    state = table(hands=[tiles((12, 4), (12, 7), (1, 1)), FILLER, FILLER], boneyard=tiles((9, 9)), opened=False)
    assert {end for _, end in plays(state)} == {"train:0"}
    state = replace(state, opened=(True, True, True))
    assert plays(state) == [
        ((4, 12), "train:0"),
        ((7, 12), "train:0"),
        ((4, 12), "mexican"),
        ((7, 12), "mexican"),
    ]
    state = play(state, 12, 4, "mexican")
    view = RULES.view(state, 1)
    assert view["mexican"] == {"tiles": [[4, 12]], "started": True, "marker": True, "open_end": 4}
    assert {"id": "mexican", "value": 4, "double": False, "owner": None, "marker": True,
            "started": True, "playable": True} in view["ends"]


def test_another_seats_unmarked_train_is_closed() -> None:
    state = table(
        hands=[tiles((5, 6),), FILLER, FILLER],
        lines=[(), tiles((12, 5)), (), ()],
        boneyard=tiles((9, 9)),
    )
    with pytest.raises(IllegalAction, match="carries no marker"):
        play(state, 5, 6, "train:1")
    assert kinds(state) == ["draw"]


# Doubles ------------------------------------------------------------------------------------


def test_double_obliges_one_more_tile_which_may_go_elsewhere_and_the_uncovered_double_freezes_play() -> None:
    state = table(
        hands=[tiles((7, 7), (3, 8), (0, 1)), tiles((7, 2), (8, 9), (0, 2)), tiles((4, 4), (7, 9))],
        lines=[tiles((12, 7)), tiles((12, 8)), (), tiles((12, 3))],
        markers=(False, True, False),
        boneyard=tiles((10, 11), (6, 6)),
    )
    state = play(state, 7, 7, "train:0")
    assert state.turn == 0 and state.owed
    assert plays(state) == [((3, 8), "train:1"), ((3, 8), "mexican")]
    state = play(state, 3, 8, "mexican")
    assert state.turn == 1
    view = RULES.view(state, 1)
    assert view["open_double"] == {"end": "train:0", "tile": [7, 7]}
    assert view["turn_phase"]["frozen"] is True
    # Seat 1 may play only on the double, though train:0 is unmarked and its own 8-9 fits.
    assert plays(state) == [((2, 7), "train:0")]
    with pytest.raises(IllegalAction, match="uncovered"):
        play(state, 8, 9, "mexican")
    state = play(state, 7, 2, "train:0")
    assert state.open_doubles == ()
    assert state.turn == 2
    assert kinds(state) == ["draw"]  # 4-4 and 7-9 fit nothing open to seat 2


def test_uncovered_double_makes_the_next_seat_draw_and_mark() -> None:
    state = table(
        hands=[tiles((7, 7), (0, 1)), tiles((8, 9), (0, 2)), tiles((7, 9), (4, 4))],
        lines=[tiles((12, 7)), (), (), ()],
        boneyard=tiles((10, 11), (3, 3)),
    )
    state = play(state, 7, 7, "train:0")
    assert kinds(state) == ["draw"]
    state = act(state, "draw")
    state = act(state, "pass")
    assert state.markers == (True, False, False)
    assert state.open_doubles == (0,)
    assert kinds(state) == ["draw"]  # seat 1 holds no 7
    state = act(state, "draw")
    assert kinds(state) == ["pass"]
    state = act(state, "pass")
    assert plays(state) == [((7, 9), "train:0")]
    state = play(state, 9, 7, "train:0")
    assert state.open_doubles == ()
    assert state.lines[0] == tiles((12, 7), (7, 7), (7, 9))


def test_two_uncovered_doubles_are_answered_oldest_first() -> None:
    state = table(
        hands=[tiles((7, 7), (3, 3), (0, 1)), tiles((7, 2), (3, 5)), tiles((3, 9), (7, 8))],
        lines=[tiles((12, 7)), (), (), tiles((12, 3))],
        boneyard=tiles((10, 11),),
    )
    state = play(state, 7, 7, "train:0")
    state = play(state, 3, 3, "mexican")
    assert state.owed
    state = act(state, "draw")
    state = act(state, "pass")
    view = RULES.view(state, 1)
    assert view["open_doubles"] == [{"end": "train:0", "tile": [7, 7]}, {"end": "mexican", "tile": [3, 3]}]
    assert plays(state) == [((2, 7), "train:0")]
    state = play(state, 2, 7, "train:0")
    assert plays(state) == [((3, 9), "mexican")]
    state = play(state, 3, 9, "mexican")
    assert state.open_doubles == ()


def test_an_open_double_binds_a_seat_on_its_first_turn_too() -> None:
    state = table(
        hands=[tiles((5, 5), (0, 1)), tiles((5, 8), (12, 3), (3, 4)), FILLER],
        lines=[tiles((12, 5)), (), (), ()],
        boneyard=tiles((10, 11),),
        opened=False,
    )
    state = replace(state, opened=(True, False, False))
    state = play(state, 5, 5, "train:0")
    state = act(state, "draw")
    state = act(state, "pass")
    # Seat 1 has not had its first turn, yet the double on train:0 must be answered first.
    view = RULES.view(state, 1)
    assert view["turn_phase"]["first_turn"] is False and view["turn_phase"]["frozen"] is True
    assert plays(state) == [((5, 8), "train:0")]
    state = play(state, 5, 8, "train:0")
    assert state.opened == (True, True, False)
    assert state.turn == 2
    assert state.lines[1] == ()


def test_a_double_as_the_last_tile_ends_the_round_at_once() -> None:
    state = table(
        hands=[tiles((7, 7),), tiles((1, 2), (5, 6)), tiles((0, 0),)],
        lines=[tiles((12, 7)), (), (), ()],
        boneyard=tiles((10, 11),),
        options={"double_blank": 50},
    )
    state = play(state, 7, 7, "train:0")
    assert state.round == 1
    assert state.totals == (0, 14, 50)
    last = RULES.view(state, None)["last_hand"]
    assert last["winner"] == 0 and last["blocked"] is False
    assert last["points"] == [0, 14, 50]
    assert last["hands_left"] == [[], [[1, 2], [5, 6]], [[0, 0]]]
    assert last["log"][-1] == {"type": "hand_end", "blocked": False, "winner": 0, "points": [0, 14, 50]}


# Drawing, marking, ending -------------------------------------------------------------------


def test_cannot_play_draws_one_and_plays_it_if_it_fits() -> None:
    state = table(
        hands=[tiles((1, 2),), FILLER, FILLER],
        lines=[tiles((12, 7)), (), (), ()],
        boneyard=tiles((7, 9), (5, 5)),
    )
    assert RULES.legal_actions(state) == [{"type": "draw"}]
    state = act(state, "draw")
    assert RULES.legal_actions(state) == [
        {"type": "play", "tile": [7, 9], "end": "train:0"},
    ]
    with pytest.raises(IllegalAction, match="tile you drew"):
        play(state, 1, 2, "train:0")
    state = play(state, 7, 9, "train:0")
    assert state.turn == 1
    assert state.boneyard == tiles((5, 5))
    assert state.markers == (False, False, False)


def test_draw_one_then_mark_when_it_does_not_fit() -> None:
    state = table(
        hands=[tiles((1, 2),), FILLER, FILLER],
        lines=[tiles((12, 7)), (), (), ()],
        boneyard=tiles((5, 9), (5, 5)),
    )
    state = act(state, "draw")
    assert RULES.legal_actions(state) == [{"type": "pass"}]
    with pytest.raises(IllegalAction, match="one tile a turn"):
        act(state, "draw")
    state = act(state, "pass")
    view = RULES.view(state, 2)
    assert view["trains"][0]["marker"] is True
    assert view["hand_sizes"] == [2, 3, 3]
    assert view["boneyard"] == 1
    assert view["log"] == [
        {"type": "draw", "seat": 0, "ends": ["train:0", "mexican"], "values": [7, 12]},
        {"type": "pass", "seat": 0, "ends": ["train:0", "mexican"], "values": [7, 12]},
        {"type": "marker", "seat": 0, "end": "train:0", "on": True},
    ]


def test_empty_boneyard_passes_and_marks_without_drawing() -> None:
    state = table(
        hands=[tiles((1, 2),), tiles((7, 3), (4, 4)), FILLER],
        lines=[tiles((12, 7)), (), (), ()],
    )
    assert RULES.legal_actions(state) == [{"type": "pass"}]
    state = act(state, "pass")
    assert state.markers[0] and state.round == 0
    assert plays(state) == [((3, 7), "train:0")]


def test_blocked_round_ends_the_moment_nobody_can_play() -> None:
    state = table(
        hands=[tiles((5, 6),), tiles((7, 3), (4, 4)), tiles((9, 10), (0, 0))],
        lines=[tiles((12, 7)), (), (), ()],
        options={"double_blank": 50},
    )
    # Seat 0 passes, seat 1 plays 7-3, and then no tile anywhere matches 3 or 12.
    state = act(state, "pass")
    state = play(state, 7, 3, "train:0")
    assert state.round == 1
    assert state.totals == (11, 8, 69)
    last = RULES.view(state, 0)["last_hand"]
    assert last["blocked"] is True
    assert last["winner"] == 1
    assert last["points"] == [11, 8, 69]


def test_blocked_round_with_a_tie_for_fewest_pips_has_no_winner() -> None:
    state = table(
        hands=[tiles((5, 6),), tiles((7, 3), (2, 4)), tiles((1, 5),)],
        lines=[tiles((12, 7)), (), (), ()],
    )
    state = act(state, "pass")
    state = play(state, 7, 3, "train:0")
    assert RULES.view(state, 0)["last_hand"]["winner"] is None
    assert state.totals == (11, 6, 6)


def test_draw_until_play_keeps_drawing_until_a_tile_fits_then_must_play_it() -> None:
    """The house rule "draw until you can lay one down": the tiles that did not fit stay in
    the hand, the one that fits is the only tile the seat may play, and the train stays
    unmarked."""
    state = table(
        hands=[tiles((1, 2),), FILLER, FILLER],
        lines=[tiles((12, 7)), (), (), ()],
        boneyard=tiles((5, 9), (3, 4), (7, 8), (6, 6)),
        options={"draw_until_play": True},
    )
    assert RULES.view(state, 0)["options"]["draw_until_play"] is True
    state = act(state, "draw")
    assert RULES.legal_actions(state) == [{"type": "draw"}]
    with pytest.raises(IllegalAction, match="pass only"):
        act(state, "pass")
    state = act(state, "draw")
    assert RULES.legal_actions(state) == [{"type": "draw"}]
    state = act(state, "draw")
    assert RULES.legal_actions(state) == [{"type": "play", "tile": [7, 8], "end": "train:0"}]
    with pytest.raises(IllegalAction, match="tile you drew"):
        play(state, 5, 9, "train:0")
    state = play(state, 7, 8, "train:0")
    assert state.turn == 1
    assert state.hands[0] == tiles((1, 2), (5, 9), (3, 4))
    assert state.boneyard == tiles((6, 6))
    assert state.markers == (False, False, False)
    draws = [e for e in RULES.view(state, 1)["log"] if e["type"] == "draw"]
    assert draws == [{"type": "draw", "seat": 0, "ends": ["train:0", "mexican"], "values": [7, 12]}] * 3


def test_draw_until_play_marks_the_train_when_the_boneyard_runs_out() -> None:
    state = table(
        hands=[tiles((1, 2),), tiles((1, 2), (12, 5)), FILLER],
        lines=[tiles((12, 7)), (), (), ()],
        boneyard=tiles((5, 9), (3, 4)),
        options={"draw_until_play": True},
    )
    state = act(act(state, "draw"), "draw")
    assert RULES.legal_actions(state) == [{"type": "pass"}]
    with pytest.raises(IllegalAction, match="boneyard is empty"):
        act(state, "draw")
    state = act(state, "pass")
    assert state.markers == (True, False, False)
    assert state.hands[0] == tiles((1, 2), (5, 9), (3, 4))
    assert state.turn == 1


def test_draw_until_play_answers_an_open_double_too() -> None:
    """A seat facing an uncovered double draws until it holds the double's number."""
    state = table(
        hands=[tiles((1, 2),), FILLER, FILLER],
        lines=[tiles((12, 7), (7, 7)), (), (), ()],
        boneyard=tiles((5, 9), (12, 3), (7, 4)),
        open_doubles=(0,),
        options={"draw_until_play": True},
    )
    state = act(act(act(state, "draw"), "draw"), "draw")
    assert RULES.legal_actions(state) == [{"type": "play", "tile": [4, 7], "end": "train:0"}]
    state = play(state, 7, 4, "train:0")
    assert state.open_doubles == () and state.turn == 1


def test_the_documents_rule_draws_one_tile_without_the_option() -> None:
    state = table(
        hands=[tiles((1, 2),), FILLER, FILLER],
        lines=[tiles((12, 7)), (), (), ()],
        boneyard=tiles((5, 9), (7, 8)),
        options={"draw_until_play": False},
    )
    assert RULES.legal_actions(act(state, "draw")) == [{"type": "pass"}]


def test_double_blank_counts_twenty_five_or_fifty_only_with_the_option() -> None:
    for blank, expected in ((0, (0, 3, 0)), (25, (0, 3, 25)), (50, (0, 3, 50))):
        state = table(
            hands=[tiles((7, 1),), tiles((1, 2),), tiles((0, 0),)],
            lines=[tiles((12, 7)), (), (), ()],
            options={"double_blank": blank},
        )
        state = play(state, 7, 1, "train:0")
        assert state.totals == expected


# Rounds ------------------------------------------------------------------------------------


def _random_match(players: int, options: dict[str, object], seed: bytes) -> tuple[TrainState, list[dict[str, Any]]]:
    import random

    rng = random.Random(seed)
    state = RULES.new_match(players, options, seed=seed)
    summaries = []
    while RULES.to_move(state) is not None:
        before = state.last_hand
        state = RULES.advance(state, rng.choice(RULES.legal_actions(state)))
        if state.last_hand is not before:
            summaries.append(RULES.view(state, None)["last_hand"])
    return state, summaries


def test_thirteen_engines_from_double_twelve_down_each_opened_by_the_next_seat() -> None:
    from games.core.fairness import commitment, deal, hand_seed, shuffle
    from games.core.tiles import full_set

    seed = b"thirteen engines"
    first = RULES.new_match(4, {}, seed=seed)
    assert first.engine == 12 and first.turn == 0
    state, summaries = _random_match(4, {}, seed)
    assert [s["engine"] for s in summaries] == [[e, e] for e in range(12, -1, -1)]
    assert [s["number"] for s in summaries] == list(range(13))
    for r, summary in enumerate(summaries):
        engine = 12 - r
        hand_s = hand_seed(seed, r)
        order = shuffle([t for t in full_set(12) if t != (engine, engine)], hand_s)
        hands, _ = deal(order, 4, 15)
        assert summary["dealt"] == [[list(t) for t in h] for h in hands]
        assert summary["seed"] == hand_s.hex()
        assert summary["commitment"] == commitment(hand_s)
        assert summary["log"][0]["seat"] == r % 4
    view = RULES.view(state, None)
    assert view["match_over"] is True and view["to_move"] is None
    assert view["scores"] == [sum(s["points"][k] for s in summaries) for k in range(4)]
    result = RULES.result(state)
    assert result is not None and result["hands"] == 13
    low = min(view["scores"])
    if view["scores"].count(low) == 1:
        assert result["winner"] == view["scores"].index(low)


def test_rounds_option_plays_from_the_highest_double_down() -> None:
    state, summaries = _random_match(3, {"set": 9, "rounds": 3}, b"three")
    assert [s["engine"] for s in summaries] == [[9, 9], [8, 8], [7, 7]]
    result = RULES.result(state)
    assert result is not None
    assert result["hands"] == 3


def test_new_round_is_dealt_inside_the_same_action() -> None:
    state = table(
        hands=[tiles((7, 1),), tiles((1, 2),), tiles((3, 3),)],
        lines=[tiles((12, 7)), (), (), ()],
    )
    state = play(state, 7, 1, "train:0")
    view = RULES.view(state, 1)
    assert view["round"] == 1 and view["engine"] == [11, 11]
    assert view["to_move"] == 1
    assert view["hand_sizes"] == [15, 15, 15]
    assert view["log"] == []
    assert view["trains"][1] == {"owner": 1, "tiles": [], "marker": False, "open_end": 11}
    assert len(view["revealed"]) == 1
