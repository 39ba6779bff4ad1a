"""Perft counts: the number of distinct legal action sequences to a fixed depth from fixed seeds.

Any change to what is legal (an end id, a draw, a pass, the lead) changes these numbers, so
they guard the wire contract. The counts live in tests/data/perft_line.json and are
regenerated only on purpose, by tests/data/make_perft_line.py.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from games.core.protocol import Rules
from games.engine import get_rules

DATA = Path(__file__).resolve().parents[1] / "data" / "perft_line.json"

Position = tuple[str, int, dict[str, Any], str, int]

#: (game, players, options, seed, depth) of every count.
POSITIONS: list[Position] = [
    ("block", 2, {}, "perft-1", 12),
    ("block", 3, {"spinner": True}, "perft-2", 10),
    ("draw", 2, {}, "perft-3", 16),
    ("draw", 4, {"partnership": True}, "perft-4", 9),
    ("draw", 2, {"set": 9}, "perft-5", 11),
    ("allfives", 2, {}, "perft-6", 11),
    ("allfives", 4, {}, "perft-7", 9),
]


def perft(rules: Rules[Any], state: Any, depth: int) -> int:
    """Distinct action sequences of length `depth` (shorter where the match ends first)."""
    if depth == 0 or rules.to_move(state) is None:
        return 1
    return sum(perft(rules, rules.apply(state, action), depth - 1) for action in rules.legal_actions(state))


def key(game: str, players: int, options: dict[str, Any], seed: str, depth: int) -> str:
    return f"{game}/{players}/{json.dumps(options, sort_keys=True)}/{seed}/{depth}"


def count(game: str, players: int, options: dict[str, Any], seed: str, depth: int) -> int:
    rules = get_rules(game)
    return perft(rules, rules.new_match(players, options, seed=seed.encode()), depth)


EXPECTED = json.loads(DATA.read_text()) if DATA.exists() else {}


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: key(*p))
def test_perft_counts_match_the_recorded_ones(position: Position) -> None:
    assert count(*position) == EXPECTED[key(*position)]


# An independent model of the line rules, written from the documents with plain lists, as an
# oracle: within a hand it must count exactly the action sequences the engine allows.

def model_actions(
    hand: list[tuple[int, ...]], ends: list[tuple[str, int]], lead: tuple[int, ...] | None
) -> list[tuple[tuple[int, ...], str | None]]:
    if not ends:
        return [(t, None) for t in ([lead] if lead else sorted(hand))]
    return [(t, end) for t in sorted(hand) for end, value in ends if value in t]


def model_perft(table: tuple[Any, ...], depth: int) -> int:
    """`table`: hands, boneyard, ends [(id, value)], seat, draws, reserve, lead, spinner info."""
    if depth == 0:
        return 1
    hands, boneyard, ends, seat, rules, lead, spin = table
    draws, reserve, spinner = rules
    actions: list[Any] = model_actions(hands[seat], ends, lead)
    if not actions:
        actions = ["draw"] if draws and len(boneyard) > reserve else ["pass"]
    total = 0
    for action in actions:
        new_hands = [list(h) for h in hands]
        stock, new_ends, new_spin, turn = list(boneyard), list(ends), dict(spin), seat
        if action == "draw":
            new_hands[seat].append(stock.pop(0))
        elif action == "pass":
            turn = (seat + 1) % len(hands)
        else:
            tile, end = action
            new_hands[seat].remove(tile)
            turn = (seat + 1) % len(hands)
            if end is None:
                new_ends = [("left", tile[0]), ("right", tile[1])]
                if spinner and tile[0] == tile[1]:
                    new_spin = {"value": tile[0], "waiting": {"left", "right"}}
            else:
                shown = dict(new_ends)[end]
                outer = tile[1] if tile[0] == shown else tile[0]
                new_ends = [(e, outer if e == end else v) for e, v in new_ends]
                if end in new_spin.get("waiting", set()):
                    new_spin["waiting"] = new_spin["waiting"] - {end}
                    if not new_spin["waiting"]:
                        new_ends += [("up", new_spin["value"]), ("down", new_spin["value"])]
                if spinner and tile[0] == tile[1] and not new_spin:
                    new_spin = {"value": tile[0], "waiting": {end}}
            if not new_hands[seat]:
                total += 1
                continue
        values = {v for _, v in new_ends}
        someone_can_play = any(v in t for h in new_hands for t in h for v in values)
        if not someone_can_play and not (draws and len(stock) > reserve):
            total += 1
            continue
        total += model_perft((new_hands, stock, new_ends, turn, rules, None, new_spin), depth - 1)
    return total


def engine_perft_in_hand(rules: Rules[Any], state: Any, depth: int, hand: int) -> int:
    if depth == 0 or rules.to_move(state) is None or rules.hand_index(state) != hand:
        return 1
    return sum(engine_perft_in_hand(rules, rules.advance(state, a), depth - 1, hand)
               for a in rules.legal_actions(state))


MODEL_CASES = [
    ("block", 2, {}), ("draw", 2, {}), ("block", 3, {"spinner": True}),
    ("draw", 3, {"spinner": True, "boneyard_reserve": 0}), ("draw", 4, {}), ("block", 4, {"partnership": True}),
]


def check_against_model(game: str, players: int, options: dict[str, Any], seed: bytes, depth: int) -> None:
    rules = get_rules(game)
    state = rules.new_match(players, options, seed=seed)
    dump = rules.dump(state)
    hands = [[tuple(t) for t in hand] for hand in dump["hands"]]
    boneyard = [tuple(t) for t in dump["boneyard"]]
    config = dump["options"]
    lead = tuple(dump["lead"]) if dump["lead"] else None
    table: tuple[Any, ...] = (hands, boneyard, [], rules.to_move(state),
             (game != "block", config["boneyard_reserve"], config["spinner"]), lead, {})
    assert engine_perft_in_hand(rules, state, depth, 0) == model_perft(table, depth)


@pytest.mark.parametrize(("game", "players", "options"), MODEL_CASES)
def test_engine_counts_the_same_sequences_as_an_independent_model(game: str, players: int, options: dict[str, Any]) -> None:
    for n in range(2):
        check_against_model(game, players, options, b"model%d" % n, 7)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "options"), MODEL_CASES)
def test_engine_agrees_with_the_model_deeper_and_on_more_deals(game: str, players: int, options: dict[str, Any]) -> None:
    for n in range(12):
        check_against_model(game, players, options, b"deep%d" % n, 10)
