"""What the REST calls of setting a table up cost the server: one daphne process, rooms of
Draw for four created, three seats joined and the match started (five requests a room),
one room at a time; wall time, the process's CPU and PostgreSQL's CPU per room.

    .venv/bin/python bench/rest.py --rooms 60
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil

from bench.load import cpu_seconds, postgres_cpu
from bench.room_memory import room_started
from tests.lobby.procs import LOAD_LIMITS, daphne_group

WARM_UP = 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=60)
    args = parser.parse_args()
    with daphne_group(1, extra_env=LOAD_LIMITS) as (_stores, servers):
        base = servers[0].url
        assert servers[0].proc is not None
        process = psutil.Process(servers[0].proc.pid)
        for _ in range(WARM_UP):
            room_started(base)
        cpu, postgres, wall = cpu_seconds(process), postgres_cpu(), time.perf_counter()
        for _ in range(args.rooms):
            room_started(base)
        cpu, wall = cpu_seconds(process) - cpu, time.perf_counter() - wall
        postgres = postgres_cpu() - postgres
    print(json.dumps({
        "rooms": args.rooms,
        "requests_per_room": 5,
        "wall_ms_per_room": round(wall / args.rooms * 1000, 1),
        "server_cpu_ms_per_room": round(cpu / args.rooms * 1000, 1),
        "postgres_cpu_ms_per_room": round(postgres / args.rooms * 1000, 1),
    }))


if __name__ == "__main__":
    main()
