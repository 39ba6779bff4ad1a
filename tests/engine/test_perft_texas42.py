"""Perft counts of 42: distinct legal action sequences to each depth from fixed seeds and auctions.

The counts in tests/data/perft_texas42.json guard the legal-move generator: any change to who
may bid what, which trumps may be named, or which tiles follow suit changes a count. They are
regenerated only on purpose, after a rule change that is meant:

    python -m tests.engine.test_perft_texas42 --regenerate
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from games.texas42.rules import Texas42Rules

RULES = Texas42Rules()
DATA = Path(__file__).resolve().parent.parent / "data" / "perft_texas42.json"
ALL_VARIANTS = {"doubles_trump": True, "follow_me": True, "nello": True}


def auction(trump: int | str, value: int = 30) -> list[dict[str, Any]]:
    """Seat 1 bids `value`, the others pass, seat 1 names `trump`: the start of the play."""
    return [{"type": "bid", "value": value}, {"type": "pass"}, {"type": "pass"}, {"type": "pass"},
            {"type": "trump", "suit": trump}]


#: Seat 1 of "perft-16" holds four doubles: it plunges, and its partner (seat 3) names trumps.
HOUSE_RULES = {"plunge": True, "splash": True, "sevens": True, "nello": True}
PLUNGE: list[dict[str, Any]] = [{"type": "bid", "value": 168, "contract": "plunge"}, {"type": "pass"}, {"type": "pass"},
          {"type": "pass"}]


# (seed, options, actions before counting, deepest depth)
POSITIONS: list[tuple[str, dict[str, Any], list[dict[str, Any]], int]] = [
    ("perft-0", {}, [], 5),
    ("perft-0", {"all_pass": "force"}, [], 5),
    ("perft-1", ALL_VARIANTS, [], 5),
    *[(f"perft-{i}", {}, auction(i * 3), 8) for i in range(3)],
    ("perft-0", ALL_VARIANTS, auction("doubles"), 8),
    ("perft-1", ALL_VARIANTS, auction("follow_me"), 8),
    ("perft-2", ALL_VARIANTS, auction("nello"), 7),
    ("perft-16", HOUSE_RULES, [], 4),
    ("perft-16", {"plunge": True}, PLUNGE, 6),
    ("perft-1", {"sevens": True}, auction("sevens", 42), 8),
    ("perft-2", {"nello": True, "nello_doubles": "low"}, auction("nello"), 6),
    ("perft-0", {"nello": True, "nello_doubles": "own_suit", "nello_min_marks": 1}, auction("nello", 42), 6),
]


def perft(state: Any, depth: int, tally: list[int], done: int = 0) -> None:
    """Add to `tally[d - 1]` the sequences of d legal actions, for every d up to `depth`.

    A match that ends after `done` actions counts once at every greater depth.
    """
    if RULES.to_move(state) is None:
        for d in range(done, depth):
            tally[d] += 1
        return
    if done == depth:
        return
    for action in RULES.legal_actions(state):
        tally[done] += 1
        perft(RULES.advance(state, action), depth, tally, done + 1)


def counts(seed: str, options: dict[str, Any], actions: list[dict[str, Any]], depth: int) -> list[int]:
    state = RULES.new_match(players=4, options=options, seed=seed.encode())
    for action in actions:
        state = RULES.apply(state, action)
    tally = [0] * depth
    perft(state, depth, tally)
    return tally


def regenerate() -> None:
    cases = [
        {"seed": seed, "options": options, "actions": actions, "counts": counts(seed, options, actions, depth)}
        for seed, options, actions, depth in POSITIONS
    ]
    about = ("Texas 42 perft: counts[d-1] = distinct legal action sequences of length d from the "
             "position reached by `actions` in a match started with seed=seed.encode() "
             "(a match that ends sooner counts once).")
    lines = ",\n".join("  " + json.dumps(case) for case in cases)
    DATA.write_text(f'{{"about": {json.dumps(about)},\n "cases": [\n{lines}\n]}}\n')


def stored(seed: str, options: dict[str, Any], actions: list[dict[str, Any]]) -> list[int]:
    for case in json.loads(DATA.read_text())["cases"]:
        if (case["seed"], case["options"], case["actions"]) == (seed, options, actions):
            return list(case["counts"])
    raise AssertionError("no stored counts for this position: regenerate them on purpose")


@pytest.mark.parametrize(
    ("seed", "options", "actions", "depth"), POSITIONS,
    ids=[f"{p[0]}-{json.dumps(p[2][-1].get('suit')) if p[2] else 'auction'}-{json.dumps(p[1])}" for p in POSITIONS],
)
def test_perft_counts_match_the_stored_counts(
    seed: str, options: dict[str, Any], actions: list[dict[str, Any]], depth: int
) -> None:
    expected = stored(seed, options, actions)
    assert len(expected) == depth
    assert counts(seed, options, actions, depth) == expected


def test_the_first_bid_has_fifteen_choices_and_the_lead_seven() -> None:
    # Pass, 30..42 or 84; then any of the bidder's seven tiles.
    assert stored("perft-0", {}, [])[0] == 15
    assert stored("perft-0", {}, auction(0))[0] == 7
    assert stored("perft-2", ALL_VARIANTS, auction("nello"))[:3] == counts("perft-2", ALL_VARIANTS, auction("nello"), 3)


def test_house_rules_counts() -> None:
    # The plunge's partner names one of the seven suits, then leads any of its seven tiles.
    assert stored("perft-16", {"plunge": True}, PLUNGE)[:2] == [7, 49]
    # Sevens: every play is forced to the tiles closest to seven, so few sequences.
    assert stored("perft-1", {"sevens": True}, auction("sevens", 42))[0] < 7


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regenerate", action="store_true", help="rewrite the stored counts")
    if parser.parse_args().regenerate:
        regenerate()
        print(f"wrote {DATA}")
