"""The strength and rule figures of docs/simulation.md: `python -m bench.simulate_figures`.

Each figure is one `python -m games.simulate` run. With `--out DIR` every run's JSON is kept
as `DIR/<key>.json` and a run already there at the figure's count is read instead of played
again, and each run
records its rounds in `DIR/<key>.jsonl` as they finish, so a stopped series goes on from the
round it reached; the table is printed in Markdown at the end. The 42 and Mexican Train
counts are the matches that hold about 15,000 hands.
"""

from __future__ import annotations

import argparse
import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.simulate import parse, run


@dataclass(frozen=True, slots=True)
class Figure:
    key: str
    label: str
    args: str
    share: str  # "blocked", "opener_won" or "won_of_decided" (of the first bot)
    target: str


FIGURES = (
    Figure(
        "block2_blocked",
        "Block, 2 players, blocked rounds (Easy)",
        "--game block --players 2 --bots easy --rounds 15000",
        "blocked",
        "61% (documents)",
    ),
    Figure(
        "draw2_blocked",
        "Draw, 2 players, blocked rounds (Easy)",
        "--game draw --players 2 --bots easy --rounds 15000",
        "blocked",
        "19.2% (documents)",
    ),
    Figure(
        "draw4_blocked",
        "Draw, 4 players, blocked rounds (Easy)",
        "--game draw --players 4 --bots easy --rounds 15000",
        "blocked",
        "15.6% (documents)",
    ),
    Figure(
        "draw2_opener",
        "Draw, 2 players, opener wins (Easy)",
        "--game draw --players 2 --bots easy --rounds 15000",
        "opener_won",
        "54.3% (documents)",
    ),
    Figure(
        "draw4_opener",
        "Draw, 4 players, opener wins (Easy)",
        "--game draw --players 4 --bots easy --rounds 15000",
        "opener_won",
        "32.6% (documents)",
    ),
    Figure(
        "draw2_medium_easy",
        "Draw, 2 players: Medium beats Easy",
        "--game draw --players 2 --bots medium,easy --rounds 15000",
        "won_of_decided",
        "≥ 60% (site 60%)",
    ),
    Figure(
        "draw2_hard_easy",
        "Draw, 2 players: Hard beats Easy",
        "--game draw --players 2 --bots hard,easy --rounds 15000",
        "won_of_decided",
        "≥ 70% (site 63.7%)",
    ),
    Figure(
        "draw2_hard_medium",
        "Draw, 2 players: Hard beats Medium",
        "--game draw --players 2 --bots hard,medium --rounds 15000",
        "won_of_decided",
        "≥ 60% (site 55.6%)",
    ),
    Figure(
        "block4_hard_easy",
        "Block, 4 players, partnerships, 28 tiles dealt: Hard team beats Easy team",
        "--game block --players 4 --options '{\"partnership\": true, \"hand_size\": 7}'"
        " --bots hard,easy --rounds 15000",
        "won_of_decided",
        "≥ 70% (published 64%)",
    ),
    Figure(
        "t42_hard_easy",
        "Texas 42, matches to 7 marks: Hard team beats Easy team",
        "--game texas42 --players 4 --bots hard,easy --matches 2630",
        "won_of_decided",
        "≥ 90%",
    ),
    Figure(
        "t42_hard_medium",
        "Texas 42, matches to 7 marks: Hard team beats Medium team",
        "--game texas42 --players 4 --bots hard,medium --matches 1500",
        "won_of_decided",
        "≥ 65%",
    ),
    Figure(
        "mt_hard_easy",
        "Mexican Train, 4 players, 13-round games: Hard lowest against three Easy",
        "--game mexican_train --players 4 --bots hard,easy,easy,easy --matches 1154",
        "won_of_decided",
        "≥ 50%",
    ),
    Figure(
        "mt_hard_medium",
        "Mexican Train, 4 players, 13-round games: Hard lowest against three Medium",
        "--game mexican_train --players 4 --bots hard,medium,medium,medium --matches 1154",
        "won_of_decided",
        "≥ 35%",
    ),
    Figure(
        "allfives_hard_medium",
        "All Fives, 2 players, matches to 250: Hard beats Medium",
        "--game allfives --players 2 --bots hard,medium --matches 2030",
        "won_of_decided",
        "≥ 60%",
    ),
)


def figure_of(report: dict[str, Any], share: str) -> tuple[float, list[float], int]:
    if share == "won_of_decided":
        bot = report["bots"][0]
        return bot["won_of_decided"], bot["won_of_decided_ci"], report["decided"]
    return report[share], report[f"{share}_ci"], report["rounds"]


def with_count(argv: list[str], report: dict[str, Any]) -> list[str]:
    """The command as it was run: the count of rounds or matches that the report holds."""
    out = list(argv)
    for flag, count in (("--matches", report.get("matches")), ("--rounds", report["rounds"])):
        if flag in out and count is not None:
            out[out.index(flag) + 1] = str(count)
            return out
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.simulate_figures", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", type=Path, default=None, help="keep and reuse each run's JSON here")
    parser.add_argument("--seed", default="20260805")
    parser.add_argument("--only", default=None, help="comma-separated keys")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (figures stay the same)")
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    print("| figure | measured | 95% interval | n | target | command |")
    print("| --- | --- | --- | --- | --- | --- |")
    for fig in FIGURES:
        if wanted and fig.key not in wanted:
            continue
        argv = [*shlex.split(fig.args), "--seed", args.seed, "--json"]
        config, count, _, _, _ = parse(argv)
        path = args.out / f"{fig.key}.json" if args.out else None
        report = json.loads(path.read_text()) if path is not None and path.exists() else None
        if report is None or report.get("matches" if config.matches else "rounds") != count:
            record = args.out / f"{fig.key}.jsonl" if args.out else None
            report = run(config, count, args.jobs, record)
            if path is not None:
                path.write_text(json.dumps(report))
        value, ci, n = figure_of(report, fig.share)
        command = "python -m games.simulate " + " ".join(shlex.quote(a) for a in with_count(argv, report))
        print(f"| {fig.label} | {value:.1%} | {ci[0]:.1%}–{ci[1]:.1%} | {n} | {fig.target} | `{command}` |")


if __name__ == "__main__":
    main()
