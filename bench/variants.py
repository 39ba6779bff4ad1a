"""The game server's ceiling under variants of its environment, alternating in one run.

Each variant is the same server started with some environment variables set (a switch of
`config/asgi.py`, for instance), on its own processes, database and channel prefix. Every
variant is set up at once (the load bench's rooms and sockets, bench/load.py), then
`--alternate` rounds each play one back-to-back phase of `--ceiling` seconds per variant, the
order rotated every round, so the machine's drift falls on all of them alike. The figure is
each variant's actions per second over the first variant's, per round and as a median.

    .venv/bin/python -m bench.variants --rooms 150 --ceiling 20 --alternate 6 \\
        --variant deployed --variant no_pool:DB_POOL_MAX=0

Every other option is the load bench's (`--rooms`, `--processes`, `--seed`, ...).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import json
import os
import statistics
import sys
from typing import Any

from bench.load import (
    GameTarget,
    Phase,
    Setup,
    Tally,
    Target,
    logs_on_fault,
    parse_args,
    play,
    servers_for,
    set_up,
    tear_down,
)


def variant_of(text: str) -> tuple[str, dict[str, str]]:
    """`name:VAR=value;VAR2=value2` (or just `name`) as the name and its environment."""
    name, _, rest = text.partition(":")
    env: dict[str, str] = {}
    if rest:
        for item in rest.split(";"):
            key, sep, value = item.partition("=")
            if not key or sep != "=":
                raise argparse.ArgumentTypeError(f"{text}: a variant is name:VAR=value[;VAR=value]")
            env[key] = value
    if not name:
        raise argparse.ArgumentTypeError(f"{text}: a variant needs a name")
    return name, env


async def alternate(setups: list[Setup], args: argparse.Namespace) -> dict[str, Any]:
    rounds = []
    names = [s.target.name for s in setups]
    for number in range(args.alternate):
        shift = number % len(setups)
        order = setups[shift:] + setups[:shift]
        row: dict[str, Any] = {"round": number + 1, "first": order[0].target.name}
        for setup in order:
            phase = Phase(f"ceiling {number + 1}", None, args.ceiling)
            row[setup.target.name] = await play(setup, phase, args)
        reference = row[names[0]]["actions_per_s"]
        row["ratios"] = {
            n: round(row[n]["actions_per_s"] / reference, 3) if reference else None for n in names
        }
        rounds.append(row)
    medians = {}
    for name in names:
        found = [r["ratios"][name] for r in rounds if r["ratios"][name] is not None]
        medians[name] = round(statistics.median(found), 3) if found else None
    return {"rounds": rounds, "median_ratios": medians}


async def measure(variants: list[tuple[str, dict[str, str]]], args: argparse.Namespace) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        targets: list[Target] = []
        urls = []
        for name, env in variants:
            own = copy.copy(args)
            own.server_env = {**args.server_env, **env}
            servers, redis_url = stack.enter_context(servers_for(GameTarget, own))
            target = GameTarget(servers, Tally(), args.seed)
            target.name = name
            targets.append(target)
            urls.append(redis_url)
        with logs_on_fault(targets):
            setups = [await set_up(t, args, url) for t, url in zip(targets, urls)]
            result = await alternate(setups, args)
            result["faults"] = [await tear_down(s, []) for s in setups]
            return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=False)
    parser.add_argument("--variant", action="append", type=variant_of, default=[])
    own, rest = parser.parse_known_args(argv)
    if len(own.variant) < 2 or len({n for n, _ in own.variant}) != len(own.variant):
        raise SystemExit("give at least two --variant NAME:VAR=value, each named once")
    args = parse_args(rest)
    if not args.alternate:
        raise SystemExit("--alternate ROUNDS is the point of this bench")
    before = os.getloadavg()[0]
    result = asyncio.run(measure(own.variant, args))
    result.update(cpus=os.cpu_count(), load_average_before=before, load_average_after=os.getloadavg()[0],
                  variants=dict(own.variant))
    return result


def print_table(result: dict[str, Any]) -> None:
    names = list(result["variants"])
    print(f"{result['cpus']} CPUs; 1-minute load average {result['load_average_before']:.2f} before, "
          f"{result['load_average_after']:.2f} after")
    for name, env in result["variants"].items():
        print(f"   {name}: {env or 'as deployed'}")
    for row in result["rounds"]:
        cells = ", ".join(f"{n} {row[n]['actions_per_s']}/s ({row['ratios'][n]})" for n in names)
        print(f"   round {row['round']} ({row['first']} first): {cells}")
    medians = ", ".join(f"{n} {v}" for n, v in result["median_ratios"].items())
    print(f"   median ratio to {names[0]}: {medians}")
    for faults in result["faults"]:
        print(f"   {faults['target']}: errors {faults['errors']}, lost {faults['lost_actions']}, "
              f"timeouts {faults['timeouts']}, dropped {faults['dropped_views']}")


if __name__ == "__main__":
    report = main()
    if "--json" in sys.argv:
        print(json.dumps(report))
    else:
        print_table(report)
