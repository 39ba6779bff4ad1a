"""The All Fives search's own playout loop gives the values the engine-driven search gives."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from games.ai.fives_search import FivesSearch, move_points, open_total
from games.ai.line_search import PLANS, Search
from games.ai.line_weights import WEIGHTS
from games.core.layout import END_INDEX
from games.line.rules import LineRules

from .support import positions, rules_or_skip

FIVES_CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"target": 80}),
    (3, {}),
    (4, {"partnership": True}),
    (2, {"set": 9, "next_lead": "highest_double", "double_blank": 50, "scoring": "opponents"}),
]


@pytest.mark.parametrize(("players", "options"), FIVES_CASES)
def test_the_own_playouts_value_every_action_as_the_engine_does(players: int, options: dict[str, Any]) -> None:
    """With no greed and no match bonus the playouts are the heaviest tile's: same deals, same
    random streams, same moves in the same order, same scoring, so values equal to the last
    bit, also where a side reaches a low target in mid-hand."""
    rules = rules_or_skip("allfives")
    plan = PLANS["allfives"]
    checked = 0
    for k, state in enumerate(positions(rules, players, options, b"fives-own", steps=200)):
        view = rules.view(state, rules.to_move(state))
        legal = [dict(a) for a in view["legal"]]
        if len(legal) < 2:
            continue
        engine = Search(rules, view, plan, WEIGHTS["allfives"]).values(legal, random.Random(k), 60)
        own = FivesSearch(rules, view, plan, WEIGHTS["allfives"], points_weight=0.0,
                          match_bonus=0.0).values(legal, random.Random(k), 60)
        assert own == engine
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize(("players", "options"), FIVES_CASES)
def test_the_points_a_playout_move_expects_are_the_points_the_engine_scores(
    players: int, options: dict[str, Any]
) -> None:
    """The points the playouts' greed counts for a play, without laying it, are the engine's."""
    rules = cast(LineRules, rules_or_skip("allfives"))
    config = rules.configure(players, options)
    checked = 0
    for state in positions(rules, players, options, b"fives-points", steps=200):
        if state.layout.is_empty:
            continue
        for action in rules.legal_actions(state):
            if action["type"] != "play":
                continue
            a, b = action["tile"]
            index = config.tiles.grid[a][b]
            side = config.side[state.to_move]
            after = rules.advance(state, action)
            scored = after.fives[side] - state.fives[side] if after.deal is state.deal else None
            expected = move_points(state.layout, open_total(state.layout), index, END_INDEX[action["end"]],
                                   config.tiles)
            if scored is not None:
                assert expected == scored
                checked += 1
    assert checked >= 50
