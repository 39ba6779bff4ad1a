"""Line-game engine speed: random rounds (hands) per second on one core.

Two paths are measured for each table: the checked `apply` the server uses (with
`legal_actions` to choose), and the unchecked `advance` that AI rollouts use. Rates are per
second of this process's CPU time, so other load on a shared machine does not distort them;
the wall-clock rate is printed beside. Run from the repository root:

    python -m bench.engine [--rounds N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from games.engine import get_rules

TABLES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "draw-2": ("draw", 2, {}),
    "block-4-partnership": ("block", 4, {"partnership": True, "hand_size": 7}),
}


def play_rounds(game: str, players: int, options: dict[str, Any], *, rounds: int, seed: int,
                checked: bool) -> tuple[int, int, float, float]:
    """Play `rounds` random hands: hands played, actions taken, CPU and wall seconds spent."""
    rules = get_rules(game)
    rng = random.Random(seed)
    choose = rng.choice
    step: Callable[[Any, Any], Any] = rules.apply if checked else rules.advance
    legal = rules.legal_actions
    to_move = rules.to_move
    hand_index = rules.hand_index
    match = 0
    actions = 0
    played = 0
    start = time.process_time()
    wall = time.perf_counter()
    while played < rounds:
        state = rules.new_match(players, options, seed=b"bench%d" % match)
        match += 1
        hand = 0
        while to_move(state) is not None and played < rounds:
            state = step(state, choose(legal(state)))
            actions += 1
            if hand_index(state) != hand or to_move(state) is None:
                hand = hand_index(state)
                played += 1
    return played, actions, time.process_time() - start, time.perf_counter() - wall


def measure(rounds: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {"rounds": rounds, "seed": seed, "tables": {}}
    for name, (game, players, options) in TABLES.items():
        row: dict[str, Any] = {"game": game, "players": players, "options": options}
        for path, checked in (("apply", True), ("advance", False)):
            played, actions, seconds, wall = play_rounds(game, players, options, rounds=rounds, seed=seed,
                                                  checked=checked)
            row[path] = {"rounds_per_s": round(played / seconds), "actions_per_s": round(actions / seconds),
                         "actions_per_round": round(actions / played, 2),
                         "wall_rounds_per_s": round(played / wall)}
        out["tables"][name] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=20260805)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.rounds, args.seed)
    if args.json:
        print(json.dumps(figures))
        return
    for name, row in figures["tables"].items():
        for path in ("apply", "advance"):
            r = row[path]
            print(f"{name:22} {path:8} {r['rounds_per_s']:>8} rounds/s  {r['actions_per_s']:>9} actions/s  "
                  f"({r['actions_per_round']} actions a round; wall clock {r['wall_rounds_per_s']} rounds/s)")


if __name__ == "__main__":
    main()
