"""Perft counts for Mexican Train and Chicken Foot: the number of action sequences of each
length from fixed positions, so any change to the move generator or the turn sequence shows.

Regenerate `tests/data/perft_trains.json` (only after a deliberate rules change) with
`python -m tests.engine.test_perft_trains`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import get_rules

DATA = Path(__file__).resolve().parent.parent / "data" / "perft_trains.json"

CASES: list[dict[str, Any]] = [
    {"game": "mexican_train", "players": 2, "options": {}, "seed": "perft-mt-2", "prefix": 0, "depth": 7},
    {"game": "mexican_train", "players": 4, "options": {"first_turn": "single"}, "seed": "perft-mt-4",
     "prefix": 0, "depth": 8},
    {"game": "mexican_train", "players": 7, "options": {}, "seed": "perft-mt-7", "prefix": 40, "depth": 6},
    {"game": "mexican_train", "players": 10, "options": {"double_blank": 50}, "seed": "perft-mt-10",
     "prefix": 90, "depth": 6},
    {"game": "mexican_train", "players": 3, "options": {"set": 6}, "seed": "perft-mt-6", "prefix": 6,
     "depth": 9},
    {"game": "chicken_foot", "players": 2, "options": {}, "seed": "perft-cf-2", "prefix": 0, "depth": 5},
    {"game": "chicken_foot", "players": 4, "options": {}, "seed": "perft-cf-4", "prefix": 12, "depth": 5},
    {"game": "chicken_foot", "players": 8, "options": {"set": 12}, "seed": "perft-cf-8", "prefix": 30,
     "depth": 4},
    # House rules: drawing until a tile fits (draws in a row in the tree), six arms first.
    {"game": "mexican_train", "players": 3, "options": {"set": 9, "draw_until_play": True},
     "seed": "perft-mt-until", "prefix": 30, "depth": 7},
    {"game": "chicken_foot", "players": 3, "options": {"opening_arms": 6}, "seed": "perft-cf-six", "prefix": 0,
     "depth": 9},
]


def start(case: dict[str, Any]) -> Any:
    """The case's position: a new match, then `prefix` actions chosen by a fixed index rule."""
    rules = get_rules(case["game"])
    state = rules.new_match(case["players"], case["options"], seed=case["seed"].encode())
    for step in range(case["prefix"]):
        legal = rules.legal_actions(state)
        state = rules.advance(state, legal[(7 * step + 3) % len(legal)])
    return state


def perft(game: str, state: Any, depth: int) -> int:
    rules = get_rules(game)
    if depth == 0 or rules.to_move(state) is None:
        return 1
    legal = rules.legal_actions(state)
    if depth == 1:
        return len(legal)
    return sum(perft(game, rules.advance(state, action), depth - 1) for action in legal)


def counts(case: dict[str, Any]) -> list[int]:
    state = start(case)
    return [perft(case["game"], state, d) for d in range(1, case["depth"] + 1)]


def _expected() -> dict[str, list[int]]:
    data = json.loads(DATA.read_text())
    return {c["seed"]: c["counts"] for c in data["cases"]}


@pytest.mark.parametrize("case", CASES, ids=[c["seed"] for c in CASES])
def test_perft_counts_match_the_recorded_ones(case: dict[str, Any]) -> None:
    assert counts(case) == _expected()[case["seed"]]


def main() -> None:
    cases = [{**case, "counts": counts(case)} for case in CASES]
    DATA.write_text(json.dumps({"cases": cases}, indent=1) + "\n")
    for case in cases:
        print(case["seed"], case["counts"], file=sys.stderr)


if __name__ == "__main__":
    main()
