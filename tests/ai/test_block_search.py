"""Block's own search: its bitmask playouts value every action as the engine-driven search
does, and with the exact endgames on its values stay within what a hand can be worth."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from games.ai.block_search import BlockSearch
from games.ai.line_endgame import SOLVED_POINTS
from games.ai.line_search import PLANS, Search
from games.ai.line_weights import WEIGHTS

from .support import engine_value, positions, rules_or_skip

TABLES = [(2, {}), (3, {}), (4, {"partnership": True, "hand_size": 7})]
#: The plan in use, and with the knobs that change how deals are weighed (`beta`, off here)
#: and how random each seat plays out (`adapt`).
VARIANTS = [{}, {"beta": 0.0}, {"adapt": True}]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_own_block_playouts_value_every_action_as_the_engine_does(
        players: int, options: dict[str, Any], variant: dict[str, Any]) -> None:
    """Same deals, same weights, same random streams, same moves in the same order, same
    scoring: without the endgame the values are equal to the last bit."""
    rules = rules_or_skip("block")
    plan = dataclasses.replace(PLANS["block"], **variant)
    checked = 0
    for g in range(8):
        for k, state in enumerate(positions(rules, players, options, b"block-own-%d" % g, steps=40)):
            view = rules.view(state, rules.to_move(state))
            legal = [dict(a) for a in view["legal"]]
            if len(legal) < 2 or k % 3:
                continue
            engine = Search(rules, view, plan, WEIGHTS["block"]).values(legal, random.Random(k), 40)
            own = BlockSearch(rules, view, plan, WEIGHTS["block"], solve=False).values(legal, random.Random(k), 40)
            assert own == engine
            checked += 1
    assert checked >= 10


def test_a_playout_that_reaches_a_small_endgame_takes_its_exact_result() -> None:
    """On the true deal, with few tiles left, a playout of each play is worth the hand's
    exact result (every seat playing its best for its side) in outcome points."""
    rules = rules_or_skip("block")
    plan = PLANS["block"]
    worth = plan.win_bonus + SOLVED_POINTS * plan.pip_weight
    checked = 0
    for g in range(40):
        for state in positions(rules, 4, {"partnership": True, "hand_size": 7}, b"block-late-%d" % g, steps=40):
            seat = rules.to_move(state)
            assert seat is not None
            view = rules.view(state, seat)
            legal = [dict(a) for a in view["legal"]]
            if len(legal) < 2 or sum(view["hand_sizes"]) > 9:
                continue
            search = BlockSearch(rules, view, plan, WEIGHTS["block"], solve=True)
            search.begin([state.config.tiles.tiles_of(h) for h in state.hands], [])
            for action in legal:
                after = rules.advance(state, action)
                if rules.to_move(after) is None or rules.hand_index(after) != rules.hand_index(state):
                    continue
                got = search.playout_value(list(state.hands), [], action, random.Random(0))
                assert got == worth * engine_value(rules, after, seat, rules.hand_index(state))
                checked += 1
            break
    assert checked >= 10
