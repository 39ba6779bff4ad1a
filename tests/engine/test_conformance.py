"""The engine protocol (docs/engine.md) holds for every game, player count and option preset.

Hypothesis chooses the seeds and the action indices; every invariant is checked through the
public protocol only, so the same suite judges every game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.tiles import make_tile
from games.engine import names

from .conformance_support import (
    MAX_ACTIONS_PER_MATCH,
    PRESETS,
    check_apply_refuses,
    check_commitments,
    check_deal_matches_seed,
    check_round_trip,
    check_views,
    flipped,
    preset_ids,
    rules_of,
    set_top,
)

CASES = [(game, players, options) for game in PRESETS for players, options in PRESETS[game]]
IDS = [case_id for game in PRESETS for case_id in preset_ids(game)]
MAX_HAND_STEPS = 2_000


def available(game: str) -> Any:
    try:
        return rules_of(game)
    except ImportError:
        pytest.skip(f"{game} has no engine yet")


def test_every_game_is_registered() -> None:
    assert names() == ["block", "draw", "allfives", "texas42", "mexican_train", "chicken_foot", "fiveup"]


def engine_double(view: dict[str, Any]) -> Any:
    engine = view.get("engine")
    if view["game"] == "mexican_train" and engine is not None:
        tile = engine["tile"] if isinstance(engine, dict) else engine
        return make_tile(*tile)
    return None


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=32), picks=st.lists(st.integers(0, 1 << 16), max_size=64))
def test_random_hand_keeps_every_invariant(
    game: str, players: int, options: dict[str, Any], seed: bytes, picks: list[int]
) -> None:
    rules = available(game)
    state = rules.new_match(players=players, options=dict(options), seed=seed)
    rng = random.Random(seed)
    seen: dict[int, str] = {}
    dealt = [list(map(tuple, rules.view(state, k)["hand"])) for k in range(players)]
    first = rules.hand_index(state)
    trail = []
    for step in range(MAX_HAND_STEPS):
        over = rules.to_move(state) is None or rules.hand_index(state) != first
        if step < 8 or step % 4 == 0 or over:
            check_views(rules, state)
            check_commitments(rules, state, seen)
            check_round_trip(rules, state)
        if over:
            break
        legal = rules.legal_actions(state)
        assert legal, "someone is to move but has no legal action"
        before = rules.dump(state)
        if step < 3:
            for action in legal:
                rules.apply(state, action)
            check_apply_refuses(rules, state, rng)
        index = picks[step] if step < len(picks) else rng.randrange(1 << 16)
        action = legal[index % len(legal)]
        trail.append(action)
        state = rules.apply(state, flipped(action))
        assert rules.dump(rules.load(before)) == before
    else:
        raise AssertionError(f"the hand did not end within {MAX_HAND_STEPS} actions")
    view = rules.view(state, None)
    if len(view["revealed"]) > first:
        check_deal_matches_seed(game, [[make_tile(*t) for t in h] for h in dealt],
                                view["revealed"][first], engine_double(rules.view(rules.new_match(
                                    players=players, options=dict(options), seed=seed), None)), set_top(view),
                                view["options"].get("hand_size"))
    replay = rules.new_match(players=players, options=dict(options), seed=seed)
    for action in trail:
        replay = rules.apply(replay, action)
    assert replay == state, "the same seed and actions must give the same state"


@pytest.mark.parametrize("game", list(PRESETS))
def test_two_thousand_random_hands_per_game(game: str) -> None:
    """Cheap checks over many hands: a legal action always exists and always applies."""
    rules = available(game)
    presets = PRESETS[game]
    hands = 0
    for i in range(2_000):
        players, options = presets[i % len(presets)]
        rng = random.Random(i)
        state = rules.new_match(players=players, options=dict(options), seed=i.to_bytes(4, "big"))
        first = rules.hand_index(state)
        for step in range(MAX_HAND_STEPS):
            mover = rules.to_move(state)
            if mover is None or rules.hand_index(state) != first:
                break
            legal = rules.legal_actions(state)
            assert legal
            if step % 7 == 0:
                view = rules.view(state, mover)
                assert view["legal"] == legal
                json.dumps(view)
            state = rules.apply(state, rng.choice(legal))
        else:
            raise AssertionError("a hand did not end")
        hands += 1
    assert hands == 2_000


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_whole_matches_end_with_a_well_formed_result(game: str, players: int, options: dict[str, Any]) -> None:
    rules = available(game)
    for seed in range(2):
        rng = random.Random(seed)
        state = rules.new_match(players=players, options=dict(options), seed=bytes([seed]) * 8)
        steps = 0
        while rules.to_move(state) is not None:
            assert rules.result(state) is None
            state = rules.advance(state, rng.choice(rules.legal_actions(state)))
            steps += 1
            assert steps < MAX_ACTIONS_PER_MATCH, "the match did not end"
        result = rules.result(state)
        json.dumps(result)
        assert result["scores"] == rules.scores(state)
        assert result["teams"] == rules.teams(state)
        assert result["winner"] is None or 0 <= result["winner"] < len(result["scores"])
        if result["winner"] is not None:
            scores = result["scores"]
            best = min(scores) if rules.lower_score_wins else max(scores)
            assert scores[result["winner"]] == best
            assert sorted(result["winning_seats"]) == sorted(result["teams"][result["winner"]])
        view = rules.view(state, 0)
        assert view["to_move"] is None and view["legal"] == []
        check_round_trip(rules, state)


@pytest.mark.parametrize("game", list(PRESETS))
def test_options_unknown_or_out_of_range_raise_value_error_naming_them(game: str) -> None:
    rules = available(game)
    players = PRESETS[game][0][0]
    with pytest.raises(ValueError, match="no_such_option"):
        rules.new_match(players=players, options={"no_such_option": 1}, seed=b"x")
    with pytest.raises(ValueError, match="players"):
        rules.new_match(players=17, options={}, seed=b"x")
    for bad in ({"set": 7}, {"double_blank": 13}, {"target_marks": "many"}, {"first_turn": "all"}):
        name = next(iter(bad))
        if any(name in o for _, o in PRESETS[game]) or name in rules.view(
                rules.new_match(players=players, options={}, seed=b"x"), None)["options"]:
            with pytest.raises(ValueError, match=name):
                rules.new_match(players=players, options=bad, seed=b"x")


@pytest.mark.parametrize("game", list(PRESETS))
def test_apply_leaves_its_input_unchanged_and_views_hide_nothing_mid_match(game: str) -> None:
    """Deep into matches (after several hands), the invariants still hold."""
    rules = available(game)
    for players, options in PRESETS[game][:3]:
        rng = random.Random(players)
        state = rules.new_match(players=players, options=dict(options), seed=b"mid" + bytes([players]))
        for _ in range(400):
            if rules.to_move(state) is None:
                break
            before = rules.dump(state)
            nxt = rules.apply(state, rng.choice(rules.legal_actions(state)))
            assert rules.dump(state) == before
            state = nxt
        check_views(rules, state)
        check_round_trip(rules, state)


def test_live_matches_use_a_fresh_secret_seed() -> None:
    rules = available("draw")
    a = rules.new_match(players=2, options={}, seed=None)
    b = rules.new_match(players=2, options={}, seed=None)
    assert rules.view(a, None)["commitment"] != rules.view(b, None)["commitment"]
    assert rules.view(a, None)["revealed"] == []
