"""Hard's line-game search: its own bookkeeping agrees with the engine, its reading of plays
with the voids, and a deal that explains the plays weighs more than one that does not."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from games.ai import make_bot
from games.ai.inference import line_hidden_hands, tile_of, unseen_tiles
from games.ai.line_infer import Model, log_likelihood, read_view, sample
from games.ai.line_search import PLANS, Board, Search, heaviest, medium_move
from games.ai.line_weights import WEIGHTS
from games.core.tiles import make_tile

from .support import positions, rules_or_skip

LINE_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 2, {}),
    ("block", 4, {"partnership": True, "hand_size": 7}),
    ("draw", 2, {}),
    ("draw", 4, {}),
    ("allfives", 2, {}),
]


@pytest.mark.parametrize(("game", "players", "options"), LINE_CASES)
def test_the_board_follows_the_engine_through_random_playouts(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Hands and (line) ends tracked by the search equal what the engine's views show."""
    rules = rules_or_skip(game)
    rng = random.Random(3)
    for state in positions(rules, players, options, b"board", steps=60)[2::9]:
        view = rules.view(state, rules.to_move(state))
        search = Search(rules, view, PLANS[game], WEIGHTS[game])
        sampled, board, _ = search.deal(rng)
        hand = search.hand
        while rules.to_move(sampled) is not None and rules.hand_index(sampled) == hand:
            seat = rules.to_move(sampled)
            assert seat is not None
            action = rng.choice(rules.legal_actions(sampled))
            board.apply(seat, action)
            sampled = rules.advance(sampled, action)
            if rules.hand_index(sampled) != hand or rules.to_move(sampled) is None:
                break
            for k in range(players):
                shown = {tile_of(t) for t in rules.view(sampled, k)["hand"]}
                mine = set(_tiles(board.hands[k], board.stride))
                assert shown == mine
            ends = {e["id"]: e["value"] for e in rules.view(sampled, None)["ends"]}
            for name in ("left", "right"):
                assert board.ends.get(name) == ends.get(name)


def _tiles(mask: int, stride: int) -> list[Any]:
    out = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        i = bit.bit_length() - 1
        out.append(make_tile(i // stride, i % stride))
    return out


@pytest.mark.parametrize(("game", "players", "options"), LINE_CASES)
def test_the_timed_slots_carry_the_same_voids_as_the_inference(
    game: str, players: int, options: dict[str, Any]
) -> None:
    rules = rules_or_skip(game)
    for state in positions(rules, players, options, b"slots", steps=120)[1::6]:
        view = rules.view(state, rules.to_move(state))
        reading = read_view(view)
        hidden = line_hidden_hands(view)
        assert set(reading.slots) == set(hidden)
        for seat, slots in reading.slots.items():
            assert sorted(sorted(s.banned) for s in slots) == sorted(sorted(s) for s in hidden[seat].slots)
        dealt = sample(reading, unseen_tiles(view), random.Random(5))
        for seat, tiles in dealt.items():
            assert len(tiles) == view["hand_sizes"][seat]


def _draw_view(log: list[dict[str, Any]], hand: list[list[int]], sizes: list[int]) -> dict[str, Any]:
    return {"game": "draw", "seat": 0, "options": {"set": 6, "spinner": False}, "hand": hand,
            "hand_sizes": sizes, "log": log}


def test_a_deal_that_explains_a_light_play_weighs_more() -> None:
    """Answering the 4-6 lead with the 0-4 while holding the 6-6 is unlike Medium, which
    sheds a fitting double first: the deal without the double weighs more."""
    log = [
        {"type": "play", "seat": 0, "tile": [4, 6]},
        {"type": "play", "seat": 1, "tile": [0, 4], "end": "left"},
    ]
    view = _draw_view(log, [[1, 1], [2, 2], [3, 3], [1, 2], [1, 3], [2, 3]], [6, 6])
    reading = read_view(view)
    model = Model(WEIGHTS["draw"], beta=2.0, chance=0.1, top=6, random_share=0.5)
    rest = [make_tile(0, 0), make_tile(0, 1), make_tile(0, 2), make_tile(1, 5)]
    with_double = {1: [(t, -1) for t in [make_tile(6, 6), *rest, make_tile(2, 5)]]}
    without = {1: [(t, -1) for t in [make_tile(0, 5), *rest, make_tile(2, 5)]]}
    assert log_likelihood(model, reading, with_double) < log_likelihood(model, reading, without)


def test_the_playouts_medium_plays_as_medium_does() -> None:
    """The playout policy of Draw is Medium's score on the full deal: on real positions of
    Medium's own matches it makes Medium's choice far more often than the heaviest tile."""
    rules = rules_or_skip("draw")
    bots = [make_bot("draw", "medium", seed=b"a"), make_bot("draw", "medium", seed=b"b")]
    same = heavy = total = 0
    for match in range(12):
        state = rules.new_match(players=2, options={}, seed=f"agree:{match}".encode())
        while rules.to_move(state) is not None and rules.hand_index(state) == 0:
            seat = rules.to_move(state)
            assert seat is not None
            view = rules.view(state, seat)
            chosen = bots[seat].choose(view)
            legal = [dict(a) for a in view["legal"]]
            if len(legal) > 1 and view["log"]:
                search = Search(rules, view, PLANS["draw"], WEIGHTS["draw"])
                truth = [[tile_of(t) for t in rules.view(state, k)["hand"]] for k in range(2)]
                board = Board(truth, [], search.ends, spinner=False, spinner_value=None,
                              stride=search.t.stride, unplayed=search.unplayed)
                rng = random.Random(1)
                same += medium_move(board, seat, legal, rng, noise=0.0, w=WEIGHTS["draw"], t=search.t) == chosen
                heavy += heaviest(legal, rng, 0.0) == chosen
                total += 1
            state = rules.apply(state, chosen)
    assert total >= 60
    assert same / total >= 0.85
    assert same > heavy


@pytest.mark.parametrize("game", ["draw", "block"])
def test_the_posterior_tells_a_random_opponent_from_a_medium_one(game: str) -> None:
    """Read from its plays alone, an Easy opponent looks random far more often than a Medium
    one, so the search can play each out as what it is."""
    rules = rules_or_skip(game)
    plan = dataclasses.replace(PLANS[game], adapt=True)
    shown: dict[str, list[float]] = {"easy": [], "medium": []}
    for level, found in shown.items():
        for match in range(10):
            bots = [make_bot(game, "medium", seed=b"me"), make_bot(game, level, seed=f"{level}:{match}")]
            state = rules.new_match(players=2, options={}, seed=f"posterior:{match}".encode())
            while rules.to_move(state) is not None and rules.hand_index(state) == 0:
                seat = rules.to_move(state)
                assert seat is not None
                view = rules.view(state, seat)
                if seat == 0 and len(view["legal"]) > 1:
                    search = Search(rules, view, plan, WEIGHTS[game])
                    search.adapt(random.Random(match))
                    if sum(1 for e in view["log"] if e.get("type") == "play" and e.get("seat") == 1) >= 3:
                        found.append(search.posterior.get(1, plan.adapt_prior))
                state = rules.apply(state, bots[seat].choose(view))
    assert len(shown["easy"]) >= 10 and len(shown["medium"]) >= 10
    easy = sum(shown["easy"]) / len(shown["easy"])
    medium = sum(shown["medium"]) / len(shown["medium"])
    assert easy > 0.55 > 0.45 > medium
