"""Exact solving of a sampled deal's endgame: alpha-beta over the engine's own moves.

When few tiles are left, a heuristic playout misjudges what a careful opponent would do,
while the whole tree is small. On one sampled deal the hand is then solved exactly, both
sides playing their best with every tile known (minimax on the searcher's outcome), with a
transposition table keyed on the state itself (states compare by value). The work is counted
in nodes, never in time, so the answer is a pure function of the deal; a solve that would
pass its node budget gives up, and the caller plays that deal out instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.core.actions import Action
from games.core.protocol import Rules

EXACT, LOWER, UPPER = 0, 1, 2


class OutOfNodes(Exception):
    """The solve passed its node budget: its value is unknown."""


def heavy_first(action: Action) -> float:
    """Try heavy tiles and doubles first: good moves early make alpha-beta cut more."""
    raw = action.get("tile")
    if raw is None:
        return 0.0
    return -float(raw[0] + raw[1] + (4.5 if raw[0] == raw[1] else 0.0))


class Solver:
    """Minimax values of one deal's positions for the side `side`, within `nodes` visits."""

    def __init__(
        self,
        rules: Rules[Any],
        hand: int,
        side: int,
        value: Callable[[Any], float],
        nodes: int,
    ) -> None:
        self.rules = rules
        self.hand = hand
        self.side = side
        self.value = value
        self.left = nodes
        self.table: dict[Any, tuple[int, float]] = {}
        self.seat_side: dict[int, int] = {}

    def mine(self, state: Any, seat: int) -> bool:
        known = self.seat_side.get(seat)
        if known is None:
            known = self.seat_side[seat] = self.rules.side_of(state, seat)
        return known == self.side

    def solve(self, state: Any, alpha: float = float("-inf"), beta: float = float("inf")) -> float:
        """The value of `state` (exact when it lies strictly inside alpha..beta)."""
        seat = self.rules.to_move(state)
        if seat is None or self.rules.hand_index(state) != self.hand:
            return self.value(state)
        self.left -= 1
        if self.left < 0:
            raise OutOfNodes
        entry = self.table.get(state)
        if entry is not None:
            flag, stored = entry
            if flag == EXACT:
                return stored
            if flag == LOWER and stored >= beta:
                return stored
            if flag == UPPER and stored <= alpha:
                return stored
        legal = self.rules.legal_actions(state)
        if len(legal) > 1:
            legal = sorted(legal, key=heavy_first)
        start_alpha, start_beta = alpha, beta
        maximise = self.mine(state, seat)
        best = float("-inf") if maximise else float("inf")
        for action in legal:
            child = self.solve(self.rules.advance(state, action), alpha, beta)
            if maximise:
                best = max(best, child)
                alpha = max(alpha, best)
            else:
                best = min(best, child)
                beta = min(beta, best)
            if alpha >= beta:
                break
        if best <= start_alpha:
            self.table[state] = (UPPER, best)
        elif best >= start_beta:
            self.table[state] = (LOWER, best)
        else:
            self.table[state] = (EXACT, best)
        return best


def solve_all(
    rules: Rules[Any],
    state: Any,
    legal: Sequence[Action],
    *,
    hand: int,
    side: int,
    value: Callable[[Any], float],
    nodes: int,
) -> tuple[list[float] | None, int]:
    """Exact value of every action on this deal (None if the budget ran out), nodes spent."""
    solver = Solver(rules, hand, side, value, nodes)
    try:
        return [solver.solve(rules.advance(state, action)) for action in legal], nodes - solver.left
    except OutOfNodes:
        return None, nodes
