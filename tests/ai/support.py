"""Positions for the AI tests: real matches played by seeded Easy bots, stopped mid-hand."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.ai import inference
from games.ai.inference import HiddenHand, tile_of
from games.engine import Rules, get_rules

#: (game, players, options) the AI supports, as presets of the tests.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 2, {}),
    ("block", 4, {"partnership": True, "hand_size": 7}),
    ("draw", 2, {}),
    ("draw", 4, {}),
    ("allfives", 2, {}),
    ("allfives", 3, {}),
    ("texas42", 4, {}),
    ("mexican_train", 4, {}),
    ("mexican_train", 2, {"set": 6}),
    ("chicken_foot", 4, {}),
    # The house rules that change what is legal (drawing until a tile fits, six arms first).
    ("mexican_train", 3, {"draw_until_play": True, "double_blank": 50}),
    ("chicken_foot", 3, {"opening_arms": 6, "double_blank": 25}),
    # Five-Up: heads-up, three individuals, two partnerships, and the muggins house rule.
    ("fiveup", 2, {}),
    ("fiveup", 3, {}),
    ("fiveup", 4, {}),
    ("fiveup", 4, {"muggins": True}),
    ("fiveup", 2, {"muggins": True}),
]


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    game, players, options = case
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game}-{players}" + (f"-{extra}" if extra else "")


def rules_or_skip(game: str) -> Rules[Any]:
    try:
        return get_rules(game)
    except ImportError:
        pytest.skip(f"{game} has no engine yet")


def positions(
    rules: Rules[Any], players: int, options: dict[str, Any], seed: bytes, steps: int
) -> list[Any]:
    """States met along a match of random moves, one per step, while somebody is to move."""
    state = rules.new_match(players=players, options=options, seed=seed)
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if rules.to_move(state) is None:
            break
        out.append(state)
        state = rules.advance(state, rng.choice(rules.legal_actions(state)))
    return out


def engine_value(rules: Rules[Any], state: Any, me: int, hand: int) -> int:
    """Won (1), tied (0) or lost (-1) for `me`'s side in hand `hand` (as the finished hand's
    record names its winner, a win of no points included), every seat playing perfectly for
    its side, by the engine alone: the oracle of the endgame solver."""
    side = state.config.side

    def search(s: Any) -> int:
        if rules.to_move(s) is None or rules.hand_index(s) != hand:
            winner = rules.view(s, None)["last_hand"]["winner"]
            return 0 if winner is None else 1 if winner == side[me] else -1
        values = [search(rules.advance(s, a)) for a in rules.legal_actions(s)]
        return max(values) if side[rules.to_move(s)] == side[me] else min(values)

    return search(state)


def fits(tiles: list[Any], hidden: HiddenHand) -> bool:
    """Whether the true tiles (as the views list them) can fill the inferred slots."""
    return inference.fits([tile_of(t) for t in tiles], hidden)


def tiles_said(sentence: str) -> set[tuple[int, int]]:
    """The tiles an advice sentence names, each written "a|b" (`games/ai/advice.py`)."""
    return {(min(a, b), max(a, b)) for a, b in ((int(x), int(y)) for x, y in re.findall(r"(\d+)\|(\d+)", sentence))}
