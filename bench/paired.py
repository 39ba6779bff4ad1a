"""Paired strength runs: `python -m bench.paired`.

Two runs of the same rounds (same seed, same round numbers) differ only where a bot's
decisions differ, so comparing them round by round measures a change far more precisely than
two independent shares: the difference's standard error counts only the rounds that changed.
Each run stores every round's winner; `--against` compares it with an earlier run.

A variant is the same code with a module constant or a line-game plan field changed, so
nothing is edited to try it:

    python -m bench.paired --out base.json --rounds 4000 --jobs 2
    python -m bench.paired --out wide.json --rounds 4000 --jobs 2 \\
        --set games.ai.draw_search.DEALS_READ=200 --against base.json
    python -m bench.paired --out calm.json --rounds 4000 --jobs 2 --plan draw.noise=0.08 --against base.json
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import json
import math
import time
from collections.abc import Sequence
from contextlib import nullcontext
from multiprocessing import Pool
from typing import Any

from bench.block_ceiling import see_everything
from games import simulate


def patch(constants: Sequence[str], plans: Sequence[str]) -> None:
    """Apply `module.NAME=literal` and `game.field=literal` before any round is played (the
    worker processes are forked after it, so they inherit the change)."""
    for item in constants:
        name, value = item.split("=", 1)
        module, attr = name.rsplit(".", 1)
        setattr(importlib.import_module(module), attr, ast.literal_eval(value))
    if plans:
        from games.ai import line_search

        for item in plans:
            name, value = item.split("=", 1)
            game, attr = name.split(".", 1)
            changed = {attr: ast.literal_eval(value)}
            line_search.PLANS[game] = dataclasses.replace(line_search.PLANS[game], **changed)


def one(job: tuple[simulate.Config, int]) -> tuple[int, float, int]:
    """Round `index`'s winning entry (-1 for a tie), and entry 0's thinking time and decisions."""
    config, index = job
    outcome = simulate.play(config, index)
    times = outcome.times.get(0, [])
    return (outcome.winners[0] if outcome.winners else -1), sum(times), len(times)


def points(winner: int) -> float:
    """Entry 0's result of a round: won 1, tied one half, lost 0."""
    return 1.0 if winner == 0 else 0.5 if winner < 0 else 0.0


def compare(base: Sequence[int], variant: Sequence[int]) -> dict[str, float]:
    """Entry 0's gain, in points of share, of `variant` over `base` on the same rounds, with
    its standard error and how many rounds changed."""
    n = min(len(base), len(variant))
    if n < 2:
        raise ValueError("need two rounds or more in both runs")
    diffs = [points(variant[i]) - points(base[i]) for i in range(n)]
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return {"rounds": n, "gain": 100 * mean, "error": 100 * spread / math.sqrt(n),
            "changed": sum(1 for d in diffs if d)}


def share_of_decided(winners: Sequence[int]) -> float:
    decided = [w for w in winners if w >= 0]
    return sum(1 for w in decided if w == 0) / len(decided) if decided else 0.0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.paired", description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="draw")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="hard,medium", help="entry 0 is the one measured")
    parser.add_argument("--options", default="{}", help="room options as a JSON object")
    parser.add_argument("--seed", default="tune1", help="a tuning seed, not the figures' one")
    parser.add_argument("--start", type=int, default=0, help="first round number")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=LITERAL")
    parser.add_argument("--plan", action="append", default=[], metavar="GAME.FIELD=LITERAL")
    parser.add_argument("--out", required=True, help="where to store the rounds' winners (JSON)")
    parser.add_argument("--against", help="an earlier run of the same rounds to compare with")
    parser.add_argument("--see-everything", action="store_true",
                        help="Block only: Hard searches the true deal (bench/block_ceiling.py)")
    args = parser.parse_args(argv)
    if args.see_everything and args.game != "block":
        parser.error("--see-everything is for Block, whose deals hold every tile a hand uses")
    patch(args.set, args.plan)
    config = simulate.Config(args.game, args.players, tuple(args.bots.split(",")), json.loads(args.options),
                             args.seed, False)
    work = [(config, i) for i in range(args.start, args.start + args.rounds)]
    began = time.time()
    with see_everything() if args.see_everything else nullcontext():
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                rows = pool.map(one, work, chunksize=10)
        else:
            rows = [one(job) for job in work]
    winners = [w for w, _, _ in rows]
    thinking = sum(t for _, t, _ in rows) / max(1, sum(d for _, _, d in rows))
    record: dict[str, Any] = {"args": vars(args), "winners": winners, "decision_ms_mean": thinking,
                              "seconds": time.time() - began}
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(record, out)
    print(f"{args.out}: entry 0 won {share_of_decided(winners):.4f} of decided rounds, "
          f"{thinking:.1f} ms a decision, {record['seconds']:.0f} s")
    if args.against:
        with open(args.against, encoding="utf-8") as base_file:
            base = json.load(base_file)
        if base["args"]["start"] != args.start or base["args"]["seed"] != args.seed:
            parser.error("--against must be a run of the same seed and first round")
        result = compare(base["winners"], winners)
        print(f"against {args.against}: {result['gain']:+.2f} ± {result['error']:.2f} points over "
              f"{result['rounds']} rounds, {result['changed']} changed")


if __name__ == "__main__":
    main()
