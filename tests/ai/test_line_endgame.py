"""The exact solver of line positions with nothing left to draw, against the engine itself:
every play's won, tied or lost result equals exhaustive play through the engine's own moves
and scoring, heads-up, at three, and in partnerships."""

from __future__ import annotations

from typing import Any

import pytest

from games.ai.line_endgame import Endgame, OutOfBudget

from .support import engine_value, positions, rules_or_skip


@pytest.mark.parametrize(("players", "options", "most"), [
    (2, {}, 9),
    (3, {}, 9),
    (4, {"partnership": True, "hand_size": 7}, 10),
])
def test_every_play_is_valued_as_exhaustive_play_through_the_engine(
    players: int, options: dict[str, Any], most: int
) -> None:
    rules = rules_or_skip("block")
    checked = 0
    for g in range(200):
        for state in positions(rules, players, options, b"block-end-%d" % g, steps=60):
            seat = rules.to_move(state)
            assert seat is not None
            legal = rules.legal_actions(state)
            held = sum(h.bit_count() for h in state.hands)
            if len(legal) < 2 or held > most or legal[0]["type"] != "play" or "end" not in legal[0]:
                continue
            solver = Endgame(rules, state.config, seat)
            ends = (state.layout.ends[0], state.layout.ends[1])
            grid = state.config.tiles.grid
            for action in legal:
                a, b = action["tile"]
                got = solver.play_value(state.hands, seat, grid[a][b], action["end"], ends)
                assert got == engine_value(rules, rules.advance(state, action), seat, rules.hand_index(state))
            checked += 1
            break
        if checked >= 12:
            break
    assert checked >= 12


def test_past_its_budget_the_solver_gives_up() -> None:
    rules = rules_or_skip("block")
    for state in positions(rules, 4, {"partnership": True, "hand_size": 7}, b"block-big", steps=10):
        legal = rules.legal_actions(state)
        if len(legal) >= 2 and "end" in legal[0]:
            mover = rules.to_move(state)
            assert mover is not None
            solver = Endgame(rules, state.config, mover, budget=5)
            a, b = legal[0]["tile"]
            with pytest.raises(OutOfBudget):
                solver.play_value(state.hands, mover, state.config.tiles.grid[a][b],
                                  legal[0]["end"], (state.layout.ends[0], state.layout.ends[1]))
            return
    raise AssertionError("no position met")
