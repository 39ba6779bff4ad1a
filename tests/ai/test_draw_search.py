"""The heads-up Draw endgame solver: a known forced win, and the engine's own results."""

from __future__ import annotations

import random
from typing import Any

from games.ai.draw_search import (
    LOSS,
    SOLVED_POINTS,
    TIE,
    WIN,
    DrawSearch,
    Endgame,
    applies,
    endgame_values,
    opponent_hands,
)
from games.ai.line import WEIGHTS
from games.ai.line_search import PLANS, Search

from .support import positions, rules_or_skip


def engine_value(rules: Any, state: Any, me: int, hand: int) -> int:
    """Won, tied or lost for `me` in hand `hand` (as the finished hand's record names its
    winner, a win of no points included), both seats playing perfectly, by the engine alone."""

    def search(s: Any) -> int:
        if rules.to_move(s) is None or rules.hand_index(s) != hand:
            winner = rules.view(s, None)["last_hand"]["winner"]
            return TIE if winner is None else WIN if winner == me else LOSS
        values = [search(rules.advance(s, a)) for a in rules.legal_actions(s)]
        return max(values) if rules.to_move(s) == me else min(values)

    return search(state)


def test_the_solver_finds_a_forced_win() -> None:
    """Ends 5 and 3; 5-6 on the left leaves the opponent (5-1, 2-2) nothing and goes out with
    the 6-6 and the 3-4; the 3-4 on the right lets the 5-1 block the hand with fewer pips."""
    rules = rules_or_skip("draw")
    config = rules.configure(2, {})
    grid = config.tiles.grid
    mine = (1 << grid[5][6]) | (1 << grid[6][6]) | (1 << grid[3][4])
    theirs = (1 << grid[1][5]) | (1 << grid[2][2])
    solver = Endgame(rules, config, 0)
    assert solver.play_value([mine, theirs], 0, grid[5][6], "left", (5, 3)) == WIN
    assert solver.play_value([mine, theirs], 0, grid[3][4], "right", (5, 3)) == LOSS


def test_the_solver_agrees_with_the_engine_at_the_floor() -> None:
    """On real positions where nobody may draw, each play's exact result on the true deal is
    the result of exhaustive play through the engine's own moves and scoring."""
    rules = rules_or_skip("draw")
    checked = 0
    for g in range(120):
        for state in positions(rules, 2, {}, b"draw-floor-%d" % g, steps=120):
            seat = rules.to_move(state)
            view = rules.view(state, seat)
            legal = rules.legal_actions(state)
            if not applies(view) or len(legal) < 2 or sum(view["hand_sizes"]) > 11:
                continue
            config = state.config
            solver = Endgame(rules, config, seat)
            ends = (state.layout.ends[0], state.layout.ends[1])
            for action in legal:
                a, b = action["tile"]
                got = solver.play_value(list(state.hands), seat, config.tiles.grid[a][b], action["end"], ends)
                after = rules.advance(state, action)
                assert got == engine_value(rules, after, seat, rules.hand_index(state))
            true = sorted(config.tiles.tiles_of(state.hands[1 - seat]))
            assert true in [sorted(h) for h in opponent_hands(view)]
            assert endgame_values(rules, view, legal) is not None
            checked += 1
            break
    assert checked >= 20


def test_the_endgame_leaves_big_positions_to_the_search() -> None:
    """Past its budget of positions the solver answers None (the ordinary search decides)."""
    rules = rules_or_skip("draw")
    for g in range(60):
        for state in positions(rules, 2, {}, b"draw-big-%d" % g, steps=120):
            view = rules.view(state, rules.to_move(state))
            legal = rules.legal_actions(state)
            if applies(view) and len(legal) >= 2 and min(view["hand_sizes"]) >= 4:
                assert endgame_values(rules, view, legal, budget=1) is None
                return
    raise AssertionError("no big endgame met")


def test_the_own_draw_playouts_value_every_action_as_the_engine_does() -> None:
    """Without the endgame the bitmask playouts are the heaviest tile's through the engine:
    same deals, same random streams, same moves in the same order, same scoring, so the
    values are equal to the last bit, at the floor and before it."""
    rules = rules_or_skip("draw")
    plan = PLANS["draw"]
    checked = floor = 0
    for g in range(6):
        for k, state in enumerate(positions(rules, 2, {}, b"draw-own-%d" % g, steps=200)):
            view = rules.view(state, rules.to_move(state))
            legal = [dict(a) for a in view["legal"]]
            if len(legal) < 2 or k % 3:
                continue
            engine = Search(rules, view, plan, WEIGHTS["draw"]).values(legal, random.Random(k), 60)
            own = DrawSearch(rules, view, plan, WEIGHTS["draw"], solve=False).values(legal, random.Random(k), 60)
            assert own == engine
            checked += 1
            floor += applies(view)
    assert checked >= 20
    assert floor >= 3


def test_playouts_that_reach_the_floor_take_the_solved_result() -> None:
    """With the endgame on, a playout that reaches the floor ends there with the exact result
    (a won, tied or lost hand's worth), so values move within the win bonus and the solved
    points."""
    rules = rules_or_skip("draw")
    plan = PLANS["draw"]
    for state in positions(rules, 2, {}, b"draw-solve", steps=200):
        view = rules.view(state, rules.to_move(state))
        legal = [dict(a) for a in view["legal"]]
        if len(legal) < 2 or not applies(view):
            continue
        values = DrawSearch(rules, view, plan, WEIGHTS["draw"], solve=True).values(legal, random.Random(1), 40)
        exact = endgame_values(rules, view, legal)
        assert exact is not None
        worth = plan.win_bonus + SOLVED_POINTS * plan.pip_weight
        assert all(-worth <= v <= worth for v in values)
        return
    raise AssertionError("no floor position met")
