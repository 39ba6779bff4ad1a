"""Perft counts: the number of distinct legal action sequences to a fixed depth from fixed seeds.

Any change to what is legal (an end id, a draw, a pass, the lead) changes these numbers, so
they guard the wire contract. The counts live in tests/data/perft_line.json and are
regenerated only on purpose, by tests/data/make_perft_line.py.
"""

import json
from pathlib import Path

import pytest

from games.engine import get_rules

DATA = Path(__file__).resolve().parents[1] / "data" / "perft_line.json"

#: (game, players, options, seed, depth) of every count.
POSITIONS = [
    ("block", 2, {}, "perft-1", 12),
    ("block", 3, {"spinner": True}, "perft-2", 10),
    ("draw", 2, {}, "perft-3", 16),
    ("draw", 4, {"partnership": True}, "perft-4", 9),
    ("draw", 2, {"set": 9}, "perft-5", 11),
    ("allfives", 2, {}, "perft-6", 11),
    ("allfives", 4, {}, "perft-7", 9),
]


def perft(rules, state, depth):
    """Distinct action sequences of length `depth` (shorter where the match ends first)."""
    if depth == 0 or rules.to_move(state) is None:
        return 1
    return sum(perft(rules, rules.apply(state, action), depth - 1) for action in rules.legal_actions(state))


def key(game, players, options, seed, depth):
    return f"{game}/{players}/{json.dumps(options, sort_keys=True)}/{seed}/{depth}"


def count(game, players, options, seed, depth):
    rules = get_rules(game)
    return perft(rules, rules.new_match(players, options, seed=seed.encode()), depth)


EXPECTED = json.loads(DATA.read_text()) if DATA.exists() else {}


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: key(*p))
def test_perft_counts_match_the_recorded_ones(position) -> None:
    assert count(*position) == EXPECTED[key(*position)]
