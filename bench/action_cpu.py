"""The process CPU one action's write costs, in process: `services.action_submit` timed alone.

A quick probe of the action's write path without the load bench: rooms of Draw for four
humans, each seat bound to a socket name (so no AI or stand-in plays and no seat is read for
one), created and started through the services; then actions are played round the rooms,
each with its client id and expected version, and only the `action_submit` call is timed by
the process's CPU time (every thread of it: the commit's publishing too). Choosing the move
and keeping the probe's own copy of the state are outside the timing. A match that ends is
followed by a rematch, also outside it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test python bench/action_cpu.py --actions 3000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test python bench/action_cpu.py --root ../base

`--root` runs another checkout's server code (a `git worktree` of an earlier commit), so two
builds compare on the same machine minutes apart. Each round prints µs of CPU and of wall
time per action; the last line is the median round. Without DATABASE_URL the settings' own
default (a SQLite file) is used; the database is migrated first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def _setup(root: Path) -> None:
    sys.path.insert(0, str(root))
    os.chdir(root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


class Table:
    """One started room and the probe's own copy of its state."""

    def __init__(self, game: str, players: int) -> None:
        from games.engine import get_rules
        from lobby import selectors, services

        room, host = services.room_create(game, players, {}, "p0")
        self.code, self.host, self.rules = room.code, host, get_rules(game)
        tokens = [host] + [services.seat_claim(self.code, f"p{i}")[1] for i in range(1, players)]
        for i, token in enumerate(tokens):
            services.connection_open(self.code, token, f"probe-{self.code}-{i}")
        self.start(rematch=False)
        self.sent = 0
        del selectors

    def start(self, *, rematch: bool) -> None:
        from lobby import selectors, services

        match = services.match_start(self.code, self.host, rematch=rematch)
        self.version, self.state = match.version, selectors.match_state(match)

    def step(self) -> tuple[int, Any, str, int]:
        """The next action: its seat, the action, a fresh client id and the expected version."""
        if self.rules.to_move(self.state) is None:
            self.start(rematch=True)
        seat = self.rules.to_move(self.state)
        assert seat is not None
        action = self.rules.legal_actions(self.state)[0]
        self.sent += 1
        return seat, action, f"probe-{self.sent}", self.version

    def applied(self, action: Any) -> None:
        self.state = self.rules.apply(self.state, action)
        self.version += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="the checkout whose server code runs (default: this one)",
    )
    parser.add_argument("--rooms", type=int, default=20, help="rooms played in turn")
    parser.add_argument("--actions", type=int, default=2000, help="actions timed per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is reported")
    parser.add_argument("--warmup", type=int, default=200, help="actions played before timing")
    parser.add_argument("--game", default="draw")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    root = args.root.resolve()
    _setup(root)
    from django.db import connection

    from lobby import services

    tables = [Table(args.game, args.players) for _ in range(args.rooms)]

    def play(count: int) -> tuple[float, float]:
        cpu = wall = 0.0
        for n in range(count):
            table = tables[n % len(tables)]
            seat, action, client_id, version = table.step()
            c0, w0 = time.process_time(), time.perf_counter()
            services.action_submit(table.code, seat, action, client_id=client_id, expected_version=version)
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            table.applied(action)
        return cpu, wall

    play(args.warmup)
    per_round: list[tuple[float, float]] = []
    for number in range(1, args.rounds + 1):
        cpu, wall = play(args.actions)
        per_round.append((cpu / args.actions * 1e6, wall / args.actions * 1e6))
        print(f"round {number}: {per_round[-1][0]:,.0f} µs CPU, {per_round[-1][1]:,.0f} µs wall per action")
    cpu_median = statistics.median(r[0] for r in per_round)
    wall_median = statistics.median(r[1] for r in per_round)
    print(
        json.dumps(
            {
                "root": root.name,
                "code": Path(services.__file__).resolve().parents[2].name,
                "database": connection.vendor,
                "rooms": args.rooms,
                "actions": args.actions,
                "rounds": args.rounds,
                "cpu_us_per_action": round(cpu_median, 1),
                "wall_us_per_action": round(wall_median, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
