"""The All Fives search's own playout loop gives the values the engine-driven search gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.ai.fives_search import FivesSearch
from games.ai.line import WEIGHTS
from games.ai.line_search import PLANS, Search

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
    """Same deals, same random streams, same moves in the same order, same scoring: equal
    values to the last bit, also where a side reaches a low target in mid-hand."""
    rules = rules_or_skip("allfives")
    plan = PLANS["allfives"]
    checked = 0
    for k, state in enumerate(positions(rules, players, options, b"fives-own", steps=200)):
        view = rules.view(state, rules.to_move(state))
        legal = [dict(a) for a in view["legal"]]
        if len(legal) < 2:
            continue
        engine = Search(rules, view, plan, WEIGHTS["allfives"]).values(legal, random.Random(k), 60)
        own = FivesSearch(rules, view, plan, WEIGHTS["allfives"]).values(legal, random.Random(k), 60)
        assert own == engine
        checked += 1
    assert checked >= 8
