"""The searches' fast path (`moves`, `step`) and `apply`'s shortcuts agree with the protocol.

Every game answers `moves`, `step`, `action_of` and `move_of` (the line games with small
ints, the others with their actions); the line games also hand out shared, read-only
actions that `apply` recognises. Each must give exactly what `legal_actions`, `advance` and
the careful checked path give.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from itertools import pairwise
from typing import Any

import pytest

from games.core.actions import FrozenAction
from games.core.errors import IllegalAction

from .conformance_support import PRESETS, preset_ids, rules_of

CASES = [(game, players, options) for game in PRESETS for players, options in PRESETS[game]]
IDS = [case_id for game in PRESETS for case_id in preset_ids(game)]


def positions(rules: Any, players: int, options: dict[str, Any], seed: int, hands: int) -> list[Any]:
    """Every state of `hands` random hands (the match's later hands included)."""
    rng = random.Random(seed)
    state = rules.new_match(players=players, options=dict(options), seed=b"fast%d" % seed)
    out = []
    first = rules.hand_index(state)
    while rules.to_move(state) is not None and rules.hand_index(state) < first + hands:
        out.append(state)
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    out.append(state)
    return out


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_moves_and_step_are_legal_actions_and_advance(game: str, players: int, options: dict[str, Any]) -> None:
    rules = rules_of(game)
    for seed in range(3):
        for state in positions(rules, players, options, seed, 2):
            legal = rules.legal_actions(state)
            moves = list(rules.moves(state))
            assert [rules.action_of(state, m) for m in moves] == legal
            if rules.to_move(state) is None:
                assert moves == []
                continue
            for move, action in zip(moves, legal):
                assert rules.move_of(state, action) == move
                after = rules.advance(state, action)
                assert rules.step(state, move) == after
                assert rules.apply(state, action) == after
                assert rules.apply(state, json.loads(json.dumps(action))) == after


@pytest.mark.parametrize("game", ["block", "draw", "allfives"])
def test_shared_actions_are_read_only_and_copy_to_plain_dicts(game: str) -> None:
    rules = rules_of(game)
    state = positions(rules, 2, {}, 0, 1)[3]
    action = rules.legal_actions(state)[0]
    assert isinstance(action, FrozenAction)
    with pytest.raises(TypeError):
        action["end"] = "up"
    with pytest.raises(TypeError):
        action["tile"].reverse()
    for other in (dict(action), copy.copy(action), copy.deepcopy(action), pickle.loads(pickle.dumps(action))):
        assert other == action
        other["type"] = "draw"  # a copy is the caller's own
    assert copy.deepcopy(action)["tile"] == action["tile"]
    assert json.loads(json.dumps(action)) == action
    assert rules.legal_actions(state)[0] is action  # the same position lists the same object


@pytest.mark.parametrize("game", ["block", "draw", "allfives"])
def test_apply_refuses_a_shared_action_of_another_position(game: str) -> None:
    """An action listed for one position is checked like any other on the next one."""
    rules = rules_of(game)
    refused = 0
    for seed in range(4):
        states = positions(rules, 2, {}, seed, 1)
        for state, later in pairwise(states):
            if rules.to_move(later) is None:
                continue
            legal_later = rules.legal_actions(later)
            for action in rules.legal_actions(state):
                if action in legal_later:
                    assert rules.apply(later, action) == rules.advance(later, action)
                else:
                    with pytest.raises(IllegalAction):
                        rules.apply(later, action)
                    refused += 1
    assert refused > 20


def test_a_finished_match_lists_no_moves() -> None:
    rules = rules_of("draw")
    state = rules.new_match(players=2, options={"target": 1}, seed=b"short")
    rng = random.Random(1)
    while rules.to_move(state) is not None:
        state = rules.step(state, rng.choice(rules.moves(state)))
    assert list(rules.moves(state)) == [] and rules.legal_actions(state) == []
    with pytest.raises(IllegalAction):
        rules.apply(state, {"type": "pass"})


def test_past_the_memory_caps_the_moves_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that ran long enough to fill the layouts' table builds layouts afresh."""
    import games.core.layout as layout_module

    rules = rules_of("allfives")
    before = [rules.legal_actions(s) for s in positions(rules, 3, {"set": 9}, 5, 1)]
    monkeypatch.setattr(layout_module, "INTERN_CAP", 0)
    states = positions(rules, 3, {"set": 9}, 5, 1)
    assert [rules.legal_actions(s) for s in states] == before
    for state in states[:-1]:
        for move in rules.moves(state):
            assert rules.step(state, move) == rules.advance(state, rules.action_of(state, move))
