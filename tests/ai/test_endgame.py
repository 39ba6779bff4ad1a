"""The exact endgame solve: plain minimax values, a budget that gives up, and when it runs."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ai.endgame import solve_all
from games.ai.line import LINE_KIT
from games.ai.search import outcome
from games.engine import Rules, get_rules


def endgame(rules: Rules[Any], players: int, options: dict[str, Any], seed: bytes, tiles: int) -> Any:
    """A real hand played at random until at most `tiles` remain in the hands."""
    state = rules.new_match(players, options, seed=seed)
    rng = random.Random(seed)
    hand = rules.hand_index(state)
    while rules.to_move(state) is not None and rules.hand_index(state) == hand:
        view = rules.view(state, rules.to_move(state))
        if sum(view["hand_sizes"]) <= tiles and len(rules.legal_actions(state)) > 1:
            return state
        state = rules.advance(state, rng.choice(rules.legal_actions(state)))
    return None


def minimax(rules: Rules[Any], state: Any, hand: int, side: int, value: Any) -> float:
    """The hand's value by brute force: no pruning, no table."""
    seat = rules.to_move(state)
    if seat is None or rules.hand_index(state) != hand:
        return float(value(state))
    children = [minimax(rules, rules.advance(state, a), hand, side, value) for a in rules.legal_actions(state)]
    return max(children) if rules.side_of(state, seat) == side else min(children)


GAMES = [("block", 2, {}), ("draw", 2, {}), ("allfives", 2, {}), ("block", 4, {"partnership": True, "hand_size": 7})]


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] + str(g[1]) for g in GAMES])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=1, max_size=8))
def test_the_solve_equals_plain_minimax(game: str, players: int, options: dict[str, Any], seed: bytes) -> None:
    rules = get_rules(game)
    state = endgame(rules, players, options, seed, 6)
    if state is None:
        return
    hand = rules.hand_index(state)
    side = rules.side_of(state, rules.to_move(state))
    before = rules.scores(state)

    def value(end: Any) -> float:
        return outcome(rules, before, end, side, 15.0)

    legal = rules.legal_actions(state)
    solved, _ = solve_all(rules, state, legal, hand=hand, side=side, value=value, nodes=10**6)
    brute = [minimax(rules, rules.advance(state, a), hand, side, value) for a in legal]
    assert solved == brute


def test_a_solve_past_its_budget_gives_up() -> None:
    rules = get_rules("block")
    state = None
    for n in range(50):
        state = endgame(rules, 2, {}, bytes([n]), 8)
        if state is not None:
            break
    assert state is not None
    legal = rules.legal_actions(state)
    side = rules.side_of(state, rules.to_move(state))
    hand = rules.hand_index(state)
    assert solve_all(rules, state, legal, hand=hand, side=side, value=lambda s: 0.0, nodes=1) == (None, 1)


def test_the_solve_runs_only_with_two_sides_and_few_tiles_left() -> None:
    two = {"teams": [[0], [1]], "game": "draw", "options": {"boneyard_reserve": 2}}
    assert LINE_KIT.exact_nodes({**two, "hand_sizes": [5, 5], "boneyard": 2}) > 0
    assert LINE_KIT.exact_nodes({**two, "hand_sizes": [5, 5], "boneyard": 9}) == 0
    assert LINE_KIT.exact_nodes({**two, "hand_sizes": [7, 7], "boneyard": 2}) == 0
    three = {"teams": [[0], [1], [2]], "game": "allfives", "options": {}}
    assert LINE_KIT.exact_nodes({**three, "hand_sizes": [2, 2, 2], "boneyard": 0}) == 0
    block = {"teams": [[0, 2], [1, 3]], "game": "block", "options": {}}
    assert LINE_KIT.exact_nodes({**block, "hand_sizes": [3, 3, 3, 3], "boneyard": 0}) > 0
