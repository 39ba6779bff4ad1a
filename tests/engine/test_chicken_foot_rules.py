"""Chicken Foot scenarios taken from the rules text, each asserting the whole outcome."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.chicken_foot.state import FootState
from games.core.errors import IllegalAction
from games.core.fairness import deal, hand_seed, shuffle
from games.core.protocol import Rules
from games.core.tiles import Tile, full_set, make_tile
from games.engine import get_rules

RULES: Rules[FootState] = get_rules("chicken_foot")


def tiles(*pairs: tuple[int, int]) -> tuple[Tile, ...]:
    return tuple(make_tile(a, b) for a, b in pairs)


def table(hands: list[tuple[Tile, ...]], boneyard: tuple[Tile, ...] = (), **options: object) -> FootState:
    """Hand 0 (the 9-9 leads) before the lead, with the given hands and yard."""
    state = RULES.new_match(len(hands), options, seed=b"scenario")
    leader = next(s for s, h in enumerate(hands) if (9, 9) in h)
    return replace(state, hands=tuple(hands), boneyard=boneyard, leader=leader, turn=leader, log=())


def play(state: FootState, a: int, b: int, end: str | None = None) -> FootState:
    action: dict[str, object] = {"type": "play", "tile": [a, b]}
    if end is not None:
        action["end"] = end
    return RULES.apply(state, action)


def act(state: FootState, kind: str) -> FootState:
    return RULES.apply(state, {"type": kind})


def plays(state: FootState) -> list[tuple[tuple[int, int], str]]:
    return [(tuple(a["tile"]), a["end"]) for a in RULES.legal_actions(state) if a["type"] == "play"]


def ends(state: FootState) -> dict[str, tuple[int, bool]]:
    return {e["id"]: (e["value"], e["pending"]) for e in RULES.view(state, None)["ends"]}


def test_the_highest_double_leads_and_takes_four_arms_before_any_is_extended() -> None:
    state = table(
        [tiles((1, 2), (9, 3), (3, 4)), tiles((9, 9), (9, 5), (0, 1)), tiles((9, 6), (9, 7), (3, 8))],
        boneyard=tiles((2, 2), (4, 5)),
    )
    assert state.turn == 1
    assert RULES.legal_actions(state) == [{"type": "play", "tile": [9, 9]}]
    with pytest.raises(IllegalAction, match="opens with"):
        play(state, 9, 5, "arm:0")
    state = play(state, 9, 9)
    assert ends(state) == {f"arm:{i}": (9, True) for i in range(4)}
    assert plays(state) == [((6, 9), "arm:0"), ((7, 9), "arm:0")]
    state = play(state, 9, 6, "arm:0")
    # Seat 0 holds 3-4 and 9-3: the 9-3 must go on the next empty arm, not on the 6.
    assert plays(state) == [((3, 9), "arm:1")]
    with pytest.raises(IllegalAction, match="filled first"):
        play(state, 9, 3, "arm:0")
    state = play(state, 9, 3, "arm:1")
    state = play(state, 9, 5, "arm:2")
    # Seat 2 holds 9-7 for the last arm; its 3-8 may not extend arm:1 yet.
    assert plays(state) == [((7, 9), "arm:3")]
    state = play(state, 9, 7, "arm:3")
    assert ends(state) == {"arm:0": (6, False), "arm:1": (3, False), "arm:2": (5, False), "arm:3": (7, False)}
    assert plays(state) == [((3, 4), "arm:1")]
    view = RULES.view(state, 0)
    assert view["layout"]["lead"] == [9, 9]
    assert [b["tiles"] for b in view["layout"]["branches"]] == [[[6, 9]], [[3, 9]], [[5, 9]], [[7, 9]]]
    assert [e["type"] for e in view["log"]] == ["play"] * 5
    assert view["log"][0] == {"type": "play", "seat": 1, "tile": [9, 9]}


def _opened(extra: list[tuple[Tile, ...]], boneyard: tuple[Tile, ...] = ()) -> FootState:
    """Seat 0 leads 9-9 and the four arms take 9-1, 9-2, 9-3, 9-4; then the given hands."""
    hands = [tiles((9, 9), (9, 3)) + extra[0], tiles((9, 1), (9, 4)) + extra[1], tiles((9, 2),) + extra[2]]
    state = table(hands, boneyard=boneyard)
    state = play(state, 9, 9)
    state = play(state, 9, 1, "arm:0")
    state = play(state, 9, 2, "arm:1")
    state = play(state, 9, 3, "arm:2")
    state = play(state, 9, 4, "arm:3")
    assert state.turn == 2
    return state


def test_a_later_double_is_a_foot_whose_three_toes_must_be_filled_first() -> None:
    state = _opened(
        [tiles((3, 5), (1, 7)), tiles((3, 6), (2, 8)), tiles((3, 3), (3, 0), (2, 5))],
        boneyard=tiles((6, 6), (7, 8), (0, 0)),
    )
    state = play(state, 3, 3, "arm:2")
    view = RULES.view(state, 0)
    assert view["layout"]["branches"][2]["closed"] is True
    assert [b["id"] for b in view["layout"]["branches"][4:]] == ["toe:0:0", "toe:0:1", "toe:0:2"]
    assert all(b["from"] == "arm:2" for b in view["layout"]["branches"][4:])
    assert view["layout"]["pending"] == ["toe:0:0", "toe:0:1", "toe:0:2"]
    assert [e["id"] for e in view["ends"]] == ["arm:0", "arm:1", "arm:3", "toe:0:0", "toe:0:1", "toe:0:2"]
    assert [e["id"] for e in view["ends"] if e["playable"]] == ["toe:0:0"]
    # Seat 0 has 1-7 for arm:0 but the foot comes first.
    assert plays(state) == [((3, 5), "toe:0:0")]
    with pytest.raises(IllegalAction, match="filled first"):
        play(state, 1, 7, "arm:0")
    state = play(state, 3, 5, "toe:0:0")
    assert plays(state) == [((3, 6), "toe:0:1")]
    state = play(state, 6, 3, "toe:0:1")
    # Seat 2 fills the last toe with 3-0, and then play is free again.
    state = play(state, 3, 0, "toe:0:2")
    assert ends(state) == {
        "arm:0": (1, False), "arm:1": (2, False), "arm:3": (4, False),
        "toe:0:0": (5, False), "toe:0:1": (6, False), "toe:0:2": (0, False),
    }
    assert plays(state) == [((1, 7), "arm:0")]


def test_nobody_able_to_fill_the_foot_draws_one_and_passes() -> None:
    state = _opened(
        [tiles((1, 7),), tiles((2, 8), (4, 5)), tiles((3, 3), (2, 5))],
        boneyard=tiles((6, 6), (3, 8)),
    )
    state = play(state, 3, 3, "arm:2")
    assert RULES.legal_actions(state) == [{"type": "draw"}]
    state = act(state, "draw")  # 6-6 does not fit the toe
    assert RULES.legal_actions(state) == [{"type": "pass"}]
    state = act(state, "pass")
    state = act(state, "draw")  # seat 1 draws 3-8 and must play it on the toe
    assert RULES.legal_actions(state) == [{"type": "play", "tile": [3, 8], "end": "toe:0:0"}]
    with pytest.raises(IllegalAction, match="tile you drew"):
        play(state, 2, 8, "arm:1")
    state = play(state, 3, 8, "toe:0:0")
    # The yard is empty and nobody holds a 3 for the other toes: the hand is blocked at once.
    assert state.hand == 1
    last = RULES.view(state, 0)["last_hand"]
    assert last["blocked"] is True
    assert last["points"] == [8 + 12, 10 + 9, 7]
    assert last["winner"] == 2
    assert [e["type"] for e in last["log"][-6:]] == ["play", "draw", "pass", "draw", "play", "hand_end"]
    assert last["log"][-5] == {"type": "draw", "seat": 0, "ends": ["toe:0:0"], "values": [3]}


def test_cannot_play_draws_one_and_plays_it_if_it_fits() -> None:
    state = _opened([tiles((5, 5),), tiles((6, 7),), tiles((0, 0), (8, 8))], boneyard=tiles((2, 6), (4, 8)))
    assert RULES.legal_actions(state) == [{"type": "draw"}]
    state = act(state, "draw")
    assert RULES.legal_actions(state) == [{"type": "play", "tile": [2, 6], "end": "arm:1"}]
    state = play(state, 6, 2, "arm:1")
    assert state.turn == 0
    assert state.boneyard == tiles((4, 8))


def test_with_the_yard_empty_a_seat_that_cannot_play_misses_its_turn() -> None:
    state = _opened([tiles((4, 5),), tiles((6, 7),), tiles((0, 0), (8, 8))])
    assert RULES.legal_actions(state) == [{"type": "pass"}]
    state = act(state, "pass")
    assert state.turn == 0
    assert RULES.view(state, 1)["log"][-1] == {
        "type": "pass", "seat": 2, "ends": ["arm:0", "arm:1", "arm:2", "arm:3"], "values": [1, 2, 3, 4],
    }
    state = play(state, 4, 5, "arm:3")
    assert state.hand == 1
    last = RULES.view(state, 0)["last_hand"]
    assert last["blocked"] is False and last["winner"] == 0
    assert last["points"] == [0, 13, 50 + 16]


@pytest.mark.parametrize(("blank", "points"), [(50, [0, 13, 66]), (25, [0, 13, 41]), (0, [0, 13, 16])])
def test_the_double_blank_counts_its_option(blank: int, points: list[int]) -> None:
    hands = [tiles((9, 9), (9, 3), (4, 5)), tiles((9, 1), (9, 4), (6, 7)), tiles((9, 2), (0, 0), (8, 8))]
    state = table(hands, double_blank=blank)
    for tile, end in (((9, 9), None), ((9, 1), "arm:0"), ((9, 2), "arm:1"), ((9, 3), "arm:2"),
                      ((9, 4), "arm:3")):
        state = play(state, *tile, end)
    state = act(state, "pass")
    state = play(state, 4, 5, "arm:3")
    assert list(state.totals) == points


def _seed_with_lead_in_the_yard() -> bytes:
    for i in range(200):
        seed = i.to_bytes(2, "big")
        order = shuffle(full_set(9), hand_seed(seed, 0))
        hands, _ = deal(order, 2, 20)
        if all((9, 9) not in h for h in hands):
            return seed
    raise AssertionError("no seed found")


def test_when_nobody_drew_the_lead_double_everyone_draws_in_seat_order_until_it_appears() -> None:
    seed = _seed_with_lead_in_the_yard()
    order = shuffle(full_set(9), hand_seed(seed, 0))
    hands, yard = deal(order, 2, 20)
    passes = yard.index(Tile(9, 9)) // 2 + 1
    state = RULES.new_match(2, {}, seed=seed)
    view = RULES.view(state, None)
    assert view["log"] == [{"type": "draw", "seat": s % 2, "lead": True} for s in range(2 * passes)]
    assert view["hand_sizes"] == [20 + passes, 20 + passes]
    assert view["boneyard"] == 15 - 2 * passes
    holder = yard.index(Tile(9, 9)) % 2
    assert view["to_move"] == holder == view["leader"]
    assert RULES.legal_actions(state) == [{"type": "play", "tile": [9, 9]}]
    assert state.hands[0] == (*hands[0], *yard[0:2 * passes:2])


def test_hand_k_is_led_by_the_next_double_down_and_the_lowest_total_wins() -> None:
    rng = random.Random(5)
    state = RULES.new_match(4, {}, seed=b"ten hands")
    leads = []
    while RULES.to_move(state) is not None:
        if not state.led:
            leads.append(state.lead)
            holder = state.turn
            assert holder is not None
            assert Tile(state.lead, state.lead) in state.hands[holder]
        state = RULES.advance(state, rng.choice(RULES.legal_actions(state)))
    assert leads == list(range(9, -1, -1))
    result = RULES.result(state)
    assert result is not None
    view = RULES.view(state, 2)
    assert view["match_over"] is True and view["result"] == result
    assert result["hands"] == 10 and len(view["revealed"]) == 10
    low = min(result["scores"])
    assert result["winner"] == (result["scores"].index(low) if result["scores"].count(low) == 1 else None)


def test_six_arms_three_on_each_side_are_all_filled_before_any_is_extended() -> None:
    """The double chicken foot opening: "the next six plays will be on the double nine, three
    tiles on each side"; after it, tiles go on any of the six toes."""
    state = table(
        [tiles((9, 1), (9, 2), (1, 5)), tiles((9, 9), (9, 3), (2, 6), (4, 4)), tiles((9, 5), (9, 6), (0, 3))],
        boneyard=tiles((9, 7), (0, 1), (9, 8)),
        opening_arms=6,
    )
    state = play(state, 9, 9)
    assert ends(state) == {f"arm:{i}": (9, True) for i in range(6)}
    assert RULES.view(state, None)["layout"]["pending"] == [f"arm:{i}" for i in range(6)]
    state = play(state, 9, 5, "arm:0")
    state = play(state, 9, 1, "arm:1")
    state = play(state, 9, 3, "arm:2")
    # Seat 2 holds 0-3 for arm:2's 3, but the lead double's six arms come first.
    assert plays(state) == [((6, 9), "arm:3")]
    with pytest.raises(IllegalAction, match="filled first"):
        play(state, 0, 3, "arm:2")
    state = play(state, 9, 6, "arm:3")
    state = play(state, 9, 2, "arm:4")
    # Seat 1 has no 9 left: it draws 9-7 and must play it on the sixth arm.
    assert RULES.legal_actions(state) == [{"type": "draw"}]
    state = act(state, "draw")
    assert plays(state) == [((7, 9), "arm:5")]
    state = play(state, 9, 7, "arm:5")
    assert RULES.view(state, None)["layout"]["pending"] == []
    assert ends(state) == {
        "arm:0": (5, False), "arm:1": (1, False), "arm:2": (3, False),
        "arm:3": (6, False), "arm:4": (2, False), "arm:5": (7, False),
    }
    assert plays(state) == [((0, 3), "arm:2")]
    assert RULES.view(state, None)["options"]["opening_arms"] == 6


def test_a_foot_after_a_six_arm_opening_numbers_its_toes_after_the_six_arms() -> None:
    state = table(
        [tiles((9, 1), (9, 2), (2, 5), (2, 7)), tiles((9, 9), (9, 3), (9, 4), (2, 8), (1, 6)),
         tiles((9, 5), (9, 6), (2, 2), (0, 3))],
        boneyard=tiles((0, 0), (9, 8)),
        opening_arms=6,
    )
    state = play(state, 9, 9)
    for tile, arm in (((9, 5), 0), ((9, 1), 1), ((9, 3), 2), ((9, 6), 3), ((9, 2), 4), ((9, 4), 5)):
        state = play(state, *tile, f"arm:{arm}")
    state = play(state, 2, 2, "arm:4")
    view = RULES.view(state, None)
    assert view["layout"]["pending"] == ["toe:0:0", "toe:0:1", "toe:0:2"]
    assert [b["from"] for b in view["layout"]["branches"][6:]] == ["arm:4"] * 3
    assert plays(state) == [((2, 5), "toe:0:0"), ((2, 7), "toe:0:0")]
    state = play(state, 2, 7, "toe:0:0")
    assert RULES.load(RULES.dump(state)) == state
    rebuilt = RULES.state_from_view(RULES.view(state, None), state.hands, state.boneyard)
    assert RULES.legal_actions(rebuilt) == RULES.legal_actions(state) == [
        {"type": "play", "tile": [2, 8], "end": "toe:0:1"}
    ]


def test_a_dump_from_before_the_opening_arms_option_loads_with_four_arms() -> None:
    state = RULES.new_match(4, {}, seed=b"old")
    data = RULES.dump(state)
    del data["arms"]
    assert RULES.load(data) == state


@pytest.mark.parametrize(
    ("players", "options", "word"),
    [
        (7, {}, "'set'"),
        (2, {"set": 12}, "'set'"),
        (4, {"set": 15}, "'players'"),
        (16, {"set": 15}, "'set'"),
        (17, {"set": 18}, "'players'"),
        (1, {}, "'players'"),
        (4, {"set": 6}, "'set'"),
        (4, {"double_blank": 10}, "'double_blank'"),
        (4, {"opening_arms": 5}, "'opening_arms'"),
        (4, {"opening_arms": "six"}, "'opening_arms'"),
        (4, {"hand_size": 14}, "'hand_size'"),
        (4, {"rounds": 3}, "'rounds'"),
    ],
)
def test_bad_options_name_the_option(players: int, options: dict[str, object], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        RULES.new_match(players, options, seed=b"x")


@pytest.mark.parametrize(
    ("top", "players", "size"),
    [(9, 2, 20), (9, 3, 14), (9, 4, 11), (9, 5, 9), (9, 6, 7), (12, 4, 18), (12, 8, 9),
     (15, 5, 18), (15, 12, 9), (18, 8, 19), (18, 16, 9)],
)
def test_hands_follow_the_deal_table(top: int, players: int, size: int) -> None:
    state = RULES.new_match(players, {"set": top}, seed=b"deal")
    dealt = [len(h) for h in state.dealt]
    assert dealt == [size] * players
    assert RULES.view(state, None)["options"] == {"set": top, "hand_size": size, "double_blank": 50, "opening_arms": 4}
