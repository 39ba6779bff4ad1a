"""Perft counts for Five-Up: the number of action sequences of each length from fixed
positions, so any change to the move generator, the spinners or the muggins window shows.

The counts are taken twice, through `legal_actions`/`advance` and through the fast path
(`moves`/`step`), which must agree. Regenerate `tests/data/perft_fiveup.json` (only after a
deliberate rules change, saying why in the commit) with `python -m tests.engine.test_perft_fiveup`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import get_rules

DATA = Path(__file__).resolve().parent.parent / "data" / "perft_fiveup.json"
RULES = get_rules("fiveup")

CASES: list[dict[str, Any]] = [
    {"players": 2, "options": {}, "seed": "perft-fu-2", "prefix": 0, "depth": 9},
    {"players": 3, "options": {}, "seed": "perft-fu-3", "prefix": 5, "depth": 8},
    {"players": 4, "options": {}, "seed": "perft-fu-4", "prefix": 3, "depth": 9},
    {"players": 4, "options": {"partnership": False}, "seed": "perft-fu-4i", "prefix": 9, "depth": 7},
    # The house rule: every play twice (claimed or not), and the muggins call.
    {"players": 2, "options": {"muggins": True}, "seed": "perft-fu-m2", "prefix": 2, "depth": 7},
    {"players": 4, "options": {"muggins": True}, "seed": "perft-fu-m4", "prefix": 6, "depth": 8},
]


def start(case: dict[str, Any]) -> Any:
    """The case's position: a new match, then `prefix` actions chosen by a fixed index rule."""
    state = RULES.new_match(case["players"], case["options"], seed=case["seed"].encode())
    for step in range(case["prefix"]):
        legal = RULES.legal_actions(state)
        state = RULES.advance(state, legal[(7 * step + 3) % len(legal)])
    return state


def perft(state: Any, depth: int) -> int:
    if depth == 0 or RULES.to_move(state) is None:
        return 1
    legal = RULES.legal_actions(state)
    if depth == 1:
        return len(legal)
    return sum(perft(RULES.advance(state, action), depth - 1) for action in legal)


def perft_fast(state: Any, depth: int) -> int:
    if depth == 0 or RULES.to_move(state) is None:
        return 1
    moves = RULES.moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft_fast(RULES.step(state, move), depth - 1) for move in moves)


def counts(case: dict[str, Any]) -> list[int]:
    state = start(case)
    return [perft(state, d) for d in range(1, case["depth"] + 1)]


def _expected() -> dict[str, list[int]]:
    data = json.loads(DATA.read_text())
    return {c["seed"]: c["counts"] for c in data["cases"]}


@pytest.mark.parametrize("case", CASES, ids=[c["seed"] for c in CASES])
def test_perft_counts_match_the_recorded_ones(case: dict[str, Any]) -> None:
    got = counts(case)
    assert got == _expected()[case["seed"]]
    state = start(case)
    assert [perft_fast(state, d) for d in range(1, case["depth"] + 1)] == got


def main() -> None:
    cases = [{**case, "counts": counts(case)} for case in CASES]
    DATA.write_text(json.dumps({"cases": cases}, indent=1) + "\n")
    for case in cases:
        print(case["seed"], case["counts"], file=sys.stderr)


if __name__ == "__main__":
    main()
