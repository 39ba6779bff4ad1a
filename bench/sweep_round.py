"""What one sweep round costs a process, by the number of seat sockets it holds.

A fresh database (PostgreSQL beside DATABASE_URL when it names one, else a SQLite file) and
Redis database 7 (of REDIS_URL, else a private server) hold `--rooms` rooms of four seats,
every seat bound to a socket this process holds, and `--dead` more seats bound to a
process whose stamp is stale. The first round closes the dead ones; the figure is then the
wall time of a round that finds nothing to do (the steady state: stamp, presence check,
re-assert check, due-move query), median of `--rounds`.

    python -m bench.sweep_round [--rooms 250] [--dead 20] [--rounds 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from datetime import timedelta
from typing import Any

from tests.lobby.procs import open_stores, server_env

BENCH_REDIS_DB = 7


def measure(rooms: int, dead: int, rounds: int) -> dict[str, Any]:
    from django.core.management import call_command
    from django.utils import timezone

    from lobby import bots, services
    from lobby.models import Seat, ServerProcess
    from lobby.runtime import runtime

    call_command("migrate", verbosity=0)
    stale = timezone.now() - timedelta(days=1)
    ServerProcess.objects.create(name="gone", label="a process that died", beat_at=stale)
    held = 0
    for number in range(rooms + dead):
        room, token = services.room_create("draw", 4, {}, "P0")
        tokens = [token] + [services.seat_claim(room.code, f"P{i}")[1] for i in range(1, 4)]
        for index, seat_token in enumerate(tokens):
            channel = f"conn.bench.{number}.{index}"
            if number < rooms:
                runtime().presence.add(channel)
                held += 1
            services.connection_open(room.code, seat_token, channel)
    Seat.objects.filter(channel__startswith="conn.bench.", process="").update(process="gone")
    started = time.perf_counter()
    bots.sweep_round(expire=False)
    first = time.perf_counter() - started
    closed = Seat.objects.filter(process="gone").count()
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        bots.sweep_round(expire=False)
        times.append(time.perf_counter() - started)
    return {
        "database": os.environ["DATABASE_URL"].split(":", 1)[0],
        "held_seat_sockets": held,
        "dead_seat_sockets": dead * 4,
        "dead_left_after_first_round": closed,
        "first_round_ms": round(first * 1000, 1),
        "round_ms_median": round(statistics.median(times) * 1000, 2),
        "round_ms_max": round(max(times) * 1000, 2),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=250, help="rooms of four held seat sockets")
    parser.add_argument("--dead", type=int, default=20, help="rooms whose four sockets' process died")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    stores = open_stores(redis_db=BENCH_REDIS_DB)
    try:
        stores.flush_redis()
        os.environ.update(server_env(stores))
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        report = measure(args.rooms, args.dead, args.rounds)
        from django.db import connections

        connections.close_all()
    finally:
        stores.close()
    print(json.dumps(report) if args.json else "\n".join(f"{k}: {v}" for k, v in report.items()))
    return report


if __name__ == "__main__":
    main()
