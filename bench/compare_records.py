"""Two record files of the same simulation, compared round by round: `python -m bench.compare_records`.

`python -m games.simulate ... --record FILE` keeps every round's (or match's) winning bot
entry. Two runs of the same command (same seed, same rounds) by two versions of the code
play the same deals, so they differ only where a bot decided differently: the paired
difference of entry 0's results has a standard error that counts only the rounds that
changed (none, when the decisions are the same). Prints each run's share of decided rounds
won by entry 0 with its 95% Wilson interval, and the paired difference.

    python -m bench.compare_records before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from games.simulate import wilson


def read(path: Path) -> tuple[dict[str, Any], dict[int, list[int]]]:
    """The run's header and each round's winning entries (empty: no winner)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    rounds = {}
    for line in lines[1:]:
        row = json.loads(line)
        rounds[int(row["index"])] = [int(w) for w in row["winners"]]
    return header, rounds


def summary(rounds: dict[int, list[int]], indices: list[int]) -> dict[str, Any]:
    decided = [i for i in indices if rounds[i]]
    won = sum(1 for i in decided if rounds[i] == [0])
    return {"rounds": len(indices), "decided": len(decided), "won": won,
            "won_of_decided": round(won / len(decided), 4) if decided else 0.0,
            "interval": wilson(won, len(decided))}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.compare_records",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    for path in (args.before, args.after):
        if not path.is_file():
            parser.error(f"no record file {path}: records are not kept in git, write one with "
                         f"`python -m games.simulate ... --record {path}` "
                         "(docs/simulation.md, 'Run records')")
    head_a, a = read(args.before)
    head_b, b = read(args.after)
    if head_a != head_b:
        parser.error(f"not the same run: {head_a} against {head_b}")
    common = sorted(set(a) & set(b))
    diffs = [(b[i] == [0]) - (a[i] == [0]) for i in common]
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    print(json.dumps({
        "run": head_a,
        "before": summary(a, common),
        "after": summary(b, common),
        "paired_gain_points": round(100 * mean, 2),
        "paired_error_points": round(100 * spread / math.sqrt(n), 2) if n else 0.0,
        "rounds_changed": sum(1 for i in common if a[i] != b[i]),
    }))


if __name__ == "__main__":
    main()
