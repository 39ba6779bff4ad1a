"""Properties over random deals: 42 points a hand, tiles conserved, hands end the moment they are decided."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.fairness import deal, hand_seed, shuffle
from games.core.tiles import Tile, full_set, make_tile
from games.texas42.tricks import DOUBLES, legal_plays, trick_points, winning_index

from .test_texas42_support import RULES

VARIANTS = [{}, {"all_pass": "force"}, {"doubles_trump": True, "follow_me": True, "nello": True},
            {"target_points": 250}]


@settings(max_examples=150, deadline=None)
@given(seed=st.binary(min_size=1, max_size=16), trump=st.sampled_from([0, 1, 2, 3, 4, 5, 6, DOUBLES, None]),
       leader=st.integers(0, 3))
def test_seven_tricks_played_to_the_end_hold_exactly_42_points(seed: bytes, trump: Any, leader: int) -> None:
    rng = random.Random(seed)
    hands, _ = deal(shuffle(full_set(6), seed), 4, 7)
    held = [list(h) for h in hands]
    total = 0
    played = []
    for _ in range(7):
        trick: list[tuple[int, Tile]] = []
        for k in range(4):
            seat = (leader + k) % 4
            choice = rng.choice(legal_plays(held[seat], [t for _, t in trick], trump))
            held[seat].remove(choice)
            trick.append((seat, choice))
        tiles = [t for _, t in trick]
        leader = trick[winning_index(tiles, trump)][0]
        total += trick_points(tiles)
        played += tiles
    assert total == 42
    assert sorted(played) == list(full_set(6))
    assert held == [[], [], [], []]


def decided_at(bid: int, nello: bool, bidder_side: int, tricks: list[dict[str, Any]]) -> tuple[int, str]:
    """An independent reading of "the hand ends as soon as it is decided": (tricks, result)."""
    need = min(bid, 42)
    taken = [0, 0]
    for n, trick in enumerate(tricks, 1):
        side = trick["winner"] % 2
        taken[side] += trick["points"]
        if nello:
            if side == bidder_side:
                return n, "set"
            if n == 7:
                return n, "made"
        elif taken[bidder_side] >= need:
            return n, "made"
        elif taken[1 - bidder_side] > 42 - need:
            return n, "set"
    raise AssertionError("seven tricks always decide a hand")


def check_finished_hand(last: dict[str, Any], revealed: list[str]) -> None:
    log = last["log"]
    tricks = [e for e in log if e["type"] == "trick"]
    assert revealed[last["number"]] == last["seed"]
    order = shuffle(full_set(6), bytes.fromhex(last["seed"]))
    for seat in range(4):
        assert sorted(map(tuple, last["dealt"][seat])) == sorted(order[7 * seat:7 * seat + 7])
        played = [make_tile(*e["tile"]) for e in log if e["type"] == "play" and e["seat"] == seat]
        left = [make_tile(*t) for t in last["hands_left"][seat]]
        assert sorted(played + left) == sorted(make_tile(*t) for t in last["dealt"][seat])
    points = last["points"]
    assert sum(points) <= 42
    assert points == [sum(t["points"] for t in tricks if t["winner"] % 2 == side) for side in (0, 1)]
    if last["result"] == "thrown_in":
        assert tricks == [] and all(e["type"] == "pass" for e in log[:4])
        return
    nello = last["trump"] == "nello"
    assert all(len(t["tiles"]) == (3 if nello else 4) for t in tricks)
    if len(tricks) == 7 and not nello:
        assert sum(points) == 42
    assert decided_at(last["bid"], nello, last["bidder"] % 2, tricks) == (len(tricks), last["result"])
    assert last["early"] == (len(tricks) < 7)
    scorer = last["bidder"] % 2 if last["result"] == "made" else 1 - last["bidder"] % 2
    assert last["winner"] == scorer


@settings(max_examples=40, deadline=None)
@given(seed=st.binary(min_size=1, max_size=16), variant=st.sampled_from(VARIANTS))
def test_random_matches_score_every_hand_by_the_rules(seed: bytes, variant: dict[str, Any]) -> None:
    rng = random.Random(seed)
    state = RULES.new_match(players=4, options=variant, seed=seed)
    scores = [0, 0]
    hands = 0
    while RULES.to_move(state) is not None and hands < 12:
        before = RULES.hand_index(state)
        mover = RULES.to_move(state)
        view = RULES.view(state, None)
        assert view["sitting_out"] is None or view["sitting_out"] != mover
        played = sum(1 for e in view["log"] if e["type"] == "play")
        assert sum(view["hand_sizes"]) + played == 28
        state = RULES.advance(state, rng.choice(RULES.legal_actions(state)))
        if RULES.hand_index(state) != before or RULES.to_move(state) is None:
            hands += 1
            after = RULES.view(state, None)
            last = after["last_hand"]
            check_finished_hand(last, after["revealed"])
            if last["winner"] is not None:
                scores[last["winner"]] += last["award"]
            assert after["scores"] == scores
            assert last["seed"] == hand_seed(seed, before).hex()
    if RULES.to_move(state) is None:
        assert max(scores) >= RULES.view(state, None)["target"]
