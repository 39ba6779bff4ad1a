"""The families keep the fast paths the AI declares (`games/ai/line_fast.py`, `trains_fast.py`).

The AI imports no game family, so nothing but these checks ties the Protocol classes to the
engine's own classes: every line game's rules, config, tables and states, and Mexican Train's
states, must have every member the searches read.
"""

from __future__ import annotations

import pytest

from games.ai.line_fast import (
    HandScore,
    LineConfig,
    LineFastPath,
    LineState,
    LineTiles,
    line_fast_path,
    line_state,
)
from games.ai.trains_fast import TrainsState, trains_state
from games.engine import get_rules

SEED = bytes(range(32))


@pytest.mark.parametrize("game", ["block", "draw", "allfives"])
def test_line_rules_offer_the_line_fast_path(game: str) -> None:
    rules = get_rules(game)
    assert isinstance(rules, LineFastPath)
    line = line_fast_path(rules)
    state = rules.new_match(players=2, options={}, seed=SEED)
    assert isinstance(state, LineState)
    read = line_state(state)
    assert isinstance(read.config, LineConfig)
    assert isinstance(read.config.tiles, LineTiles)
    config = line.configure(2, {})
    assert isinstance(config, LineConfig)
    assert isinstance(line.score_hand(config, (3, 5), 0), HandScore)
    view = rules.view(state, 0)
    assert line.configure(view["players"], view["options"]) == read.config


@pytest.mark.parametrize("game", ["texas42", "mexican_train", "chicken_foot"])
def test_other_families_are_refused_the_line_fast_path(game: str) -> None:
    rules = get_rules(game)
    state = rules.new_match(players=4, options={}, seed=SEED)
    with pytest.raises(TypeError):
        line_fast_path(rules)
    with pytest.raises(TypeError):
        line_state(state)


def test_mexican_train_states_offer_the_trains_fast_path() -> None:
    rules = get_rules("mexican_train")
    state = rules.new_match(players=4, options={}, seed=SEED)
    assert isinstance(state, TrainsState)
    assert trains_state(state) is state
    with pytest.raises(TypeError):
        trains_state(get_rules("draw").new_match(players=2, options={}, seed=SEED))
