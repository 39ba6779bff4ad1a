"""One timed batch of the peer engine (abw333's `dominoes` from PyPI), run by `bench/peer.py`.

This file runs under the peer's own interpreter (a virtual environment the bench made or was
given), so it imports the standard library and `dominoes` only, never this project. It plays
`--rounds` games of the peer's four-player partnership game (all 28 tiles dealt, seats 0 and 2
against 1 and 3), choosing uniformly among `game.valid_moves` with `random.Random`, and prints
one JSON line: rounds, moves, CPU and wall seconds of the loop.

`--lead any`: `Game.new()`, seat 0 leads any tile (as this project's later hands, whose
winner leads); `--lead double`: `Game.new(starting_domino=[6|6])`, as a first hand.
`--warmup` rounds are played first and not timed, as `bench/peer.py` does for this project.
"""

from __future__ import annotations

import argparse
import json
import random
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--seed", type=int, default=20260805)
    parser.add_argument("--lead", choices=("any", "double"), default="any")
    parser.add_argument("--warmup", type=int, default=0, help="rounds played first, untimed")
    args = parser.parse_args()
    import dominoes  # the peer, installed in this interpreter's environment

    random.seed(args.seed)  # the peer shuffles with the module's generator
    choose = random.Random(args.seed + 1).choice
    new = dominoes.Game.new
    start = dominoes.Domino(6, 6) if args.lead == "double" else None
    for _ in range(args.warmup):
        game = new(starting_domino=start) if start is not None else new()
        while game.result is None:
            game.make_move(*choose(game.valid_moves))
    moves = 0
    cpu = time.process_time()
    wall = time.perf_counter()
    for _ in range(args.rounds):
        game = new(starting_domino=start) if start is not None else new()
        while game.result is None:
            game.make_move(*choose(game.valid_moves))
        moves += len(game.moves)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    from importlib.metadata import version

    print(json.dumps({"rounds": args.rounds, "moves": moves, "cpu_s": cpu, "wall_s": wall,
                      "version": version("dominoes")}))


if __name__ == "__main__":
    main()
