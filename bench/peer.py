"""This project's rules kernel against the peer engine, in one run: `python -m bench.peer`.

The peer is abw333's `dominoes` (6.1, from PyPI), the fastest Python domino engine we know of.
It is never a dependency of this project: it lives in a virtual environment of its own
(`build/peer-venv`, made with `venv` and `pip` on first use, or the interpreter given by
`--peer-python`), and each timed batch runs in a fresh process, the peer's under its own
interpreter (`bench/peer_worker.py`), this project's under this one.

The table is the peer's own game: four players in partnership (0 and 2 against 1 and 3), all
28 tiles of double-six dealt, Block (no drawing), uniformly random legal play; here `block`
with `{"partnership": true, "hand_size": 7}`. A round is one hand. Every hand of this
project is dealt by the fair shuffle (HMAC-SHA256 Fisher-Yates, hand seed and commitment),
so its cost is in the figures; the peer deals with `random.shuffle`. This project's paths:

- `public`: `legal_actions` and the checked `apply`, the server's protocol;
- `advance`: `legal_actions` and the unchecked `advance` (action dicts);
- `moves`: `moves` and `step`, the fast path of searches (moves as small ints).

Rates are rounds per second of the worker's CPU time, after `--warmup` untimed rounds in the
same process (both sides): this project remembers each layout's moves and actions as it
meets them, as a server or a search process does after its first games, and a cold process
pays for that first (`--warmup 0` measures it). The batches alternate (peer, then each
path, in an order rotated every repeat), so a machine whose speed drifts slows both sides
alike: compare the ratios of one run, each taken within its repeat.

After the engine, unless `--decisions 0`, Hard's decision times on the cases of issue 36's
second goal (`bench.ai.GOAL_CASES`), so one command prints both.

    python -m bench.peer --rounds 3000 --repeats 5
    python -m bench.peer --peer-python /path/to/venv/bin/python --decisions 0
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEER_VERSION = "6.1"
PEER_VENV = ROOT / "build" / "peer-venv"
WORKER = Path(__file__).resolve().parent / "peer_worker.py"
PATHS = ("public", "advance", "moves")
OPTIONS: dict[str, Any] = {"partnership": True, "hand_size": 7}


def peer_python(given: str | None) -> str:
    """The peer's interpreter: the one given, or `build/peer-venv`'s, made on first use."""
    if given:
        return given
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        print(f"# making {PEER_VENV.relative_to(ROOT)} with dominoes=={PEER_VERSION} from the package "
              "index", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", f"dominoes=={PEER_VERSION}"],
                       check=True)
    return str(python)


def ours(path: str, rounds: int, seed: int, warmup: int = 0) -> dict[str, Any]:
    """One timed batch of this project's `block` partnership table along `path`, after
    `warmup` untimed rounds (on other seeds)."""
    from games.engine import get_rules

    rules = get_rules("block")
    choose = random.Random(seed).choice
    options: Callable[[Any], Sequence[Any]] = rules.moves if path == "moves" else rules.legal_actions
    step: Callable[[Any, Any], Any] = {"public": rules.apply, "advance": rules.advance}.get(path, rules.step)
    if warmup:
        ours_rounds(rules, options, step, warmup, b"warm%d")
    cpu = time.process_time()
    wall = time.perf_counter()
    played, moves = ours_rounds(rules, options, step, rounds, b"bench%d", choose=choose)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return {"rounds": played, "moves": moves, "cpu_s": cpu, "wall_s": wall}


def ours_rounds(rules: Any, options: Callable[[Any], Sequence[Any]], step: Callable[[Any, Any], Any],
                rounds: int, seeds: bytes, *,
                choose: Callable[[Sequence[Any]], Any] | None = None) -> tuple[int, int]:
    """Play `rounds` hands at random along one path: hands and actions played."""
    choose = choose or random.Random(0).choice
    to_move = rules.to_move
    hand_index = rules.hand_index
    played = 0
    moves = 0
    match = 0
    while played < rounds:
        state = rules.new_match(4, OPTIONS, seed=seeds % match)
        match += 1
        hand = 0
        while True:
            state = step(state, choose(options(state)))
            moves += 1
            if hand_index(state) != hand or to_move(state) is None:
                played += 1
                if to_move(state) is None or played >= rounds:
                    break
                hand = hand_index(state)
    return played, moves


def batch(side: str, rounds: int, seed: int, peer: str, warmup: int) -> dict[str, Any]:
    """Run one batch in a fresh process and read its JSON line."""
    if side.startswith("peer"):
        lead = "double" if side == "peer-double" else "any"
        command = [peer, str(WORKER), "--rounds", str(rounds), "--seed", str(seed), "--lead", lead,
                   "--warmup", str(warmup)]
    else:
        command = [sys.executable, "-m", "bench.peer", "--worker", side, "--rounds", str(rounds),
                   "--seed", str(seed), "--warmup", str(warmup)]
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
    row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    row["rate"] = row["rounds"] / row["cpu_s"]
    return row


def engine(rounds: int, repeats: int, seed: int, peer: str, sides: list[str], *,
           warmup: int) -> dict[str, Any]:
    """Every side `repeats` times, alternating; the ratios of each path to the peer per repeat."""
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    for r in range(repeats):
        order = sides[r % len(sides):] + sides[:r % len(sides)]
        for side in order:
            runs[side].append(batch(side, rounds, seed + r, peer, warmup))
        line = "  ".join(f"{side} {runs[side][-1]['rate']:,.0f}" for side in sides)
        print(f"# repeat {r + 1}: rounds/s  {line}", file=sys.stderr, flush=True)
    out: dict[str, Any] = {"rounds": rounds, "repeats": repeats, "warmup": warmup, "sides": {}}
    for side in sides:
        rates = [row["rate"] for row in runs[side]]
        out["sides"][side] = {
            "rates": [round(x) for x in rates],
            "median": round(statistics.median(rates)),
            "moves_per_round": round(sum(row["moves"] for row in runs[side])
                                     / sum(row["rounds"] for row in runs[side]), 2),
        }
        if "version" in runs[side][0]:
            out["peer_version"] = runs[side][0]["version"]
    for path in sides:
        if path.startswith("peer"):
            continue
        ratios = [a["rate"] / b["rate"] for a, b in zip(runs[path], runs["peer"])]
        out["sides"][path]["ratios"] = [round(x, 2) for x in ratios]
        out["sides"][path]["ratio_median"] = round(statistics.median(ratios), 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.peer", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000, help="rounds (hands) per batch")
    parser.add_argument("--warmup", type=int, default=2000,
                        help="rounds each batch's process plays first, untimed (0: a cold process)")
    parser.add_argument("--repeats", type=int, default=5, help="alternating batches of every side")
    parser.add_argument("--seed", type=int, default=20260805)
    parser.add_argument("--peer-python",
                        help="the peer's interpreter (default: build/peer-venv, made on first use)")
    parser.add_argument("--peer-double", action="store_true",
                        help="also time the peer with the [6|6] leading (its first-hand rule)")
    parser.add_argument("--decisions", type=int, default=150,
                        help="Hard's timed decisions per case after the engine (0: none)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", choices=PATHS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(ours(args.worker, args.rounds, args.seed, args.warmup)))
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.1f} at start")
    peer = peer_python(args.peer_python)
    sides = ["peer", *(["peer-double"] if args.peer_double else []), *PATHS]
    figures = engine(args.rounds, args.repeats, args.seed, peer, sides, warmup=args.warmup)
    if args.json:
        print(json.dumps({"engine": figures}))
    else:
        print(f"# engine: block, 4 players in partnership, 28 tiles dealt; random play; {args.rounds} rounds "
              f"a batch after {args.warmup} untimed, {args.repeats} alternating batches; "
              f"peer dominoes {figures.get('peer_version')}")
        for side, row in figures["sides"].items():
            ratio = ""
            if "ratios" in row:
                each = ", ".join(f"{x:.2f}" for x in row["ratios"])
                ratio = f"  x peer: median {row['ratio_median']:.2f} ({each})"
            rates = ", ".join(f"{x:,}" for x in row["rates"])
            print(f"{side:12} median {row['median']:>7,} rounds/s ({rates})"
                  f"  {row['moves_per_round']} moves a round{ratio}")
    if args.decisions > 0:
        from bench import ai

        print(f"# Hard's decision times, {args.decisions} real choices a case")
        for case in ai.GOAL_CASES:
            row = ai.measure(*case, decisions=args.decisions)
            print(json.dumps(row) if args.json else ai.describe(row), flush=True)


if __name__ == "__main__":
    main()
