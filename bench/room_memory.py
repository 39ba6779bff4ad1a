"""What a started room costs a server process in memory, without any socket.

`bench/load.py` reports a player's memory with its share of the started rooms; this tells the
rooms' part apart: one daphne process, rooms of Draw for four created, filled and started
over REST in batches, and the process's RSS growth per room. With `--concurrency` above 1
the requests overlap, as the load generator's setup does, which shows how much of the
growth is the high-water mark of concurrent requests rather than what each room keeps.

The figure is the marginal cost of a room: `--warmup` rooms are started before the baseline
(the process's own growth on its first requests, its caches and allocator arenas, would
otherwise land on the first batch), and each batch reports the growth over that batch alone
(`marginal`) beside the growth since the baseline (`since_baseline`).

    .venv/bin/python bench/room_memory.py --warmup 100 --batches 100,100,200 --concurrency 1
    .venv/bin/python bench/room_memory.py --warmup 100 --batches 100,100,200 --concurrency 8
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import PLAYERS, http_json
from tests.lobby.procs import LOAD_LIMITS, daphne_group


def room_started(base: str) -> None:
    made = http_json(f"{base}/api/rooms/", {"game": "draw", "players": PLAYERS, "options": {}, "name": "p0"})
    code, token = str(made["code"]), str(made["token"])
    for seat in range(1, PLAYERS):
        http_json(f"{base}/api/rooms/{code}/seats/", {"name": f"p{seat}"})
    http_json(f"{base}/api/rooms/{code}/start/", {}, token=token)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", default="100,100,200", help="rooms per batch, comma-separated")
    parser.add_argument("--concurrency", type=int, default=1, help="requests in flight at once")
    parser.add_argument("--warmup", type=int, default=100,
                        help="rooms started before the baseline, at the same concurrency")
    args = parser.parse_args()
    batches = [int(n) for n in args.batches.split(",")]
    with daphne_group(1, extra_env=LOAD_LIMITS) as (_stores, servers):
        server = servers[0]
        with ThreadPoolExecutor(args.concurrency) as pool:
            list(pool.map(lambda _: room_started(server.url), range(max(1, args.warmup))))
            time.sleep(2.0)
            before = last = server.rss()
            made = 0
            for batch in batches:
                list(pool.map(lambda _: room_started(server.url), range(batch)))
                made += batch
                time.sleep(2.0)
                now = server.rss()
                print(json.dumps({"rooms": made, "warmup": args.warmup, "concurrency": args.concurrency,
                                  "marginal_kib_per_room": round((now - last) / batch / 1024, 1),
                                  "since_baseline_kib_per_room": round((now - before) / made / 1024, 1)}),
                      flush=True)
                last = now


if __name__ == "__main__":
    main()
