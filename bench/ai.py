"""Decision time of the Hard bot in every game and player count: `python -m bench.ai`.

Positions come from seeded matches played by Medium bots; at every position where the seat
to move has a real choice (two or more legal actions) the Hard bot decides and is timed.
Forced moves (one legal action) return at once and are left out, so the figures are the
honest cost of thinking. Hard's work is a fixed number of playouts, so the time depends on
the machine and its load, never the decisions: run it on a quiet machine. The CPU time of the
process is printed beside the wall clock, as it is far less disturbed by other processes.

`--against DIR` times another version of the code on the same positions in the same run:
`DIR` holds that version's `games/` (an earlier commit's `git archive`, say). Each case
runs in fresh processes, the other version's and this one's alternately, `--repeats` times,
and prints both and their ratio per repeat.

    python -m bench.ai --decisions 150
    python -m bench.ai --game mexican_train --players 8 --against ../before --repeats 3
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if os.environ.get("BENCH_GAMES_ROOT"):  # the version `--against` times: its games/ first
    sys.path.insert(0, os.environ["BENCH_GAMES_ROOT"])

from games.ai import make_bot
from games.engine import get_rules

#: (game, players, options, phase): `phase` keeps only the decisions of one kind (42's
#: "bid" covers bids and passes, "trump" the naming of trumps, "play" the tiles), None all.
Case = tuple[str, int, dict[str, Any], str | None]

CASES: list[Case] = [
    ("block", 2, {}, None),
    ("block", 3, {}, None),
    ("block", 4, {}, None),
    ("block", 4, {"partnership": True, "hand_size": 7}, None),
    ("draw", 2, {}, None),
    ("draw", 3, {}, None),
    ("draw", 4, {}, None),
    ("allfives", 2, {}, None),
    ("allfives", 3, {}, None),
    ("allfives", 4, {}, None),
    ("texas42", 4, {}, None),
    ("texas42", 4, {}, "bid"),
    ("texas42", 4, {}, "play"),
    ("mexican_train", 2, {}, None),
    ("mexican_train", 3, {}, None),
    ("mexican_train", 4, {}, None),
    ("mexican_train", 6, {}, None),
    ("mexican_train", 8, {}, None),
    ("chicken_foot", 2, {}, None),
    ("chicken_foot", 3, {}, None),
    ("chicken_foot", 4, {}, None),
    ("chicken_foot", 8, {"set": 12}, None),
    ("fiveup", 2, {}, None),
    ("fiveup", 3, {}, None),
    ("fiveup", 4, {}, None),
    ("fiveup", 4, {"muggins": True}, None),
]

#: Issue 36's second goal: Hard's p95 at most 50 ms for every game and table size, 42's
#: bidding and play included: every case.
GOAL_CASES: list[Case] = CASES


def phase_of(legal: list[dict[str, Any]]) -> str:
    """The kind of a decision: "bid" (bids and passes of an auction), "trump", "play", ..."""
    kinds = {a["type"] for a in legal}
    if kinds <= {"bid", "pass"} and "bid" in kinds:
        return "bid"
    return "trump" if kinds == {"trump"} else "play" if "play" in kinds else "other"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)] if ordered else 0.0


def measure(game: str, players: int, options: dict[str, Any], phase: str | None = None, *,
            decisions: int) -> dict[str, Any]:
    """Time `decisions` choices of the Hard bot on positions of Medium-played matches
    (only decisions of `phase`, when given)."""
    rules = get_rules(game)
    hard = make_bot(game, "hard", seed=b"bench")
    mover = make_bot(game, "medium", seed=b"bench-moves")
    times: list[float] = []
    cpu: list[float] = []
    match = 0
    while len(times) < decisions:
        state = rules.new_match(players=players, options=options, seed=f"bench:{match}".encode())
        match += 1
        steps = 0
        while rules.to_move(state) is not None and len(times) < decisions and steps < 400:
            steps += 1
            view = rules.view(state, rules.to_move(state))
            if len(view["legal"]) > 1 and (phase is None or phase_of(view["legal"]) == phase):
                start, start_cpu = time.perf_counter(), time.process_time()
                hard.choose(view)
                times.append((time.perf_counter() - start) * 1000.0)
                cpu.append((time.process_time() - start_cpu) * 1000.0)
            state = rules.apply(state, mover.choose(view))
    return {
        "game": game,
        "players": players,
        "options": options,
        "phase": phase,
        "decisions": len(times),
        "mean_ms": round(sum(times) / len(times), 2),
        "p95_ms": round(p95(times), 2),
        "max_ms": round(max(times), 2),
        "cpu_mean_ms": round(sum(cpu) / len(cpu), 2),
        "cpu_p95_ms": round(p95(cpu), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ai", description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=150, help="timed choices per case")
    parser.add_argument("--game", default=None, help="only this game")
    parser.add_argument("--players", type=int, default=None, help="only this player count")
    parser.add_argument("--phase", default=None, help="only the cases of this phase (42: bid, play)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--against", type=Path, default=None,
                        help="a directory holding another version's games/, timed alternately")
    parser.add_argument("--repeats", type=int, default=2, help="with --against: alternating runs")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"# Hard decision time (wall clock, and CPU time of this process), "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {load:.1f} at start"
    )
    for game, players, options, phase in CASES:
        if args.game and game != args.game:
            continue
        if args.players and players != args.players:
            continue
        if args.phase and phase != args.phase:
            continue
        if args.against is not None:
            versus(game, players, options, phase, args)
            continue
        row = measure(game, players, options, phase, decisions=args.decisions)
        print(json.dumps(row) if args.json else describe(row), flush=True)


def versus(game: str, players: int, options: dict[str, Any], phase: str | None,
           args: argparse.Namespace) -> None:
    """One case timed in fresh processes of the other version and this one, alternately."""
    here = Path(__file__).resolve().parent.parent
    command = [sys.executable, "-m", "bench.ai", "--json", "--game", game, "--players", str(players),
               "--decisions", str(args.decisions)]
    for r in range(args.repeats):
        rows = {}
        for name, root in (("other", args.against), ("this", here)):
            env = dict(os.environ, BENCH_GAMES_ROOT=str(root))
            done = subprocess.run(command + (["--phase", phase] if phase else []), capture_output=True,
                                  text=True, check=True, env=env, cwd=here)
            found = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
            rows[name] = next(row for row in found if row["options"] == options and row["phase"] == phase)
        other, this = rows["other"], rows["this"]
        ratio = {key: round(other[key] / this[key], 2)
                 for key in ("mean_ms", "p95_ms", "cpu_mean_ms", "cpu_p95_ms")}
        print(json.dumps({"repeat": r + 1, "other": other, "this": this, "other_over_this": ratio})
              if args.json
              else f"{describe(this)}\n{'':>13} other version: mean {other['mean_ms']:7.2f} ms  p95 "
                   f"{other['p95_ms']:7.2f} ms, CPU p95 {other['cpu_p95_ms']:7.2f} ms; other / this: mean "
                   f"{ratio['mean_ms']}, p95 {ratio['p95_ms']}, CPU p95 {ratio['cpu_p95_ms']}", flush=True)


def describe(row: dict[str, Any]) -> str:
    """One printed line of `measure`'s figures."""
    extra = f" {json.dumps(row['options'])}" if row["options"] else ""
    extra += f" {row['phase']}" if row.get("phase") else ""
    return (
        f"{row['game']:>13} {row['players']}p{extra}: mean {row['mean_ms']:7.2f} ms"
        f"  p95 {row['p95_ms']:7.2f} ms  max {row['max_ms']:7.2f} ms  | CPU mean {row['cpu_mean_ms']:7.2f} ms"
        f"  p95 {row['cpu_p95_ms']:7.2f} ms  ({row['decisions']} decisions)"
    )


if __name__ == "__main__":
    main()
