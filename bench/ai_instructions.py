"""Hard's cost per decision in machine instructions: `python -m bench.ai_instructions`.

Wall-clock and CPU times move with the machine's load (this project is measured on two
cores shared with other work); the number of instructions a decision executes does not. This
runs the decisions of `bench.ai` (Hard on positions of Medium-played matches, real choices
only) under valgrind's callgrind, once with the decisions and once without (the positions
alone), and prints the difference per decision. `--root` points at another checkout's
directory holding `games/` (say, an earlier commit's `git archive`), to compare two versions
of the code on the same positions.

    python -m bench.ai_instructions --game mexican_train --players 8 --decisions 30
    python -m bench.ai_instructions --game texas42 --players 4 --phase bid --root ../old

Needs `valgrind` on the PATH; about fifty times slower than a plain run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, os, sys
sys.path.insert(0, sys.argv[1])
from games.ai import make_bot
from games.engine import get_rules
game, players, count, options = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), json.loads(sys.argv[5])
phase = sys.argv[6] or None


def phase_of(legal):
    kinds = {a["type"] for a in legal}
    if kinds <= {"bid", "pass"} and "bid" in kinds:
        return "bid"
    return "trump" if kinds == {"trump"} else "play" if "play" in kinds else "other"



rules = get_rules(game)
hard = make_bot(game, "hard", seed=b"bench")
mover = make_bot(game, "medium", seed=b"bench-moves")
views, match = [], 0
while len(views) < count:
    state = rules.new_match(players=players, options=options, seed=f"bench:{match}".encode())
    match += 1
    steps = 0
    while rules.to_move(state) is not None and len(views) < count and steps < 400:
        steps += 1
        view = rules.view(state, rules.to_move(state))
        if len(view["legal"]) > 1 and (phase is None or phase_of(view["legal"]) == phase):
            views.append(view)
        state = rules.apply(state, mover.choose(view))
if os.environ.get("DECIDE") == "1":
    for view in views:
        hard.choose(view)
"""


def instructions(root: Path, game: str, players: int, decisions: int, options: dict[str, Any], *,
                 phase: str | None, decide: bool) -> int:
    """Instructions callgrind counts for one child run."""
    env = dict(os.environ, DECIDE="1" if decide else "0")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", CHILD,
         str(root), game, str(players), str(decisions), json.dumps(options), phase or ""],
        capture_output=True, text=True, env=env, check=True, cwd=ROOT,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in callgrind's output: {done.stderr[-400:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_instructions",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--options", default="{}", help="room options as a JSON object")
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--phase", default=None,
                        help="42: only 'bid', 'trump' or 'play' decisions (as bench.ai)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the directory holding the games/ to run")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed")
    options = json.loads(args.options)
    case = (args.root, args.game, args.players, args.decisions, options)
    with_decisions = instructions(*case, phase=args.phase, decide=True)
    positions_only = instructions(*case, phase=args.phase, decide=False)
    per = (with_decisions - positions_only) / args.decisions
    print(json.dumps({"game": args.game, "players": args.players, "options": options, "phase": args.phase,
                      "root": str(args.root),
                      "decisions": args.decisions, "instructions_per_decision": round(per)}))


if __name__ == "__main__":
    main()
