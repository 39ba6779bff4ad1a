"""What a seat infers from its view is true of the real deal, and samples respect it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ai import kit_for
from games.ai.inference import HiddenHand, line_hidden_hands, tile_of, unseen_tiles
from games.ai.sampling import sample_deal
from games.ai.trains_policy import longest_chain
from games.core.tiles import full_set, make_tile

from .support import CASES, case_id, fits, positions, rules_or_skip


@pytest.mark.parametrize("case", CASES, ids=case_id)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8))
def test_inferred_voids_always_hold_for_the_real_hands(case: tuple[str, int, dict[str, Any]], seed: bytes) -> None:
    game, players, options = case
    rules = rules_or_skip(game)
    kit = kit_for(game)
    for state in positions(rules, players, options, seed, steps=150)[::2]:
        seat = rules.to_move(state)
        view = rules.view(state, seat)
        unseen = set(kit.unseen(view))
        for other, hidden in kit.hidden(view).items():
            truth = rules.view(state, other)["hand"]
            assert {tile_of(t) for t in truth} <= unseen
            assert fits(truth, hidden), (other, truth, hidden)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_sampled_deals_fill_every_hand_and_rebuild_the_view(case: tuple[str, int, dict[str, Any]]) -> None:
    game, players, options = case
    rules = rules_or_skip(game)
    kit = kit_for(game)
    for state in positions(rules, players, options, b"samples", steps=120)[::7]:
        seat = rules.to_move(state)
        view = rules.view(state, seat)
        hidden, unseen = kit.hidden(view), kit.unseen(view)
        hands, boneyard = sample_deal(view, hidden, unseen, random.Random(7))
        assert [len(h) for h in hands] == view["hand_sizes"]
        assert len(boneyard) == len(unseen) - sum(len(h.slots) for h in hidden.values())
        placed = [t for k, h in enumerate(hands) if k != seat for t in h] + boneyard
        assert sorted(placed) == sorted(unseen)
        for other, info in hidden.items():
            assert fits([list(t) for t in hands[other]], info)
        assert rules.view(rules.state_from_view(view, hands, boneyard), seat) == view


def draw_view(log: list[dict[str, Any]], hand: list[list[int]], sizes: list[int]) -> dict[str, Any]:
    return {"game": "draw", "seat": 0, "options": {"set": 6, "spinner": False}, "hand": hand,
            "hand_sizes": sizes, "log": log}


def test_a_pass_proves_the_passer_holds_neither_open_number() -> None:
    """The documents: a player who passes with 3 and 5 showing holds no 3s and no 5s."""
    log = [
        {"type": "play", "seat": 0, "tile": [3, 5]},
        {"type": "pass", "seat": 1, "ends": [3, 5]},
    ]
    hidden = line_hidden_hands(draw_view(log, [[0, 0]], [1, 7]))
    assert hidden[1].slots == [frozenset({3, 5})] * 7


def test_a_void_binds_only_the_tiles_held_when_the_seat_drew() -> None:
    """Draws on 2-1 then on 2-4 void the tiles held then; the last tile drawn is unconstrained."""
    log = [
        {"type": "play", "seat": 0, "tile": [6, 6]},
        {"type": "play", "seat": 1, "tile": [2, 6], "end": "left"},
        {"type": "play", "seat": 0, "tile": [1, 6], "end": "right"},
        {"type": "draw", "seat": 1},
        {"type": "draw", "seat": 1},
        {"type": "play", "seat": 1, "tile": [1, 4], "end": "right"},
        {"type": "play", "seat": 0, "tile": [4, 4], "end": "right"},
        {"type": "draw", "seat": 1},
    ]
    hidden = line_hidden_hands(draw_view(log, [[0, 0]] * 4, [4, 8]))
    assert sorted(hidden[1].slots, key=len) == [frozenset()] + [frozenset({1, 2, 4})] * 7


def test_unseen_tiles_leave_out_the_hand_and_the_table() -> None:
    view = draw_view([{"type": "play", "seat": 1, "tile": [6, 6]}], [[0, 1], [2, 3]], [2, 6])
    unseen = unseen_tiles(view)
    assert len(unseen) == 25
    assert not {make_tile(6, 6), make_tile(0, 1), make_tile(2, 3)} & set(unseen)


def test_sampling_relaxes_an_impossible_inference_rather_than_fail() -> None:
    view = draw_view([], [[0, 0]], [1, 1])
    impossible = {1: HiddenHand([frozenset(range(7))])}
    hands, boneyard = sample_deal(view, impossible, [make_tile(2, 3)], random.Random(0))
    assert hands == [[make_tile(0, 0)], [make_tile(2, 3)]]
    assert boneyard == []


def test_42_failing_to_follow_suit_proves_a_void() -> None:
    """With sixes trumps, a player who answers a 5-4 lead with the 3-2 holds no five."""
    log = [
        {"type": "bid", "seat": 1, "value": 30}, {"type": "pass", "seat": 2},
        {"type": "pass", "seat": 3}, {"type": "pass", "seat": 0},
        {"type": "trump", "seat": 1, "suit": 6},
        {"type": "play", "seat": 1, "tile": [4, 5]},
        {"type": "play", "seat": 2, "tile": [2, 3]},
    ]
    view = {"game": "texas42", "seat": 0, "options": {}, "hand": [[0, 0]] * 7, "trump": 6,
            "hand_sizes": [7, 6, 6, 7], "log": log}
    banned = kit_for("texas42").hidden(view)[2].banned
    assert banned == {make_tile(a, 5) for a in range(6)}
    assert not kit_for("texas42").hidden(view)[1].banned


def test_the_planned_train_is_the_longest_chain_from_the_engine() -> None:
    hand = [make_tile(*t) for t in ([12, 3], [3, 7], [7, 7], [7, 1], [12, 9], [0, 0])]
    assert longest_chain(12, hand) == [make_tile(3, 12), make_tile(3, 7), make_tile(7, 7), make_tile(1, 7)]


def _plain_chain(start: int, tiles: list[Any], limit: int) -> list[Any]:
    """The planned train's search as first written: recursion, `(length, pips)` keys."""
    by_number: dict[int, list[int]] = {}
    for i, tile in enumerate(tiles):
        by_number.setdefault(tile.low, []).append(i)
        if tile.high != tile.low:
            by_number.setdefault(tile.high, []).append(i)
    used = [False] * len(tiles)
    path: list[int] = []
    found: dict[str, Any] = {"best": [], "key": (0, 0), "budget": limit}

    def grow(value: int, length: int, pips: int) -> None:
        found["budget"] -= 1
        if (length, pips) > found["key"]:
            found["best"], found["key"] = list(path), (length, pips)
        if found["budget"] <= 0:
            return
        for i in by_number.get(value, ()):
            if not used[i]:
                used[i] = True
                path.append(i)
                tile = tiles[i]
                grow(tile.high if tile.low == value else tile.low, length + 1, pips + tile.pips)
                path.pop()
                used[i] = False

    grow(start, 0, 0)
    return [tiles[i] for i in found["best"]]


def test_the_planned_train_is_the_plain_searchs_at_every_node_budget() -> None:
    rng = random.Random(8)
    for _ in range(3000):
        top = rng.choice([6, 9, 12])
        tiles = list(full_set(top))
        rng.shuffle(tiles)
        hand = tiles[: rng.randrange(26)]
        start, limit = rng.randrange(top + 1), rng.choice([0, 1, 2, 5, 40, 300, 4000])
        assert longest_chain(start, hand, limit) == _plain_chain(start, hand, limit)
